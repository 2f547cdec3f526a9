// The tool host as a library: real temporary projects, real tool modules,
// real workers.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Host, HostOptions } from "../mod.ts";
import { BEEUNI_TOOLS } from "../lib/manifest/mod.ts";
import { REPO_ROOT } from "./_helpers.ts";
import { call, type Fixture, manifest, project, tool } from "./_host.ts";

Deno.test("createHost() leaves out each module that cannot load and logs why, the rest still load (T1, T8, T9)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest([
      "good",
      "no_default",
      "not_plain",
      "array_default",
      "empty_description",
      "string_schema",
      "bad_schema",
      "no_execute",
      "throws",
      "needs_zod",
      "uses_bun",
    ]) + "  missing: tools/missing.ts\n",
    "tools/good.ts": tool(`return "fine";`),
    "tools/no_default.ts": `export const description = "x";\n`,
    "tools/not_plain.ts":
      `class T { description = "x"; parameters = { type: "object" }; execute() { return ""; } }\nexport default new T();\n`,
    "tools/array_default.ts": `export default [];\n`,
    "tools/empty_description.ts": tool(`return "";`, "  "),
    "tools/string_schema.ts":
      `export default { description: "x", parameters: { type: "string" }, execute() { return ""; } };\n`,
    "tools/bad_schema.ts":
      `export default { description: "x", parameters: { type: "object", properties: { a: { type: "no-such-type" } } }, execute() { return ""; } };\n`,
    "tools/no_execute.ts":
      `export default { description: "x", parameters: { type: "object" }, execute: "run" };\n`,
    "tools/throws.ts": `throw new Error("boom at import");\n`,
    "tools/needs_zod.ts":
      `import { z } from "zod";\nexport default { description: "x", parameters: z.toJSONSchema(z.object({})), execute() { return ""; } };\n`,
    "tools/uses_bun.ts":
      `const file = Bun.file("x");\nexport default { description: "x", parameters: { type: "object" }, execute() { return String(file); } };\n`,
  });
  const reasons = Object.fromEntries(
    p.host.loadErrors().map((e) => [e.name, e.reason]),
  );
  assert.deepEqual(Object.keys(reasons).sort(), [
    "array_default",
    "bad_schema",
    "empty_description",
    "missing",
    "needs_zod",
    "no_default",
    "no_execute",
    "not_plain",
    "string_schema",
    "throws",
    "uses_bun",
  ]);
  assert.match(reasons.missing, /file not found/);
  assert.match(reasons.no_default, /no default export/);
  assert.match(reasons.not_plain, /not a plain object/);
  assert.match(reasons.array_default, /not a plain object/);
  assert.match(
    reasons.empty_description,
    /description must be a non-empty string/,
  );
  assert.match(reasons.string_schema, /type: "object"/);
  assert.match(reasons.bad_schema, /not a valid JSON Schema/);
  assert.match(reasons.no_execute, /execute must be a function/);
  assert.match(reasons.throws, /threw while loading: boom at import/);
  assert.match(reasons.needs_zod, /Cannot find package 'zod'/);
  assert.ok(
    reasons.uses_bun.includes(
      `Bun APIs exist only when the daemon runs under Bun, and this one runs under Deno: start it with Bun instead, \`bun ${
        join(REPO_ROOT, "daemon.ts")
      } --dir ${p.dir}\``,
    ),
    reasons.uses_bun,
  );
  assert.deepEqual(p.host.list().map((t) => t.name), ["good"]);
  const header = p.logs.indexOf("[tools] project tools that did not load");
  assert.notEqual(header, -1);
  for (const [name, reason] of Object.entries(reasons)) {
    assert.ok(
      p.logs.includes(`[tools]   ${name}: ${reason}`),
      `log line for ${name}`,
    );
  }
  assert.deepEqual(await call(p.host, "good"), { ok: true, output: "fine" });
});

