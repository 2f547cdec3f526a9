// How long a daemon's runner processes outlive it when it is killed
// outright (SIGKILL, so it cannot stop them), on a machine kept busy: one
// process spinning per core. This checkout against another, side by side:
// rounds alternate the sides. Each round starts a daemon on a project of 8
// tools, calls each once (8 runners idle, waiting for calls), kills the
// daemon and times until the last runner is gone.
//
//   deno run -A bench/runner_exit.ts --compare <older checkout> [--runtime node] [--rounds 9]

import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { comparison, runtimeArgv } from "./_compare.ts";
import { daemonEnv, TOKEN } from "./_daemon_env.ts";
import { spawnServer } from "./_process.ts";
import { median } from "./_stats.ts";
import { write } from "./_write.ts";

const { here: HERE, before: BEFORE, runtime: RUNTIME, rounds: ROUNDS } =
  comparison(Deno.args);
const TOOLS = 8;

const root = mkdtempSync(join(tmpdir(), "beeuni_bench_exit_"));
const project = join(root, "project");
let manifest = "tools:\n";
for (let i = 0; i < TOOLS; i++) {
  manifest += `  tool_${i}: tools/tool_${i}.ts\n`;
  write(
    join(project, "tools", `tool_${i}.ts`),
    `export default { description: "T", parameters: { type: "object" }, execute: () => "${i}" };\n`,
  );
}
write(join(project, "beeuni.yaml"), manifest);

/** The ids of the processes below `pid`. */
function below(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(
        Number(name),
        Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]),
      );
    } catch {
      // Gone.
    }
  }
  const out: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.pop()!;
    for (const [child, of] of parents) {
      if (of === parent && !out.includes(child)) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}

const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};

/** One round on the checkout at `checkout`: ms from the kill to the last runner gone. */
async function round(checkout: string): Promise<number> {
  const [exe, ...args] = await runtimeArgv(RUNTIME);
  const daemon = await spawnServer([
    ...args,
    join(checkout, "daemon.ts"),
    "--dir",
    project,
    "--port",
    "0",
    "--no-opencode",
    "--no-watch",
  ], { program: exe, env: daemonEnv(root) });
  for (let i = 0; i < TOOLS; i++) {
    const response = await fetch(`${daemon.url}/beeuni/tools/tool_${i}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ args: {}, sessionId: "s", agent: "bench" }),
    });
    await response.body?.cancel();
  }
  const runners = below(daemon.pid);
  const start = performance.now();
  process.kill(daemon.pid, "SIGKILL");
  while (runners.some(alive)) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const ms = performance.now() - start;
  await daemon.stop();
  return ms;
}

// One spinning process per core, for the whole run.
const spinners = Array.from(
  { length: availableParallelism() },
  () => spawn(Deno.execPath(), ["eval", "for (;;) {}"], { stdio: "ignore" }),
);
const times: Record<string, number[]> = { now: [], before: [] };
try {
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ["now", "before"] : ["before", "now"];
    for (const side of order) {
      times[side].push(await round(side === "now" ? HERE : BEFORE));
    }
  }
} finally {
  for (const spinner of spinners) spinner.kill("SIGKILL");
  rmSync(root, { recursive: true, force: true });
}
for (const side of ["before", "now"]) {
  const sorted = [...times[side]].sort((a, b) => a - b);
  console.log(
    `${RUNTIME} ${side}: median ${median(sorted).toFixed(0)} ms, slowest ${
      sorted.at(-1)!.toFixed(0)
    } ms (${sorted.map((t) => t.toFixed(0)).join(", ")})`,
  );
}
