// A running daemon under hostile manifest changes (D5): the changed
// manifest is read within the manifest limits, off the daemon's heap and
// event loop; the old tools keep serving and calls keep answering.

import assert from "node:assert/strict";
import { join } from "node:path";
import { tempRepo } from "./_helpers.ts";
import { startDaemon, waitFor } from "./_daemon.ts";
import { V7_MESSAGE } from "../lib/manifest/mod.ts";

const ECHO = `export default {
  description: "Echo the text",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args) => "echo:" + args.text,
};
`;

Deno.test("hostile imports written while calls stream leave the daemon serving the old tools and log positioned errors (D5)", async () => {
  await using repo = await tempRepo({
    "tools/echo.ts": ECHO,
    "beeuni.yaml": "imports:\n  - more.yaml\ntools:\n  echo: tools/echo.ts\n",
    "more.yaml": "tools:\n  more: tools/echo.ts\n",
  });
  await using daemon = await startDaemon(repo.dir);
  const names = async () =>
    ((await (await daemon.fetch("/beeuni/tools")).json()).tools as {
      name: string;
    }[]).map((tool) => tool.name).sort();
  assert.deepEqual(await names(), ["echo", "more"]);

  let running = true;
  let ok = 0;
  const failures: string[] = [];
  const caller = async (id: number) => {
    for (let i = 0; running; i++) {
      try {
        // A daemon that stalls fails the call instead of hanging the test.
        const { status, body } = await daemon.call("echo", {
          args: { text: `${id}-${i}` },
          sessionId: `s${id}`,
          agent: "beeuni",
        }, { signal: AbortSignal.timeout(30_000) });
        if (status === 200 && body.output === `echo:${id}-${i}`) ok++;
        else failures.push(`${status} ${JSON.stringify(body)}`);
      } catch (error) {
        failures.push(String(error));
      }
    }
  };
  const callers = Array.from({ length: 4 }, (_, id) => caller(id));
  const refusals = () => daemon.stderr().split("not reloaded").length - 1;
  try {
    await waitFor("some calls", () => ok > 10);

    // 5 MB of `[` in an imported file: refused before it is read.
    await Deno.writeTextFile(
      join(repo.dir, "more.yaml"),
      "[".repeat(5 * 1024 * 1024),
    );
    await waitFor("the first refused reload", () => refusals() >= 1);
    let before = ok;
    await waitFor("calls after the first refusal", () => ok > before + 10);

    // 20,000 entries: read (off the event loop) and refused at the limit.
    await Deno.writeTextFile(
      join(repo.dir, "more.yaml"),
      "tools:\n" +
        Array.from({ length: 20_000 }, (_, i) => `  t${i}: tools/echo.ts\n`)
          .join(""),
    );
    await waitFor("the second refused reload", () => refusals() >= 2);
    before = ok;
    await waitFor("calls after the second refusal", () => ok > before + 10);

    // Nested 100,000 deep: refused where the nesting passes the limit.
    await Deno.writeTextFile(
      join(repo.dir, "more.yaml"),
      "tools: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n",
    );
    await waitFor("the third refused reload", () => refusals() >= 3);
    before = ok;
    await waitFor("calls after the third refusal", () => ok > before + 10);
  } finally {
    running = false;
    await Promise.all(callers);
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(await names(), ["echo", "more"]);
  const log = daemon.stderr();
  assert.ok(
    log.includes(
      'beeuni.yaml:2:5: error: cannot import "more.yaml": it is 5 MiB, more than the limit of 1 MiB for one manifest file: split it into smaller files listed under `imports:`',
    ),
    log,
  );
  assert.ok(
    log.includes(
      "more.yaml:10002:3: error: this mapping has more than 10000 entries (the limit): split it across files listed under `imports:`",
    ),
    log,
  );
  assert.ok(
    log.includes(
      "more.yaml:1:71: error: mappings and lists nest more than 64 levels deep here (the limit): flatten this part of more.yaml",
    ),
    log,
  );
  assert.match(log, /the previous tools keep serving/);

  // A good change afterwards is picked up again.
  await Deno.writeTextFile(
    join(repo.dir, "more.yaml"),
    "tools:\n  more: tools/echo.ts\n  again: tools/echo.ts\n",
  );
  await waitFor("the fixed reload", async () => (await names()).length === 3);
  assert.deepEqual(
    (await daemon.call("again", {
      args: { text: "x" },
      sessionId: "s",
      agent: "beeuni",
    })).body,
    { output: "echo:x" },
  );
});

Deno.test("saving one tool module reloads that tool alone: another tool keeps its module state (P6, D5)", async () => {
  const counter = (label: string) =>
    `let count = 0;
export default {
  description: "Counts its calls",
  parameters: { type: "object" },
  execute: () => ${JSON.stringify(label)} + ":" + ++count,
};
`;
  await using repo = await tempRepo({
    "tools/a.ts": counter("a1"),
    "tools/b.ts": counter("b"),
    "beeuni.yaml": "tools:\n  a: tools/a.ts\n  b: tools/b.ts\n",
  });
  await using daemon = await startDaemon(repo.dir);
  const output = async (name: string) =>
    (await daemon.call(name, { args: {}, sessionId: "s", agent: "beeuni" }))
      .body.output;
  assert.equal(await output("b"), "b:1");
  assert.equal(await output("a"), "a1:1");
  await Deno.writeTextFile(join(repo.dir, "tools/a.ts"), counter("a2"));
  await waitFor("the new module", async () => (await output("a")) === "a2:1");
  assert.equal(await output("b"), "b:2");
  await waitFor(
    "the reload's line",
    () => daemon.stderr().includes("reloaded after a change to tools/a.ts"),
  );
  // A manifest change still reads the whole project: b starts afresh.
  await Deno.writeTextFile(
    join(repo.dir, "beeuni.yaml"),
    "tools:\n  a: tools/a.ts\n  b: tools/b.ts\n  c: tools/b.ts\n",
  );
  await waitFor("the new manifest", async () => (await output("c")) === "b:1");
  assert.equal(await output("b"), "b:1");
});

Deno.test("a saved helper reloads the tools that import it, at any depth and in any folder, through re-exports and literal import(), and the log names them (D5)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml":
      "tools:\n  v: tools/v.ts\n  w: tools/w.ts\n  other: tools/other.ts\n",
    "tools/v.ts": `import { version } from "./lib/ver.ts";
export default { description: "Version", parameters: { type: "object" }, execute: () => version };
`,
    // A helper in a sub-folder that re-exports from a folder elsewhere.
    "tools/lib/ver.ts":
      `export { version } from "../../shared/deep/base.ts";\n`,
    "shared/deep/base.ts": `export const version = "v1";\n`,
    // A helper reached only through import() of literal paths.
    "tools/w.ts": `export default {
  description: "Dynamic",
  parameters: { type: "object" },
  async execute() {
    const a = await import("./dyn/a.ts");
    const b = await import(\`../more/b.ts\`);
    return a.value + b.value;
  },
};
`,
    "tools/dyn/a.ts": `export const value = "a1";\n`,
    "more/b.ts": `export const value = "b1";\n`,
    "tools/other.ts": `let count = 0;
export default { description: "Counts", parameters: { type: "object" }, execute: () => "other:" + ++count };
`,
  });
  await using daemon = await startDaemon(repo.dir);
  const output = async (name: string) =>
    (await daemon.call(name, { args: {}, sessionId: "s", agent: "beeuni" }))
      .body.output;
  assert.equal(await output("v"), "v1");
  assert.equal(await output("w"), "a1b1");
  assert.equal(await output("other"), "other:1");
  const edits: [string, string, string, RegExp][] = [
    ["shared/deep/base.ts", `export const version = "v2";\n`, "v", /^v2$/],
    ["tools/lib/ver.ts", `export const version = "v3";\n`, "v", /^v3$/],
    ["tools/dyn/a.ts", `export const value = "a2";\n`, "w", /^a2b1$/],
    ["more/b.ts", `export const value = "b2";\n`, "w", /^a2b2$/],
  ];
  for (const [file, text, tool, expected] of edits) {
    await Deno.writeTextFile(join(repo.dir, file), text);
    await waitFor(
      `the edit of ${file}`,
      async () => expected.test(String(await output(tool))),
    );
    await waitFor(
      `the reload's line for ${file}`,
      () =>
        daemon.stderr().includes(
          `reloaded after a change to ${file}: tool set unchanged; imported anew: ${tool}\n`,
        ),
    ).catch((e) => {
      console.log(daemon.stderr());
      throw e;
    });
  }
  // The tool that imports none of them kept its module state.
  assert.equal(await output("other"), "other:2");
});