Deno.test("createHost() hosts the selected Beeuni tools from builtin_tools/ and reports a missing one as a load failure (D1)", async () => {
  await using p = await project({ "beeuni.yaml": "agents:\n  build: {}\n" });
  const errors = new Map(p.host.loadErrors().map((e) => [e.name, e.reason]));
  const listed = p.host.list().map((t) => t.name);
  for (const name of BEEUNI_TOOLS) {
    const file = join(REPO_ROOT, "builtin_tools", `${name}.ts`);
    if (existsSync(file) && !errors.has(name)) {
      assert.ok(listed.includes(name), `${name} is listed`);
      assert.equal(
        p.host.list().find((t) => t.name === name)?.kind,
        "beeuni",
      );
    } else if (!existsSync(file)) {
      assert.match(errors.get(name) ?? "", /file not found/);
    }
  }
});

Deno.test("an overridden Beeuni tool runs the project's module (M6, D1)", async () => {
  await using p = await project({
    "beeuni.yaml": "tools:\n  show: tools/show.ts\n",
    "tools/show.ts": tool(`return "project show";`),
  });
  assert.deepEqual(
    p.host.list().map((t) => [t.name, t.kind, t.source]),
    [["show", "beeuni (overridden)", "tools/show.ts"]],
  );
  assert.deepEqual(await call(p.host, "show"), {
    ok: true,
    output: "project show",
  });
});

Deno.test("list() gives name, description and parameters as the module wrote them", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["lookup"]),
    "tools/lookup.ts": tool(`return "";`, "Look up an order by id."),
  });
  assert.deepEqual(p.host.list(), [{
    name: "lookup",
    description: "Look up an order by id.",
    parameters: { type: "object", properties: { mode: { type: "string" } } },
    kind: "project",
    source: "tools/lookup.ts",
  }]);
});

Deno.test("a string result is sent as is, any other JSON value as indented JSON (T3)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["result"]),
    "tools/result.ts": tool(`
    switch (args.mode) {
      case "string": return "plain \\"text\\"\\n";
      case "object": return { a: 1, b: [true, null], c: { d: "e" } };
      case "array": return [1, "two"];
      case "number": return 42;
      case "null": return null;
      case "false": return false;
      case "empty": return "";
    }`),
  });
  const expect: Record<string, string> = {
    string: 'plain "text"\n',
    object: JSON.stringify({ a: 1, b: [true, null], c: { d: "e" } }, null, 2),
    array: JSON.stringify([1, "two"], null, 2),
    number: "42",
    null: "null",
    false: "false",
    empty: "",
  };
  for (const [mode, output] of Object.entries(expect)) {
    // A plain object also comes back as structured data (for MCP).
    const structured = mode === "object"
      ? { structured: JSON.parse(output) }
      : {};
    assert.deepEqual(await call(p.host, "result", { mode }), {
      ok: true,
      output,
      ...structured,
    }, mode);
  }
});

Deno.test("undefined, BigInt, cycles, functions and symbols are a clear tool error (T3)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["result"]),
    "tools/result.ts": tool(`
    switch (args.mode) {
      case "undefined": return undefined;
      case "bigint": return 10n;
      case "nested_bigint": return { n: 10n };
      case "cycle": { const a = {}; a.self = a; return a; }
      case "function": return () => 1;
      case "nested_function": return { f() {} };
      case "symbol": return Symbol("s");
    }`),
  });
  const expect: Record<string, RegExp> = {
    undefined: /^the tool returned undefined: return a string or a JSON value$/,
    bigint: /^the tool returned a BigInt, which JSON cannot hold/,
    nested_bigint: /^the tool returned a BigInt at key "n"/,
    cycle: /^the tool returned a value with a cycle/,
    function: /^the tool returned a function/,
    nested_function: /^the tool returned a function at key "f"/,
    symbol: /^the tool returned a symbol/,
  };
  for (const [mode, pattern] of Object.entries(expect)) {
    const outcome = await call(p.host, "result", { mode });
    assert.equal(outcome.ok, false, mode);
    if (!outcome.ok) {
      assert.equal(outcome.status, "error");
      assert.match(outcome.error, pattern, mode);
    }
  }
});

