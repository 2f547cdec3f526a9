// parseManifest(): the manifest and its imports, parsed with positions (M2-M7, V12).

import assert from "node:assert/strict";
import {
  type Diagnostic,
  type Manifest,
  parseManifest,
} from "../lib/manifest/mod.ts";

function parse(
  files: Record<string, string>,
  root = "beeuni.yaml",
): Promise<Manifest> {
  return parseManifest("/repo", root, (path) => files[path]);
}

function brief(diagnostics: Diagnostic[]): string[] {
  return diagnostics.map((d) =>
    `${d.file}:${d.line}:${d.col}: ${d.severity} ${d.rule}: ${d.message}`
  );
}

Deno.test("parseManifest() reads tools with the position of every key and value (M3)", async () => {
  const manifest = await parse({
    "beeuni.yaml": [
      "# project",
      "tools:",
      "  web_search: beeuni:web_search",
      "  lookup_order:   tools/lookup_order.ts",
      "",
    ].join("\n"),
  });
  assert.deepEqual(manifest.diagnostics, []);
  assert.equal(manifest.manifestPath, "beeuni.yaml");
  assert.equal(manifest.root, "/repo");
  const [file] = manifest.files;
  assert.equal(file.hasToolsKey, true);
  assert.deepEqual(file.toolsKeyPos, { file: "beeuni.yaml", line: 2, col: 1 });
  assert.deepEqual(file.tools, [
    {
      name: "web_search",
      value: "beeuni:web_search",
      namePos: { file: "beeuni.yaml", line: 3, col: 3 },
      valuePos: { file: "beeuni.yaml", line: 3, col: 15 },
    },
    {
      name: "lookup_order",
      value: "tools/lookup_order.ts",
      namePos: { file: "beeuni.yaml", line: 4, col: 3 },
      valuePos: { file: "beeuni.yaml", line: 4, col: 19 },
    },
  ]);
});

Deno.test("parseManifest() counts `tools:` as a key when null, empty or absent (M4)", async () => {
  for (
    const [text, expected] of [
      ["tools:\n# web_search: beeuni:web_search\n", true],
      ["tools: {}\n", true],
      ["tools: ~\n", true],
      ["agents: {}\n", false],
      ["", false],
    ] as const
  ) {
    const manifest = await parse({ "beeuni.yaml": text });
    assert.deepEqual(manifest.diagnostics, [], text);
    assert.equal(manifest.files[0].hasToolsKey, expected, text);
    assert.deepEqual(manifest.files[0].tools, [], text);
  }
});

Deno.test("parseManifest() follows imports recursively, in the order reached (M2)", async () => {
  const manifest = await parse({
    "beeuni.yaml": "imports:\n  - ./config/a.yaml\n  - b.yaml\n",
    "config/a.yaml": "imports: [config/c.yaml, b.yaml]\ntools:\n  x: x.ts\n",
    "b.yaml": "tools: {}\n",
    "config/c.yaml": "agents:\n  helper:\n    tools: none\n",
  });
  assert.deepEqual(manifest.diagnostics, []);
  assert.deepEqual(manifest.files.map((file) => file.path), [
    "beeuni.yaml",
    "config/a.yaml",
    "config/c.yaml",
    "b.yaml",
  ]);
  assert.equal(manifest.files[0].importedFrom, undefined);
  assert.deepEqual(manifest.files[1].importedFrom, {
    file: "beeuni.yaml",
    line: 2,
    col: 5,
  });
  assert.deepEqual(manifest.files[1].tools[0].namePos, {
    file: "config/a.yaml",
    line: 3,
    col: 3,
  });
  assert.equal(manifest.files[3].hasToolsKey, true);
});

