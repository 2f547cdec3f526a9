// P7: a tool returning a huge output, through a real daemon over HTTP.
// Measures the bytes the caller receives (the HTTP body, and the `output`
// field in it) and the peak memory of the daemon process and, separately,
// of the tool's runner process, against the output's size.
//
// Each run starts a fresh daemon (`deno run -A daemon.ts`), waits until it
// is idle, calls the tool once and reads /proc every 10 ms meanwhile: the
// peak of the proportional (PSS) and resident (RSS) set sizes sampled, and
// the kernel's own peak RSS (`VmHWM`), for the daemon and for its runner
// processes. With `--before <checkout>` the same runs alternate with the
// daemon of another copy of the toolkit, so both sides share the
// machine's drift.
//
// `--exec <node or bun binary>` runs the daemons under that runtime
// instead of Deno (the runners run under the daemon's runtime).
//
//   deno run -A bench/output.ts [--mb 200] [--runs 5] [--before <dir>]
//     [--shape lines|line] [--runner-heap-mb 1024] [--tmp-max-bytes N]
//     [--exec <binary>]

import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { daemonEnv, TOKEN } from "./_daemon_env.ts";
import { gitCommitAll } from "./_git.ts";
import { type Server, spawnServer } from "./_process.ts";
import { descendants, type Memory, memoryOf } from "./_proc_memory.ts";
import { median } from "./_stats.ts";
import { write } from "./_write.ts";

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    mb: { type: "string", default: "200" },
    runs: { type: "string", default: "5" },
    before: { type: "string" },
    shape: { type: "string", default: "lines" },
    "runner-heap-mb": { type: "string", default: "1024" },
    "tmp-max-bytes": { type: "string", default: String(1024 * 1024 * 1024) },
    exec: { type: "string" },
  },
});
const MB = Number(flags.mb);
const RUNS = Number(flags.runs);
const OUTPUT_BYTES = MB * 1_000_000;

/**
 * The tool: `lines` returns lines of 99 "x" and a newline (2 million lines
 * for 200 MB); `line` one line of "x". Built once per runner and reused, so
 * that each call measures the output's path, not the tool's own work.
 */
function toolSource(): string {
  return `let built;
export default {
  description: "Returns a huge text.",
  parameters: { type: "object", properties: { shape: { type: "string" } } },
  execute(args) {
    built ??= args.shape === "line"
      ? "x".repeat(${OUTPUT_BYTES})
      : ("x".repeat(99) + "\\n").repeat(${OUTPUT_BYTES / 100});
    return built;
  },
};
`;
}

function project(root: string): string {
  const dir = join(root, "project");
  write(join(dir, "tools/big.ts"), toolSource());
  write(join(dir, "beeuni.yaml"), "tools:\n  big: tools/big.ts\n");
  gitCommitAll(dir);
  return dir;
}

/** Peaks of the samples taken while a call runs. */
class Peaks {
  daemon: Memory = { pss: 0, rss: 0, hwm: 0 };
  /** The runner process with the highest peak (PSS, RSS, HWM each its own max). */
  runner: Memory = { pss: 0, rss: 0, hwm: 0 };
  #timer?: ReturnType<typeof setInterval>;
  readonly pid: number;

  constructor(pid: number) {
    this.pid = pid;
  }

  sample(): void {
    const daemon = memoryOf(this.pid);
    if (daemon) this.daemon = max(this.daemon, daemon);
    for (const child of descendants(this.pid)) {
      const memory = memoryOf(child);
      if (memory) this.runner = max(this.runner, memory);
    }
  }

  start(): void {
    this.sample();
    this.#timer = setInterval(() => this.sample(), 10);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.sample();
  }
}

function max(a: Memory, b: Memory): Memory {
  return {
    pss: Math.max(a.pss, b.pss),
    rss: Math.max(a.rss, b.rss),
    hwm: Math.max(a.hwm, b.hwm),
  };
}

function startDaemon(
  checkout: string,
  dir: string,
  env: Record<string, string>,
): Promise<Server> {
  const [program, ...start] = flags.exec
    ? [flags.exec]
    : [Deno.execPath(), "run", "-A", "--quiet"];
  return spawnServer([
    ...start,
    join(checkout, "daemon.ts"),
    "--dir",
    dir,
    "--port",
    "0",
    "--no-watch",
    "--no-opencode",
    "--runner-heap-mb",
    flags["runner-heap-mb"]!,
    "--tmp-max-bytes",
    flags["tmp-max-bytes"]!,
  ], { program, cwd: checkout, env, stderr: "piped" });
}

interface Run {
  ms: number;
  bodyBytes: number;
  outputBytes: number;
  size: number;
  savedBytes: number;
  baseline: Memory;
  /** The runner started with the daemon (the call's), at rest. */
  runnerBaseline: Memory;
  daemon: Memory;
  runner: Memory;
}

