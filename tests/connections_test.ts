// The daemon under hostile connections: a cap on open connections, a header
// timeout and an idle timeout, under Deno, Node.js 22 and Bun. The attacks
// run from processes of their own (tests/_flood.ts), the daemon under an
// open-file limit of 1,024, and the calls that must keep answering come
// from this process on a fresh connection each.

import assert from "node:assert/strict";
import { join } from "node:path";
import { parseDaemonArgs } from "../daemon.ts";
import { REPO_ROOT, tempRepo } from "./_helpers.ts";
import { startDaemonUnder, type TestDaemon, waitFor } from "./_daemon.ts";
import { bunBin, NODE_22, nodeBin } from "./_runtimes.ts";
import { denoRuntime } from "../lib/runtime/deno.ts";
import type { FloodStats } from "./_flood.ts";

const FLOOD = join(REPO_ROOT, "tests", "_flood.ts");
/** The longest the calls during an attack may take in all before the test gives up. */
const ATTACK_GUARD_MS = 180_000;

const PROJECT: Record<string, string> = {
  "beeuni.yaml": `tools:
  echo: tools/echo.ts
  sleep: tools/sleep.ts
  wait: tools/wait.ts
`,
  "tools/echo.ts": `export default {
  description: "Echoes its text",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args) => String(args.text),
};
`,
  "tools/sleep.ts": `export default {
  description: "Answers after ms milliseconds",
  parameters: { type: "object", properties: { ms: { type: "number" } } },
  execute: (args) => new Promise((resolve) => setTimeout(() => resolve("slept"), args.ms)),
};
`,
  "tools/wait.ts": `import { writeFileSync } from "node:fs";
export default {
  description: "Waits until aborted, writing marker files",
  parameters: { type: "object", properties: { dir: { type: "string" } } },
  execute(args, context) {
    writeFileSync(args.dir + "/started", "1");
    return new Promise((_resolve, reject) => {
      const done = () => {
        writeFileSync(args.dir + "/aborted", "1");
        reject(new Error("stopped"));
      };
      if (context.signal.aborted) done();
      else context.signal.addEventListener("abort", done, { once: true });
    });
  },
};
`,
};

/** A runtime the daemon runs under: the command that runs a script. */
interface DaemonRuntime {
  label: string;
  argv(): Promise<string[]>;
}

const RUNTIMES: DaemonRuntime[] = [
  {
    label: `Deno ${Deno.version.deno}`,
    argv: () => Promise.resolve([Deno.execPath(), "run", "-A", "--quiet"]),
  },
  {
    label: `Node.js ${NODE_22}`,
    argv: async () => [await nodeBin(NODE_22)],
  },
  { label: "Bun", argv: async () => [await bunBin()] },
];

const USAGE = { sessionId: "s1", agent: "beeuni" };

/** Starts the daemon on `dir` under `runtime`, with `args` and an open-file limit of `files`. */
async function daemonUnder(
  runtime: DaemonRuntime,
  dir: string,
  args: string[] = [],
  files?: number,
): Promise<TestDaemon> {
  const limit = files === undefined
    ? []
    : ["prlimit", `--nofile=${files}:${files}`];
  return await startDaemonUnder(
    [...limit, ...(await runtime.argv())],
    dir,
    args,
  );
}

/** A flood process started by {@linkcode startFlood}. */
interface Flood {
  /** Its latest counts. */
  stats(): FloodStats;
  /** Resolves once it exits by itself (`--once`, every connection closed). */
  exited: Promise<Deno.CommandStatus>;
  /** Ends it (SIGTERM) and waits for it. */
  stop(): Promise<void>;
}

