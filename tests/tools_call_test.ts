import assert from "node:assert/strict";
import { join } from "node:path";
import {
  beeuni,
  CLI,
  controlChars,
  isolatedState,
  runProgram,
  tempRepo,
} from "./_helpers.ts";
import { bunBin, NODE_22, nodeBin, runArgv, RUNTIMES } from "./_runtimes.ts";
import { testCacheEnv } from "./_npm_cache.ts";
import { setSecret } from "../lib/secrets/mod.ts";

const FILES: Record<string, string> = {
  "beeuni.yaml": `tools:
  greet: tools/greet.ts
  fail: tools/fail.ts
  big: tools/big.ts
  ctx: tools/ctx.ts
  broken: tools/broken.ts
agents:
  beeuni:
    secrets: all
  narrow:
    tools: [greet]
  plain: {}
`,
  "tools/greet.ts": `export default {
  description: "Greets someone",
  parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  execute: (args) => "Hello, " + args.name + "!",
};
`,
  "tools/fail.ts": `export default {
  description: "Fails",
  parameters: { type: "object" },
  execute() { throw new Error("the shelf is empty"); },
};
`,
  "tools/big.ts": `export default {
  description: "Big output",
  parameters: { type: "object" },
  execute: () => "y".repeat(70000),
};
`,
  "tools/ctx.ts": `export default {
  description: "Shows its context",
  parameters: { type: "object" },
  execute: (_args, context) => ({
    agent: context.agent,
    sessionId: context.sessionId,
    directory: context.directory,
    key: context.env.API_KEY ?? null,
  }),
};
`,
  "tools/broken.ts":
    `export default { description: "", parameters: { type: "object" }, execute() {} };\n`,
};

Deno.test("tools call prints the tool's output and exits 0 (T3)", async () => {
  await using repo = await tempRepo(FILES);
  await using state = await isolatedState();
  const out = await beeuni(
    repo.dir,
    ["tools", "call", "greet", "--args", '{"name": "Ada"}'],
    { env: state.env },
  );
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, "Hello, Ada!\n");
  assert.equal(out.stderr, "");
});

Deno.test("tools call reads --args - from standard input (T3)", async () => {
  await using repo = await tempRepo(FILES);
  await using state = await isolatedState();
  const out = await beeuni(
    repo.dir,
    ["tools", "call", "greet", "--args", "-"],
    { env: state.env, stdin: '{"name": "Grace"}\n' },
  );
  assert.equal(out.code, 0, out.stderr);
  assert.equal(out.stdout, "Hello, Grace!\n");
});

Deno.test("tools call prints a JSON result indented and fills the context (T3, T5)", async () => {
  await using repo = await tempRepo(FILES);
  await using state = await isolatedState();
  await setSecret(repo.dir, "API_KEY", "k-123", state.env);
  const out = await beeuni(
    join(repo.dir, "tools"),
    ["tools", "call", "ctx", "--session", "sess-7"],
    { env: state.env },
  );
  assert.equal(out.code, 0, out.stderr);
  const value = JSON.parse(out.stdout);
  assert.deepEqual(value, {
    agent: "beeuni",
    sessionId: "sess-7",
    directory: await Deno.realPath(repo.dir),
    key: "k-123",
  });
  assert.equal(out.stdout, JSON.stringify(value, null, 2) + "\n");
  const other = await beeuni(
    repo.dir,
    ["tools", "call", "ctx", "--agent", "plain"],
    { env: state.env },
  );
  assert.equal(JSON.parse(other.stdout).key, null);
  assert.equal(JSON.parse(other.stdout).agent, "plain");
  assert.match(JSON.parse(other.stdout).sessionId, /^cli-[0-9a-f]+$/);
});

