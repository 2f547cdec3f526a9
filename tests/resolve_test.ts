import assert from "node:assert/strict";
import {
  type AgentEntry,
  agentNames,
  agentTools,
  findAgent,
  type Manifest,
  type ManifestFile,
  parseManifest,
  resolveTools,
  type SourcePos,
  type ToolSet,
} from "../lib/manifest/mod.ts";

function pos(file: string, line: number): SourcePos {
  return { file, line, col: 3 };
}

/** A manifest file: `tools` undefined means the file has no `tools:` key. */
function file(
  path: string,
  tools: Record<string, unknown> | [string, unknown][] | undefined,
  agents: string[] = [],
): ManifestFile {
  const entries = tools === undefined
    ? []
    : Array.isArray(tools)
    ? tools
    : Object.entries(tools);
  return {
    path,
    hasToolsKey: tools !== undefined,
    tools: entries.map(([name, value], i) => ({
      name,
      value,
      namePos: pos(path, i + 2),
      valuePos: pos(path, i + 2),
    })),
    agents: agents.map((name, i): AgentEntry => ({
      name,
      pos: pos(path, 100 + i),
      tools: { kind: "all" },
      secrets: [],
      raw: {},
    })),
    imports: [],
  };
}

function manifest(...files: ManifestFile[]): Manifest {
  return {
    root: "/repo",
    manifestPath: "beeuni.yaml",
    files,
    diagnostics: [],
  };
}

function rows(set: ToolSet): string[] {
  return set.tools.map((tool) => `${tool.name} ${tool.kind} ${tool.source}`);
}

const ALL_FIVE = [
  "web_search beeuni beeuni:web_search",
  "image_search beeuni beeuni:image_search",
  "scrape_webpage beeuni beeuni:scrape_webpage",
  "memory beeuni beeuni:memory",
  "show beeuni beeuni:show",
];

Deno.test("resolveTools() gives all five Beeuni tools when no file has a tools: key (M4)", () => {
  const set = resolveTools(manifest(file("beeuni.yaml", undefined)));
  assert.deepEqual(rows(set), ALL_FIVE);
  assert.equal(set.tools_key, false);
  assert.deepEqual(set.removed, []);
  assert.equal(set.manifest, "beeuni.yaml");
  assert.equal(set.tools[0].declaredAt, undefined);
});

Deno.test("resolveTools() gives only the listed Beeuni tools once a tools: key exists (M4)", () => {
  const set = resolveTools(manifest(file("beeuni.yaml", {
    show: "beeuni:show",
    web_search: "beeuni:web_search",
  })));
  assert.deepEqual(rows(set), [
    "web_search beeuni beeuni:web_search",
    "show beeuni beeuni:show",
  ]);
  assert.equal(set.tools_key, true);
  assert.deepEqual(set.removed, ["image_search", "scrape_webpage", "memory"]);
});

Deno.test("resolveTools() gives no Beeuni tool for an empty tools: key (M4)", () => {
  const set = resolveTools(manifest(file("beeuni.yaml", {})));
  assert.deepEqual(set.tools, []);
  assert.equal(set.tools_key, true);
  assert.deepEqual(set.removed, [
    "web_search",
    "image_search",
    "scrape_webpage",
    "memory",
    "show",
  ]);
});

Deno.test("resolveTools() counts a tools: key in an imported file (M4)", () => {
  const set = resolveTools(manifest(
    file("beeuni.yaml", undefined),
    file("more/tools.yaml", { memory: "beeuni:memory" }),
  ));
  assert.equal(set.tools_key, true);
  assert.deepEqual(rows(set), ["memory beeuni beeuni:memory"]);
  assert.deepEqual(set.tools[0].declaredAt, pos("more/tools.yaml", 2));
});

Deno.test("resolveTools() loads project tools with and without Beeuni tools (M5)", () => {
  const set = resolveTools(manifest(file("beeuni.yaml", {
    lookup_order: "tools/lookup_order.ts",
    crm_note: "integrations/crm/note.mjs",
  })));
  assert.deepEqual(rows(set), [
    "lookup_order project tools/lookup_order.ts",
    "crm_note project integrations/crm/note.mjs",
  ]);
  assert.equal(set.removed.length, 5);
  const both = resolveTools(manifest(file("beeuni.yaml", {
    lookup_order: "tools/lookup_order.ts",
    web_search: "beeuni:web_search",
  })));
  assert.deepEqual(rows(both), [
    "web_search beeuni beeuni:web_search",
    "lookup_order project tools/lookup_order.ts",
  ]);
});

Deno.test("resolveTools() marks a Beeuni name with a module path as overridden (M6)", () => {
  const set = resolveTools(manifest(file("beeuni.yaml", {
    web_search: "integrations/search/web_search.ts",
    image_search: "beeuni:image_search",
  })));
  assert.deepEqual(rows(set), [
    "web_search beeuni (overridden) integrations/search/web_search.ts",
    "image_search beeuni beeuni:image_search",
  ]);
  assert.notEqual(set.tools[1].kind, "beeuni (overridden)");
});

Deno.test("resolveTools() reproduces the seed's tools ls rows (L1)", () => {
  const set = resolveTools(manifest(file("beeuni.yaml", {
    web_search: "tools/web_search.ts",
    scrape_webpage: "beeuni:scrape_webpage",
    memory: "beeuni:memory",
    show: "beeuni:show",
    lookup_order: "tools/lookup_order.ts",
  })));
  assert.deepEqual(rows(set), [
    "web_search beeuni (overridden) tools/web_search.ts",
    "scrape_webpage beeuni beeuni:scrape_webpage",
    "memory beeuni beeuni:memory",
    "show beeuni beeuni:show",
    "lookup_order project tools/lookup_order.ts",
  ]);
  assert.deepEqual(set.removed, ["image_search"]);
});