/** Starts `tests/_flood.ts` against `port`, under an open-file limit of 1,024. */
function startFlood(
  port: number,
  count: number,
  mode: "idle" | "slow",
  once = false,
): Flood {
  const child = new Deno.Command("prlimit", {
    args: [
      "--nofile=1024:1024",
      Deno.execPath(),
      "run",
      "-A",
      "--quiet",
      FLOOD,
      String(port),
      String(count),
      mode,
      ...(once ? ["--once"] : []),
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let latest: FloodStats = { open: 0, opened: 0, closed: 0 };
  const lines = (async () => {
    let text = "";
    for await (
      const chunk of child.stdout.pipeThrough(new TextDecoderStream())
    ) {
      text += chunk;
      const end = text.lastIndexOf("\n");
      if (end === -1) continue;
      const line = text.slice(0, end).split("\n").at(-1)!;
      text = text.slice(end + 1);
      latest = JSON.parse(line);
    }
  })();
  const exited = child.status.then(async (status) => {
    await lines;
    return status;
  });
  return {
    stats: () => latest,
    exited,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await exited;
    },
  };
}

/** One tool call on a connection of its own; what it answered, or why it failed. */
async function freshCall(
  daemon: TestDaemon,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal = AbortSignal.timeout(60_000),
): Promise<{ status: number; body: Record<string, unknown> }> {
  const client = Deno.createHttpClient({});
  try {
    return await daemon.call(name, { args, ...USAGE }, {
      client,
      signal,
    } as RequestInit);
  } finally {
    client.close();
  }
}

/**
 * Calls `echo` one after another until `done` says enough were answered;
 * each answer or failure. Fails after `guardMs` (a hang guard, not a
 * measure: the calls may be as slow as the machine is busy).
 */
async function callsUntil(
  daemon: TestDaemon,
  done: (answered: number) => boolean,
  guardMs: number,
): Promise<{ answered: number; failures: string[]; ms: number[] }> {
  const failures: string[] = [];
  const ms: number[] = [];
  const deadline = Date.now() + guardMs;
  for (let i = 0; !done(ms.length); i++) {
    if (Date.now() > deadline) {
      throw new Error(
        `timed out with ${ms.length} calls answered during the attack`,
      );
    }
    const start = performance.now();
    try {
      const { status, body } = await freshCall(daemon, "echo", {
        text: `c${i}`,
      });
      if (status === 200 && body.output === `c${i}`) {
        ms.push(performance.now() - start);
      } else failures.push(`${status} ${JSON.stringify(body)}`);
    } catch (error) {
      failures.push(String(error));
    }
  }
  return { answered: ms.length, failures, ms };
}

function sum(floods: Flood[], key: keyof FloodStats): number {
  return floods.reduce((total, flood) => total + flood.stats()[key], 0);
}

async function attack(runtime: DaemonRuntime): Promise<void> {
  await using project = await tempRepo(PROJECT);
  const daemon = await daemonUnder(runtime, project.dir, [], 1024);
  try {
    const limits = await Deno.readTextFile(`/proc/${daemon.pid}/limits`);
    assert.match(limits, /^Max open files\s+1024\s+1024\s/m);
    assert.equal((await freshCall(daemon, "echo", { text: "a" })).status, 200);

    const floods = [
      ...Array.from({ length: 4 }, () => startFlood(daemon.port, 500, "idle")),
      startFlood(daemon.port, 500, "slow"),
    ];
    let during: Awaited<ReturnType<typeof callsUntil>>;
    let closedByServer: number;
    try {
      await waitFor(
        "2,500 attacking connections",
        () => floods.every((flood) => flood.stats().opened >= 500),
      );
      const closedBefore = sum(floods, "closed");
      // Calls go on while the attack does, until five were answered and the
      // daemon closed a thousand attacking connections (it holds at most 512
      // of the 2,500, so it closes the others as they come back).
      during = await callsUntil(
        daemon,
        (answered) =>
          answered >= 5 && sum(floods, "closed") - closedBefore >= 1000,
        ATTACK_GUARD_MS,
      );
      closedByServer = sum(floods, "closed") - closedBefore;
      // Every flood was still attacking when the calls stopped.
      for (const flood of floods) {
        assert.ok(flood.stats().open > 0, JSON.stringify(flood.stats()));
      }
    } finally {
      await Promise.all(floods.map((flood) => flood.stop()));
    }
    const sorted = [...during.ms].sort((a, b) => a - b);
    console.log(
      `${runtime.label}: ${during.answered} calls answered during the attack (median ${
        sorted[sorted.length >> 1]?.toFixed(0)
      } ms, slowest ${
        sorted.at(-1)?.toFixed(0)
      } ms); the daemon closed ${closedByServer} attacking connections`,
    );
    assert.deepEqual(during.failures, []);
    for (let i = 0; i < 5; i++) {
      const { status, body } = await freshCall(daemon, "echo", { text: "x" });
      assert.deepEqual([status, body], [200, { output: "x" }]);
    }
  } finally {
    const code = await daemon.stop();
    assert.equal(code, 0, daemon.stderr());
  }
}

for (const runtime of RUNTIMES) {
  Deno.test(`under 2,000 idle and 500 slowloris connections and 1,024 open files, calls keep answering and the daemon lives (${runtime.label})`, () =>
    attack(runtime));
}

/** Sends a request on a raw connection, reads its answer, then waits for the server to close the connection. */
async function keepAliveUntilClosed(daemon: TestDaemon): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: daemon.port });
  try {
    await conn.write(
      new TextEncoder().encode(
        `GET /beeuni/health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${daemon.token}\r\n\r\n`,
      ),
    );
    let text = "";
    const buffer = new Uint8Array(4096);
    while (true) {
      const n = await conn.read(buffer).catch(() => null);
      if (n === null) return text;
      text += new TextDecoder().decode(buffer.subarray(0, n));
    }
  } finally {
    conn.close();
  }
}

