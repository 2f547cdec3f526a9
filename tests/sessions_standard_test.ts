// The standard harness (S3): a session run by real opencode 1.18.33 in the
// project, against an OpenAI-compatible model server on 127.0.0.1 that asks
// for project tools; the session's records show each call with its status
// and exactly what the model read.

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { tempDir, tempRepo } from "./_helpers.ts";
import {
  fakeModel,
  fakeProviderConfig,
  installOpencode,
  opencodeHome,
} from "./_opencode.ts";
import {
  openSessionWriter,
  readSession,
  type SessionMeta,
} from "../lib/sessions/record.ts";
import { standardSessionCommand } from "../lib/cli/_standard_session.ts";
import { runStandardSession } from "../lib/standard_harness/mod.ts";
import { opencodeEventRecords } from "../lib/sessions/mod.ts";
import { DaemonNotRunningError, locateDaemon } from "../lib/daemon/mod.ts";

const FILES: Record<string, string> = {
  "beeuni.yaml": `tools:
  lookup_order: tools/lookup_order.ts
  fail_order: tools/fail_order.ts
`,
  "tools/lookup_order.ts": `export default {
  description: "Look up an order by its id",
  parameters: {
    type: "object",
    properties: { id: { type: "string" } },
    required: ["id"],
  },
  execute(args) {
    return "order " + args.id + " shipped";
  },
};
`,
  "tools/fail_order.ts": `export default {
  description: "Fails on purpose",
  parameters: { type: "object", properties: {} },
  execute() {
    throw new Error("order store is offline");
  },
};
`,
};

Deno.test({
  name:
    "a standard-harness session runs in real opencode, starting the daemon for it; it prints each tool call and its records show each with its status and what the model read (S1, S2, S3)",
  // The daemon this session starts runs in this process and is closed by it.
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const opencode = await installOpencode();
    await using repo = await tempRepo(FILES);
    await using home = await opencodeHome();
    await using state = await tempDir("beeuni_sessions_");
    await using model = fakeModel((request) => {
      const read = request.messages.filter((m) => m.role === "tool");
      if (read.length > 0) return { text: "Order A-7 has shipped." };
      return {
        toolCalls: [
          { name: "lookup_order", args: { id: "A-7" } },
          { name: "fail_order", args: {} },
          { name: "cancel_order", args: { id: "A-7" } },
        ],
      };
    });
    await Deno.writeTextFile(
      join(repo.dir, "opencode.json"),
      fakeProviderConfig(model.baseURL),
    );
    // PWD names another folder, as in a process started from elsewhere:
    // opencode must still run in the project.
    const env = {
      ...home.env,
      PATH: `${dirname(opencode)}:${home.env.PATH}`,
      PWD: await Deno.realPath(state.dir),
    };
    const io = {
      cwd: repo.dir,
      env,
      stdout: (text: string) => out.push(text),
      stderr: (text: string) => err.push(text),
      readStdin: () => Promise.resolve(""),
      color: false,
    };
    const out: string[] = [];
    const err: string[] = [];
    const prompt = "Where is order A-7?";
    const code = await standardSessionCommand({
      root: repo.dir,
      stateDir: state.dir,
      id: "s1",
      defaultAgent: "beeuni",
      model: "fake/fake-model",
      prompt,
      verbose: true,
    }, io);
    assert.equal(code, 0, err.join(""));
    const printed = out.join("");
    assert.match(printed, /^session s1\n/);
    assert.match(printed, /^\[tool\] lookup_order ok \d+ ms$/m);
    assert.match(printed, /^\[tool\] fail_order error \d+ ms$/m);
    assert.match(printed, /^\[tool\] cancel_order not_found \d+ ms$/m);
    assert.match(printed, /^Order A-7 has shipped\.\n$/m);

    // The daemon the session started is gone with it.
    assert.throws(() => locateDaemon(repo.dir, env), DaemonNotRunningError);

    const records = readSession(state.dir, "s1");
    const { startedAt: _, ...start } = records[0] as SessionMeta;
    assert.deepEqual(start, {
      type: "start",
      id: "s1",
      agent: "beeuni",
      harness: "standard",
      model: "fake/fake-model",
      prompt,
    });
    const calls = records.filter((r) => r.type === "tool-call");
    const results = records.filter((r) => r.type === "tool-result");
    const byName = (name: string) => {
      const call = calls.find((r) => r.name === name);
      const done = results.find((r) => r.name === name);
      assert.ok(call && done, `${name} in ${JSON.stringify(records)}`);
      assert.equal(call.callId, done.callId);
      return { call, done };
    };
    const lookup = byName("lookup_order");
    assert.deepEqual(lookup.call.args, { id: "A-7" });
    assert.equal(lookup.done.status, "ok");
    assert.equal(lookup.done.output, "order A-7 shipped");
    const fail = byName("fail_order");
    assert.equal(fail.done.status, "error");
    assert.equal(fail.done.output, "order store is offline");
    const missing = byName("cancel_order");
    assert.equal(missing.done.status, "not_found");
    assert.match(missing.done.output, /unavailable tool 'cancel_order'/);
    assert.equal(calls.length, 3);

    // Each output is what the model read back for that call.
    const toolMessages = model.requests.flatMap((request) =>
      request.messages.filter((m) => m.role === "tool")
    );
    for (const done of results) {
      const message = toolMessages.find((m) => m.tool_call_id === done.callId);
      assert.ok(message, `the model read ${done.callId}`);
      const content = typeof message.content === "string"
        ? message.content
        : JSON.stringify(message.content);
      assert.equal(content, done.output);
      assert.ok(done.durationMs >= 0);
    }

    assert.deepEqual(
      records.filter((r) => r.type === "text"),
      [{ type: "text", text: "Order A-7 has shipped." }],
    );
    const end = records.at(-1)!;
    assert.equal(end.type, "end");
    assert.equal(end.type === "end" && end.status, "done");
  },
});

