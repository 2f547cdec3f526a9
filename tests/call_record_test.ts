// The call record on a real daemon: one JSON line per call, without
// arguments, outputs or secrets unless `record:` opts in (and then with
// secret values redacted), rotated by size; and `beeuni logs` reading it,
// filtered and followed (K2).

import assert from "node:assert/strict";
import { appendFileSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beeuni, CLI, exists, isolatedState, tempRepo } from "./_helpers.ts";
import { startDaemon, waitFor } from "./_daemon.ts";
import { RawMcp, StdioServer } from "./_mcp.ts";
import { startModelServer } from "./_model_servers.ts";
import { projectKey } from "../lib/common/mod.ts";
import { setSecret } from "../lib/secrets/mod.ts";
import {
  CallRecorder,
  callRecordPath,
  recordCalls,
} from "../lib/telemetry/mod.ts";
import { project as hostProject } from "./_host.ts";

const ECHO = `export default {
  description: "Echo the text, and the secret when asked",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args, context) =>
    "echo:" + args.text + (args.text === "secret" ? " key=" + context.env.API_KEY : ""),
};
`;
const FAIL = `export default {
  description: "Always fails",
  parameters: { type: "object" },
  execute: () => { throw new Error("it broke with a private detail"); },
};
`;
const MANIFEST =
  "tools:\n  echo: tools/echo.ts\n  fail: tools/fail.ts\nagents:\n  build:\n    secrets: all\n";
const SECRET = "sk-very-secret-7f3a9";

/** The record folder of the project at `dir` under the state folder `state`. */
function recordDir(state: string, dir: string): string {
  return join(state, "beeuni", "projects", projectKey(dir));
}

/** The lines of the record's current file, parsed. */
async function lines(file: string): Promise<Record<string, unknown>[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch {
    return [];
  }
  return text.split("\n").filter((line) => line !== "").map((line) =>
    JSON.parse(line)
  );
}

/** A project of `files` and a real daemon serving it with `env`; both gone at the end. */
async function served(
  files: Record<string, string>,
  env: Record<string, string> = {},
) {
  const repo = await tempRepo(files);
  try {
    const daemon = await startDaemon(repo.dir, {
      args: ["--no-opencode", "--no-watch"],
      env,
    });
    return {
      dir: repo.dir,
      daemon,
      async [Symbol.asyncDispose]() {
        await daemon.stop();
        await repo[Symbol.asyncDispose]();
      },
    };
  } catch (error) {
    await repo[Symbol.asyncDispose]();
    throw error;
  }
}

/**
 * A host serving the echo tool, its calls recorded into a folder under
 * `env`'s state folder, written in batches `batchMs` apart; the host
 * closed at the end.
 */
async function recordedHost(env: Record<string, string>, batchMs?: number) {
  const p = await hostProject({
    "tools/echo.ts": ECHO,
    "beeuni.yaml": "tools:\n  echo: tools/echo.ts\n",
  });
  const dir = join(env.XDG_STATE_HOME, "record");
  const recording = recordCalls(p.host, {
    dir,
    secrets: () => ({}),
    batchMs,
    log: (line) => p.logs.push(line),
  });
  return {
    host: p.host,
    logs: p.logs,
    dir,
    recording,
    [Symbol.asyncDispose]: () => p[Symbol.asyncDispose](),
  };
}

const ECHO_ONLY = MANIFEST.replace("  fail: tools/fail.ts\n", "");

