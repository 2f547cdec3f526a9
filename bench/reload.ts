// P6: from saving a tool module to its new code answering, vs a cold
// start of the same project, side by side in one run:
//
// 1. module save: a running daemon (watching) on a project of 100 tools
//    (`--tools N` for another size);
//    tool_0.ts is written with a new answer, then tool_0 is called in a
//    loop until the new answer comes; the time from the write to it;
// 2. manifest save: beeuni.yaml written with one more tool (an existing
//    module under a new name), which is called until it answers: the whole
//    project is read again;
// 3. cold start: from spawning the daemon on the same project to its first
//    answer (goal for 1: at most 0.3x of this).
//
// Rounds alternate their order so drifts of a noisy machine hit all alike.
// `--compare <daemon.ts>` measures another checkout's daemon in the same
// rounds (for a before/after figure).
//
//   deno run -A bench/reload.ts [--quick] [--tools N] [--compare ../old/daemon.ts]

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { callTool, daemonEnv } from "./_daemon_env.ts";
import { gitCommitAll } from "./_git.ts";
import { freePort } from "./_process.ts";
import { median } from "./_stats.ts";
import { write } from "./_write.ts";

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    quick: { type: "boolean", default: false },
    compare: { type: "string" },
    tools: { type: "string", default: "100" },
  },
});
const ROUNDS = flags.quick ? 3 : 9;
const TOOLS = Number(flags.tools);

interface Side {
  label: string;
  daemon: string;
}
const SIDES: Side[] = [
  { label: "this checkout", daemon: join(REPO_ROOT, "daemon.ts") },
  ...(flags.compare
    ? [{ label: flags.compare, daemon: resolve(flags.compare) }]
    : []),
];

function toolSource(mark: string): string {
  return `export default {
  description: "Echo the text.",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args) => ${JSON.stringify(mark)} + ":" + String(args.text),
};
`;
}

function manifestSource(extra?: string): string {
  const lines = ["tools:"];
  for (let i = 0; i < TOOLS; i++) lines.push(`  tool_${i}: tools/tool_${i}.ts`);
  if (extra) lines.push(`  ${extra}: tools/tool_1.ts`);
  lines.push("agents:", "  bench:", "    tools: all", "");
  return lines.join("\n");
}

function generateProject(dir: string): void {
  for (let i = 0; i < TOOLS; i++) {
    write(join(dir, `tools/tool_${i}.ts`), toolSource("v0"));
  }
  write(join(dir, "beeuni.yaml"), manifestSource());
  gitCommitAll(dir);
}

/** One call's output, or undefined when the daemon does not answer yet. */
async function answer(port: number, tool: string): Promise<string | undefined> {
  try {
    const { body } = await callTool(
      `http://127.0.0.1:${port}/beeuni/tools/${tool}`,
      "x",
    );
    return typeof body.output === "string" ? body.output : undefined;
  } catch {
    return undefined;
  }
}

/** Calls `tool` until it answers `expected`; the time from `start` to then. */
async function until(
  port: number,
  tool: string,
  expected: string,
  start: number,
): Promise<number> {
  for (;;) {
    if (await answer(port, tool) === expected) {
      return performance.now() - start;
    }
    if (performance.now() - start > 60_000) {
      throw new Error(`${tool} never answered ${expected}`);
    }
  }
}

function spawnDaemon(
  side: Side,
  dir: string,
  port: number,
  env: Record<string, string>,
  watch: boolean,
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      side.daemon,
      "--dir",
      dir,
      "--port",
      String(port),
      "--no-opencode",
      ...(watch ? [] : ["--no-watch"]),
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
    env: { ...env, NO_COLOR: "1" },
  }).spawn();
}

async function stop(child: Deno.ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  await child.status;
}

/** What tool_0 of each project answers now. */
const current = new Map<string, string>();

async function cold(
  side: Side,
  dir: string,
  env: Record<string, string>,
): Promise<number> {
  const port = freePort();
  const start = performance.now();
  const child = spawnDaemon(side, dir, port, env, false);
  try {
    return await until(port, "tool_0", current.get(dir) ?? "v0:x", start);
  } finally {
    await stop(child);
  }
}