Deno.test("a standard-harness session without opencode installed fails with what to install, and says so in its end record (S3)", async () => {
  await using repo = await tempRepo(FILES);
  await using state = await tempDir("beeuni_sessions_");
  await using bin = await tempDir("beeuni_empty_bin_");
  const writer = await openSessionWriter(state.dir, {
    id: "s2",
    agent: "build",
    harness: "standard",
    model: "openai/gpt-4.1",
    startedAt: new Date().toISOString(),
    prompt: "hi",
  });
  const result = await runStandardSession({
    dir: repo.dir,
    prompt: "hi",
    writer,
    env: { PATH: bin.dir, HOME: state.dir },
  });
  await writer.close();
  const error =
    "opencode is not installed: install it (npm install -g opencode-ai) so that `opencode` is on PATH, or use --harness experimental";
  assert.deepEqual(result, { status: "failed", error });
  const end = readSession(state.dir, "s2").at(-1);
  assert.equal(end?.type, "end");
  assert.deepEqual(
    end?.type === "end" && { status: end.status, error: end.error },
    { status: "failed", error },
  );
});

Deno.test("opencode's failed calls that the host stopped for time or by an abort are recorded as timeout and aborted (S2)", () => {
  const failed = (callID: string, tool: string, error: string) =>
    JSON.stringify({
      type: "tool_use",
      timestamp: 2,
      sessionID: "ses_1",
      part: {
        type: "tool",
        tool,
        callID,
        state: {
          status: "error",
          input: {},
          error,
          time: { start: 5, end: 12 },
        },
        id: "prt_1",
        sessionID: "ses_1",
        messageID: "msg_1",
      },
    });
  const timeout = opencodeEventRecords(
    failed(
      "c1",
      "slow",
      'tool "slow" did not finish within 100 ms: the call was stopped',
    ),
  );
  assert.deepEqual(timeout.records[1], {
    type: "tool-result",
    callId: "c1",
    name: "slow",
    status: "timeout",
    output: 'tool "slow" did not finish within 100 ms: the call was stopped',
    durationMs: 7,
  });
  const aborted = opencodeEventRecords(
    failed("c2", "wait", 'the call to tool "wait" was aborted'),
  );
  assert.equal(aborted.records[1].type, "tool-result");
  assert.equal(
    aborted.records[1].type === "tool-result" && aborted.records[1].status,
    "aborted",
  );
  // A running call, a step and a line that is not JSON add nothing.
  assert.deepEqual(
    opencodeEventRecords('{"type":"step_start","part":{}}').records,
    [],
  );
  assert.deepEqual(opencodeEventRecords("INFO starting").records, []);
  assert.deepEqual(
    opencodeEventRecords(
      '{"type":"error","error":{"name":"APIError","data":{"message":"model not found"}}}',
    ),
    { records: [], error: "model not found" },
  );
});
