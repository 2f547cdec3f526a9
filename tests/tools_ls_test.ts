import assert from "node:assert/strict";
import { join } from "node:path";
import {
  formatToolsTable,
  type ToolSet,
  toolsJson,
} from "../lib/manifest/mod.ts";
import { beeuni, controlChars, tempRepo } from "./_helpers.ts";

const TOOL_MODULE = `export default {
  description: "Does one thing.",
  parameters: { type: "object", properties: {} },
  execute() {
    return "done";
  },
};
`;

const SEED_MANIFEST = `tools:
  web_search: tools/web_search.ts
  scrape_webpage: beeuni:scrape_webpage
  memory: beeuni:memory
  show: beeuni:show
  lookup_order: tools/lookup_order.ts
`;

const SEED_OUTPUT = `NAME            KIND                 SOURCE
web_search      beeuni (overridden)  tools/web_search.ts
scrape_webpage  beeuni               beeuni:scrape_webpage
memory          beeuni               beeuni:memory
show            beeuni               beeuni:show
lookup_order    project              tools/lookup_order.ts

Removed Beeuni tools: image_search
Add \`<name>: beeuni:<name>\` under \`tools:\` to get one back.
`;

const AGENTS_MANIFEST = `tools:
  web_search: beeuni:web_search
  memory: beeuni:memory
  lookup_order: tools/lookup_order.ts
  pty_notes: tools/pty_notes.ts
agents:
  lead:
    tools: [task, web_search, lookup_order]
  helper:
    tools: [web_search, memory]
  shell:
    tools: [bash]
  quiet:
    tools: none
  everyone:
    tools: ["*"]
  support:
    tools:
      exclude: [memory]
  legacy:
    tools: { lookup_order: false }
  loner:
    tools: [web_search]
`;

function agentsRepo() {
  return tempRepo({
    "beeuni.yaml": AGENTS_MANIFEST,
    "tools/lookup_order.ts": TOOL_MODULE,
    "tools/pty_notes.ts": TOOL_MODULE,
  });
}

function names(stdout: string): string[] {
  return JSON.parse(stdout).tools.map((tool: { name: string }) => tool.name);
}

Deno.test("beeuni tools ls reproduces the seed's example byte for byte (L1)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": SEED_MANIFEST,
    "tools/web_search.ts": TOOL_MODULE,
    "tools/lookup_order.ts": TOOL_MODULE,
  });
  const result = await beeuni(repo.dir, ["tools", "ls"]);
  assert.equal(result.stderr, "");
  assert.equal(result.stdout, SEED_OUTPUT);
  assert.equal(result.code, 0);
});

Deno.test("beeuni tools ls finds the manifest from a subfolder and with --manifest (M1, L1)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": SEED_MANIFEST,
    "tools/web_search.ts": TOOL_MODULE,
    "tools/lookup_order.ts": TOOL_MODULE,
  });
  const below = await beeuni(join(repo.dir, "tools"), ["tools", "ls"]);
  assert.equal(below.stdout, SEED_OUTPUT);
  const pointed = await beeuni(Deno.cwd(), [
    "tools",
    "ls",
    "--manifest",
    join(repo.dir, "beeuni.yaml"),
  ]);
  assert.equal(pointed.stdout, SEED_OUTPUT);
  assert.equal(pointed.code, 0);
});

Deno.test("beeuni tools ls prints no trailing lines when no Beeuni tool is removed (L1, M4)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "agents:\n  beeuni:\n    tools: all\n",
  });
  const result = await beeuni(repo.dir, ["tools", "ls"]);
  assert.equal(
    result.stdout,
    `NAME            KIND    SOURCE
web_search      beeuni  beeuni:web_search
image_search    beeuni  beeuni:image_search
scrape_webpage  beeuni  beeuni:scrape_webpage
memory          beeuni  beeuni:memory
show            beeuni  beeuni:show
`,
  );
  assert.equal(result.code, 0);
});

Deno.test("beeuni tools ls widens its columns for a long name and path (L1)", async () => {
  const long = "a_very_long_project_tool_name_for_testing";
  await using repo = await tempRepo({
    "beeuni.yaml":
      `tools:\n  show: beeuni:show\n  ${long}: deep/folder/${long}.ts\n`,
    [`deep/folder/${long}.ts`]: TOOL_MODULE,
  });
  const result = await beeuni(repo.dir, ["tools", "ls"]);
  const pad = " ".repeat(long.length - 4);
  assert.equal(
    result.stdout,
    `NAME${pad}  KIND     SOURCE
show${pad}  beeuni   beeuni:show
${long}  project  deep/folder/${long}.ts

Removed Beeuni tools: web_search, image_search, scrape_webpage, memory
Add \`<name>: beeuni:<name>\` under \`tools:\` to get one back.
`,
  );
  for (const line of result.stdout.split("\n")) {
    assert.equal(line, line.trimEnd(), "no trailing spaces");
  }
});