Deno.test("any thrown value ends the call as a tool error with a readable message (T4)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["thrower"]),
    "tools/thrower.ts": tool(`
    switch (args.mode) {
      case "error": throw new Error("orders API answered 503");
      case "type_error": throw new TypeError("x is not a function");
      case "string": throw "plain string";
      case "message_object": throw { message: "object with a message", code: 7 };
      case "object": throw { code: 7 };
      case "null": throw null;
      case "undefined": throw undefined;
      case "number": throw 42;
      case "rejected": return await Promise.reject(new Error("async failure"));
    }`),
  });
  const expect: Record<string, string> = {
    error: "orders API answered 503",
    type_error: "TypeError: x is not a function",
    string: "plain string",
    message_object: "object with a message",
    object: 'the tool threw {"code":7}',
    null: "the tool threw null",
    undefined: "the tool threw undefined",
    number: "the tool threw number 42",
    rejected: "async failure",
  };
  for (const [mode, error] of Object.entries(expect)) {
    assert.deepEqual(await call(p.host, "thrower", { mode }), {
      ok: false,
      status: "error",
      error,
    }, mode);
  }
});

Deno.test("a call to a tool that is not loaded fails with Tool <name> not found (D2)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["broken"]),
    "tools/broken.ts": `export default {};\n`,
  });
  for (const name of ["show", "nothing"]) {
    assert.deepEqual(await call(p.host, name), {
      ok: false,
      status: "not_found",
      error: `Tool ${name} not found`,
    });
  }
  // A declared tool that did not load says why, beside the seed's text (T8).
  assert.deepEqual(await call(p.host, "broken"), {
    ok: false,
    status: "not_found",
    error: "Tool broken not found",
    loadError: "description must be a non-empty string",
  });
});

Deno.test("an agent calling a tool it may not see is refused, and list() hides it (D4, A2, A4)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(
      ["alpha", "beta"],
      `agents:
  build:
    tools: [alpha, beta, task]
  narrow:
    tools: [alpha]
  helper:
    tools: { exclude: [alpha] }
`,
    ),
    "tools/alpha.ts": tool(`return "alpha";`),
    "tools/beta.ts": tool(`return "beta";`),
  });
  assert.deepEqual(p.host.list("narrow").map((t) => t.name), ["alpha"]);
  assert.deepEqual(p.host.list("build").map((t) => t.name), ["alpha", "beta"]);
  assert.deepEqual(p.host.list("helper", "narrow").map((t) => t.name), []);
  const refused = await call(p.host, "beta", {}, { agent: "narrow" });
  assert.deepEqual(refused, {
    ok: false,
    status: "forbidden",
    error:
      `agent "narrow" may not use tool "beta": it is not in the agent's tools`,
  });
  assert.deepEqual(await call(p.host, "alpha", {}, { agent: "narrow" }), {
    ok: true,
    output: "alpha",
  });
  const sub = await call(p.host, "beta", {}, {
    agent: "helper",
    parentAgent: "narrow",
  });
  assert.equal(sub.ok, false);
  if (!sub.ok) assert.equal(sub.status, "forbidden");
  assert.deepEqual(
    await call(p.host, "beta", {}, { agent: "helper", parentAgent: "build" }),
    { ok: true, output: "beta" },
  );
});

Deno.test("context holds sessionId, agent, directory, env and an AbortSignal (T5)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["ctx"]),
    "tools/ctx.ts": tool(`return {
      keys: Object.keys(context).sort(),
      sessionId: context.sessionId,
      agent: context.agent,
      directory: context.directory,
      base: context.env.BASE_VAR,
      signal: context.signal instanceof AbortSignal && !context.signal.aborted,
    };`),
  });
  const outcome = await call(p.host, "ctx", {}, {
    sessionId: "session-7",
    agent: "reviewer",
  });
  assert.equal(outcome.ok, true);
  if (outcome.ok) {
    assert.deepEqual(JSON.parse(outcome.output), {
      keys: ["agent", "directory", "env", "progress", "sessionId", "signal"],
      sessionId: "session-7",
      agent: "reviewer",
      directory: p.dir,
      base: "base",
      signal: true,
    });
  }
});

