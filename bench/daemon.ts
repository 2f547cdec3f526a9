// The daemon side by side with bare baselines, in one run:
//
// 1. latency: the median time of one trivial tool call through the daemon
//    (`POST /beeuni/tools/echo`) vs the same JSON round trip to a bare
//    `Deno.serve` echo server (goal: at most 1.5x);
// 2. throughput: calls per second with 32 calls in flight, same two servers
//    (goal: at least 0.8x);
// 3. cold start: from spawning `deno run -A daemon.ts` on a project of 100
//    generated tools to its first answer, vs from spawning a script that
//    imports the same 100 modules to its first result (goal: at most 1.3x).
//
// Both servers and every cold start run as real subprocesses on 127.0.0.1;
// the client is this process. Rounds alternate between the two sides so
// drifts of a noisy machine hit both alike. With `--before <checkout>` the
// daemon of that checkout (same project, same flags) is one more side in
// the latency, throughput and CPU rounds.
//
//   deno run -A bench/daemon.ts [--quick] [--before <checkout>]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { callTool, daemonEnv, TOKEN } from "./_daemon_env.ts";
import { gitCommitAll } from "./_git.ts";
import { freePort, type Server, spawnServer } from "./_process.ts";
import { descendants, memoryOf } from "./_proc_memory.ts";
import { cpuSeconds } from "./_proc_cpu.ts";
import { latency, throughput } from "./_rounds.ts";
import { median } from "./_stats.ts";
import { write } from "./_write.ts";

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const DAEMON = join(REPO_ROOT, "daemon.ts");
const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    quick: { type: "boolean", default: false },
    before: { type: "string" },
  },
});
const QUICK = flags.quick;
/** The daemon.ts of an older checkout to measure beside this one's. */
const BEFORE = flags.before && join(resolve(flags.before), "daemon.ts");

const LATENCY_WARMUP = QUICK ? 50 : 200;
const LATENCY_CALLS = QUICK ? 200 : 1000; // per side
const CONCURRENCY = 32;
const THROUGHPUT_CALLS = QUICK ? 640 : 3200; // per side and round
const THROUGHPUT_ROUNDS = QUICK ? 3 : 5;
const CPU_CALLS = QUICK ? 2000 : 8000; // per side and round
const CPU_ROUNDS = 3;
const CPU_CONCURRENCY = 8;
const COLD_TOOLS = 100;
const COLD_ROUNDS = QUICK ? 3 : 7;

function toolSource(name: string): string {
  return `export default {
  description: "Echo the text (${name}).",
  parameters: {
    type: "object",
    properties: { text: { type: "string", description: "What to echo" } },
  },
  execute(args) {
    return String(args.text);
  },
};
`;
}

/** A project with `count` tools `tool_0`... plus `echo`. */
function generateProject(root: string, count: number): string {
  const dir = join(root, `project_${count}`);
  const lines = ["tools:", "  echo: tools/echo.ts"];
  write(join(dir, "tools/echo.ts"), toolSource("echo"));
  for (let i = 0; i < count; i++) {
    lines.push(`  tool_${i}: tools/tool_${i}.ts`);
    write(join(dir, `tools/tool_${i}.ts`), toolSource(`tool_${i}`));
  }
  lines.push("agents:", "  bench:", "    tools: all", "");
  write(join(dir, "beeuni.yaml"), lines.join("\n"));
  gitCommitAll(dir);
  return dir;
}

const BARE_SERVER = `
const server = Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log("listening on http://127.0.0.1:" + port),
}, async (request) => {
  const body = await request.json();
  return Response.json({ output: String(body.args.text) });
});
Deno.addSignalListener("SIGTERM", () => server.shutdown());
`;

/**
 * The daemon's HTTP layer (token, Host check, body limit, routing, abort
 * wiring) over an in-memory host that answers in the same thread: the
 * daemon minus the tool host.
 */
function httpLayerServer(): string {
  const url = new URL("../lib/http/create_handler.ts", import.meta.url).href;
  return `import { createHandler } from ${JSON.stringify(url)};
const host = {
  list: () => [],
  call: (call) => Promise.resolve({ ok: true, output: String(call.args.text) }),
  stopSession: () => 0,
  running: () => 0,
};
const server = Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log("listening on http://127.0.0.1:" + port),
}, createHandler({ host, token: ${JSON.stringify(TOKEN)} }));
Deno.addSignalListener("SIGTERM", () => server.shutdown());
`;
}

