import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beeuni, CLI, isolatedState, tempRepo } from "./_helpers.ts";
import { waitFor } from "./_daemon.ts";
import {
  startModelServer,
  type Turn,
  type WireFormat,
} from "./_model_servers.ts";
import { isProcessRunning } from "../lib/common/mod.ts";
import { setSecret } from "../lib/secrets/mod.ts";
import {
  openSessionWriter,
  readSession,
  type SessionRecord,
} from "../lib/sessions/mod.ts";

const FILES: Record<string, string> = {
  "beeuni.yaml": `tools:
  weather_now: tools/weather_now.ts
  fail: tools/fail.ts
  big: tools/big.ts
  broken: tools/broken.ts
  secret_tool: tools/secret_tool.ts
agents:
  tester:
    tools: [weather_now, fail, big, broken]
`,
  "tools/weather_now.ts": `export default {
  description: "The weather now in a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  execute: (args) => "Sunny, 21 °C in " + args.city,
};
`,
  "tools/fail.ts": `export default {
  description: "Fails",
  parameters: { type: "object", properties: {} },
  execute() { throw new Error("the shelf is empty"); },
};
`,
  "tools/big.ts": `export default {
  description: "Big output",
  parameters: { type: "object", properties: {} },
  execute: () => "line\\n".repeat(5000),
};
`,
  "tools/broken.ts": `export default {{ not javascript`,
  "tools/secret_tool.ts": `export default {
  description: "Hidden from tester",
  parameters: { type: "object", properties: {} },
  execute: () => "secret",
};
`,
};

const MODELS: Record<
  WireFormat,
  { model: string; env: (url: string) => Record<string, string> }
> = {
  "openai-responses": {
    model: "openai/gpt-test",
    env: (url) => ({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: url }),
  },
  "openai-chat": {
    model: "openai-compatible/local-test",
    env: (url) => ({ OPENAI_COMPATIBLE_BASE_URL: url }),
  },
  anthropic: {
    model: "anthropic/claude-test",
    env: (url) => ({
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: url,
    }),
  },
};

const sessionId = (stdout: string) => {
  const first = stdout.split("\n")[0];
  assert.match(first, /^session [0-9T]+-[0-9a-f]{6}$/);
  return first.slice("session ".length);
};

/** A project whose one tool answers after a minute, unless its call is aborted first. */
const SLOW: Record<string, string> = {
  "beeuni.yaml": "tools:\n  slow: tools/slow.ts\n",
  "tools/slow.ts": `export default {
  description: "Takes its time",
  parameters: { type: "object", properties: {} },
  execute: (_args, context) => new Promise((resolve) => {
    const timer = setTimeout(() => resolve("late"), 60000);
    context.signal.addEventListener("abort", () => clearTimeout(timer));
}),
};
`,
};

/** The saved-output file named in a cut output, which differs per call. */
const unsaved = (text: string) => text.replace(/\/\S+\.txt/g, "<file>");

/**
 * A project of `FILES` (its folder given to `turns`), a state folder of its
 * own and a model server of `format` answering `turns`; `run` runs
 * `beeuni` there with the model set through the environment.
 */
async function sessionFixture(
  format: WireFormat,
  turns: Turn[] | ((dir: string) => Turn[]),
  files: Record<string, string> = FILES,
) {
  const repo = await tempRepo(files);
  const state = await isolatedState();
  const server = startModelServer(
    format,
    typeof turns === "function" ? turns(repo.dir) : turns,
  );
  const env = {
    ...state.env,
    BEEUNI_MODEL: MODELS[format].model,
    ...MODELS[format].env(server.baseUrl),
  };
  return {
    dir: repo.dir,
    env,
    server,
    run: (args: string[], more: Record<string, string> = {}) =>
      beeuni(repo.dir, args, { env: { ...env, ...more } }),
    [Symbol.asyncDispose]: async () => {
      await server.close();
      await state[Symbol.asyncDispose]();
      await repo[Symbol.asyncDispose]();
    },
  };
}