Deno.test("secrets reach context.env only when granted, at their value at each call (D6, T5)", async () => {
  const store: Record<string, string> = { API_KEY: "k1", OTHER: "o1" };
  await using p = await project({
    "beeuni.yaml": manifest(
      ["env"],
      `agents:
  everything:
    secrets: all
  scoped:
    secrets: [API_KEY]
  plain:
    tools: all
`,
    ),
    "tools/env.ts": tool(
      `return { api: context.env.API_KEY ?? null, other: context.env.OTHER ?? null, base: context.env.BASE_VAR };`,
    ),
  }, { secrets: () => ({ ...store }) });
  const seen = async (agent: string) => {
    const outcome = await call(p.host, "env", {}, { agent });
    assert.equal(outcome.ok, true);
    return outcome.ok ? JSON.parse(outcome.output) : undefined;
  };
  assert.deepEqual(await seen("everything"), {
    api: "k1",
    other: "o1",
    base: "base",
  });
  assert.deepEqual(await seen("scoped"), {
    api: "k1",
    other: null,
    base: "base",
  });
  assert.deepEqual(await seen("plain"), {
    api: null,
    other: null,
    base: "base",
  });
  assert.deepEqual(await seen("unknown_agent"), {
    api: null,
    other: null,
    base: "base",
  });
  store.API_KEY = "k2";
  delete store.OTHER;
  assert.deepEqual(await seen("everything"), {
    api: "k2",
    other: null,
    base: "base",
  });
  assert.ok(
    p.logs.every((line) => !line.includes("k1") && !line.includes("k2")),
  );
});

const STRICT_TOOL = `export default {
  description: "Look up an order",
  parameters: {
    type: "object",
    properties: {
      id: { type: "string" },
      limit: { type: "integer" },
      unit: { enum: ["km", "mi"] },
      filter: { type: "object", properties: { status: { enum: ["open", 2] } } },
    },
    required: ["id"],
  },
  execute(args) { return JSON.stringify(args); },
};
`;

Deno.test("arguments are passed unchecked unless validation is on (T2)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["lookup"]),
    "tools/lookup.ts": STRICT_TOOL,
  });
  assert.deepEqual(await call(p.host, "lookup", { limit: "x" }), {
    ok: true,
    output: '{"limit":"x"}',
  });
});

Deno.test("with validation on, bad arguments fail naming the field (T2)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["lookup"]),
    "tools/lookup.ts": STRICT_TOOL,
  }, { validateArgs: true });
  assert.deepEqual(await call(p.host, "lookup", { limit: "x" }), {
    ok: false,
    status: "error",
    error:
      `invalid arguments for tool "lookup": missing required field "id"; field "limit" must be integer`,
  });
  // An enum names its allowed values, and a nested field its path (T2).
  assert.deepEqual(
    await call(p.host, "lookup", {
      id: "A-1",
      unit: "m",
      filter: { status: "closed" },
    }),
    {
      ok: false,
      status: "error",
      error:
        `invalid arguments for tool "lookup": field "unit" must be one of "km", "mi"; field "filter.status" must be one of "open", 2`,
    },
  );
  assert.deepEqual(await call(p.host, "lookup", { id: "A-1" }), {
    ok: true,
    output: '{"id":"A-1"}',
  });
});

const BIG_TOOL = tool(`
    switch (args.mode) {
      case "bytes": return Array.from({ length: 1000 }, (_, i) => String(i).padEnd(99, "x")).join("\\n") + "\\n";
      case "lines": return Array.from({ length: 3000 }, (_, i) => "line " + i).join("\\n");
      case "exact_bytes": return "a".repeat(51_199) + "\\n";
      case "exact_lines": return "l\\n".repeat(2000);
      case "wide": return "é".repeat(30_000);
      case "json": return Array.from({ length: 2500 }, (_, i) => i);
    }`);