Deno.test("parseManifest() reports an import cycle naming the chain (M2)", async () => {
  const manifest = await parse({
    "beeuni.yaml": "imports: [a.yaml]\n",
    "a.yaml": "imports: [b.yaml]\n",
    "b.yaml": "imports:\n  - a.yaml\n",
  });
  assert.deepEqual(brief(manifest.diagnostics), [
    "b.yaml:2:5: error M2: import cycle: a.yaml -> b.yaml -> a.yaml",
  ]);
  assert.equal(manifest.files.length, 3);
});

Deno.test("parseManifest() reports a missing import with its chain (M2)", async () => {
  const manifest = await parse({
    "beeuni.yaml": "imports: [a.yaml]\n",
    "a.yaml": "imports:\n  - gone.yaml\n",
  });
  assert.deepEqual(brief(manifest.diagnostics), [
    'a.yaml:2:5: error M2: cannot import "gone.yaml": file not found (import chain: beeuni.yaml -> a.yaml -> gone.yaml)',
  ]);
});

Deno.test("parseManifest() passes on the reason a read callback gives (M2)", async () => {
  const manifest = await parseManifest("/repo", "beeuni.yaml", (path) => {
    if (path === "beeuni.yaml") return "imports: [link.yaml]\n";
    throw new Error("it leads outside the repository through a symlink");
  });
  assert.deepEqual(brief(manifest.diagnostics), [
    'beeuni.yaml:1:11: error M2: cannot import "link.yaml": it leads outside the repository through a symlink (import chain: beeuni.yaml -> link.yaml)',
  ]);
});

Deno.test("parseManifest() rejects import paths that are absolute or escape the repository (M2)", async () => {
  const manifest = await parse({
    "beeuni.yaml":
      "imports:\n  - /etc/beeuni.yaml\n  - ../other/beeuni.yaml\n  - a/../../x.yaml\n  - 42\n",
  });
  assert.deepEqual(brief(manifest.diagnostics), [
    "beeuni.yaml:5:5: error V12: an entry of `imports` must be a repo-relative path, found the number 42",
    'beeuni.yaml:2:5: error M2: cannot import "/etc/beeuni.yaml": the path is absolute; write it relative to the repository root',
    'beeuni.yaml:3:5: error M2: cannot import "../other/beeuni.yaml": the path leads outside the repository with `..`',
    'beeuni.yaml:4:5: error M2: cannot import "a/../../x.yaml": the path leads outside the repository with `..`',
  ]);
});

Deno.test("parseManifest() reports the root manifest missing (M1)", async () => {
  const manifest = await parse({});
  assert.deepEqual(brief(manifest.diagnostics), [
    'beeuni.yaml:1:1: error M1: cannot read "beeuni.yaml": file not found',
  ]);
  assert.deepEqual(manifest.files, []);
});

Deno.test("parseManifest() parses all five forms of an agent's tools (M7)", async () => {
  const manifest = await parse({
    "beeuni.yaml": [
      "agents:",
      "  beeuni:",
      "    tools: all",
      "    secrets: all",
      "  researcher:",
      "    tools: [read, grep, web_search]",
      "    secrets: [WEATHER_API_KEY]",
      "  support:",
      "    tools:",
      "      exclude: [bash, write]",
      "  greeter:",
      "    tools: none",
      "  legacy:",
      "    tools: { bash: false, read: true }",
      "  plain:",
      "    model: some/model",
      "",
    ].join("\n"),
  });
  assert.deepEqual(manifest.diagnostics, []);
  const agents = manifest.files[0].agents;
  const at = (line: number, col: number) => ({
    file: "beeuni.yaml",
    line,
    col,
  });
  assert.deepEqual(agents.map((agent) => agent.name), [
    "beeuni",
    "researcher",
    "support",
    "greeter",
    "legacy",
    "plain",
  ]);
  assert.deepEqual(agents[0].tools, { kind: "all", pos: at(3, 12) });
  assert.equal(agents[0].secrets, "all");
  assert.deepEqual(agents[1].tools, {
    kind: "list",
    names: [
      { name: "read", pos: at(6, 13) },
      { name: "grep", pos: at(6, 19) },
      { name: "web_search", pos: at(6, 25) },
    ],
    pos: at(6, 12),
  });
  assert.deepEqual(agents[1].secrets, [
    { name: "WEATHER_API_KEY", pos: at(7, 15) },
  ]);
  assert.deepEqual(agents[2].tools, {
    kind: "exclude",
    names: [{ name: "bash", pos: at(10, 17) }, {
      name: "write",
      pos: at(10, 23),
    }],
    pos: at(10, 7),
  });
  assert.deepEqual(agents[3].tools, { kind: "none", pos: at(12, 12) });
  assert.deepEqual(agents[4].tools, {
    kind: "map",
    entries: [
      { name: "bash", enabled: false, pos: at(14, 14) },
      { name: "read", enabled: true, pos: at(14, 27) },
    ],
    pos: at(14, 12),
  });
  assert.deepEqual(agents[5].tools, { kind: "all" });
  assert.deepEqual(agents[5].secrets, []);
  assert.deepEqual(agents[5].raw, { model: "some/model" });
  assert.equal(agents[5].pos.line, 15);
});