for (const format of Object.keys(MODELS) as WireFormat[]) {
  Deno.test(`a ${format} session offers the agent's loaded tools, and the model reads what the host returns for each call, ok, thrown, hidden, not loaded and cut (S1, S2, T6, C2)`, async () => {
    await using fx = await sessionFixture(format, [
      {
        text: "Let me check.",
        calls: [
          { name: "weather_now", args: { city: "Berlin" } },
          { name: "fail", args: {} },
          { name: "big", args: {} },
          { name: "secret_tool", args: {} },
          { name: "broken", args: {} },
        ],
      },
      { text: "It is sunny in Berlin." },
    ]);
    const { model } = MODELS[format];
    const out = await fx.run([
      "sessions",
      "new",
      "--wait",
      "--agent",
      "tester",
      "--model",
      model,
      "--prompt",
      "Call the weather_now tool once with city Berlin and print its output.",
    ]);
    assert.equal(out.code, 0, out.stderr);
    const id = sessionId(out.stdout);
    assert.match(out.stdout, /Let me check\./);
    assert.match(out.stdout, /It is sunny in Berlin\./);
    for (
      const [name, status] of [
        ["weather_now", "ok"],
        ["fail", "error"],
        ["big", "ok"],
        ["secret_tool", "not_found"],
        ["broken", "not_found"],
      ]
    ) {
      assert.match(
        out.stdout,
        new RegExp(`^\\[tool\\] ${name} ${status} \\d+ ms$`, "m"),
      );
    }

    // Offered: what the agent sees and what loaded.
    const { server } = fx;
    assert.deepEqual(server.toolsOffered(0), ["big", "fail", "weather_now"]);
    const listed = await fx.run([
      "tools",
      "ls",
      "--json",
      "--agent",
      "tester",
      "--harness",
      "experimental",
    ]);
    assert.deepEqual(
      (JSON.parse(listed.stdout).tools as { name: string }[])
        .map((tool) => tool.name).filter((name) => name !== "broken").sort(),
      server.toolsOffered(0),
    );
    assert.equal(server.requests.length, 2);

    // What the model read, against `tools call` (the same host).
    const read = [...server.toolResults(1).values()];
    assert.equal(read.length, 5);
    const call = (name: string, args = "{}") =>
      fx.run(["tools", "call", name, "--agent", "tester", "--args", args]);
    const weather = await call("weather_now", '{"city":"Berlin"}');
    assert.equal(read[0].text, weather.stdout.replace(/\n$/, ""));
    assert.equal(read[0].text, "Sunny, 21 °C in Berlin");
    const fail = await call("fail");
    assert.equal(read[1].text, fail.stderr.replace(/\n$/, ""));
    assert.match(read[1].text, /the shelf is empty/);
    const big = await call("big");
    assert.equal(
      unsaved(read[2].text),
      unsaved(big.stdout.replace(/\n$/, "")),
    );
    assert.ok(read[2].text.length < 25000);
    // A hidden tool and one that did not load answer as a name that
    // does not exist does on MCP.
    assert.equal(read[3].text, "Tool secret_tool not found");
    assert.equal(read[4].text, "Tool broken not found");
    if (format === "anthropic") {
      assert.deepEqual(read.map((r) => r.isError), [
        false,
        true,
        false,
        true,
        true,
      ]);
    }

    // The log shows each call with its status and what the model read.
    const log = await fx.run(["sessions", "log", id]);
    assert.equal(log.code, 0, log.stderr);
    assert.match(log.stdout, /Call the weather_now tool once/);
    assert.match(log.stdout, /^tool call weather_now \{"city":"Berlin"\}$/m);
    assert.match(
      log.stdout,
      /tool result weather_now: ok in \d+ ms; the model read:\n {4}Sunny, 21 °C in Berlin\n/,
    );
    assert.match(
      log.stdout,
      /tool result fail: error in \d+ ms; the model read:\n {4}the shelf is empty\n/,
    );
    assert.match(log.stdout, /tool result secret_tool: not_found in \d+ ms/);
    assert.match(log.stdout, /tool result broken: not_found in \d+ ms/);
    assert.match(log.stdout, /end: done/);
    const json = await fx.run(["sessions", "log", id, "--json"]);
    const records = JSON.parse(json.stdout) as SessionRecord[];
    const types = records.map((r) => r.type);
    assert.deepEqual(
      [types[0], types[1], types.at(-2), types.at(-1)],
      ["start", "text", "text", "end"],
    );
    const calls = records.filter((r) => r.type === "tool-call");
    const results = records.filter((r) => r.type === "tool-result");
    assert.equal(calls.length, 5);
    // Each result comes after its call, and holds what the model read.
    for (const result of results) {
      const callAt = records.findIndex((r) =>
        r.type === "tool-call" && r.callId === result.callId
      );
      assert.ok(callAt >= 0 && callAt < records.indexOf(result));
    }
    assert.deepEqual(
      results.map((r) => r.output).sort(),
      read.map((r) => r.text).sort(),
    );
    const ls = await fx.run(["sessions", "ls"]);
    assert.match(
      ls.stdout,
      new RegExp(
        `^${id}\\s+tester\\s+experimental\\s+${model}\\s+\\S+\\s+done$`,
        "m",
      ),
    );
  });
}