Deno.test("each call over REST and MCP lands as one 0600 JSON line with its facts and no arguments, outputs or error messages (K2)", async () => {
  await using p = await served({
    "tools/echo.ts": ECHO,
    "tools/fail.ts": FAIL,
    "beeuni.yaml": MANIFEST,
  });
  const { daemon } = p;
  const file = join(recordDir(daemon.stateDir, p.dir), "calls.jsonl");
  const rest = await daemon.call(
    "echo",
    { args: { text: "hello-args" }, sessionId: "s-rest", agent: "build" },
  );
  assert.equal(rest.body.output, "echo:hello-args");
  const failed = await daemon.call("fail", {
    args: {},
    sessionId: "s-rest",
    agent: "build",
  });
  assert.equal(failed.status, 200);
  const mcp = new RawMcp(`${daemon.url}/mcp/build`, daemon.token);
  await mcp.initialize();
  const answer = await mcp.request("tools/call", {
    name: "echo",
    arguments: { text: "via-mcp" },
  });
  assert.equal(answer.result.content[0].text, "echo:via-mcp");

  await waitFor("three lines", async () => (await lines(file)).length >= 3);
  assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
  const [first, second, third] = await lines(file);
  assert.deepEqual(Object.keys(first).sort(), [
    "agent",
    "durationMs",
    "id",
    "outcome",
    "outputBytes",
    "session",
    "time",
    "tool",
    "transport",
    "truncated",
  ]);
  assert.equal(first.tool, "echo");
  assert.equal(first.agent, "build");
  assert.equal(first.session, "s-rest");
  assert.equal(first.transport, "http");
  assert.equal(first.outcome, "ok");
  assert.equal(first.outputBytes, "echo:hello-args".length);
  assert.equal(first.truncated, false);
  assert.equal(typeof first.durationMs, "number");
  assert.ok(Math.abs(Date.parse(String(first.time)) - Date.now()) < 600_000);
  assert.equal(second.tool, "fail");
  assert.equal(second.outcome, "error");
  assert.equal(second.error, undefined);
  assert.equal(third.transport, "mcp");
  assert.equal(third.tool, "echo");
  assert.equal(third.agent, "build");
  assert.notEqual(first.id, third.id);
  const text = await Deno.readTextFile(file);
  for (const privy of ["hello-args", "via-mcp", "private detail", "echo:"]) {
    assert.ok(!text.includes(privy), `the record holds "${privy}"`);
  }
});

Deno.test("a call carrying the caller's trace context is recorded with its trace id; calls after the recorder stops are not (K2)", async () => {
  await using state = await isolatedState();
  await using p = await recordedHost(state.env);
  const { dir, recording } = p;
  const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
  await p.host.call({
    name: "echo",
    args: { text: "t" },
    sessionId: "s",
    agent: "build",
    transport: "cli",
    traceContext: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
  });
  await recording.stop();
  await p.host.call({ name: "echo", args: {}, sessionId: "s", agent: "build" });
  const [line, ...rest] = await lines(join(dir, "calls.jsonl"));
  assert.equal(line.traceId, traceId);
  assert.equal(line.transport, "cli");
  assert.deepEqual(rest, []);
});

Deno.test("the daemon's forced exit writes the lines gathered for the record's next batch at once, and none after (K2)", async () => {
  // The recorder as the daemon runs it, on a real file, with a batch delay
  // no test waits out: only the forced exit's own write can put the line
  // there before the next statement reads the file.
  await using state = await isolatedState();
  await using p = await recordedHost(state.env, 3_600_000);
  const { dir, recording } = p;
  await p.host.call({
    name: "echo",
    args: { text: "t" },
    sessionId: "forced",
    agent: "build",
  });
  assert.equal(exists(join(dir, "calls.jsonl")), false);
  recording.stopNow();
  const written = readFileSync(join(dir, "calls.jsonl"), "utf8");
  assert.equal(written.split("\n").length, 2, written);
  assert.equal(JSON.parse(written).session, "forced");
  assert.equal(statSync(join(dir, "calls.jsonl")).mode & 0o777, 0o600);
  await p.host.call({ name: "echo", args: {}, sessionId: "s", agent: "build" });
  await recording.stop();
  assert.deepEqual(
    (await lines(join(dir, "calls.jsonl"))).map((line) => line.session),
    ["forced"],
  );
  assert.deepEqual(p.logs.filter((line) => line.startsWith("[record]")), []);
});