Deno.test("parseManifest() keeps every other agent key untouched in raw (M7)", async () => {
  const manifest = await parse({
    "beeuni.yaml": [
      "agents:",
      "  support:",
      "    tools: { exclude: [bash] }",
      "    secrets: [A, B]",
      "    permission: { bash: deny, edit: ask }",
      "    connectors: [github]",
      "    x_custom: 3",
      "",
    ].join("\n"),
  });
  assert.deepEqual(manifest.diagnostics, []);
  assert.deepEqual(manifest.files[0].agents[0].raw, {
    tools: { exclude: ["bash"] },
    secrets: ["A", "B"],
    permission: { bash: "deny", edit: "ask" },
    connectors: ["github"],
    x_custom: 3,
  });
});

Deno.test("parseManifest() rejects agent tools and secrets of a wrong shape (M7, V12)", async () => {
  const manifest = await parse({
    "beeuni.yaml": [
      "agents:",
      "  a:",
      "    tools: some",
      "  b:",
      "    tools: [read, [x], 7]",
      "  c:",
      "    tools: { exclude: bash }",
      "  d:",
      "    tools: { bash: no }",
      "  e:",
      "    secrets: everything",
      "  f: [read]",
      "",
    ].join("\n"),
  });
  assert.deepEqual(brief(manifest.diagnostics), [
    'beeuni.yaml:3:12: error V12: agent "a": `tools` must be `all`, `none`, a list of tool names, `{ exclude: [...] }` or a map of tool names to true/false, found the string "some"',
    'beeuni.yaml:5:19: error V12: agent "b": each entry of `tools` must be a name, found a list',
    'beeuni.yaml:7:23: error V12: agent "c": `exclude` must be a list of tool names, found the string "bash"',
    'beeuni.yaml:9:20: error V12: agent "d": `tools.bash` must be true or false, found the string "no"',
    'beeuni.yaml:11:14: error V12: agent "e": `secrets` must be `all` or a list of secret names, found the string "everything"',
    'beeuni.yaml:12:6: error V12: agent "f" must be a mapping (tools:, secrets:, …), found a list',
  ]);
  const b = manifest.files[0].agents[1];
  assert.equal(b.tools.kind, "list");
  assert.deepEqual(
    b.tools.kind === "list" ? b.tools.names.map((n) => n.name) : [],
    ["read", "7"],
  );
});