Deno.test("tools call prints a tool error on stderr and exits 1 (T4)", async () => {
  await using repo = await tempRepo(FILES);
  await using state = await isolatedState();
  const out = await beeuni(repo.dir, ["tools", "call", "fail"], {
    env: state.env,
  });
  assert.equal(out.code, 1);
  assert.equal(out.stdout, "");
  assert.equal(out.stderr, "the shelf is empty\n");
});

Deno.test("tools call says why a tool is missing: the nearest declared name, or the load reason first (D2, T8)", async () => {
  await using repo = await tempRepo(FILES);
  await using state = await isolatedState();
  const missing = await beeuni(repo.dir, ["tools", "call", "nope"], {
    env: state.env,
  });
  assert.equal(missing.code, 1);
  assert.equal(
    missing.stderr,
    'Tool nope not found: the project declares no tool "nope"\n',
  );
  const typo = await beeuni(repo.dir, ["tools", "call", "borken"], {
    env: state.env,
  });
  assert.equal(typo.code, 1);
  assert.equal(
    typo.stderr,
    'Tool borken not found: the project declares no tool "borken" (did you mean "broken"?)\n',
  );
  const broken = await beeuni(repo.dir, ["tools", "call", "broken"], {
    env: state.env,
  });
  assert.equal(broken.code, 1);
  assert.match(
    broken.stderr,
    /^tool "broken" did not load: .+\n\(a session calling it gets "Tool broken not found" until this is fixed; `beeuni validate --load` checks every tool\)\n$/,
  );
});

Deno.test("tools call shows the manifest's errors and names a syntax error's place", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml":
      "tools:\n  fine: tools/fine.ts\n  bad: tools/bad.ts\n  Worse: tools/fine.ts\n",
    "tools/fine.ts":
      `export default { description: "Fine", parameters: { type: "object" }, execute: () => "fine" };\n`,
    "tools/bad.ts":
      `export default { description: "Bad", parameters: { type: "object" }, execute() { return 1 +; } };\n`,
  });
  await using state = await isolatedState();
  const fine = await beeuni(repo.dir, ["tools", "call", "fine"], {
    env: state.env,
  });
  assert.equal(fine.stdout, "fine\n", fine.stderr);
  assert.match(
    fine.stderr,
    /^beeuni tools call: the manifest has errors:\nbeeuni\.yaml:4:3: error: invalid tool name "Worse"/,
  );
  const bad = await beeuni(repo.dir, ["tools", "call", "bad"], {
    env: state.env,
  });
  assert.equal(bad.code, 1);
  assert.match(
    bad.stderr,
    /^tool "bad" did not load: the module has a syntax error: .+ \(tools\/bad\.ts:1:\d+\)\n/,
  );
  assert.doesNotMatch(bad.stderr, /TypeError: SyntaxError/);
});

Deno.test("tools call refuses a tool the agent may not see (D4, A2)", async () => {
  await using repo = await tempRepo(FILES);
  await using state = await isolatedState();
  const out = await beeuni(
    repo.dir,
    ["tools", "call", "fail", "--agent", "narrow"],
    { env: state.env },
  );
  assert.equal(out.code, 1);
  assert.match(out.stderr, /agent "narrow" may not use tool "fail"/);
  const ok = await beeuni(
    repo.dir,
    ["tools", "call", "greet", "--agent", "narrow", "--args", '{"name":"N"}'],
    { env: state.env },
  );
  assert.equal(ok.stdout, "Hello, N!\n");
});

Deno.test("tools call cuts a large output and names the file with the rest (T6)", async () => {
  await using repo = await tempRepo(FILES);
  await using state = await isolatedState();
  const out = await beeuni(repo.dir, ["tools", "call", "big"], {
    env: state.env,
  });
  assert.equal(out.code, 0, out.stderr);
  const match = /the full output is in (\S+)\]\n$/.exec(out.stdout);
  assert.ok(match, out.stdout.slice(-400));
  assert.match(out.stdout, /\[output truncated: .*of 70000 bytes\)/);
  assert.ok(out.stdout.startsWith("yyyy"));
  assert.ok(new TextEncoder().encode(out.stdout).length < 70000);
  assert.equal(await Deno.readTextFile(match[1]), "y".repeat(70000));
  assert.ok(match[1].startsWith(state.env.TMPDIR));
});