Deno.test("beeuni tools ls lists an empty tools: key as every Beeuni tool removed (M4, L1)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": "tools: {}\n" });
  const result = await beeuni(repo.dir, ["tools", "ls"]);
  assert.equal(
    result.stdout,
    `NAME  KIND  SOURCE

Removed Beeuni tools: web_search, image_search, scrape_webpage, memory, show
Add \`<name>: beeuni:<name>\` under \`tools:\` to get one back.
`,
  );
  assert.equal(result.code, 0);
});

Deno.test("beeuni tools ls counts a tools: key in an imported file (M4, M5)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "imports:\n  - team/tools.yaml\n",
    "team/tools.yaml":
      "tools:\n  memory: beeuni:memory\n  crm_note: integrations/crm/note.ts\n",
    "integrations/crm/note.ts": TOOL_MODULE,
  });
  const result = await beeuni(repo.dir, ["tools", "ls", "--json"]);
  assert.deepEqual(JSON.parse(result.stdout), {
    manifest: "beeuni.yaml",
    tools_key: true,
    tools: [
      { name: "memory", kind: "beeuni", source: "beeuni:memory" },
      { name: "crm_note", kind: "project", source: "integrations/crm/note.ts" },
    ],
    removed: ["web_search", "image_search", "scrape_webpage", "show"],
  });
});

Deno.test("beeuni tools ls --json prints the L2 document (L2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": SEED_MANIFEST,
    "tools/web_search.ts": TOOL_MODULE,
    "tools/lookup_order.ts": TOOL_MODULE,
  });
  const result = await beeuni(repo.dir, ["tools", "ls", "--json"]);
  assert.equal(result.code, 0);
  assert.deepEqual(JSON.parse(result.stdout), {
    manifest: "beeuni.yaml",
    tools_key: true,
    tools: [
      {
        name: "web_search",
        kind: "beeuni (overridden)",
        source: "tools/web_search.ts",
      },
      {
        name: "scrape_webpage",
        kind: "beeuni",
        source: "beeuni:scrape_webpage",
      },
      { name: "memory", kind: "beeuni", source: "beeuni:memory" },
      { name: "show", kind: "beeuni", source: "beeuni:show" },
      {
        name: "lookup_order",
        kind: "project",
        source: "tools/lookup_order.ts",
      },
    ],
    removed: ["image_search"],
  });
  const none = await tempRepo({ "beeuni.yaml": "agents: {}\n" });
  try {
    const all = JSON.parse(
      (await beeuni(none.dir, ["tools", "ls", "--json"])).stdout,
    );
    assert.equal(all.tools_key, false);
    assert.equal(all.tools.length, 5);
    assert.deepEqual(all.removed, []);
  } finally {
    await none[Symbol.asyncDispose]();
  }
});

Deno.test("beeuni tools ls --json names a root manifest in a subfolder repo-relative (L2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  show: beeuni:show\n",
    "config/beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
  });
  const result = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--json",
    "--manifest",
    "config/beeuni.yaml",
  ]);
  const doc = JSON.parse(result.stdout);
  assert.equal(typeof doc.manifest, "string");
  assert.ok(!doc.manifest.startsWith("/"), doc.manifest);
  assert.deepEqual(doc.tools.map((t: { name: string }) => t.name), ["memory"]);
});

Deno.test("beeuni tools ls reports manifest errors with positions and exits 1 (V3)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  web_search: beeuni:image_search\n",
  });
  const result = await beeuni(repo.dir, ["tools", "ls"]);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.match(
    result.stderr,
    /^beeuni\.yaml:2:\d+: error: must be `beeuni:web_search` \(the Beeuni tool\)/m,
  );
});

Deno.test("beeuni tools ls still lists with only warnings (V7)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  lookup_order: tools/lookup_order.ts\n",
    "tools/lookup_order.ts": TOOL_MODULE,
  });
  const result = await beeuni(repo.dir, ["tools", "ls"]);
  assert.equal(result.code, 0);
  assert.match(
    result.stdout,
    /^lookup_order {2}project {2}tools\/lookup_order\.ts$/m,
  );
});