Deno.test("parseManifest() rejects wrong types with positions: a list for tools, a number as a path (M3, V12)", async () => {
  const manifest = await parse({
    "beeuni.yaml": [
      "tools:",
      "  - web_search",
      "",
    ].join("\n"),
    "b.yaml":
      "tools:\n  x: 42\n  y:\n  z: [a.ts]\nagents: [a]\nimports: a.yaml\n",
    "c.yaml": "- tools\n",
  });
  assert.deepEqual(brief(manifest.diagnostics), [
    "beeuni.yaml:2:3: error V12: `tools` must be a mapping of tool names to `beeuni:<name>` or module paths, found a list",
  ]);
  assert.equal(manifest.files[0].hasToolsKey, true);
  const b = await parse({
    "beeuni.yaml":
      "tools:\n  x: 42\n  y:\n  z: [a.ts]\nagents: [a]\nimports: a.yaml\n",
  });
  assert.deepEqual(brief(b.diagnostics), [
    'beeuni.yaml:2:6: error V12: tool "x" must map to `beeuni:<name>` or a repo-relative module path, found the number 42',
    'beeuni.yaml:3:3: error V12: tool "y" has no value: write `beeuni:y` for a Beeuni tool or a repo-relative module path (e.g. `tools/y.ts`)',
    'beeuni.yaml:4:6: error V12: tool "z" must map to `beeuni:<name>` or a repo-relative module path, found a list',
    "beeuni.yaml:5:9: error V12: `agents` must be a mapping of agent names to their settings, found a list",
    'beeuni.yaml:6:10: error V12: `imports` must be a list of repo-relative YAML file paths, found the string "a.yaml"',
  ]);
  const c = await parse({ "beeuni.yaml": "- tools\n" });
  assert.deepEqual(brief(c.diagnostics), [
    "beeuni.yaml:1:1: error V12: the top level of beeuni.yaml must be a mapping (tools:, agents:, imports:), found a list",
  ]);
});

Deno.test("parseManifest() reports malformed YAML at yaml's own position (V12)", async () => {
  const manifest = await parse({
    "beeuni.yaml":
      "tools:\n  web_search: beeuni:web_search\n\tmemory: beeuni:memory\n",
  });
  assert.equal(manifest.diagnostics.length > 0, true);
  const [first] = manifest.diagnostics;
  assert.equal(first.severity, "error");
  assert.equal(first.rule, "V12");
  assert.equal(first.file, "beeuni.yaml");
  assert.deepEqual([first.line, first.col], [3, 1]);
  assert.match(first.message, /^malformed YAML: Tabs are not allowed/);
  const dup = await parse({ "beeuni.yaml": "tools:\n  a: a.ts\n  a: b.ts\n" });
  assert.deepEqual(
    dup.diagnostics.map((d) => [d.line, d.col, d.message]),
    [[3, 3, "malformed YAML: Map keys must be unique"]],
  );
});

Deno.test("parseManifest() stops an alias bomb with a positioned error (V12)", async () => {
  const bomb = [
    "a: &a [x, x, x, x, x, x, x, x, x]",
    "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
    "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
    "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
    "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
    "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]",
    "tools:",
    "  web_search: beeuni:web_search",
    "",
  ].join("\n");
  const manifest = await parse({ "beeuni.yaml": bomb });
  assert.equal(manifest.diagnostics.length, 1);
  const [error] = manifest.diagnostics;
  assert.equal(error.rule, "V12");
  assert.equal(error.severity, "error");
  assert.deepEqual([error.line, error.col], [2, 8]);
  assert.match(error.message, /alias bomb/);
});

Deno.test("parseManifest() reads a few ordinary aliases (V12 passing case)", async () => {
  const manifest = await parse({
    "beeuni.yaml": [
      "x-common: &common [read, grep]",
      "agents:",
      "  a:",
      "    tools: *common",
      "",
    ].join("\n"),
  });
  assert.deepEqual(manifest.diagnostics, []);
  const tools = manifest.files[0].agents[0].tools;
  assert.equal(tools.kind, "list");
  assert.deepEqual(
    tools.kind === "list" ? tools.names.map((n) => n.name) : [],
    ["read", "grep"],
  );
});

