// The host's additions for MCP and the web UI: progress reports, content
// blocks and JSON objects in outcomes, and call and reload events. Real
// temporary projects, real tool modules, real workers.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CallOutcome, Host, HostEvent, ProgressUpdate } from "../mod.ts";
import { contentReturn, contentText } from "../lib/host/_content.ts";
import { REPO_ROOT, tempRepo } from "./_helpers.ts";
import { waitFor } from "./_daemon.ts";
import { manifest, project as hostProject } from "./_host.ts";

/** A tool module whose `execute` body is `body` (with `args` and `context` in scope). */
function tool(body: string): string {
  return `export default {
  description: "A test tool",
  parameters: { type: "object", properties: {} },
  async execute(args, context) {
${body}
  },
};
`;
}

/** A host over `files` whose environment holds a secret-looking value. */
const project = (files: Record<string, string>) =>
  hostProject(files, { env: { BASE_VAR: "base", SECRET_LOOKING: "hunter2" } });

const call = (
  host: Host,
  name: string,
  extra: Partial<Parameters<Host["call"]>[0]> = {},
) => host.call({ name, args: {}, sessionId: "s1", agent: "build", ...extra });

const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

Deno.test("context.progress reaches onProgress in order, and is a no-op without it", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["steps"]),
    "tools/steps.ts": tool(`
      for (let i = 1; i <= 3; i++) {
        context.progress(i, 3, "step " + i);
        await new Promise((r) => setTimeout(r, 20));
      }
      context.progress(Number.NaN);
      context.progress("4");
      return "done";
    `),
  });
  const seen: ProgressUpdate[] = [];
  const outcome = await call(p.host, "steps", {
    onProgress: (update) => seen.push(update),
  });
  assert.deepEqual(outcome, { ok: true, output: "done" });
  assert.deepEqual(seen, [
    { progress: 1, total: 3, message: "step 1" },
    { progress: 2, total: 3, message: "step 2" },
    { progress: 3, total: 3, message: "step 3" },
  ]);
  // Without a listener the same tool runs the same, and nothing breaks.
  assert.deepEqual(await call(p.host, "steps"), { ok: true, output: "done" });
});

Deno.test("progress reported in a tight loop arrives as its latest value, before the result", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["burst"]),
    "tools/burst.ts": tool(`
      for (let i = 1; i <= 100000; i++) context.progress(i, 100000);
      return "ok";
    `),
  });
  const seen: ProgressUpdate[] = [];
  let resultSeenAfter = -1;
  const outcome = await call(p.host, "burst", {
    onProgress: (update) => seen.push(update),
  }).then((o) => {
    resultSeenAfter = seen.length;
    return o;
  });
  assert.equal(outcome.ok, true);
  assert.deepEqual(seen, [{ progress: 100000, total: 100000 }]);
  assert.equal(resultSeenAfter, 1);
});

Deno.test("a returned JSON object is also the outcome's structured value; arrays and strings are not", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["obj", "arr", "str"]),
    "tools/obj.ts": tool(`return { a: 1, nested: { b: [true, null] } };`),
    "tools/arr.ts": tool(`return [1, 2];`),
    "tools/str.ts": tool(`return "plain";`),
  });
  const obj = await call(p.host, "obj");
  assert.ok(obj.ok);
  assert.equal(
    obj.output,
    '{\n  "a": 1,\n  "nested": {\n    "b": [\n      true,\n      null\n    ]\n  }\n}',
  );
  assert.deepEqual(obj.structured, { a: 1, nested: { b: [true, null] } });
  const arr = await call(p.host, "arr");
  assert.ok(
    arr.ok && arr.structured === undefined && arr.content === undefined,
  );
  const str = await call(p.host, "str");
  assert.deepEqual(str, { ok: true, output: "plain" });
});

Deno.test("a tool returning { content: [...] } gives blocks, their text as output, and its structuredContent", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["pic", "both", "notblocks"]),
    "tools/pic.ts": tool(
      `return { content: [{ type: "image", data: "${PNG_1X1}", mimeType: "image/png", extra: 1 }] };`,
    ),
    "tools/both.ts": tool(`return {
      content: [
        { type: "text", text: "first" },
        { type: "resource", resource: { uri: "memo://x", mimeType: "text/plain", text: "body" } },
        { type: "text", text: "second" },
      ],
      structuredContent: { count: 2 },
    };`),
    // Not the convention (an unknown block type): plain JSON as before (T3).
    "tools/notblocks.ts": tool(
      `return { content: [{ type: "paragraph", text: "x" }] };`,
    ),
  });
  const pic = await call(p.host, "pic");
  assert.deepEqual(pic, {
    ok: true,
    output: "[image: image/png, 70 bytes]",
    content: [{ type: "image", data: PNG_1X1, mimeType: "image/png" }],
  });
  const both = await call(p.host, "both");
  assert.ok(both.ok);
  assert.equal(both.output, "first\n\nsecond");
  assert.equal(both.content?.length, 3);
  assert.deepEqual(both.structured, { count: 2 });
  const plain = await call(p.host, "notblocks");
  assert.ok(plain.ok && plain.content === undefined);
  assert.deepEqual(JSON.parse(plain.output), {
    content: [{ type: "paragraph", text: "x" }],
  });
  assert.deepEqual(plain.structured, {
    content: [{ type: "paragraph", text: "x" }],
  });
});