Deno.test("beeuni mcp records its calls as the daemon does, transport mcp, the last ones written when it ends (K2)", async () => {
  await using repo = await tempRepo({
    "tools/echo.ts": ECHO,
    "beeuni.yaml": "tools:\n  echo: tools/echo.ts\n",
  });
  const server = new StdioServer(repo.dir, ["--agent", "build"]);
  try {
    await server.initialize();
    await server.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "stdio" } },
    });
    assert.equal(
      (await server.response(2)).result.content[0].text,
      "echo:stdio",
    );
  } finally {
    assert.equal(await server.end(), 0);
  }
  const [line, ...rest] = await lines(
    join(recordDir(join(repo.dir, ".state"), repo.dir), "calls.jsonl"),
  );
  assert.equal(line.tool, "echo");
  assert.equal(line.agent, "build");
  assert.equal(line.transport, "mcp");
  assert.equal(line.outcome, "ok");
  assert.deepEqual(rest, []);
});

Deno.test("a session's tool calls are recorded with transport session and the session's id (K2)", async () => {
  await using state = await isolatedState();
  await using repo = await tempRepo({
    "tools/echo.ts": ECHO,
    "beeuni.yaml": "tools:\n  echo: tools/echo.ts\n",
  });
  const server = startModelServer("anthropic", [
    { calls: [{ name: "echo", args: { text: "from-model" } }] },
    { text: "Done." },
  ]);
  try {
    const out = await beeuni(
      repo.dir,
      ["sessions", "new", "--wait", "--prompt", "echo something"],
      {
        env: {
          ...state.env,
          BEEUNI_MODEL: "anthropic/claude-test",
          ANTHROPIC_API_KEY: "sk-ant-test",
          ANTHROPIC_BASE_URL: server.baseUrl,
        },
      },
    );
    assert.equal(out.code, 0, out.stderr);
    const id = /^session (\S+)$/m.exec(out.stdout)![1];
    const [line, ...rest] = await lines(
      join(recordDir(state.env.XDG_STATE_HOME, repo.dir), "calls.jsonl"),
    );
    assert.equal(line.tool, "echo");
    assert.equal(line.transport, "session");
    assert.equal(line.session, id);
    assert.equal(line.outcome, "ok");
    assert.equal(line.args, undefined);
    assert.deepEqual(rest, []);
  } finally {
    await server.close();
  }
});

Deno.test("with record: { arguments: true, outputs: true } the record holds arguments, outputs and error messages, each secret value written as [secret] (K2)", async () => {
  await using state = await isolatedState();
  await using repo = await tempRepo({
    "tools/echo.ts": ECHO,
    "tools/fail.ts": FAIL,
    "beeuni.yaml": MANIFEST + "record:\n  arguments: true\n  outputs: true\n",
  });
  await setSecret(repo.dir, "API_KEY", SECRET, state.env);
  await using daemon = await startDaemon(repo.dir, {
    args: ["--no-opencode", "--no-watch"],
    env: state.env,
  });
  const file = join(recordDir(daemon.stateDir, repo.dir), "calls.jsonl");
  const secretCall = await daemon.call("echo", {
    args: { text: "secret", echoed: `${SECRET} in an argument` },
    sessionId: "s",
    agent: "build",
  });
  // The tool did read the secret: the model sees it, the record does not.
  assert.equal(secretCall.body.output, `echo:secret key=${SECRET}`);
  await daemon.call("fail", { args: {}, sessionId: "s", agent: "build" });
  await waitFor("two lines", async () => (await lines(file)).length >= 2);
  const [echo, fail] = await lines(file);
  assert.deepEqual(echo.args, {
    text: "secret",
    echoed: "[secret] in an argument",
  });
  assert.equal(echo.output, "echo:secret key=[secret]");
  assert.match(String(fail.error), /it broke with a private detail/);
  assert.ok(!(await Deno.readTextFile(file)).includes(SECRET));
});