/** A watching daemon on `dir`, whose saves are timed. */
async function watching(
  side: Side,
  dir: string,
  env: Record<string, string>,
): Promise<{
  save(round: number): Promise<number>;
  saveManifest(round: number): Promise<number>;
  stop(): Promise<void>;
}> {
  const port = freePort();
  const child = spawnDaemon(side, dir, port, env, true);
  await until(port, "tool_0", "v0:x", performance.now());
  // Every tool loaded, and the watcher armed.
  await new Promise((wake) => setTimeout(wake, 1_000));
  return {
    async save(round) {
      // tool_0's runner runs the old code when the file is saved.
      await until(
        port,
        "tool_0",
        current.get(dir) ?? "v0:x",
        performance.now(),
      );
      const mark = `m${round}`;
      const start = performance.now();
      writeFileSync(join(dir, "tools/tool_0.ts"), toolSource(mark));
      const ms = await until(port, "tool_0", `${mark}:x`, start);
      current.set(dir, `${mark}:x`);
      await new Promise((wake) => setTimeout(wake, 300));
      return ms;
    },
    async saveManifest(round) {
      const extra = `extra_${round}`;
      const start = performance.now();
      writeFileSync(join(dir, "beeuni.yaml"), manifestSource(extra));
      const ms = await until(port, extra, "v0:x", start);
      await new Promise((wake) => setTimeout(wake, 300));
      return ms;
    },
    stop: () => stop(child),
  };
}

function fmt(value: number, digits = 1): string {
  return value.toFixed(digits);
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "beeuni_reload_bench_"));
  const env = daemonEnv(root);
  try {
    const results = SIDES.map(() => ({
      cold: [] as number[],
      save: [] as number[],
      manifest: [] as number[],
    }));
    const dirs = SIDES.map((_, i) => {
      const dir = join(root, `project_${i}`);
      generateProject(dir);
      return dir;
    });
    // Warm-up: fills Deno's caches for each side.
    for (const [i, side] of SIDES.entries()) await cold(side, dirs[i], env);
    const daemons = await Promise.all(
      SIDES.map((side, i) => watching(side, dirs[i], env)),
    );
    try {
      for (let round = 0; round < ROUNDS; round++) {
        console.error(`round ${round + 1} of ${ROUNDS}...`);
        const order = round % 2 === 0
          ? SIDES.map((_, i) => i)
          : SIDES.map((_, i) => i).reverse();
        for (const i of order) {
          const steps = [
            async () => results[i].save.push(await daemons[i].save(round)),
            async () =>
              results[i].manifest.push(await daemons[i].saveManifest(round)),
            async () =>
              results[i].cold.push(await cold(SIDES[i], dirs[i], env)),
          ];
          if (round % 2 === 1) steps.reverse();
          for (const step of steps) await step();
        }
      }
    } finally {
      for (const daemon of daemons) await daemon.stop();
    }
    const load = Deno.loadavg().map((n) => n.toFixed(1)).join(", ");
    console.log(
      `| daemon (${TOOLS} tools, ${ROUNDS} rounds, Deno ${Deno.version.deno}, load ${load}) | module save (ms) | manifest save (ms) | cold start (ms) | module save / cold start |`,
    );
    console.log("| --- | --- | --- | --- | --- |");
    for (const [i, side] of SIDES.entries()) {
      const r = results[i];
      const ratio = median(r.save) / median(r.cold);
      console.log(
        `| ${side.label} | ${fmt(median(r.save))} | ${
          fmt(median(r.manifest))
        } | ${fmt(median(r.cold))} | ${fmt(ratio, 2)}x |`,
      );
    }
    for (const [i, side] of SIDES.entries()) {
      console.log(
        `\n${side.label}: save ${
          results[i].save.map((n) => fmt(n, 0)).join(" ")
        }; manifest ${
          results[i].manifest.map((n) => fmt(n, 0)).join(" ")
        }; cold ${results[i].cold.map((n) => fmt(n, 0)).join(" ")}`,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.main) await main();
