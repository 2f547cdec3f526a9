// validate() through loadProject(), in real temporary git repositories (V1-V12).

import assert from "node:assert/strict";
import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { evalJson, git, tempRepo } from "./_helpers.ts";
import { loadProject } from "../lib/project/mod.ts";
import {
  parseManifest,
  v3Message,
  V7_MESSAGE,
  v8Message,
  validate,
} from "../lib/manifest/mod.ts";

const TOOL = `export default {
  description: "Says hello.",
  parameters: { type: "object", properties: {} },
  execute() {
    return "hello";
  },
};
`;

const FIVE = [
  "  web_search: beeuni:web_search",
  "  image_search: beeuni:image_search",
  "  scrape_webpage: beeuni:scrape_webpage",
  "  memory: beeuni:memory",
  "  show: beeuni:show",
];

/** Validates `files` in a fresh git repository; returns `file:line:col: severity rule: message` lines. */
async function check(
  files: Record<string, string>,
  options: { untracked?: string[] } = {},
): Promise<string[]> {
  await using repo = await tempRepo(files, options);
  const project = await loadProject({ cwd: repo.dir });
  return project.diagnostics.map((d) =>
    `${d.file}:${d.line}:${d.col}: ${d.severity} ${d.rule}: ${d.message}`
  );
}

function yaml(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

Deno.test("validate() accepts a manifest that follows every rule", async () => {
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml(
        "imports: [agents.yaml]",
        "tools:",
        ...FIVE,
        "  lookup_order: tools/lookup_order.ts",
        "  crm_note: integrations/crm/note.mjs",
      ),
      "agents.yaml": yaml(
        "agents:",
        "  researcher:",
        "    tools: [read, grep, web_search, lookup_order, pty_spawn]",
        "  support:",
        "    tools: { exclude: [bash, write, crm_note] }",
        "  legacy:",
        "    tools: { bash: false, show: true }",
        "  everyone:",
        "    tools: ['*']",
      ),
      "tools/lookup_order.ts": TOOL,
      "integrations/crm/note.mjs": TOOL,
    }),
    [],
  );
});

Deno.test("validate() rejects tool names that are not snake_case of 1-64 characters (V1)", async () => {
  const long = `a${"b".repeat(63)}`;
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml(
        "tools:",
        ...FIVE,
        "  Lookup: tools/t.ts",
        "  9lives: tools/t.ts",
        `  ${long}x: tools/t.ts`,
        `  ${long}: tools/t.ts`,
        "  a: tools/t.ts",
      ),
      "tools/t.ts": TOOL,
    }),
    ["Lookup", "9lives", `${long}x`].map((name, i) =>
      `beeuni.yaml:${
        7 + i
      }:3: error V1: invalid tool name "${name}": a name starts with a lowercase letter followed by up to 63 lowercase letters, digits or underscores (^[a-z][a-z0-9_]{0,63}$)`
    ),
  );
});

Deno.test("validate() rejects a harness tool name under tools: (V2)", async () => {
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml(
        "tools:",
        ...FIVE,
        "  bash: tools/t.ts",
        "  bash_helper: tools/t.ts",
        "  todoread: tools/t.ts",
      ),
      "tools/t.ts": TOOL,
    }),
    [
      'beeuni.yaml:7:3: error V2: "bash" is a harness tool: the harness implements it, so it cannot be declared under `tools:`; give the tool another name',
      'beeuni.yaml:9:3: error V2: "todoread" is a harness tool: the harness implements it, so it cannot be declared under `tools:`; give the tool another name',
    ],
  );
});

Deno.test("validate() prints the seed's V3 text for a beeuni: value that names another tool (V3)", async () => {
  const lines = await check({
    "beeuni.yaml": yaml(
      "tools:",
      "  web_search: beeuni:image_search",
      "  image_search: beeuni:image_search",
      "  memory: beeuni:memory_v2",
      "  lookup: beeuni:lookup",
    ),
  });
  assert.deepEqual(lines, [
    "beeuni.yaml:2:15: error V3: must be `beeuni:web_search` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/web_search.ts`) that replaces it.",
    "beeuni.yaml:4:11: error V3: must be `beeuni:memory` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/memory.ts`) that replaces it.",
    'beeuni.yaml:5:11: error V3: "beeuni:lookup" names a Beeuni tool, but "lookup" is not one (the Beeuni tools are web_search, image_search, scrape_webpage, memory, show): a project tool takes a repo-relative module path (e.g. `tools/lookup.ts`)',
  ]);
  assert.equal(
    v3Message("show"),
    "must be `beeuni:show` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/show.ts`) that replaces it.",
  );
});