Deno.test("a tool-list change between two turns is picked up and the conversation goes on (S3)", async () => {
  await using fx = await sessionFixture("openai-responses", (dir) => [
    {
      calls: [{ name: "weather_now", args: { city: "Oslo" } }],
      before: () => {
        writeFileSync(
          join(dir, "tools/added.ts"),
          `export default { description: "Added", parameters: { type: "object", properties: {} }, execute: () => "added answers" };\n`,
        );
        writeFileSync(
          join(dir, "beeuni.yaml"),
          FILES["beeuni.yaml"].replace(
            "  secret_tool: tools/secret_tool.ts\n",
            "  secret_tool: tools/secret_tool.ts\n  added: tools/added.ts\n",
          ),
        );
      },
    },
    { calls: [{ name: "added", args: {} }] },
    { text: "Both answered." },
  ]);
  const out = await fx.run([
    "sessions",
    "new",
    "--wait",
    "--prompt",
    "Use the tools.",
  ]);
  assert.equal(out.code, 0, out.stderr);
  const { server } = fx;
  assert.ok(!server.toolsOffered(0).includes("added"));
  assert.ok(server.toolsOffered(1).includes("added"));
  // The second turn carries the prompt, the first call and its answer.
  assert.equal(server.messageCount(1), 3);
  assert.equal(server.messageCount(2), 5);
  assert.equal(
    [...server.toolResults(2).values()].map((r) => r.text).join("|"),
    "Sunny, 21 °C in Oslo|added answers",
  );
  assert.match(out.stdout, /^\[tool\] added ok \d+ ms$/m);
});

Deno.test("sessions new without --wait runs the session in a background process that ends with it (S1)", async () => {
  await using fx = await sessionFixture("openai-chat", [
    { calls: [{ name: "weather_now", args: { city: "Rome" } }] },
    { text: "Done." },
  ]);
  const out = await fx.run(["sessions", "new", "--prompt", "Weather in Rome?"]);
  assert.equal(out.code, 0, out.stderr);
  const id = sessionId(out.stdout);
  const ls = async () =>
    JSON.parse((await fx.run(["sessions", "ls", "--json"])).stdout) as {
      id: string;
      status: string;
      pid: number;
    }[];
  const first = (await ls()).find((s) => s.id === id);
  assert.ok(first, "the session is listed once sessions new returns");
  await waitFor(
    "the session to end",
    async () => (await ls())[0].status === "done",
  );
  await waitFor("its process to exit", () => !isProcessRunning(first.pid));
  const log = await fx.run(["sessions", "log", id]);
  assert.match(log.stdout, /tool call weather_now \{"city":"Rome"\}/);
  assert.match(log.stdout, /tool result weather_now: ok in \d+ ms/);
});