Deno.test("beeuni tools ls --agent lists only what the agent sees (A2, section 5)", async () => {
  await using repo = await agentsRepo();
  const table = await beeuni(repo.dir, ["tools", "ls", "--agent", "helper"]);
  assert.equal(table.code, 0);
  assert.equal(
    table.stdout,
    `NAME        KIND    SOURCE
web_search  beeuni  beeuni:web_search
memory      beeuni  beeuni:memory

Hidden from agent "helper": lookup_order, pty_notes

Removed Beeuni tools: image_search, scrape_webpage, show
Add \`<name>: beeuni:<name>\` under \`tools:\` to get one back.
`,
  );
  const json = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--agent",
    "helper",
    "--json",
  ]);
  assert.deepEqual(JSON.parse(json.stdout), {
    manifest: "beeuni.yaml",
    tools_key: true,
    tools: [
      { name: "web_search", kind: "beeuni", source: "beeuni:web_search" },
      { name: "memory", kind: "beeuni", source: "beeuni:memory" },
    ],
    removed: ["image_search", "scrape_webpage", "show"],
    agent: "helper",
    agent_defined: true,
    harness: "standard",
    hidden: ["lookup_order", "pty_notes"],
  });
});

Deno.test("beeuni tools ls --agent handles none, *, exclude and the legacy map (section 5)", async () => {
  await using repo = await agentsRepo();
  const all = ["web_search", "memory", "lookup_order", "pty_notes"];
  const cases: [string, string[]][] = [
    ["quiet", []],
    ["everyone", all],
    ["support", ["web_search", "lookup_order", "pty_notes"]],
    ["legacy", ["web_search", "memory", "pty_notes"]],
  ];
  for (const [agent, expected] of cases) {
    const result = await beeuni(repo.dir, [
      "tools",
      "ls",
      "--json",
      "--agent",
      agent,
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(names(result.stdout), expected, agent);
  }
});

Deno.test("beeuni tools ls --agent shows what tools allows whatever permission says (A1)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": `tools:
  web_search: beeuni:web_search
  show: beeuni:show
agents:
  cautious:
    tools: all
    permission:
      web_search: deny
  narrow:
    tools: [show]
    permission:
      web_search: allow
`,
  });
  const cautious = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--json",
    "--agent",
    "cautious",
  ]);
  assert.deepEqual(names(cautious.stdout), ["web_search", "show"]);
  const narrow = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--json",
    "--agent",
    "narrow",
  ]);
  assert.deepEqual(names(narrow.stdout), ["show"]);
});

Deno.test("beeuni tools ls --agent cannot add a Beeuni tool the project does not load (A3, V8)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": `tools:
  web_search: beeuni:web_search
agents:
  painter:
    tools: [web_search, image_search]
`,
  });
  const result = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--agent",
    "painter",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout,
    `NAME        KIND    SOURCE
web_search  beeuni  beeuni:web_search

Removed Beeuni tools: image_search, scrape_webpage, memory, show
Add \`<name>: beeuni:<name>\` under \`tools:\` to get one back.
`,
  );
});

Deno.test("beeuni tools ls --agent leaves connectors to agents.<name>.connectors (A5)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": `tools:
  memory: beeuni:memory
agents:
  closed:
    tools: none
    connectors: [github]
  open:
    tools: all
    connectors: []
`,
  });
  const closed = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--json",
    "--agent",
    "closed",
  ]);
  assert.equal(closed.code, 0, closed.stderr);
  assert.deepEqual(names(closed.stdout), []);
  assert.deepEqual(JSON.parse(closed.stdout).hidden, ["memory"]);
  const open = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--json",
    "--agent",
    "open",
  ]);
  assert.deepEqual(names(open.stdout), ["memory"]);
});

Deno.test("beeuni tools ls --parent intersects in the experimental harness only (A4)", async () => {
  await using repo = await agentsRepo();
  const experimental = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--agent",
    "helper",
    "--parent",
    "lead",
    "--harness",
    "experimental",
  ]);
  assert.equal(experimental.code, 0, experimental.stderr);
  assert.equal(
    experimental.stdout,
    `NAME        KIND    SOURCE
web_search  beeuni  beeuni:web_search

Hidden from agent "helper": memory, lookup_order, pty_notes

Removed Beeuni tools: image_search, scrape_webpage, show
Add \`<name>: beeuni:<name>\` under \`tools:\` to get one back.
`,
  );
  const standard = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--json",
    "--agent",
    "helper",
    "--parent",
    "lead",
    "--harness",
    "standard",
  ]);
  const doc = JSON.parse(standard.stdout);
  assert.deepEqual(names(standard.stdout), ["web_search", "memory"]);
  assert.equal(doc.parent, "lead");
  assert.equal(doc.harness, "standard");
});

Deno.test("beeuni tools ls --parent refuses a parent without task (A4)", async () => {
  await using repo = await agentsRepo();
  const result = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--agent",
    "helper",
    "--parent",
    "loner",
  ]);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.match(
    result.stderr,
    /agent "loner" cannot start subagents: its tools do not include "task"/,
  );
});