async function checkTruncated(
  p: Fixture,
  mode: string,
  full: string,
): Promise<string> {
  const outcome = await call(p.host, "big", { mode });
  assert.equal(outcome.ok, true, mode);
  if (!outcome.ok) return "";
  assert.equal(outcome.truncated, true, mode);
  const bytes = new TextEncoder().encode(full).length;
  assert.equal(outcome.size, bytes);
  assert.ok(outcome.path?.startsWith(join(p.dir, ".tool-output")));
  const stat = await Deno.stat(outcome.path!);
  assert.equal(stat.mode! & 0o777, 0o600);
  assert.equal(await Deno.readTextFile(outcome.path!), full);
  const text = outcome.output;
  assert.ok(new TextEncoder().encode(text).length <= 51_200, "within bytes");
  assert.ok(text.split("\n").length <= 2_000, "within lines");
  const lines = text.split("\n");
  const notice = lines.pop()!;
  const head = lines.join("\n") + "\n";
  const totalLines = full.endsWith("\n")
    ? full.split("\n").length - 1
    : full.split("\n").length;
  assert.equal(
    notice,
    `[output truncated: showing the first ${lines.length} of ${totalLines} lines (${
      new TextEncoder().encode(head).length
    } of ${bytes} bytes); the full output is in ${outcome.path}]`,
  );
  return head;
}

Deno.test("an output over 51,200 bytes is cut at a line boundary and saved whole to a 0600 file (T6)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG_TOOL,
  });
  const full = Array.from({ length: 1000 }, (_, i) => String(i).padEnd(99, "x"))
    .join("\n") + "\n";
  const head = await checkTruncated(p, "bytes", full);
  assert.ok(full.startsWith(head));
  assert.ok(head.length > 40_000);
});

Deno.test("an output over 2,000 lines is cut to fewer lines and saved whole (T6)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG_TOOL,
  });
  const full = Array.from({ length: 3000 }, (_, i) => "line " + i).join("\n");
  const head = await checkTruncated(p, "lines", full);
  assert.ok(full.startsWith(head));
  assert.equal(head.split("\n").length - 1, 1_999);
  const json = JSON.stringify(
    Array.from({ length: 2500 }, (_, i) => i),
    null,
    2,
  );
  await checkTruncated(p, "json", json);
});

Deno.test("an output exactly at both limits is sent whole (T6)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG_TOOL,
  });
  for (const mode of ["exact_bytes", "exact_lines"]) {
    const outcome = await call(p.host, "big", { mode });
    assert.equal(outcome.ok && outcome.truncated, undefined, mode);
  }
});

Deno.test("a single long line of multi-byte text is cut without splitting a character (T6)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG_TOOL,
  });
  const outcome = await call(p.host, "big", { mode: "wide" });
  assert.equal(outcome.ok, true);
  if (!outcome.ok) return;
  assert.equal(outcome.size, 60_000);
  const head = outcome.output.split("\n")[0];
  assert.match(head, /^é+$/);
  assert.ok(new TextEncoder().encode(outcome.output).length <= 51_200);
});

const WAITER = tool(`
    if (args.mode === "quick") return "quick";
    const { renameSync, writeFileSync } = await import("node:fs");
    writeFileSync(context.directory + "/started-" + args.mode, "");
    await new Promise((resolve) => {
      context.signal.addEventListener("abort", resolve, { once: true });
    });
    // Written whole, then renamed: the test never reads it half-written.
    const path = context.directory + "/aborted-" + args.mode;
    writeFileSync(path + ".tmp", String(context.signal.reason?.name));
    renameSync(path + ".tmp", path);
    return "saw abort";`);

async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    try {
      return await Deno.readTextFile(path);
    } catch {
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  throw new Error(`${path} never appeared`);
}