/**
 * The same HTTP layer served by one of the toolkit's servers: `serve` is
 * exported by `module` (a path under lib/runtime/) and called like
 * `Runtime.serve`. What the daemon's server costs on its own.
 */
function serverLayerScript(module: string, serve: string): string {
  const handler = new URL("../lib/http/create_handler.ts", import.meta.url)
    .href;
  const server = new URL(`../lib/runtime/${module}`, import.meta.url).href;
  return `import { createHandler } from ${JSON.stringify(handler)};
import { ${serve} as serve } from ${JSON.stringify(server)};
const host = {
  list: () => [],
  call: (call) => Promise.resolve({ ok: true, output: String(call.args.text) }),
  stopSession: () => 0,
  running: () => 0,
};
const server = await serve(
  { hostname: "127.0.0.1", port: 0 },
  createHandler({ host, token: ${JSON.stringify(TOKEN)} }),
);
console.log("listening on http://127.0.0.1:" + server.port);
Deno.addSignalListener("SIGTERM", () => server.shutdown());
`;
}

/**
 * The CPU time a side's server spends per call, in microseconds: with every
 * process it started (`tree`), and its own process alone (`self`).
 * `CPU_CALLS` calls with `CPU_CONCURRENCY` in flight, `CPU_ROUNDS` rounds
 * alternating the sides, the median round.
 */
async function cpuPerCall(
  sides: Record<string, { url: string; pid: number }>,
): Promise<Record<string, { tree: number; self: number }>> {
  const names = Object.keys(sides);
  const samples = Object.fromEntries(
    names.map((n) => [n, { tree: [] as number[], self: [] as number[] }]),
  );
  for (let round = 0; round < CPU_ROUNDS; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const { url, pid } = sides[name];
      const pids = () => [pid, ...descendants(pid)];
      const before = { tree: cpuSeconds(pids()), self: cpuSeconds([pid]) };
      let next = 0;
      await Promise.all(
        Array.from({ length: CPU_CONCURRENCY }, async () => {
          while (next < CPU_CALLS) await callOnce(url, `u${next++}`);
        }),
      );
      const perCall = (seconds: number) => seconds / CPU_CALLS * 1e6;
      samples[name].tree.push(perCall(cpuSeconds(pids()) - before.tree));
      samples[name].self.push(perCall(cpuSeconds([pid]) - before.self));
    }
  }
  return Object.fromEntries(names.map((n) => [n, {
    tree: median(samples[n].tree),
    self: median(samples[n].self),
  }]));
}

/** Times the host's phases in a fresh process: import, createHost, first call. */
function phasesScript(dir: string): string {
  const host = new URL("../lib/host/create_host.ts", import.meta.url).href;
  return `const t0 = performance.now();
const { createHost } = await import(${JSON.stringify(host)});
const t1 = performance.now();
const host = await createHost({ directory: ${
    JSON.stringify(dir)
  }, log: () => {}, env: { PATH: "" } });
const t2 = performance.now();
const outcome = await host.call({ name: "tool_0", args: { text: "cold" }, sessionId: "s", agent: "bench" });
const t3 = performance.now();
if (!outcome.ok) throw new Error(outcome.error);
console.log(JSON.stringify({ start: t0, imports: t1 - t0, create: t2 - t1, call: t3 - t2 }));
await host.close();
`;
}

async function coldPhases(
  script: string,
): Promise<{ start: number; imports: number; create: number; call: number }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      "--config",
      join(REPO_ROOT, "deno.json"),
      script,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("the phase script failed");
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** Imports every module like the daemon's check does, then runs tool_0 once. */
function importScript(dir: string, count: number): string {
  const lines = [
    `const modules = await Promise.all([`,
    ...Array.from(
      { length: count },
      (_, i) => `  import(${JSON.stringify(join(dir, `tools/tool_${i}.ts`))}),`,
    ),
    `]);`,
    `const output = await modules[0].default.execute({ text: "cold" }, {});`,
    `console.log(JSON.stringify({ output }));`,
  ];
  return lines.join("\n") + "\n";
}

async function callOnce(url: string, text: string): Promise<void> {
  const { status, body } = await callTool(url, text);
  if (status !== 200 || body.output !== text) {
    throw new Error(`unexpected answer ${status}: ${JSON.stringify(body)}`);
  }
}

/**
 * Spawns the daemon on a free port and calls tool_0 until it answers: the
 * daemon serves calls before every tool has loaded, so the first answer can
 * come before its "listening on" line.
 */