/** Reads server-sent events from `reader` until one satisfies `found`. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  found: (event: Record<string, unknown>) => boolean,
): Promise<void> {
  const decoder = new TextDecoder();
  let text = "";
  while (true) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the event stream ended:\n${text}`);
    text += decoder.decode(value, { stream: true });
    const events = text.split("\n\n").flatMap((block) =>
      block.split("\n").filter((line) => line.startsWith("data: "))
    ).map((line) => JSON.parse(line.slice(6)));
    if (events.some(found)) return;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function limitsAndStreams(runtime: DaemonRuntime): Promise<void> {
  await using project = await tempRepo(PROJECT);
  await using daemon = await daemonUnder(runtime, project.dir, [
    "--header-timeout-ms",
    "1000",
    "--idle-timeout-ms",
    "1000",
  ]);
  // Waiting connections are closed at their deadline, without a cap in play.
  const floods = [
    startFlood(daemon.port, 20, "idle", true),
    startFlood(daemon.port, 20, "slow", true),
  ];
  let keptAlive: string | undefined;
  const keeping = keepAliveUntilClosed(daemon).then((text) => keptAlive = text);
  try {
    await waitFor(
      "the daemon to close every waiting connection",
      () =>
        keptAlive !== undefined &&
        floods.every((flood) => flood.stats().closed === 20),
    );
    const statuses = await Promise.all(floods.map((flood) => flood.exited));
    assert.ok(statuses.every((status) => status.success));
    for (const flood of floods) {
      assert.deepEqual(flood.stats(), { open: 0, opened: 20, closed: 20 });
    }
    assert.match(await keeping, /^HTTP\/1\.1 200 /);
    // The answer told the client how long the connection stays open.
    assert.match(await keeping, /^keep-alive: timeout=1\r$/im);
  } finally {
    await Promise.all(floods.map((flood) => flood.stop()));
  }

  // A call and an event stream busy past both timeouts are never closed.
  const events = await daemon.fetch("/ui/api/events");
  assert.equal(events.status, 200);
  const reader = events.body!.getReader();
  const slept = await freshCall(daemon, "sleep", { ms: 2500 });
  assert.deepEqual([slept.status, slept.body], [200, { output: "slept" }]);
  const echoed = freshCall(daemon, "echo", { text: "after" });
  await readUntil(
    reader,
    (event) =>
      event.type === "call-end" &&
      (event.outcome as { output?: string }).output === "after",
  );
  await reader.cancel();
  assert.equal((await echoed).status, 200);

  // A request body streamed in chunks.
  const parts = [
    `{"args":{"text":`,
    `"streamed"},"sessionId":"s1",`,
    `"agent":"beeuni"}`,
  ];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const part = parts.shift();
      if (part === undefined) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.enqueue(new TextEncoder().encode(part));
    },
  });
  const streamed = await daemon.fetch("/beeuni/tools/echo", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  assert.deepEqual(await streamed.json(), { output: "streamed" });

  // A caller that goes away aborts its call.
  const markers = join(project.dir, "markers");
  await Deno.mkdir(markers);
  const controller = new AbortController();
  const waiting = freshCall(daemon, "wait", { dir: markers }, controller.signal)
    .catch(() => undefined);
  await waitFor("the call to start", () => exists(join(markers, "started")));
  controller.abort();
  await waiting;
  await waitFor(
    "the tool to see the abort",
    () => exists(join(markers, "aborted")),
  );
}

for (const runtime of RUNTIMES) {
  Deno.test(`idle and slow connections close at their timeout, busy ones never; event streams, streamed bodies and caller aborts work (${runtime.label})`, () =>
    limitsAndStreams(runtime));
}

Deno.test("when every connection is busy a new one is closed at once, and calls answer again once one frees", async () => {
  await using project = await tempRepo(PROJECT);
  await using daemon = await daemonUnder(RUNTIMES[0], project.dir, [
    "--max-connections",
    "2",
  ]);
  const markers = [join(project.dir, "m1"), join(project.dir, "m2")];
  const controllers = markers.map(() => new AbortController());
  const busy = markers.map((dir, i) => {
    Deno.mkdirSync(dir);
    return freshCall(daemon, "wait", { dir }, controllers[i].signal)
      .catch(() => undefined);
  });
  await waitFor(
    "both calls to start",
    async () =>
      (await Promise.all(markers.map((dir) => exists(join(dir, "started")))))
        .every(Boolean),
  );
  await assert.rejects(freshCall(daemon, "echo", { text: "refused" }));
  for (const controller of controllers) controller.abort();
  await Promise.all(busy);
  await waitFor(
    "both calls to end",
    async () =>
      (await Promise.all(markers.map((dir) => exists(join(dir, "aborted")))))
        .every(Boolean),
  );
  const { status, body } = await freshCall(daemon, "echo", { text: "again" });
  assert.deepEqual([status, body], [200, { output: "again" }]);
});

Deno.test("the Deno adapter serves with Deno's own HTTP server, which also answers HTTP/2 without TLS", async () => {
  const server = await denoRuntime.serve(
    { hostname: "127.0.0.1", port: 0 },
    async (request) =>
      new Response(`${request.method} ${await request.text()}`),
  );
  // Prior knowledge: the client opens with HTTP/2 at once, which only
  // Deno's server answers (`node:http` speaks HTTP/1 alone).
  const client = Deno.createHttpClient({ http1: false, http2: true });
  try {
    const response = await fetch(`http://127.0.0.1:${server.port}/`, {
      client,
      method: "POST",
      body: "over h2",
    });
    assert.deepEqual(
      [response.status, await response.text()],
      [200, "POST over h2"],
    );
  } finally {
    client.close();
    await server.shutdown();
  }
});

Deno.test("the connection cap is at most half the open-file limit, and says so", async () => {
  await using project = await tempRepo(PROJECT);
  await using daemon = await daemonUnder(RUNTIMES[0], project.dir, [], 256);
  assert.equal((await freshCall(daemon, "echo", { text: "a" })).status, 200);
  assert.match(
    daemon.stderr(),
    /^\[daemon\] at most 128 connections, not 512: half the open-file limit$/m,
  );
});

Deno.test("parseDaemonArgs() reads the connection limits and refuses zero", () => {
  const options = parseDaemonArgs([
    "--max-connections",
    "64",
    "--header-timeout-ms",
    "2000",
    "--idle-timeout-ms",
    "3000",
  ], "/tmp");
  assert.deepEqual(options.connections, {
    maxConnections: 64,
    headerTimeoutMs: 2000,
    idleTimeoutMs: 3000,
  });
  assert.deepEqual(parseDaemonArgs([], "/tmp").connections, {
    maxConnections: undefined,
    headerTimeoutMs: undefined,
    idleTimeoutMs: undefined,
  });
  for (
    const flag of [
      "--max-connections",
      "--header-timeout-ms",
      "--idle-timeout-ms",
    ]
  ) {
    assert.throws(
      () => parseDaemonArgs([flag, "0"], "/tmp"),
      { message: `${flag} must be a whole number of at least 1, got "0"` },
    );
  }
});