Deno.test("validate() accepts every module extension and rejects other paths (V4)", async () => {
  const exts = ["ts", "js", "mts", "mjs", "cts", "cjs"];
  const ok = await check({
    "beeuni.yaml": yaml(
      "tools:",
      ...FIVE,
      ...exts.map((ext) => `  t_${ext}: ./tools/t.${ext}`),
    ),
    ...Object.fromEntries(exts.map((ext) => [`tools/t.${ext}`, TOOL])),
  });
  assert.deepEqual(ok, []);
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml(
        "tools:",
        ...FIVE,
        "  a: /etc/t.ts",
        "  b: ../outside/t.ts",
        "  c: tools/../t.ts",
        "  d: tools/t.py",
        "  e: https://example.com/t.ts",
        "  f: C:\\tools\\t.ts",
      ),
      "t.ts": TOOL,
    }),
    [
      'beeuni.yaml:7:6: error V4: invalid module path "/etc/t.ts" for tool "a": the path is absolute; write it relative to the repository root',
      'beeuni.yaml:8:6: error V4: invalid module path "../outside/t.ts" for tool "b": the path leads outside the repository with `..`',
      'beeuni.yaml:9:6: error V4: invalid module path "tools/../t.ts" for tool "c": write the path without `..` segments',
      'beeuni.yaml:10:6: error V4: invalid module path "tools/t.py" for tool "d": a module path must end in .ts, .js, .mts, .mjs, .cts, .cjs',
      'beeuni.yaml:11:6: error V4: invalid module path "https://example.com/t.ts" for tool "e": the path is a URL; write a path relative to the repository root',
      'beeuni.yaml:12:6: error V4: invalid module path "C:\\tools\\t.ts" for tool "f": the path is absolute; write it relative to the repository root',
    ],
  );
});

Deno.test("validate() rejects a module symlinked from outside the repository, and accepts one inside (V4)", async () => {
  const outside = await Deno.makeTempDir({ prefix: "beeuni_outside_" });
  try {
    await Deno.writeTextFile(join(outside, "t.ts"), TOOL);
    await using repo = await tempRepo({
      "beeuni.yaml": yaml(
        "tools:",
        ...FIVE,
        "  outer: tools/outer.ts",
        "  inner: tools/inner.ts",
      ),
      "lib/real.ts": TOOL,
    });
    await Deno.mkdir(join(repo.dir, "tools"));
    await symlink(join(outside, "t.ts"), join(repo.dir, "tools/outer.ts"));
    await symlink("../lib/real.ts", join(repo.dir, "tools/inner.ts"));
    await git(repo.dir, "add", "tools");
    await git(repo.dir, "commit", "-q", "-m", "links");
    const project = await loadProject({ cwd: repo.dir });
    assert.deepEqual(
      project.diagnostics.map((d) =>
        `${d.line}:${d.col} ${d.rule} ${d.message}`
      ),
      [
        '7:10 V4 invalid module path "tools/outer.ts" for tool "outer": a symlink leads outside the repository; put the module inside the repository',
      ],
    );
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("validate() rejects a module path whose file does not exist (V5)", async () => {
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml(
        "tools:",
        ...FIVE,
        "  here: tools/here.ts",
        "  gone: tools/gone.ts",
        "  folder: tools/dir.ts",
      ),
      "tools/here.ts": TOOL,
      "tools/dir.ts/inside.ts": TOOL,
    }),
    [
      'beeuni.yaml:8:9: error V5: cannot find module "tools/gone.ts" for tool "gone": file not found; create it or fix the path',
      'beeuni.yaml:9:11: error V5: cannot find module "tools/dir.ts" for tool "folder": file not found; create it or fix the path',
    ],
  );
});

Deno.test("validate() rejects a tool declared in two files, naming both places (V6)", async () => {
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml(
        "imports: [a.yaml, b.yaml]",
        "tools:",
        ...FIVE,
        "  lookup: tools/t.ts",
      ),
      "a.yaml": yaml("tools:", "  lookup: tools/t.ts", "  other: tools/t.ts"),
      "b.yaml": yaml("tools:", "  other: tools/t.ts", "  third: tools/t.ts"),
      "tools/t.ts": TOOL,
    }),
    [
      'a.yaml:2:3: error V6: tool "lookup" is declared twice: in beeuni.yaml:8:3 and in a.yaml:2:3; keep one of them',
      'b.yaml:2:3: error V6: tool "other" is declared twice: in a.yaml:3:3 and in b.yaml:2:3; keep one of them',
    ],
  );
});