Deno.test("aborting the request's signal aborts context.signal and ends the call as aborted (T5)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["waiter"]),
    "tools/waiter.ts": WAITER,
  });
  const controller = new AbortController();
  const pending = call(p.host, "waiter", { mode: "sig" }, {
    sessionId: "sig",
    signal: controller.signal,
  });
  await waitForFile(join(p.dir, "started-sig"));
  controller.abort();
  const outcome = await pending;
  assert.equal(outcome.ok, false);
  if (!outcome.ok) assert.equal(outcome.status, "aborted");
  assert.equal(await waitForFile(join(p.dir, "aborted-sig")), "AbortError");
  assert.equal(p.host.running(), 0);
  assert.deepEqual(await call(p.host, "waiter", { mode: "quick" }), {
    ok: true,
    output: "quick",
  });
});

Deno.test("stopSession() aborts every running call of that session and no other (T5)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["waiter"]),
    "tools/waiter.ts": WAITER,
  });
  const a = call(p.host, "waiter", { mode: "a" }, { sessionId: "stopme" });
  const b = call(p.host, "waiter", { mode: "b" }, { sessionId: "stopme" });
  const other = new AbortController();
  const c = call(p.host, "waiter", { mode: "c" }, {
    sessionId: "keep",
    signal: other.signal,
  });
  for (const mode of ["a", "b", "c"]) {
    await waitForFile(join(p.dir, `started-${mode}`));
  }
  assert.equal(p.host.running(), 3);
  assert.equal(p.host.stopSession("stopme"), 2);
  assert.equal(p.host.stopSession("nobody"), 0);
  for (const outcome of await Promise.all([a, b])) {
    assert.equal(!outcome.ok && outcome.status, "aborted");
  }
  assert.equal(p.host.running(), 1);
  other.abort();
  await c;
  for (const mode of ["a", "b", "c"]) {
    assert.equal(
      await waitForFile(join(p.dir, `aborted-${mode}`)),
      "AbortError",
    );
  }
});

const HOSTILE = tool(`
    switch (args.mode) {
      case "loop": for (;;) {}
      case "deno_exit": Deno.exit(3);
      case "process_exit": { const { default: process } = await import("node:process"); process.exit(4); }
      case "later_exit": setTimeout(() => Deno.exit(5), 0); return "exit scheduled";
      case "reject": Promise.reject(new Error("nobody catches this")); return "leaked a rejection";
      case "heap": { const hoard = []; for (;;) hoard.push(new Array(100_000).fill(hoard.length)); }
      default: return "still here";
    }`);

async function whileOtherAnswers(
  p: Fixture,
  mode: string,
  timeoutMs?: number,
) {
  const hostile = call(p.host, "hostile", { mode }, { timeoutMs });
  // The other tool answers while the hostile call is still running.
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(await call(p.host, "other"), {
      ok: true,
      output: "other",
    });
  }
  const outcome = await hostile;
  assert.deepEqual(await call(p.host, "other"), { ok: true, output: "other" });
  assert.deepEqual(await call(p.host, "hostile", { mode: "fine" }), {
    ok: true,
    output: "still here",
  });
  return outcome;
}

function hostileProject(options: Partial<HostOptions> = {}) {
  return project({
    "beeuni.yaml": manifest(["hostile", "other"]),
    "tools/hostile.ts": HOSTILE,
    "tools/other.ts": tool(`return "other";`),
  }, options);
}

Deno.test("a synchronous endless loop times out, its runner is replaced, other tools keep answering (H1)", async () => {
  await using p = await hostileProject();
  const outcome = await whileOtherAnswers(p, "loop", 1_500);
  assert.deepEqual(outcome, {
    ok: false,
    status: "timeout",
    error: `tool "hostile" did not finish within 1500 ms: the call was stopped`,
  });
  assert.ok(
    p.logs.some((line) =>
      line.startsWith("[tools] hostile: runner replaced: ")
    ),
  );
});