async function coldDaemon(
  dir: string,
  env: Record<string, string>,
): Promise<{ total: number; listening: number }> {
  const port = freePort();
  const start = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      DAEMON,
      "--dir",
      dir,
      "--port",
      String(port),
      "--no-watch",
      "--no-opencode",
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
    env: { ...env, NO_COLOR: "1" },
  }).spawn();
  const listened = (async () => {
    const reader = child.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
    let text = "";
    let at: number | undefined;
    while (true) {
      const { done, value } = await reader.read();
      if (done) return at;
      text += value;
      if (at === undefined && text.includes("listening on")) {
        at = performance.now() - start;
      }
    }
  })();
  let total: number | undefined;
  while (total === undefined) {
    try {
      await callOnce(`http://127.0.0.1:${port}/beeuni/tools/tool_0`, "cold");
      total = performance.now() - start;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
  child.kill("SIGTERM");
  await child.status;
  const listening = await listened ?? total;
  return { total, listening };
}

/** Memory of a process and all it started, in MB: resident (RSS) and proportional (PSS). */
function treeMemory(pid: number): { rss: number; pss: number; count: number } {
  let rss = 0;
  let pss = 0;
  let count = 0;
  for (const p of [pid, ...descendants(pid)]) {
    const memory = memoryOf(p);
    if (!memory) continue;
    rss += memory.rss / (1024 * 1024);
    pss += memory.pss / (1024 * 1024);
    count++;
  }
  return { rss, pss, count };
}

/**
 * P8: the daemon's memory (with its runner processes) after each of
 * `count` tools was called once, and again once the runners were idle past
 * their idle time.
 */
async function memoryAfterTools(
  dir: string,
  env: Record<string, string>,
  count: number,
): Promise<
  {
    touched: ReturnType<typeof treeMemory>;
    idle: ReturnType<typeof treeMemory>;
    base: ReturnType<typeof treeMemory>;
  }
> {
  const daemon = await spawnServer([
    "run",
    "-A",
    "--quiet",
    DAEMON,
    "--dir",
    dir,
    "--port",
    "0",
    "--no-watch",
    "--no-opencode",
    "--runner-idle-ms",
    "3000",
  ], { env });
  try {
    const settle = () => new Promise((resolve) => setTimeout(resolve, 500));
    await settle();
    const base = treeMemory(daemon.pid);
    for (let i = 0; i < count; i++) {
      await callOnce(`${daemon.url}/beeuni/tools/tool_${i}`, "x");
    }
    await settle();
    const touched = treeMemory(daemon.pid);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const idle = treeMemory(daemon.pid);
    return { touched, idle, base };
  } finally {
    await daemon.stop();
  }
}

/** The median latency of `host.call` in this process: the host alone, no HTTP. */
async function inProcess(
  dir: string,
  env: Record<string, string>,
): Promise<number> {
  const { createHost } = await import("../lib/host/mod.ts");
  const host = await createHost({ directory: dir, env, log: () => {} });
  try {
    const samples: number[] = [];
    for (let i = 0; i < LATENCY_WARMUP + LATENCY_CALLS; i++) {
      const start = performance.now();
      const outcome = await host.call({
        name: "echo",
        args: { text: `p${i}` },
        sessionId: "bench",
        agent: "bench",
      });
      if (!outcome.ok) throw new Error(outcome.error);
      if (i >= LATENCY_WARMUP) samples.push(performance.now() - start);
    }
    return median(samples);
  } finally {
    await host.close();
  }
}

async function coldImport(script: string): Promise<number> {
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", script],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const elapsed = performance.now() - start;
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success || JSON.parse(text).output !== "cold") {
    throw new Error(`import script failed: ${text}`);
  }
  return elapsed;
}