Deno.test("validate() warns with the seed's V7 text when tools: lists no Beeuni tool (V7)", async () => {
  assert.equal(
    V7_MESSAGE,
    "Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one.",
  );
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml("# tools", "tools:", "  lookup: tools/t.ts"),
      "tools/t.ts": TOOL,
    }),
    [`beeuni.yaml:2:1: warning V7: ${V7_MESSAGE}`],
  );
  assert.deepEqual(await check({ "beeuni.yaml": "tools: {}\n" }), [
    `beeuni.yaml:1:1: warning V7: ${V7_MESSAGE}`,
  ]);
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml("imports: [more.yaml]"),
      "more.yaml": yaml("tools:", "# all deleted"),
    }),
    [`more.yaml:1:1: warning V7: ${V7_MESSAGE}`],
  );
  // Passing: one Beeuni tool kept (even overridden), or no tools: key at all.
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml("tools:", "  memory: tools/memory.ts"),
      "tools/memory.ts": TOOL,
    }),
    [],
  );
  assert.deepEqual(await check({ "beeuni.yaml": yaml("agents: {}") }), []);
});

Deno.test("validate() warns with the seed's V8 text when an agent names a Beeuni tool the project does not load (V8)", async () => {
  assert.equal(
    v8Message("show"),
    '"show" is a Beeuni tool this project does not load: add `show: beeuni:show` under the top-level `tools`, or remove it here.',
  );
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml(
        "tools:",
        "  web_search: beeuni:web_search",
        "agents:",
        "  a:",
        "    tools: [web_search, show]",
        "  b:",
        "    tools: { memory: true, image_search: false }",
        "  c:",
        "    tools: { exclude: [show] }",
      ),
    }),
    [
      `beeuni.yaml:5:25: warning V8: ${v8Message("show")}`,
      `beeuni.yaml:7:14: warning V8: ${v8Message("memory")}`,
    ],
  );
  // Passing: with no tools: key every Beeuni tool is loaded.
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml("agents:", "  a:", "    tools: [show, memory]"),
    }),
    [],
  );
});

Deno.test("validate() warns about unknown names in agent tools, with its own wording for exclude (V9)", async () => {
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml(
        "tools:",
        ...FIVE,
        "  lookup_order: tools/t.ts",
        "agents:",
        "  a:",
        "    tools: [reed, lookup_order, pty_read, '*', frobnicate]",
        "  b:",
        "    tools:",
        "      exclude: [bassh, lookup_ordr]",
        "  c:",
        "    tools: { wirte: false, grep: true }",
      ),
      "tools/t.ts": TOOL,
    }),
    [
      'beeuni.yaml:10:13: warning V9: agent "a" lists "reed", which is neither a harness, Beeuni nor project tool (did you mean "read"?): the agent gets no such tool; fix the name or remove it',
      'beeuni.yaml:10:48: warning V9: agent "a" lists "frobnicate", which is neither a harness, Beeuni nor project tool: the agent gets no such tool; fix the name or remove it',
      'beeuni.yaml:13:17: warning V9: agent "b" excludes "bassh", which is neither a harness, Beeuni nor project tool (did you mean "bash"?): this excludes nothing, so the tool you meant stays enabled; fix the name',
      'beeuni.yaml:13:24: warning V9: agent "b" excludes "lookup_ordr", which is neither a harness, Beeuni nor project tool (did you mean "lookup_order"?): this excludes nothing, so the tool you meant stays enabled; fix the name',
      'beeuni.yaml:15:14: warning V9: agent "c" maps "wirte", which is neither a harness, Beeuni nor project tool (did you mean "write"?): the entry has no effect; fix the name or remove it',
    ],
  );
});

Deno.test("validate() warns about a declared module git does not track (V10)", async () => {
  assert.deepEqual(
    await check(
      {
        "beeuni.yaml": yaml(
          "tools:",
          ...FIVE,
          "  tracked: tools/tracked.ts",
          "  fresh: tools/fresh.ts",
        ),
        "tools/tracked.ts": TOOL,
        "tools/fresh.ts": TOOL,
      },
      { untracked: ["tools/fresh.ts"] },
    ),
    [
      'beeuni.yaml:8:10: warning V10: module "tools/fresh.ts" of tool "fresh" is not tracked by git: a config release carries only tracked files, so sessions would not see it; run `git add tools/fresh.ts`',
    ],
  );
});