Deno.test("Deno.exit() and process.exit() in a tool fail that call and end nothing else", async () => {
  await using p = await hostileProject();
  for (
    const [mode, how] of [["deno_exit", "Deno.exit(3)"], [
      "process_exit",
      "process.exit(4)",
    ]]
  ) {
    const outcome = await whileOtherAnswers(p, mode);
    assert.deepEqual(outcome, {
      ok: false,
      status: "error",
      error:
        `the tool called ${how}: a tool may not end the process; throw an Error to fail the call instead`,
    });
  }
  assert.deepEqual(await whileOtherAnswers(p, "later_exit"), {
    ok: true,
    output: "exit scheduled",
  });
});

Deno.test("unhandled rejections in a tool are logged and end nothing", async () => {
  await using p = await hostileProject();
  assert.deepEqual(await whileOtherAnswers(p, "reject"), {
    ok: true,
    output: "leaked a rejection",
  });
  assert.ok(
    p.logs.includes(
      "[tools] hostile: unhandled rejection: nobody catches this",
    ),
  );
});

Deno.test("a tool that exhausts its heap fails that call at once; the host and other tools live on (H1)", async () => {
  await using p = await hostileProject({ heapMb: 64 });
  const outcome = await whileOtherAnswers(p, "heap", 60_000);
  // At its heap limit the runner process ends: the call fails then, not at
  // its timeout, and the next call starts a new runner.
  assert.deepEqual(outcome, {
    ok: false,
    status: "error",
    error:
      `the runner of tool "hostile" ended while running the call: it ran out of memory (heap limit 64 MB); it is restarted on the next call`,
  });
});

Deno.test("each call is logged with tool, agent, session, duration and outcome, never its arguments", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["echo"]),
    "tools/echo.ts": tool(`return "ok";`),
  });
  await call(p.host, "echo", { secret_arg: "hunter2" }, {
    agent: "a1",
    sessionId: "s9",
  });
  await call(p.host, "nothing", {}, { agent: "a1", sessionId: "s9" });
  const lines = p.logs.filter((l) => l.startsWith("[tools] call "));
  assert.equal(lines.length, 2);
  assert.match(lines[0], /^\[tools\] call echo agent=a1 session=s9 \d+ms ok$/);
  assert.match(
    lines[1],
    /^\[tools\] call nothing agent=a1 session=s9 \d+ms not_found$/,
  );
  assert.ok(p.logs.every((l) => !l.includes("hunter2")));
});

/** A reload's result without its warnings. */
function summary(result: Awaited<ReturnType<Host["reload"]>>) {
  assert.deepEqual(
    result.diagnostics.filter((d) => d.severity === "error"),
    [],
  );
  return { ok: result.ok, changed: result.changed };
}

Deno.test("reload() during a stream of concurrent calls fails none and serves the new modules (D5)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["version", "slow"]),
    "tools/version.ts": tool(`return "v1";`),
    "tools/slow.ts": tool(
      `await new Promise((r) => setTimeout(r, 400)); return "slow v1";`,
    ),
  });
  const failures: unknown[] = [];
  const outputs: string[] = [];
  let stop = false;
  const worker = async () => {
    while (!stop) {
      const outcome = await call(p.host, "version");
      if (outcome.ok) outputs.push(outcome.output);
      else {
        failures.push(outcome);
        await new Promise((r) => setTimeout(r, 10));
      }
    }
  };
  const streams = Array.from({ length: 8 }, worker);
  // Reload only once the stream is flowing, so it happens mid-stream, with
  // a slow call of the old runtime still running.
  while (outputs.length < 20 && failures.length === 0) {
    await new Promise((r) => setTimeout(r, 10));
  }
  const slow = call(p.host, "slow");
  await Deno.writeTextFile(
    join(p.dir, "tools/version.ts"),
    tool(`return "v2";`, "Second version"),
  );
  assert.deepEqual(summary(await p.host.reload()), { ok: true, changed: true });
  const after = outputs.length;
  while (outputs.length < after + 50 && failures.length === 0) {
    await new Promise((r) => setTimeout(r, 10));
  }
  stop = true;
  await Promise.all(streams);
  assert.deepEqual(failures, []);
  assert.deepEqual(await slow, { ok: true, output: "slow v1" });
  assert.equal(outputs.at(-1), "v2");
  assert.ok(outputs.includes("v1"));
  assert.equal(p.host.list()[0].description, "Second version");
  assert.deepEqual(summary(await p.host.reload()), {
    ok: true,
    changed: false,
  });
});