Deno.test("resolveTools() orders Beeuni tools canonically, project tools by declaration across files (L1)", () => {
  const set = resolveTools(manifest(
    file("beeuni.yaml", {
      zeta: "tools/zeta.ts",
      show: "beeuni:show",
      alpha: "tools/alpha.ts",
    }),
    file("a.yaml", {
      middle: "tools/middle.js",
      web_search: "beeuni:web_search",
    }),
    file("b.yaml", { aardvark: "tools/aardvark.cts" }),
  ));
  assert.deepEqual(set.tools.map((tool) => tool.name), [
    "web_search",
    "show",
    "zeta",
    "alpha",
    "middle",
    "aardvark",
  ]);
});

Deno.test("resolveTools() skips invalid entries without throwing (V1-V4)", () => {
  const set = resolveTools(manifest(file("beeuni.yaml", [
    ["web_search", "beeuni:image_search"], // V3: not the key's own tool
    ["lookup", "beeuni:lookup"], // V3: project tools take a path
    ["bash", "tools/bash.ts"], // V2: harness tool name
    ["Bad-Name", "tools/bad.ts"], // V1
    ["number", 42], // V12: wrong type
    ["nothing", null], // V12: empty value
    ["listy", ["tools/a.ts"]], // V12: a list
    ["absolute", "/etc/tool.ts"], // V4
    ["escape", "../outside/tool.ts"], // V4
    ["no_ext", "tools/tool.py"], // V4
    ["url", "https://example.com/tool.ts"], // V4
    ["spaced", " tools/spaced.ts"], // V4
    ["bare_ext", "tools/.ts"], // V4
    ["memory", "beeuni:memory"],
    ["good", "tools/good.ts"],
  ])));
  assert.deepEqual(rows(set), [
    "memory beeuni beeuni:memory",
    "good project tools/good.ts",
  ]);
  assert.deepEqual(set.removed, [
    "web_search",
    "image_search",
    "scrape_webpage",
    "show",
  ]);
});

Deno.test("resolveTools() lists a module path normalized (M3)", () => {
  const set = resolveTools(manifest(file("beeuni.yaml", {
    lookup_order: "./tools/lookup_order.ts",
    show: "tools\\show.ts",
  })));
  assert.deepEqual(rows(set), [
    "show beeuni (overridden) tools/show.ts",
    "lookup_order project tools/lookup_order.ts",
  ]);
});

Deno.test("resolveTools() keeps the first declaration of a name declared twice (V6)", () => {
  const set = resolveTools(manifest(
    file("beeuni.yaml", { lookup_order: "tools/lookup_order.ts" }),
    file("extra.yaml", {
      lookup_order: "tools/other.ts",
      show: "beeuni:show",
    }),
  ));
  assert.deepEqual(rows(set), [
    "show beeuni beeuni:show",
    "lookup_order project tools/lookup_order.ts",
  ]);
});

Deno.test("findAgent() finds an agent in the root or an import, and not a stranger", () => {
  const m = manifest(
    file("beeuni.yaml", undefined, ["beeuni", "researcher"]),
    file("agents.yaml", undefined, ["support", "researcher"]),
  );
  assert.equal(findAgent(m, "support")?.pos.file, "agents.yaml");
  assert.equal(findAgent(m, "researcher")?.pos.file, "beeuni.yaml");
  assert.equal(findAgent(m, "nobody"), undefined);
  assert.deepEqual(agentNames(m), ["beeuni", "researcher", "support"]);
});

function parsed(files: Record<string, string>): Promise<Manifest> {
  return parseManifest("/repo", "beeuni.yaml", (path) => files[path]);
}

Deno.test("resolveTools() reads a tools: key with every line deleted as a tools: key (M4)", async () => {
  const set = resolveTools(
    await parsed({
      "beeuni.yaml":
        "tools:\n  # web_search: beeuni:web_search\nagents:\n  a: {}\n",
    }),
  );
  assert.equal(set.tools_key, true);
  assert.deepEqual(set.tools, []);
  assert.equal(set.removed.length, 5);
  const none = resolveTools(
    await parsed({ "beeuni.yaml": "agents:\n  a: {}\n" }),
  );
  assert.equal(none.tools_key, false);
  assert.equal(none.tools.length, 5);
});

Deno.test("resolveTools() and agentTools() work on a parsed manifest with imports (M2, M4, section 5)", async () => {
  const manifest = await parsed({
    "beeuni.yaml": [
      "imports: [team/agents.yaml]",
      "tools:",
      "  web_search: beeuni:web_search",
      "  lookup_order: tools/lookup_order.ts",
      "",
    ].join("\n"),
    "team/agents.yaml": [
      "tools:",
      "  crm_note: integrations/crm/note.ts",
      "agents:",
      "  support:",
      "    tools:",
      "      exclude: [lookup_order]",
      "",
    ].join("\n"),
  });
  assert.deepEqual(manifest.diagnostics, []);
  const set = resolveTools(manifest);
  assert.deepEqual(rows(set), [
    "web_search beeuni beeuni:web_search",
    "lookup_order project tools/lookup_order.ts",
    "crm_note project integrations/crm/note.ts",
  ]);
  assert.deepEqual(
    agentTools({
      tools: set.tools.map((tool) => tool.name),
      agent: findAgent(manifest, "support"),
      harness: "standard",
    }),
    ["web_search", "crm_note"],
  );
});