Deno.test("tools call --validate checks the arguments against the schema (T2)", async () => {
  await using repo = await tempRepo(FILES);
  await using state = await isolatedState();
  const loose = await beeuni(repo.dir, ["tools", "call", "greet"], {
    env: state.env,
  });
  assert.equal(loose.code, 0);
  assert.equal(loose.stdout, "Hello, undefined!\n");
  const strict = await beeuni(
    repo.dir,
    ["tools", "call", "greet", "--validate"],
    { env: state.env },
  );
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /"name"/);
});

Deno.test("tools call rejects bad --args with a usage error (exit 2)", async () => {
  await using repo = await tempRepo(FILES);
  await using state = await isolatedState();
  const bad = await beeuni(
    repo.dir,
    ["tools", "call", "greet", "--args", "{name: x}"],
    { env: state.env },
  );
  assert.equal(bad.code, 2);
  assert.equal(
    bad.stderr,
    'beeuni tools call: --args is not valid JSON at line 1, column 2 (`name: x}`): expected a property name in double quotes; pass an object such as \'{"query": "deno"}\'\nRun `beeuni tools call --help` for usage.\n',
  );
  const array = await beeuni(
    repo.dir,
    ["tools", "call", "greet", "--args", "[1]"],
    { env: state.env },
  );
  assert.equal(array.code, 2);
  assert.match(array.stderr, /--args must be a JSON object/);
  const none = await beeuni(repo.dir, ["tools", "call"], { env: state.env });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /missing the tool's name/);
});

Deno.test("tools call says where invalid JSON arguments break, in the same words under Deno, Node.js and Bun", async () => {
  await using repo = await tempRepo(FILES);
  await using state = await isolatedState();
  const stdin = '{\n  "name": "Ada"\n  "title": "Dr"\n}\n';
  const expected =
    'beeuni tools call: standard input is not valid JSON at line 3, column 3 (`"title": "Dr"`): expected "," or "}" after the value; pass an object such as \'{"query": "deno"}\'\nRun `beeuni tools call --help` for usage.\n';
  for (const runtime of RUNTIMES) {
    const result = await runArgv(
      [...await runtime.argv(), CLI, "tools", "call", "greet", "--args", "-"],
      repo.dir,
      state.env,
      stdin,
    );
    assert.deepEqual(
      { code: result.code, stderr: result.stderr, stdout: result.stdout },
      { code: 2, stderr: expected, stdout: "" },
      runtime.label,
    );
  }
  const end = await beeuni(
    repo.dir,
    ["tools", "call", "greet", "--args", '{"name": "Ada"'],
    { env: state.env },
  );
  assert.match(
    end.stderr,
    /--args is not valid JSON at line 1, column 15 \(the end of the text\): expected "," or "}" after the value;/,
  );
});