Deno.test("the manifest's diagnostics are logged once, the same way at start and on each reload: a refused reload's error once, V7's warning at start too (D5, V7)", async () => {
  // No Beeuni tool listed: V7 warns about it.
  const manifest = "tools:\n  echo: tools/echo.ts\n";
  await using repo = await tempRepo({
    "tools/echo.ts": ECHO,
    "beeuni.yaml": manifest,
  });
  await using daemon = await startDaemon(repo.dir, { args: ["--no-opencode"] });
  const v7 = `  beeuni.yaml:1:1: warning: ${V7_MESSAGE}`;
  assert.equal(
    daemon.stderr(),
    `[daemon] beeuni.yaml has 0 errors, 1 warning:\n${v7}\n`,
  );
  // What the user saved: a tool whose module is not there.
  let seen = daemon.stderr().length;
  const since = () => daemon.stderr().slice(seen);
  await Deno.writeTextFile(
    join(repo.dir, "beeuni.yaml"),
    `${manifest}  other: tools/nope.ts\n`,
  );
  await waitFor("the refused reload", () => since().includes("nope.ts"));
  assert.equal(
    since(),
    [
      "[daemon] not reloaded after a change to beeuni.yaml: the previous tools keep serving; fix these and save again:",
      v7,
      '  beeuni.yaml:3:10: error: cannot find module "tools/nope.ts" for tool "other": file not found; create it or fix the path',
      "",
    ].join("\n"),
  );
  seen = daemon.stderr().length;
  await Deno.writeTextFile(join(repo.dir, "beeuni.yaml"), manifest);
  await waitFor("the reload", () => since().includes(v7));
  assert.equal(
    since(),
    `[daemon] reloaded after a change to beeuni.yaml: tool set unchanged\n${v7}\n`,
  );
});