async function settle(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

async function once(
  checkout: string,
  dir: string,
  env: Record<string, string>,
): Promise<Run> {
  const daemon = await startDaemon(checkout, dir, env);
  try {
    await settle(1_000);
    const baseline = memoryOf(daemon.pid)!;
    let runnerBaseline: Memory = { pss: 0, rss: 0, hwm: 0 };
    for (const child of descendants(daemon.pid)) {
      const memory = memoryOf(child);
      if (memory) runnerBaseline = max(runnerBaseline, memory);
    }
    const peaks = new Peaks(daemon.pid);
    peaks.start();
    const started = performance.now();
    const response = await fetch(`${daemon.url}/beeuni/tools/big`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({
        args: { shape: flags.shape },
        sessionId: "bench",
        agent: "bench",
      }),
    });
    const body = new Uint8Array(await response.arrayBuffer());
    const ms = performance.now() - started;
    peaks.stop();
    const parsed = JSON.parse(new TextDecoder().decode(body));
    if (response.status !== 200 || typeof parsed.output !== "string") {
      throw new Error(
        `unexpected answer ${response.status}: ${
          new TextDecoder().decode(body.subarray(0, 500))
        }`,
      );
    }
    let savedBytes = 0;
    if (typeof parsed.path === "string") {
      savedBytes = statSync(parsed.path).size;
      rmSync(parsed.path);
    }
    return {
      ms,
      bodyBytes: body.length,
      outputBytes: new TextEncoder().encode(parsed.output).length,
      size: Number(parsed.size ?? 0),
      savedBytes,
      baseline,
      runnerBaseline,
      daemon: peaks.daemon,
      runner: peaks.runner,
    };
  } finally {
    await daemon.stop();
  }
}

const MIB = 1024 * 1024;
const mb = (bytes: number) => (bytes / MIB).toFixed(0);
const ratio = (bytes: number) => (bytes / OUTPUT_BYTES).toFixed(2) + "x";

/** The table's rows, one column per side (`before`, then `now`). */
function table(sides: Record<string, Run[]>): string[] {
  const names = Object.keys(sides).reverse();
  const row = (label: string, cell: (runs: Run[]) => string) =>
    `| ${label} | ${
      names.map((name) =>
        sides[name].length === 0 ? "every run failed" : cell(sides[name])
      ).join(" | ")
    } |`;
  const m = (runs: Run[], pick: (run: Run) => number) => median(runs.map(pick));
  const size = (pick: (run: Run) => number) => (runs: Run[]) =>
    `${mb(m(runs, pick))} MiB, ${ratio(m(runs, pick))}`;
  const atRest = (pick: (run: Run) => Memory) => (runs: Run[]) =>
    `${mb(m(runs, (r) => pick(r).pss))} / ${
      mb(m(runs, (r) => pick(r).rss))
    } MiB`;
  return [
    `| ${MB} MB output (${flags.shape}), medians of ${RUNS} runs | ${
      names.join(" | ")
    } |`,
    `| --- | ${names.map(() => "---").join(" | ")} |`,
    row(
      "bytes of `output` (the text the model reads)",
      (runs) => String(m(runs, (r) => r.outputBytes)),
    ),
    row(
      "bytes of the HTTP body",
      (runs) => String(m(runs, (r) => r.bodyBytes)),
    ),
    row(
      "`size` / bytes in the saved file",
      (runs) => `${m(runs, (r) => r.size)} / ${m(runs, (r) => r.savedBytes)}`,
    ),
    row("daemon at rest, PSS / RSS", atRest((r) => r.baseline)),
    row("daemon peak PSS (sampled), ratio", size((r) => r.daemon.pss)),
    row("daemon peak RSS (`VmHWM`), ratio", size((r) => r.daemon.hwm)),
    row(
      "daemon peak RSS over its RSS at rest, ratio",
      size((r) => r.daemon.hwm - r.baseline.rss),
    ),
    row("runner at rest, PSS / RSS", atRest((r) => r.runnerBaseline)),
    row("runner peak PSS (sampled), ratio", size((r) => r.runner.pss)),
    row("runner peak RSS (`VmHWM`), ratio", size((r) => r.runner.hwm)),
    row(
      "time from the request to the whole answer",
      (runs) => `${m(runs, (r) => r.ms).toFixed(0)} ms`,
    ),
  ];
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "beeuni_output_bench_"));
  const env = { ...daemonEnv(root), TMPDIR: join(root, "tmp") };
  mkdirSync(env.TMPDIR, { recursive: true });
  const sides: Record<string, string> = { now: REPO_ROOT };
  if (flags.before) sides.before = resolve(flags.before);
  const results: Record<string, Run[]> = Object.fromEntries(
    Object.keys(sides).map((name) => [name, []]),
  );
  const load: number[] = [];
  try {
    const dir = project(root);
    for (let run = 0; run < RUNS; run++) {
      const order = run % 2 === 0
        ? Object.keys(sides)
        : Object.keys(sides).reverse();
      for (const name of order) {
        load.push(loadavg()[0]);
        try {
          results[name].push(await once(sides[name], dir, env));
        } catch (error) {
          console.error(`${name} run ${run + 1} failed: ${error}`);
        }
        const last = results[name].at(-1);
        console.error(
          `${name} run ${run + 1}: ${
            last
              ? `${
                last.ms.toFixed(0)
              } ms, body ${last.bodyBytes} bytes, daemon peak PSS ${
                mb(last.daemon.pss)
              } MiB, runner peak PSS ${mb(last.runner.pss)} MiB`
              : "failed"
          }`,
        );
      }
    }
    console.log(table(results).join("\n"));
    console.log(
      `\n${flags.exec ?? `Deno ${Deno.version.deno}`}; runner heap ${
        flags["runner-heap-mb"]
      } MB; tmp cap ${
        flags["tmp-max-bytes"]
      } bytes; load average (1 min) at each run: median ${
        median(load).toFixed(1)
      }, range ${Math.min(...load).toFixed(1)}-${
        Math.max(...load).toFixed(1)
      }.`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