Deno.test("a missing model or key is refused with what to set, and a key is read from the secret store (S1)", async () => {
  await using fx = await sessionFixture("anthropic", [{ text: "Hello." }]);
  const hi = ["sessions", "new", "--wait", "--prompt", "hi"];
  const noModel = await fx.run(hi, { BEEUNI_MODEL: "" });
  assert.equal(noModel.code, 1);
  assert.match(
    noModel.stderr,
    /no model is set: pass --model PROVIDER\/MODEL or set BEEUNI_MODEL/,
  );
  const noKey = await fx.run(hi, { ANTHROPIC_API_KEY: "" });
  assert.equal(noKey.code, 1);
  assert.match(
    noKey.stderr,
    /no key for "anthropic": set ANTHROPIC_API_KEY in the environment, or store it with `beeuni secrets set ANTHROPIC_API_KEY`/,
  );
  const noUrl = await fx.run([...hi, "--model", "openai-compatible/x"], {
    OPENAI_COMPATIBLE_BASE_URL: "",
  });
  assert.equal(noUrl.code, 1);
  assert.match(noUrl.stderr, /set OPENAI_COMPATIBLE_BASE_URL/);
  assert.equal(fx.server.requests.length, 0);

  setSecret(fx.dir, "ANTHROPIC_API_KEY", "sk-from-store", fx.env);
  const out = await fx.run(hi, { ANTHROPIC_API_KEY: "" });
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /Hello\./);
});

Deno.test("a model error and running out of steps fail the session with exit 1 and a failed log (S2)", async () => {
  await using fx = await sessionFixture("openai-responses", [
    { fail: { status: 500, message: "the model is overloaded" } },
    { calls: [{ name: "weather_now", args: { city: "A" } }] },
    { calls: [{ name: "weather_now", args: { city: "B" } }] },
  ]);
  const broken = await fx.run(["sessions", "new", "--wait", "--prompt", "hi"]);
  assert.equal(broken.code, 1);
  assert.match(
    broken.stderr,
    /failed: the model failed: the model is overloaded/,
  );
  const log = await fx.run(["sessions", "log", sessionId(broken.stdout)]);
  assert.match(
    log.stdout,
    /end: failed at \S+: the model failed: the model is overloaded/,
  );

  const looping = await fx.run([
    "sessions",
    "new",
    "--wait",
    "--max-steps",
    "2",
    "--prompt",
    "hi",
  ]);
  assert.equal(looping.code, 1);
  assert.match(
    looping.stderr,
    /still calling tools after 2 turns: raise --max-steps/,
  );
});

Deno.test("the session store skips a torn last line and keeps only the newest sessions", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const meta = {
      agent: "beeuni",
      harness: "experimental" as const,
      model: "openai/x",
      startedAt: "2026-12-02T00:00:00.000Z",
      prompt: "p",
    };
    for (const n of [1, 2, 3, 4]) {
      const writer = await openSessionWriter(dir, { ...meta, id: `s${n}` }, 3);
      await writer.write({ type: "text", text: `t${n}` });
      await writer.close();
    }
    assert.deepEqual(readdirSync(join(dir, "sessions")).sort(), [
      "s2.jsonl",
      "s3.jsonl",
      "s4.jsonl",
    ]);
    await Deno.writeTextFile(
      join(dir, "sessions", "s4.jsonl"),
      '{"type":"end","sta',
      {
        append: true,
      },
    );
    assert.deepEqual(readSession(dir, "s4").map((r) => r.type), [
      "start",
      "text",
    ]);
    assert.throws(
      () => readSession(dir, "s1"),
      /no session "s1" in this project/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("each command of the README's testing steps runs, ending with a session and its log (S1, S2)", async () => {
  const readme = await Deno.readTextFile(
    new URL("../README.md", import.meta.url),
  );
  const section = readme.split("### Test a tool")[1].split("\n## ")[0];
  const commands = [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1].trim().split("\n"));
  assert.deepEqual(commands.map((line) => line.split(" ").slice(0, 3)), [
    ["beeuni", "validate", "--load"],
    ["beeuni", "tools", "ls"],
    ["beeuni", "tools", "call"],
    ["beeuni", "sessions", "new"],
    ["beeuni", "sessions", "log"],
  ]);
  await using fx = await sessionFixture("openai-responses", [
    { calls: [{ name: "weather_now", args: { city: "Berlin" } }] },
    { text: "Sunny, 21 °C in Berlin" },
  ], {
    "beeuni.yaml": "tools:\n  weather_now: tools/weather_now.ts\n",
    "tools/weather_now.ts": FILES["tools/weather_now.ts"],
  });
  let id = "";
  for (const line of commands) {
    // The words as a shell would split them (single or double quotes).
    const words = [...line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)].map(
      (m) => m[1] ?? m[2] ?? m[3],
    ).slice(1).map((word) => word === "<id>" ? id : word);
    const out = await fx.run(words);
    assert.equal(out.code, 0, `${line}\n${out.stderr}`);
    if (words[0] === "sessions" && words[1] === "new") {
      id = sessionId(out.stdout);
      assert.match(out.stdout, /^\[tool\] weather_now ok \d+ ms$/m);
    }
    if (words[1] === "log") {
      assert.match(out.stdout, /tool result weather_now: ok in \d+ ms/);
    }
  }
  assert.notEqual(id, "");
});