Deno.test("tools call escapes control characters of a name in its messages", async () => {
  await using repo = await tempRepo(FILES);
  const result = await beeuni(repo.dir, [
    "tools",
    "call",
    "no\x1b[2Jpe\nforged",
    "--args",
    "{}",
  ]);
  assert.equal(result.code, 1);
  assert.deepEqual(controlChars(result.stderr), []);
  assert.match(result.stderr, /no\\x1b\[2Jpe\\nforged/);
});

Deno.test("a syntax error in a helper is reported at the helper's file, line and column under Deno, Node.js and Bun (T8)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  slug: tools/slug.ts\n  plain: tools/plain.js\n",
    "tools/slug.ts": `// Slugs
import { slugify } from "./lib/mid.ts";
export default { description: "Slug", parameters: { type: "object" }, execute: () => slugify("A B") };
`,
    "tools/lib/mid.ts": `export { slugify } from "./deep/slug.ts";\n`,
    "tools/lib/deep/slug.ts":
      `export const ok = 1;\nexport function slugify(text: string {\n  return text;\n}\n`,
    "tools/plain.js": `import { value } from "../helpers/value.js";
export default { description: "Plain", parameters: { type: "object" }, execute: () => value };
`,
    "helpers/value.js": `export const a = 1;\nexport const value = 1 +* 2;\n`,
  });
  const runtimes: [string, string[]][] = [
    ["Deno", [Deno.execPath(), "run", "-A", "--quiet"]],
    [`Node.js ${NODE_22}`, [await nodeBin(NODE_22)]],
    ["Bun", [await bunBin()]],
  ];
  for (const [label, [program, ...args]] of runtimes) {
    for (
      const [tool, where] of [
        ["slug", /\(tools\/lib\/deep\/slug\.ts:2:\d+\)\n/],
        ["plain", /\(helpers\/value\.js:2:\d+\)\n/],
      ] as const
    ) {
      const out = await runProgram(
        program,
        [...args, CLI, "tools", "call", tool],
        { cwd: repo.dir, env: { ...testCacheEnv(), TMPDIR: repo.dir } },
      );
      assert.equal(out.code, 1, `${label} ${tool}`);
      assert.match(
        out.stderr,
        new RegExp(
          `^tool "${tool}" did not load: the module has a syntax error: .+ ${where.source}`,
        ),
        `${label} ${tool}: ${out.stderr}`,
      );
    }
  }
});

Deno.test("a helper imported without its extension, a package not installed and a path alias get the same advice under Deno and Node.js, and no runtime's own (T7, T9)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml":
      "tools:\n  a: tools/a.ts\n  z: tools/z.ts\n  alias: tools/alias.ts\n",
    "tools/lib/x.ts": "export const x = 1;\n",
    "tools/a.ts": `import { x } from "./lib/x";
export default { description: "a", parameters: { type: "object" }, execute: () => String(x) };
`,
    "tools/z.ts": `import { z } from "zod";
export default { description: "z", parameters: { type: "object" }, execute: () => String(z) };
`,
    "tools/alias.ts": `import { w } from "@/core/workspace.ts";
export default { description: "alias", parameters: { type: "object" }, execute: () => String(w) };
`,
    "package.json": '{ "dependencies": { "zod": "^4" } }\n',
  });
  const runtimes: [string, string[]][] = [
    ["Deno", [Deno.execPath(), "run", "-A", "--quiet"]],
    [`Node.js ${NODE_22}`, [await nodeBin(NODE_22)]],
  ];
  for (const [label, [program, ...args]] of runtimes) {
    const call = (tool: string) =>
      runProgram(program, [...args, CLI, "tools", "call", tool], {
        cwd: repo.dir,
        env: { ...testCacheEnv(), TMPDIR: repo.dir },
      });
    const a = await call("a");
    assert.equal(
      a.stderr.split("\n")[0],
      `tool "a" did not load: cannot find "tools/lib/x", imported by tools/a.ts: write the import with the file's extension, "tools/lib/x.ts", which every runtime resolves`,
      label,
    );
    const z = await call("z");
    assert.equal(
      z.stderr.split("\n")[0],
      `tool "z" did not load: the module threw while loading: Cannot find package 'zod': install it with npm in the project (npm install zod), so that a node_modules folder beside or above the module holds it`,
      label,
    );
    const alias = await call("alias");
    assert.match(
      alias.stderr.split("\n")[0],
      /^tool "alias" did not load: the module threw while loading: cannot resolve "@\/core[^"]*": it looks like a path alias \(tsconfig\.json "paths", deno\.json "imports"\), which tool modules do not read under every runtime: import the file by its relative path$/,
      label,
    );
  }
});