Deno.test("beeuni tools ls --agent lets bash cover pty_* in the standard harness only (A6)", async () => {
  await using repo = await agentsRepo();
  const standard = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--json",
    "--agent",
    "shell",
  ]);
  assert.deepEqual(names(standard.stdout), ["pty_notes"]);
  const experimental = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--json",
    "--agent",
    "shell",
    "--harness",
    "experimental",
  ]);
  assert.deepEqual(names(experimental.stdout), []);
});

Deno.test("beeuni tools ls --agent lists every tool for an agent the manifest does not define, and a note says so with the nearest name (section 5, D4)", async () => {
  await using repo = await agentsRepo();
  const result = await beeuni(repo.dir, ["tools", "ls", "--agent", "helpr"]);
  assert.equal(result.code, 0);
  assert.equal(
    result.stdout,
    `NAME          KIND     SOURCE
web_search    beeuni   beeuni:web_search
memory        beeuni   beeuni:memory
lookup_order  project  tools/lookup_order.ts
pty_notes     project  tools/pty_notes.ts

Removed Beeuni tools: image_search, scrape_webpage, show
Add \`<name>: beeuni:<name>\` under \`tools:\` to get one back.
`,
  );
  assert.equal(
    result.stderr,
    'beeuni tools ls: agent "helpr" is not defined in the manifest, so it sees every tool (the default `all`) and gets no secret (did you mean "helper"?)\n',
  );
  const json = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--json",
    "--agent",
    "beeuni",
  ]);
  const doc = JSON.parse(json.stdout);
  assert.equal(doc.agent, "beeuni");
  assert.equal(doc.agent_defined, false);
  assert.deepEqual(doc.hidden, []);
  assert.deepEqual(names(json.stdout), [
    "web_search",
    "memory",
    "lookup_order",
    "pty_notes",
  ]);
  // An undefined parent sees every tool and may start subagents, so the
  // subagent's own list decides.
  const parent = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--json",
    "--agent",
    "helper",
    "--parent",
    "ghost",
    "--harness",
    "experimental",
  ]);
  assert.equal(parent.code, 0, parent.stderr);
  assert.deepEqual(names(parent.stdout), ["web_search", "memory"]);
  assert.match(parent.stderr, /agent "ghost" is not defined in the manifest/);
});

Deno.test("beeuni tools ls rejects bad option values with exit 2", async () => {
  await using repo = await agentsRepo();
  const cases: [string[], RegExp][] = [
    [["--agent", "helper", "--harness", "other"], /unknown harness "other"/],
    [["--parent", "lead"], /--parent needs --agent/],
    [["--agent"], /--agent/],
    [["--bogus"], /bogus/],
    [["extra"], /unexpected argument "extra"/],
  ];
  for (const [args, message] of cases) {
    const result = await beeuni(repo.dir, ["tools", "ls", ...args]);
    assert.equal(result.code, 2, args.join(" "));
    assert.equal(result.stdout, "");
    assert.match(result.stderr, message);
  }
});

Deno.test("beeuni tools ls --help describes every option", async () => {
  await using repo = await agentsRepo();
  const result = await beeuni(repo.dir, ["tools", "ls", "--help"]);
  assert.equal(result.code, 0);
  for (
    const option of ["--manifest", "--json", "--agent", "--harness", "--parent"]
  ) {
    assert.ok(result.stdout.includes(option), option);
  }
});

Deno.test("formatToolsTable() and toolsJson() agree on the rows (L1, L2)", () => {
  const set: ToolSet = {
    manifest: "beeuni.yaml",
    tools_key: true,
    tools: [{ name: "x", kind: "project", source: "t/x.ts" }],
    removed: [],
  };
  assert.equal(
    formatToolsTable(set),
    "NAME  KIND     SOURCE\nx     project  t/x.ts\n",
  );
  assert.deepEqual(toolsJson(set), {
    manifest: "beeuni.yaml",
    tools_key: true,
    tools: [{ name: "x", kind: "project", source: "t/x.ts" }],
    removed: [],
  });
});

Deno.test("tools ls escapes control characters in names in its table; --json keeps them exact (L1, L2)", async () => {
  const agent = "a\x1b]0;pwned\x07\nforged";
  await using repo = await tempRepo({
    "beeuni.yaml": `tools:\n  web_search: beeuni:web_search\nagents:\n  ${
      JSON.stringify(agent)
    }:\n    tools: [read]\n`,
  });
  const table = await beeuni(repo.dir, ["tools", "ls", "--agent", agent]);
  assert.equal(table.code, 0, table.stderr);
  assert.deepEqual(controlChars(table.stdout), []);
  assert.ok(
    table.stdout.includes(
      'Hidden from agent "a\\x1b]0;pwned\\x07\\nforged": web_search',
    ),
    table.stdout,
  );
  const json = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--agent",
    agent,
    "--json",
  ]);
  assert.equal(JSON.parse(json.stdout).agent, agent);
});