Deno.test("a call past its timeout is logged as timeout and the model reads the host's message (S2, T6)", async () => {
  await using fx = await sessionFixture("openai-chat", [
    { calls: [{ name: "slow", args: {} }] },
    { text: "It timed out." },
  ], SLOW);
  const out = await fx.run([
    "sessions",
    "new",
    "--wait",
    "--timeout-ms",
    "500",
    "--prompt",
    "Call slow.",
  ]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stdout, /^\[tool\] slow timeout \d+ ms$/m);
  const [read] = [...fx.server.toolResults(1).values()];
  const direct = await fx.run([
    "tools",
    "call",
    "slow",
    "--timeout-ms",
    "500",
  ]);
  assert.equal(direct.code, 1);
  assert.equal(read.text, direct.stderr.replace(/\n$/, ""));
  const log = await fx.run(["sessions", "log", sessionId(out.stdout)]);
  assert.match(log.stdout, /tool result slow: timeout in \d+ ms/);
});

Deno.test("SIGTERM stops a waiting session: its running call ends aborted and the log ends failed (S2)", async () => {
  await using fx = await sessionFixture("anthropic", [
    { calls: [{ name: "slow", args: {} }] },
    { text: "never read" },
  ], SLOW);
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      CLI,
      "sessions",
      "new",
      "--wait",
      "--prompt",
      "Call slow.",
    ],
    cwd: fx.dir,
    env: { ...fx.env, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  // Not left running should a check below fail.
  await using _child = {
    [Symbol.asyncDispose]: async () => {
      try {
        child.kill("SIGKILL");
      } catch {
        // It has exited.
      }
      await output;
    },
  };
  const sessions = async () =>
    JSON.parse((await fx.run(["sessions", "ls", "--json"])).stdout) as {
      id: string;
    }[];
  let id = "";
  await waitFor("the slow call to start", async () => {
    id = (await sessions())[0]?.id ?? "";
    if (id === "") return false;
    const log = await fx.run(["sessions", "log", id, "--json"]);
    return (JSON.parse(log.stdout) as SessionRecord[]).some((r) =>
      r.type === "tool-call"
    );
  });
  child.kill("SIGTERM");
  const done = await output;
  assert.equal(done.code, 1);
  assert.match(
    new TextDecoder().decode(done.stderr),
    /failed: the session was stopped/,
  );
  const log = await fx.run(["sessions", "log", id]);
  assert.match(log.stdout, /tool result slow: aborted in \d+ ms/);
  assert.match(log.stdout, /end: failed at \S+: the session was stopped/);
  assert.equal(fx.server.requests.length, 1);
});