Deno.test("content blocks whose text is over a T6 limit are cut like any output, images kept, no structured value", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": tool(`return {
      content: [
        { type: "text", text: "line\\n".repeat(5000) },
        { type: "image", data: "${PNG_1X1}", mimeType: "image/png" },
      ],
      structuredContent: { lines: 5000 },
    };`),
  });
  const outcome = await call(p.host, "big");
  assert.ok(outcome.ok && outcome.truncated);
  assert.match(outcome.output, /\[output truncated: showing the first/);
  assert.deepEqual(outcome.content, [
    { type: "text", text: outcome.output },
    { type: "image", data: PNG_1X1, mimeType: "image/png" },
  ]);
  assert.equal(outcome.structured, undefined);
  assert.equal(
    (await Deno.readTextFile(outcome.path!)).length,
    "line\n".length * 5000,
  );
});

Deno.test("contentReturn() accepts only the convention; contentText() names blocks without text", () => {
  const image = { type: "image", data: PNG_1X1, mimeType: "image/png" };
  assert.ok(contentReturn({ content: [image] }));
  assert.equal(contentReturn({ content: [image], more: 1 }), undefined);
  assert.equal(contentReturn({ content: [] }), undefined);
  assert.equal(
    contentReturn({ content: [{ ...image, data: "not base64!" }] }),
    undefined,
  );
  assert.equal(
    contentReturn({ content: [{ ...image, mimeType: "png" }] }),
    undefined,
  );
  assert.equal(
    contentReturn({ content: [image], structuredContent: [1] }),
    undefined,
  );
  assert.equal(
    contentReturn({
      content: [{
        type: "resource",
        resource: { uri: "a", text: "t", blob: "" },
      }],
    }),
    undefined,
  );
  assert.equal(
    contentText([
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "file:///x.txt", text: "x" } },
    ]),
    "[audio: audio/wav, 3 bytes]\n[resource: file:///x.txt]",
  );
});

Deno.test("subscribe() sees each call's start and end with id, name, agent, session, args, outcome and where its time went, never env", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["echo", "boom"]),
    "tools/echo.ts": tool(
      `return { got: args, env: Object.keys(context.env).length };`,
    ),
    "tools/boom.ts": tool(`throw new Error("bad")`),
  });
  const events: HostEvent[] = [];
  const stop = p.host.subscribe((event) => events.push(event));
  const before = Date.now();
  await p.host.call({
    name: "echo",
    args: { q: 1 },
    sessionId: "sess-9",
    agent: "research",
  });
  await call(p.host, "boom");
  await call(p.host, "missing");
  stop();
  await call(p.host, "echo");
  assert.equal(events.length, 6);
  const [start, end] = events;
  assert.equal(start.type, "call-start");
  assert.equal(end.type, "call-end");
  if (start.type !== "call-start" || end.type !== "call-end") return;
  assert.equal(start.id, end.id);
  assert.deepEqual(
    [start.name, start.agent, start.sessionId, start.args],
    ["echo", "research", "sess-9", { q: 1 }],
  );
  assert.ok(start.startedAt >= before && start.startedAt <= Date.now());
  assert.ok(end.durationMs >= 0);
  assert.ok(end.outcome.ok);
  const ids = new Set(events.map((e) => "id" in e ? e.id : ""));
  assert.equal(ids.size, 3);
  const outcomes = events.flatMap((e) =>
    e.type === "call-end" ? [e.outcome] : []
  ) as CallOutcome[];
  assert.deepEqual(
    outcomes.map((o) => o.ok ? "ok" : o.status),
    ["ok", "error", "not_found"],
  );
  assert.doesNotMatch(JSON.stringify(events), /hunter2|BASE_VAR/);
  // Where each call's time went: a call that reached its runner has a wait
  // and a run within its duration; one refused before has neither.
  const phases = events.flatMap((e) => e.type === "call-end" ? [e] : []).map(
    (e) => e.phases,
  );
  for (const reached of phases.slice(0, 2)) {
    assert.ok(reached, "a call that ran has its phases");
    assert.ok(reached.queuedMs >= 0 && reached.runMs >= 0);
    assert.ok(
      reached.runnerStartMs === undefined ||
        reached.runnerStartMs <= reached.queuedMs,
    );
  }
  assert.equal(phases[2], undefined);
});

Deno.test("subscribe() sees reloads: changed when a tool is added, unchanged otherwise, not ok when refused, with their start and the tools imported anew", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["one"]),
    "tools/one.ts": tool(`return "1";`),
    "tools/two.ts": tool(`return "2";`),
  });
  const events: HostEvent[] = [];
  p.host.subscribe((event) => events.push(event));
  p.host.subscribe(() => {
    throw new Error("a broken listener");
  });
  await p.host.reload();
  await Deno.writeTextFile(
    join(p.dir, "beeuni.yaml"),
    manifest(["one", "two"]),
  );
  await p.host.reload();
  await Deno.writeTextFile(join(p.dir, "beeuni.yaml"), "tools: [");
  await p.host.reload();
  for (const event of events) {
    assert.ok(event.type === "reload" && event.startedAt! <= Date.now());
  }
  assert.deepEqual(
    events.map((event) => ({ ...event, startedAt: undefined })),
    [
      {
        type: "reload",
        ok: true,
        changed: false,
        startedAt: undefined,
        reloaded: ["one"],
      },
      {
        type: "reload",
        ok: true,
        changed: true,
        startedAt: undefined,
        reloaded: ["one", "two"],
      },
      { type: "reload", ok: false, changed: false, startedAt: undefined },
    ],
  );
  assert.ok(
    p.logs.some((l) =>
      l.includes("an event listener failed: a broken listener")
    ),
  );
});

Deno.test("a reload is announced while an old call still runs, not after it drains", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["slow"]),
    // Runs until the test lets it end: the reload comes while it runs.
    "tools/slow.ts": tool(`
      const { existsSync, writeFileSync } = await import("node:fs");
      writeFileSync(context.directory + "/started", "");
      while (!existsSync(context.directory + "/release")) {
        await new Promise((r) => setTimeout(r, 10));
      }
      return "slow";
    `),
    "tools/two.ts": tool(`return "2";`),
  });
  let announced = 0;
  p.host.subscribe((event) => {
    if (event.type === "reload") announced++;
  });
  const slow = call(p.host, "slow");
  await waitFor(
    "the slow call to start",
    () => existsSync(join(p.dir, "started")),
  );
  await Deno.writeTextFile(
    join(p.dir, "beeuni.yaml"),
    manifest(["slow", "two"]),
  );
  await p.host.reload();
  // Announced while the old call still runs.
  assert.equal(announced, 1);
  assert.equal(p.host.running(), 1);
  await Deno.writeTextFile(join(p.dir, "release"), "");
  assert.deepEqual(await slow, { ok: true, output: "slow" });
  assert.deepEqual(p.host.list().map((t) => t.name), ["slow", "two"]);
});

Deno.test("what a tool prints never reaches the host's standard output: it goes to the host's log, one line each, naming the tool", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": manifest(["noisy"]),
    "tools/noisy.ts": `import process from "node:process";
export default {
  description: "Prints",
  parameters: { type: "object" },
  execute() {
    console.log("from console.log");
    console.info("from console.info");
    process.stdout.write("from process.stdout\\n");
    console.error("from console.error");
    return "result";
  },
};
`,
    "run.ts": `import { createHost } from ${
      JSON.stringify(new URL("../mod.ts", import.meta.url).href)
    };
const host = await createHost({ directory: Deno.cwd(), log: (line) => console.error("log: " + line) });
const outcome = await host.call({ name: "noisy", args: {}, sessionId: "s", agent: "a" });
await new Promise((resolve) => setTimeout(resolve, 200));
await host.close();
console.error("outcome:", JSON.stringify(outcome));
`,
  });
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      "--config",
      join(REPO_ROOT, "deno.json"),
      "run.ts",
    ],
    cwd: repo.dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(stdout, "");
  for (
    const line of [
      "from console.log",
      "from console.info",
      "from process.stdout",
      "from console.error",
    ]
  ) {
    assert.match(stderr, new RegExp(`^log: \\[tools\\] noisy: ${line}$`, "m"));
  }
  assert.match(stderr, /outcome: \{"ok":true,"output":"result"\}/);
});