Deno.test("validate() warns about tool files in harnesses/opencode/tools/ (V11)", async () => {
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml("tools:", ...FIVE),
      "harnesses/opencode/tools/web_search.ts": TOOL,
      "harnesses/opencode/tools/weather.js": TOOL,
      "harnesses/opencode/tools/README.md": "notes\n",
      "harnesses/opencode/opencode.json": "{}\n",
    }),
    [
      'harnesses/opencode/tools/weather.js:1:1: warning V11: only the standard harness loads "weather.js": `beeuni tools migrate` turns its tools into project tools that both harnesses run; once they load (`beeuni validate --load`), delete this file, which opencode would otherwise keep loading',
      'harnesses/opencode/tools/web_search.ts:1:1: warning V11: a copy of the Beeuni tool "web_search": in the standard harness it shadows the hosted "web_search" tool, so sessions run this copy; delete it (the daemon hosts every tool listed in beeuni.yaml for both harnesses)',
    ],
  );
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml("tools:", ...FIVE),
      "harnesses/opencode/opencode.json": "{}\n",
    }),
    [],
  );
});

Deno.test("validate() reports malformed YAML and wrong types from a real file (V12)", async () => {
  assert.deepEqual(
    await check({
      "beeuni.yaml": yaml("imports: [bad.yaml]", "tools:", ...FIVE),
      "bad.yaml": "tools:\n  a: [\n",
    }),
    [
      "bad.yaml:3:1: error V12: malformed YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
    ],
  );
  assert.deepEqual(
    await check({ "beeuni.yaml": yaml("tools:", ...FIVE, "  x: 3") }),
    [
      'beeuni.yaml:7:6: error V12: tool "x" must map to `beeuni:<name>` or a repo-relative module path, found the number 3',
    ],
  );
});

Deno.test("validate() is pure: the same manifest and facts give the same diagnostics", async () => {
  const manifest = await parseManifest(
    "/repo",
    "beeuni.yaml",
    (path) =>
      path === "beeuni.yaml"
        ? yaml("tools:", "  web_search: beeuni:web_search", "  t: tools/t.ts")
        : undefined,
  );
  const facts = {
    modules: {
      "tools/t.ts": { exists: true, insideRepo: true, tracked: false },
    },
    legacyTools: ["memory.ts"],
  };
  const first = validate(manifest, facts);
  assert.deepEqual(validate(manifest, facts), first);
  assert.deepEqual(first.map((d) => d.rule), ["V10", "V11"]);
  assert.deepEqual(
    validate(manifest, {
      modules: {
        "tools/t.ts": { exists: true, insideRepo: true, tracked: true },
      },
      legacyTools: [],
    }),
    [],
  );
});

Deno.test('validate() bounds its "did you mean" hints: 10,000 near-miss names against 10,000 tools finish (hang guard 60 s) and the first get hints', async () => {
  // Every name against every tool, a table each, was 1e8 tables here.
  const script = `
    import { parseManifest, validate } from ${
    JSON.stringify(new URL("../lib/manifest/mod.ts", import.meta.url).href)
  };
    const n = 10000;
    const tools = Array.from({ length: n }, (_, i) => "  tool_" + i + ": tools/t.ts\\n").join("");
    const names = Array.from({ length: n }, (_, i) => "toal_" + i).join(", ");
    const text = "tools:\\n  web_search: beeuni:web_search\\n" + tools.split("\\n").slice(0, n - 1).join("\\n") + "\\nagents:\\n  a:\\n    tools: [" + names + "]\\n";
    const manifest = await parseManifest("/repo", "beeuni.yaml", () => text);
    const modules = { "tools/t.ts": { exists: true, insideRepo: true, tracked: true } };
    const found = validate(manifest, { modules, legacyTools: [] }).filter((d) => d.rule === "V9");
    console.log(JSON.stringify([manifest.diagnostics.length, found.length, found[0].message]));
  `;
  const [parseErrors, unknown, first] = await evalJson<
    [number, number, string]
  >(script);
  assert.equal(parseErrors, 0);
  assert.equal(unknown, 10_000);
  assert.equal(
    first,
    'agent "a" lists "toal_0", which is neither a harness, Beeuni nor project tool (did you mean "tool_0"?): the agent gets no such tool; fix the name or remove it',
  );
});