function fmt(value: number, digits = 2): string {
  return value.toFixed(digits);
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "beeuni_daemon_bench_"));
  const env = daemonEnv(root);
  const procs: Server[] = [];
  try {
    const small = generateProject(root, 0);
    /** Serves the project `small` with `daemonTs`. */
    const serveDaemon = async (daemonTs: string) => {
      const server = await spawnServer(
        ["run", "-A", "--quiet", daemonTs, "--dir", small, "--port", "0"],
        { env },
      );
      procs.push(server);
      return server;
    };
    const daemon = await serveDaemon(DAEMON);
    const before = BEFORE ? await serveDaemon(BEFORE) : undefined;
    /** Writes `source` to `name` in the temp folder and serves it. */
    const serveScript = async (name: string, source: string) => {
      const script = join(root, name);
      write(script, source);
      const server = await spawnServer(["run", "-A", "--quiet", script], {
        env,
      });
      procs.push(server);
      return server;
    };
    const bare = await serveScript("bare_server.ts", BARE_SERVER);
    const layer = await serveScript("http_layer_server.ts", httpLayerServer());
    const adapter = await serveScript(
      "adapter_layer_server.ts",
      serverLayerScript("_deno_serve.ts", "serveDeno"),
    );
    const nodeHttp = await serveScript(
      "node_http_layer_server.ts",
      serverLayerScript("_node_http.ts", "serveNodeHttp"),
    );
    const servers: Record<string, Server> = {
      daemon,
      bare,
      layer,
      adapter,
      nodeHttp,
      ...before ? { before } : {},
    };
    const targets: Record<string, string> = Object.fromEntries(
      Object.entries(servers).map(([name, { url }]) => [
        name,
        name === "bare" ? `${url}/` : `${url}/beeuni/tools/echo`,
      ]),
    );

    console.error("measuring latency...");
    const lat = await latency(targets, callOnce, {
      warmup: LATENCY_WARMUP,
      calls: LATENCY_CALLS,
    });
    console.error("measuring throughput...");
    const thr = await throughput(targets, callOnce, {
      concurrency: CONCURRENCY,
      calls: THROUGHPUT_CALLS,
      rounds: THROUGHPUT_ROUNDS,
    });
    console.error("measuring CPU time per call...");
    const cpu = await cpuPerCall(
      Object.fromEntries(
        Object.entries(targets).map((
          [name, url],
        ) => [name, { url, pid: servers[name].pid }]),
      ),
    );
    for (const proc of procs.splice(0)) await proc.stop();

    console.error("measuring cold start...");
    const big = generateProject(root, COLD_TOOLS);
    const script = join(root, "import_100.ts");
    write(script, importScript(big, COLD_TOOLS));
    await coldDaemon(big, env); // fills Deno's transpile cache
    await coldImport(script);
    const cold = {
      daemon: [] as number[],
      listening: [] as number[],
      script: [] as number[],
    };
    const runDaemon = async () => {
      const { total, listening } = await coldDaemon(big, env);
      cold.daemon.push(total);
      cold.listening.push(listening);
    };
    for (let round = 0; round < COLD_ROUNDS; round++) {
      if (round % 2 === 0) {
        await runDaemon();
        cold.script.push(await coldImport(script));
      } else {
        cold.script.push(await coldImport(script));
        await runDaemon();
      }
    }
    const coldDaemonMs = median(cold.daemon);
    const coldListeningMs = median(cold.listening);
    const coldScriptMs = median(cold.script);
    const phaseFile = join(root, "host_phases.ts");
    write(phaseFile, phasesScript(big));
    const phases: Awaited<ReturnType<typeof coldPhases>>[] = [];
    for (let round = 0; round < COLD_ROUNDS; round++) {
      phases.push(await coldPhases(phaseFile));
    }
    const phase = (key: "start" | "imports" | "create" | "call") =>
      fmt(median(phases.map((p) => p[key])), 0);

    console.error("measuring memory after every tool was called...");
    const memory = await memoryAfterTools(big, env, COLD_TOOLS);

    console.error("measuring the host alone...");
    const hostEnv: Record<string, string> = {};
    for (const [key, value] of Object.entries(env)) {
      if (key !== "BEEUNI_DAEMON_TOKEN") hostEnv[key] = value;
    }
    const hostMs = await inProcess(small, hostEnv);
    const hostSmallEnvMs = await inProcess(small, { PATH: env.PATH ?? "" });

    const latRatio = lat.daemon / lat.bare;
    const thrRatio = thr.daemon / thr.bare;
    const coldRatio = coldDaemonMs / coldScriptMs;
    const verdict = (ok: boolean) => ok ? "met" : "missed";
    const rows = [
      "| measure | daemon | bare baseline | ratio | goal | |",
      "| --- | ---: | ---: | ---: | --- | --- |",
      `| median latency of one call (ms) | ${fmt(lat.daemon, 3)} | ${
        fmt(lat.bare, 3)
      } | ${fmt(latRatio)}x | <= 1.5x | ${verdict(latRatio <= 1.5)} |`,
      `| throughput, ${CONCURRENCY} in flight (calls/s) | ${
        fmt(thr.daemon, 0)
      } | ${fmt(thr.bare, 0)} | ${fmt(thrRatio)}x | >= 0.8x | ${
        verdict(thrRatio >= 0.8)
      } |`,
      `| cold start to first answer, ${COLD_TOOLS} tools (ms) | ${
        fmt(coldDaemonMs, 0)
      } | ${fmt(coldScriptMs, 0)} | ${fmt(coldRatio)}x | <= 1.3x | ${
        verdict(coldRatio <= 1.3)
      } |`,
    ];
    rows.push(
      `| memory after each of ${COLD_TOOLS} tools was called once (MB PSS, daemon and runners) | ${
        fmt(memory.touched.pss, 0)
      } | | | <= 200 MB | ${verdict(memory.touched.pss <= 200)} |`,
      `| (the same as RSS, which counts the runtime's shared pages in every process) | ${
        fmt(memory.touched.rss, 0)
      } | | | | |`,
      `| (after the runners' idle time; at start) (MB PSS) | ${
        fmt(memory.idle.pss, 0)
      } | ${fmt(memory.base.pss, 0)} | | | |`,
    );
    /** The CPU row of side's own process, without the runners it started. */
    const selfCpu = (side: string) =>
      `| (its own process alone): CPU per call (us) | ${
        fmt(cpu[side].self, 0)
      } | ${fmt(cpu.bare.self, 0)} | ${
        fmt(cpu[side].self / cpu.bare.self)
      }x | | |`;
    const server = (label: string, side: string) => [
      `| ${label}: latency (ms) | ${fmt(lat[side], 3)} | ${
        fmt(lat.bare, 3)
      } | ${fmt(lat[side] / lat.bare)}x | | |`,
      `| ${label}: throughput (calls/s) | ${fmt(thr[side], 0)} | ${
        fmt(thr.bare, 0)
      } | ${fmt(thr[side] / thr.bare)}x | | |`,
      `| ${label}: CPU per call (us, its processes) | ${
        fmt(cpu[side].tree, 0)
      } | ${fmt(cpu.bare.tree, 0)} | ${
        fmt(cpu[side].tree / cpu.bare.tree)
      }x | | |`,
    ];
    rows.push(
      ...server("(the daemon, with its runner)", "daemon").slice(2),
      selfCpu("daemon"),
      ...server("(HTTP layer alone, in-memory host, on `Deno.serve`)", "layer"),
      ...server(
        "(the same layer on the Deno adapter: Deno's HTTP server, own listener, connection guard)",
        "adapter",
      ),
      ...server(
        "(the same layer on `node:http` and the connection guard, as under Node.js and Bun)",
        "nodeHttp",
      ),
      ...before
        ? [
          ...server(`(the daemon of ${flags.before})`, "before"),
          selfCpu("before"),
        ]
        : [],
    );
    console.log(rows.join("\n"));
    console.log(
      `\nWhere the time goes: host.call alone, in-process, no HTTP: ${
        fmt(hostMs, 3)
      } ms ` +
        `with this process's ${
          Object.keys(hostEnv).length
        } environment variables in context.env, ` +
        `${
          fmt(hostSmallEnvMs, 3)
        } ms with one; the cold daemon answered its first call after ` +
        `${fmt(coldDaemonMs, 0)} ms and printed "listening on" (once every ` +
        `tool had loaded) after ${fmt(coldListeningMs, 0)} ms.`,
    );
    console.log(
      `Cold start of the host alone in a fresh process, ${COLD_TOOLS} tools: ` +
        `Deno start ${
          phase("start")
        } ms, importing the host and its dependencies ${
          phase("imports")
        } ms, createHost ${phase("create")} ms, first call ${
          phase("call")
        } ms.`,
    );
    console.log(
      `\n${LATENCY_CALLS} sequential calls per side after ${LATENCY_WARMUP} warm-up calls; ` +
        `${THROUGHPUT_ROUNDS} rounds of ${THROUGHPUT_CALLS} calls per side; ` +
        `${CPU_ROUNDS} rounds of ${CPU_CALLS} calls per side, ${CPU_CONCURRENCY} in flight, for CPU; ` +
        `${COLD_ROUNDS} cold starts per side after one warm-up each; Deno ${Deno.version.deno}.`,
    );
  } finally {
    for (const proc of procs) await proc.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