Deno.test("reload() with an invalid manifest keeps the old tool set serving and returns the diagnostics (D5)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["echo"]),
    "tools/echo.ts": tool(`return "still served";`),
  });
  await Deno.writeTextFile(join(p.dir, "beeuni.yaml"), "tools: [\n");
  const result = await p.host.reload();
  assert.equal(result.ok, false);
  assert.equal(result.changed, false);
  assert.ok(result.diagnostics.some((d) => d.severity === "error"));
  assert.deepEqual(p.host.list().map((t) => t.name), ["echo"]);
  assert.deepEqual(await call(p.host, "echo"), {
    ok: true,
    output: "still served",
  });
  assert.ok(
    p.logs.includes("[tools] reload refused: the old tool set keeps serving"),
  );
});

Deno.test("reload() picks up added and removed tools (D5)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["one"]),
    "tools/one.ts": tool(`return "one";`),
    "tools/two.ts": tool(`return "two";`),
  });
  await Deno.writeTextFile(join(p.dir, "beeuni.yaml"), manifest(["two"]));
  assert.deepEqual(summary(await p.host.reload()), {
    ok: true,
    changed: true,
  });
  assert.deepEqual(p.host.list().map((t) => t.name), ["two"]);
  assert.equal((await call(p.host, "one")).ok, false);
  assert.deepEqual(await call(p.host, "two"), { ok: true, output: "two" });
});

Deno.test("a module stuck at import time is left out after the load timeout; the others load (T8)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["stuck", "fine", "exits"]),
    "tools/stuck.ts": `for (;;) {}\nexport default {};\n`,
    "tools/exits.ts": `Deno.exit(1);\nexport default {};\n`,
    "tools/fine.ts": tool(`return "fine";`),
  }, { loadTimeoutMs: 1_500 });
  assert.deepEqual(p.host.loadErrors(), [
    {
      name: "stuck",
      reason: "importing the module did not finish within 1500 ms",
    },
    {
      name: "exits",
      reason:
        "the module threw while loading: the tool called Deno.exit(1): a tool may not end the process; throw an Error to fail the call instead",
    },
  ]);
  assert.deepEqual(await call(p.host, "fine"), { ok: true, output: "fine" });
});

Deno.test("a tool touching Bun under Deno fails with the command that starts this project's daemon under Bun (T7)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["bun_call"]),
    "tools/bun_call.ts": tool(`return Bun.version;`),
  });
  const outcome = await call(p.host, "bun_call");
  assert.equal(outcome.ok, false);
  if (!outcome.ok) {
    assert.equal(outcome.status, "error");
    assert.equal(
      outcome.error,
      `Bun APIs exist only when the daemon runs under Bun, and this one runs under Deno: start it with Bun instead, \`bun ${
        join(REPO_ROOT, "daemon.ts")
      } --dir ${p.dir}\`, or use node:* modules in the tool (ReferenceError: Bun is not defined)`,
    );
  }
});

Deno.test("a tool's runner idle for idleMs is stopped and started again on the next call (H3)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["counter"]),
    "tools/counter.ts": `let calls = 0;
export default {
  description: "Counts its calls since its module loaded",
  parameters: { type: "object" },
  execute() { return String(++calls); },
};
`,
  }, { idleMs: 300 });
  assert.deepEqual(await call(p.host, "counter"), { ok: true, output: "1" });
  assert.deepEqual(await call(p.host, "counter"), { ok: true, output: "2" });
  await new Promise((r) => setTimeout(r, 800));
  assert.deepEqual(await call(p.host, "counter"), { ok: true, output: "1" });
});