Deno.test("parseManifest() reads CRLF files with the same positions", async () => {
  const lf = "tools:\n  web_search: beeuni:web_search\n  x: tools/x.ts\n";
  const crlf = await parse({ "beeuni.yaml": lf.replaceAll("\n", "\r\n") });
  assert.deepEqual(crlf.diagnostics, []);
  assert.deepEqual(crlf.files, (await parse({ "beeuni.yaml": lf })).files);
  assert.equal(crlf.files[0].tools[1].value, "tools/x.ts");
});

Deno.test("parseManifest() reports a YAML indentation mistake once, at the misplaced line, with the column it belongs at (V12)", async () => {
  const bad = "malformed YAML: bad indentation: this line starts at column";
  const cases: [string, string][] = [
    [
      "tools:\n  web_search: beeuni:web_search\n   memory: beeuni:memory\n",
      `beeuni.yaml:3:4: error V12: ${bad} 4, further right than the entries it belongs with (column 3), so YAML reads it as part of the line above; move it to column 3`,
    ],
    [
      "tools:\n  web_search: beeuni:web_search\n memory: beeuni:memory\n",
      `beeuni.yaml:3:2: error V12: ${bad} 2, left of the entries it belongs with (column 3); move it to column 3`,
    ],
    [
      "agents:\n  planner:\n    tools:\n      - read\n     - grep\n",
      `beeuni.yaml:5:6: error V12: ${bad} 6, left of the entries it belongs with (column 7); move it to column 7`,
    ],
    [
      // The first entry sits 4 columns in where the file's step is 2.
      "agents:\n  a:\n      tools: all\n    # why\n    secrets: all\n",
      `beeuni.yaml:3:7: error V12: ${bad} 7, further right than the entries it belongs with (column 5); move it to column 5`,
    ],
    [
      "imports:\n  - a.yaml\n - b.yaml\n",
      `beeuni.yaml:3:2: error V12: ${bad} 2, left of the entries it belongs with (column 3); move it to column 3`,
    ],
    [
      // A dedented line is named, not the next line, where YAML gives up.
      "tools:\n  greet: tools/greet.ts\nmemory: beeuni:memory\n  show: beeuni:show\n",
      `beeuni.yaml:3:1: error V12: ${bad} 1, left of the entries it belongs with (column 3), so the lines below it no longer fit; move it to column 3`,
    ],
    [
      "agents:\n  writer:\n    model: x\ntools: [read]\n    secrets: all\n",
      `beeuni.yaml:4:1: error V12: ${bad} 1, left of the entries it belongs with (column 5), so the lines below it no longer fit; move it to column 5`,
    ],
    [
      "agents:\r\n  writer:\r\n    tools: [read]\r\n  secrets: all\r\n    model: x\r\n",
      `beeuni.yaml:4:3: error V12: ${bad} 3, left of the entries it belongs with (column 5), so the lines below it no longer fit; move it to column 5`,
    ],
  ];
  for (const [text, expected] of cases) {
    assert.deepEqual(
      brief((await parse({ "beeuni.yaml": text })).diagnostics),
      [expected],
      text,
    );
  }
});

Deno.test("parseManifest() warns about a key that is a list or mapping instead of logging (V12)", async () => {
  const manifest = await parse({
    "beeuni.yaml": "agents:\n  a:\n    ? [a, b]\n    : x\n    tools: [read]\n",
  });
  assert.deepEqual(brief(manifest.diagnostics), [
    "beeuni.yaml:3:7: warning V12: a list or mapping used as a key is read as text: write a plain key",
  ]);
  assert.deepEqual(manifest.files[0].agents[0].raw, {
    "[ a, b ]": "x",
    tools: ["read"],
  });
});

Deno.test("parseManifest() points a misspelled `exclude` of an agent's tools at the right key (V12)", async () => {
  const manifest = await parse({
    "beeuni.yaml": "agents:\n  a:\n    tools:\n      exlude: [bash]\n",
  });
  assert.deepEqual(brief(manifest.diagnostics), [
    'beeuni.yaml:4:15: error V12: agent "a": `tools.exlude` must be true or false, found a list (did you mean `exclude: [...]`?)',
  ]);
});