Deno.test("a bad record: setting is a positioned manifest error, and record: in an imported file a warning (K2)", async () => {
  await using repo = await tempRepo({
    "tools/echo.ts": ECHO,
    "beeuni.yaml":
      "tools:\n  echo: tools/echo.ts\nrecord:\n  arguments: yes please\n  inputs: true\n",
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assert.equal(result.code, 1);
  assert.match(
    result.stdout + result.stderr,
    /beeuni\.yaml:4:14: .*`record\.arguments` must be true or false, found the string "yes please"/,
  );
  assert.match(
    result.stdout + result.stderr,
    /beeuni\.yaml:5:3: .*unknown setting "record\.inputs": use "arguments" or "outputs"/,
  );

  await using imported = await tempRepo({
    "tools/echo.ts": ECHO,
    "beeuni.yaml": "imports: [more.yaml]\ntools:\n  echo: tools/echo.ts\n",
    "more.yaml": "record:\n  outputs: true\n",
  });
  const warned = await beeuni(imported.dir, ["validate"]);
  assert.equal(warned.code, 0);
  assert.match(
    warned.stdout + warned.stderr,
    /more\.yaml:1:1: warning.*`record` is read from the root manifest only/,
  );
});

Deno.test("the record rotates at its size limit into calls.1.jsonl … calls.3.jsonl, every line whole, and beeuni logs reads them oldest first (K2)", async () => {
  await using state = await isolatedState();
  await using p = await served(
    { "tools/echo.ts": ECHO, "beeuni.yaml": ECHO_ONLY },
    { ...state.env, BEEUNI_CALL_RECORD_MAX_BYTES: "1500" },
  );
  const { daemon, dir: root } = p;
  const dir = recordDir(daemon.stateDir, root);
  // About 250 bytes a line: 6 lines a file, 4 files kept.
  for (let i = 0; i < 40; i++) {
    await daemon.call("echo", {
      args: { text: String(i) },
      sessionId: `s${i}`,
      agent: "build",
    });
    // One write per call: each batch then crosses the limit on its own.
    await waitFor(
      `call ${i} recorded`,
      async () =>
        (await lines(join(dir, "calls.jsonl"))).some((l) =>
          l.session === `s${i}`
        ),
    );
  }
  const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl"))
    .sort();
  assert.deepEqual(files, [
    "calls.1.jsonl",
    "calls.2.jsonl",
    "calls.3.jsonl",
    "calls.jsonl",
  ]);
  for (const name of files) {
    const size = (await Deno.stat(join(dir, name))).size;
    assert.ok(size <= 1500, `${name} is ${size} bytes`);
    assert.ok((await lines(join(dir, name))).length > 0);
  }
  const logs = await beeuni(root, ["logs", "--json"], { env: state.env });
  assert.equal(logs.code, 0, logs.stderr);
  const sessions = logs.stdout.trim().split("\n").map((line) =>
    Number(JSON.parse(line).session.slice(1))
  );
  // The newest calls, in order; the oldest rotated away.
  assert.equal(sessions.at(-1), 39);
  assert.ok(sessions[0] > 0, "the oldest calls are gone");
  assert.deepEqual(
    sessions,
    Array.from({ length: sessions.length }, (_, i) => sessions[0] + i),
  );
});

Deno.test("beeuni logs prints one line per call, combines --tool, --agent and --session, skips a corrupted line with a note, and says plainly when nothing is recorded (K2)", async () => {
  await using state = await isolatedState();
  await using repo = await tempRepo({
    "tools/echo.ts": ECHO,
    "tools/fail.ts": FAIL,
    "beeuni.yaml": MANIFEST + "  plan: {}\n",
  });
  const empty = await beeuni(repo.dir, ["logs"], { env: state.env });
  assert.equal(empty.code, 0);
  assert.equal(empty.stdout, "");
  assert.match(empty.stderr, /^No calls recorded yet/);

  await using daemon = await startDaemon(repo.dir, {
    args: ["--no-opencode", "--no-watch"],
    env: state.env,
  });
  const call = (name: string, agent: string, sessionId: string) =>
    daemon.call(name, { args: { text: "x" }, sessionId, agent });
  await call("echo", "build", "s1");
  await call("fail", "build", "s1");
  await call("echo", "plan", "s2");
  await call("echo", "build", "s2");
  const file = join(recordDir(daemon.stateDir, repo.dir), "calls.jsonl");
  await waitFor("four lines", async () => (await lines(file)).length >= 4);
  appendFileSync(file, "{not json\n");

  const all = await beeuni(repo.dir, ["logs"], { env: state.env });
  assert.equal(all.code, 0);
  const rows = all.stdout.trim().split("\n");
  assert.equal(rows.length, 4);
  assert.match(
    rows[0],
    /^\d{4}-\d\d-\d\dT[\d:.]+Z {2}echo {2}agent=build {2}session=s1 {2}http {2}ok {2}\d+ms$/,
  );
  assert.match(rows[1], /fail {2}agent=build {2}session=s1 {2}http {2}error /);
  assert.match(
    all.stderr,
    /skipped line 5 of ".*calls\.jsonl": not a call record/,
  );

  const filtered = await beeuni(
    repo.dir,
    ["logs", "--tool", "echo", "--agent", "build", "--json"],
    { env: state.env },
  );
  const picked = filtered.stdout.trim().split("\n").map((l) => JSON.parse(l));
  assert.deepEqual(picked.map((r) => r.session), ["s1", "s2"]);
  const session = await beeuni(
    repo.dir,
    ["logs", "--session", "s2", "--agent", "plan"],
    { env: state.env },
  );
  assert.equal(session.stdout.trim().split("\n").length, 1);
  assert.match(session.stdout, /agent=plan {2}session=s2/);
  const none = await beeuni(repo.dir, ["logs", "--tool", "nothing"], {
    env: state.env,
  });
  assert.equal(none.stdout, "");
  assert.match(none.stderr, /No recorded call matches/);
});

Deno.test("beeuni logs --follow prints the calls made after it started, on across rotations, and exits 0 on SIGINT (K2)", async () => {
  await using state = await isolatedState();
  // About 230 bytes a line: the file rotates every two or three calls.
  await using p = await served(
    { "tools/echo.ts": ECHO, "beeuni.yaml": ECHO_ONLY },
    { ...state.env, BEEUNI_CALL_RECORD_MAX_BYTES: "600" },
  );
  const { daemon, dir: root } = p;
  await daemon.call("echo", { args: {}, sessionId: "before", agent: "build" });
  const file = join(recordDir(daemon.stateDir, root), "calls.jsonl");
  await waitFor("the first line", async () => (await lines(file)).length >= 1);

  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CLI, "logs", "--follow", "--agent", "build"],
    cwd: root,
    env: { NO_COLOR: "1", ...state.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  const decoder = new TextDecoder();
  const pumped = (async () => {
    for await (const chunk of child.stdout) out += decoder.decode(chunk);
  })();
  const err = new Response(child.stderr).text();
  try {
    await waitFor("the old call", () => out.includes("session=before"));
    // Filtered out: printed never, though read before the next.
    await daemon.call("echo", { args: {}, sessionId: "other", agent: "plan" });
    for (let i = 0; i < 6; i++) {
      await daemon.call("echo", {
        args: {},
        sessionId: `after-${i}`,
        agent: "build",
      });
      await waitFor(`call ${i}`, () => out.includes(`session=after-${i} `));
    }
  } finally {
    child.kill("SIGINT");
  }
  const status = await child.status;
  await pumped;
  assert.equal(status.code, 0, await err);
  assert.ok(!out.includes("session=other"));
  assert.deepEqual(
    out.trim().split("\n").map((line) => /session=(\S+)/.exec(line)?.[1]),
    ["before", ...Array.from({ length: 6 }, (_, i) => `after-${i}`)],
  );
  // The record did rotate under the follower.
  assert.ok(exists(callRecordPath(recordDir(daemon.stateDir, root), 2)));
});

/** `beeuni logs --follow --json` in the project at `root`, its output gathered as it comes. */
function follower(root: string, env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CLI, "logs", "--follow", "--json"],
    cwd: root,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const decoder = new TextDecoder();
  const seen = { out: "", err: "" };
  const pumped = Promise.all([
    (async () => {
      for await (const chunk of child.stdout) {
        seen.out += decoder.decode(chunk, { stream: true });
      }
    })(),
    (async () => {
      for await (const chunk of child.stderr) {
        seen.err += decoder.decode(chunk, { stream: true });
      }
    })(),
  ]);
  return {
    seen,
    /** The sessions of the calls printed so far, in order. */
    sessions(): string[] {
      return seen.out.split("\n").filter((line) => line !== "").map((line) =>
        JSON.parse(line).session
      );
    },
    /** Stops it with SIGINT; its exit code. */
    async stop(): Promise<number> {
      try {
        child.kill("SIGINT");
      } catch {
        // Already ended.
      }
      const { code } = await child.status;
      await pumped;
      return code;
    },
  };
}

/** The end of one call of `echo` in `session`, as the host tells it. */
function callEnd(id: number, session: string) {
  return {
    type: "call-end" as const,
    id: String(id),
    name: "echo",
    agent: "build",
    sessionId: session,
    durationMs: 1,
    transport: "cli" as const,
    outcome: { ok: true as const, output: "echo" },
  };
}

Deno.test("beeuni logs --follow prints every line exactly once and in order while the record rotates several times between two of its looks (K2)", async () => {
  await using state = await isolatedState();
  await using repo = await tempRepo({ "beeuni.yaml": "tools: {}\n" });
  const dir = recordDir(state.env.XDG_STATE_HOME, repo.dir);
  // One line a file: each write past the first rotates, keeping three.
  const recorder = new CallRecorder({
    dir,
    content: () => ({}),
    secrets: () => ({}),
    maxBytes: 1,
    log: (line) => assert.fail(line),
  });
  let n = 0;
  const write = async (session: string) => {
    recorder.observe(callEnd(n++, session));
    await recorder.flush();
  };
  await write("first");
  const follow = follower(repo.dir, state.env);
  const expected = ["first"];
  try {
    await waitFor("the first line", () => follow.sessions().length === 1);
    // Bursts of three and four rotations, each written in a few
    // milliseconds: the follower (looking every 200 ms) mostly finds the
    // file it follows at calls.3.jsonl, or removed, and the files made
    // after it. Not more: a fifth would remove a file it never saw.
    for (let burst = 0; burst < 6; burst++) {
      for (let i = 0; i < 3 + burst % 2; i++) {
        const session = `b${burst}-${i}`;
        expected.push(session);
        await write(session);
      }
      // Until its last line is printed: a line missed shows in the list below.
      await waitFor(
        `burst ${burst}`,
        () => follow.sessions().includes(expected.at(-1)!),
      );
    }
  } finally {
    assert.equal(await follow.stop(), 0, follow.seen.err);
    await recorder.close();
  }
  assert.deepEqual(follow.sessions(), expected);
  assert.equal(follow.seen.err, "");
  assert.ok(exists(callRecordPath(dir, 3)));
});

Deno.test("beeuni logs --follow on a project with no record yet says it waits, then prints the first call once it is recorded (K2)", async () => {
  await using state = await isolatedState();
  await using p = await served(
    { "tools/echo.ts": ECHO, "beeuni.yaml": ECHO_ONLY },
    state.env,
  );
  const { daemon, dir: root } = p;
  const follow = follower(root, state.env);
  try {
    await waitFor(
      "the note",
      () => follow.seen.err.includes("No calls recorded yet"),
    );
    assert.equal(
      follow.seen.err,
      "No calls recorded yet: waiting for the first (Ctrl-C to stop)\n",
    );
    assert.equal(follow.seen.out, "");
    await daemon.call("echo", {
      args: { text: "hi" },
      sessionId: "the-first",
      agent: "build",
    });
    await waitFor("the first call", () => follow.sessions().length === 1);
  } finally {
    assert.equal(await follow.stop(), 0, follow.seen.err);
  }
  const [line] = follow.seen.out.split("\n");
  assert.deepEqual(
    {
      ...JSON.parse(line),
      time: undefined,
      id: undefined,
      durationMs: undefined,
    },
    {
      time: undefined,
      id: undefined,
      durationMs: undefined,
      tool: "echo",
      agent: "build",
      session: "the-first",
      transport: "http",
      outcome: "ok",
      outputBytes: "echo:hi".length,
      truncated: false,
    },
  );
  assert.deepEqual(follow.sessions(), ["the-first"]);
});
