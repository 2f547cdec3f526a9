import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { beeuni, git, REPO_ROOT, runProgram, tempRepo } from "./_helpers.ts";
import { npmBin, npmPackage } from "./_npm_cache.ts";
import { moduleSpecifiers } from "./_builtin.ts";
import { createHost } from "../lib/host/mod.ts";
import { BEEUNI_TOOLS } from "../lib/manifest/mod.ts";

function builtin(name: string): Uint8Array {
  return Deno.readFileSync(join(REPO_ROOT, "builtin_tools", `${name}.ts`));
}

/** The success output of E5, for `name` set in `file`. */
function ejected(name: string, file = "beeuni.yaml"): string {
  return `  ✓  Ejected ${name}
  wrote   tools/${name}.ts (the Beeuni source, now the project's to change)
  set     ${file}: tools.${name}: tools/${name}.ts

Next:
  1. Edit tools/${name}.ts. Keep the default export: { description, parameters, execute(args, context) }.
  2. beeuni validate
  3. git add tools/${name}.ts ${file} && git commit -m "Own the ${name} tool"
  4. Open a change request: git push origin HEAD && beeuni cr open --title "Own the ${name} tool"
Sessions load the copy after the change request merges.
`;
}

async function read(dir: string, path: string): Promise<string> {
  return await Deno.readTextFile(join(dir, path));
}

/** Ejects `name` in a repo holding `files` and checks E1, E2 and E5. */
async function ejectGolden(
  files: Record<string, string>,
  name: string,
  expected: Record<string, string>,
  setIn = "beeuni.yaml",
): Promise<void> {
  await using repo = await tempRepo(files);
  const result = await beeuni(repo.dir, ["tools", "eject", name]);
  assert.equal(result.stderr, "");
  assert.equal(result.stdout, ejected(name, setIn));
  assert.equal(result.code, 0);
  assert.deepEqual(
    Deno.readFileSync(join(repo.dir, "tools", `${name}.ts`)),
    builtin(name),
  );
  for (const [path, text] of Object.entries({ ...files, ...expected })) {
    assert.equal(await read(repo.dir, path), text, path);
  }
  const validate = await beeuni(repo.dir, ["validate"]);
  assert.equal(validate.code, 0, validate.stdout + validate.stderr);
}

const COMMENTED = [
  "# Project tools for the support agent.",
  "imports: []   # none yet",
  "",
  "tools:   # the tools a session gets",
  "  # Search first.",
  "  web_search: beeuni:web_search # keep",
  '  memory: "beeuni:memory"     # notes live in memory/',
  "  show: 'beeuni:show'",
  "",
  "# Agents below.",
  "agents:",
  "  build:",
  "    tools: all # every tool",
  "",
];

Deno.test("eject rewrites only the declaring line, keeping comments and quotes (E1, E2, E5)", async () => {
  const before = COMMENTED.join("\n");
  const after = before
    .replace(
      '  memory: "beeuni:memory"     # notes live in memory/',
      '  memory: "tools/memory.ts"     # notes live in memory/ # ejected from beeuni:memory',
    );
  await ejectGolden({ "beeuni.yaml": before }, "memory", {
    "beeuni.yaml": after,
  });
  const show = before.replace(
    "  show: 'beeuni:show'",
    "  show: 'tools/show.ts' # ejected from beeuni:show",
  );
  await ejectGolden({ "beeuni.yaml": before }, "show", { "beeuni.yaml": show });
});

Deno.test("eject keeps a CRLF manifest's line ends byte for byte (E2)", async () => {
  const before = COMMENTED.join("\r\n");
  const after = before.replace(
    "  show: 'beeuni:show'\r\n",
    "  show: 'tools/show.ts' # ejected from beeuni:show\r\n",
  );
  assert.notEqual(after, before);
  await ejectGolden({ "beeuni.yaml": before }, "show", {
    "beeuni.yaml": after,
  });
});

Deno.test("eject in a one-line flow mapping puts the comment at the line's end (E2)", async () => {
  const before =
    "# flow\ntools: { web_search: beeuni:web_search, memory: beeuni:memory, show: beeuni:show }\nagents: {}\n";
  await ejectGolden({ "beeuni.yaml": before }, "memory", {
    "beeuni.yaml":
      "# flow\ntools: { web_search: beeuni:web_search, memory: tools/memory.ts, show: beeuni:show } # ejected from beeuni:memory\nagents: {}\n",
  });
});

Deno.test("eject in a multi-line flow mapping changes only the entry's line (E2)", async () => {
  const before =
    "tools: {\r\n  memory: beeuni:memory,  # notes\r\n  show: beeuni:show\r\n}\r\n";
  await ejectGolden({ "beeuni.yaml": before }, "show", {
    "beeuni.yaml":
      "tools: {\r\n  memory: beeuni:memory,  # notes\r\n  show: tools/show.ts # ejected from beeuni:show\r\n}\r\n",
  });
});

Deno.test("eject edits the imported file that declares the entry and names it (E2, E5, M2)", async () => {
  const root =
    "# root\nimports:\n  - config/tools.yaml # shared list\nagents:\n  build:\n    tools: all\n";
  const imported =
    "tools:\n  memory: beeuni:memory\n  show: beeuni:show   # the viewer\n";
  await ejectGolden(
    { "beeuni.yaml": root, "config/tools.yaml": imported },
    "show",
    {
      "beeuni.yaml": root,
      "config/tools.yaml":
        "tools:\n  memory: beeuni:memory\n  show: tools/show.ts   # the viewer # ejected from beeuni:show\n",
    },
    "config/tools.yaml",
  );
});

Deno.test("eject with no tools: key anywhere adds one listing the other four Beeuni tools (E3)", async () => {
  const before = "# no tools key\nagents:\n  build:\n    tools: all";
  const after = before + "\n" + [
    "tools:",
    "  web_search: beeuni:web_search",
    "  image_search: beeuni:image_search",
    "  scrape_webpage: beeuni:scrape_webpage",
    "  memory: tools/memory.ts # ejected from beeuni:memory",
    "  show: beeuni:show",
    "",
  ].join("\n");
  await ejectGolden({ "beeuni.yaml": before }, "memory", {
    "beeuni.yaml": after,
  });
  const crlf = "agents:\r\n  build: {}\r\n";
  await ejectGolden({ "beeuni.yaml": crlf }, "show", {
    "beeuni.yaml": crlf +
      "tools:\r\n  web_search: beeuni:web_search\r\n  image_search: beeuni:image_search\r\n  scrape_webpage: beeuni:scrape_webpage\r\n  memory: beeuni:memory\r\n  show: tools/show.ts # ejected from beeuni:show\r\n",
  });
});

Deno.test("eject of a tool a tools: key leaves out adds its entry there (E2)", async () => {
  await ejectGolden(
    {
      "beeuni.yaml":
        "tools:\n  web_search: beeuni:web_search # kept\n\nagents: {}\n",
    },
    "memory",
    {
      "beeuni.yaml":
        "tools:\n  web_search: beeuni:web_search # kept\n  memory: tools/memory.ts # ejected from beeuni:memory\n\nagents: {}\n",
    },
  );
  await ejectGolden({ "beeuni.yaml": "tools: {}\n" }, "memory", {
    "beeuni.yaml":
      "tools: { memory: tools/memory.ts } # ejected from beeuni:memory\n",
  });
});

Deno.test("eject keeps the tool list a session gets, with the copy in place (E3, L1)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": "agents: {}\n" });
  assert.equal((await beeuni(repo.dir, ["tools", "eject", "memory"])).code, 0);
  const ls = await beeuni(repo.dir, ["tools", "ls", "--json"]);
  const set = JSON.parse(ls.stdout);
  assert.deepEqual(
    set.tools.map((tool: { name: string; kind: string; source: string }) => [
      tool.name,
      tool.kind,
      tool.source,
    ]),
    [
      ["web_search", "beeuni", "beeuni:web_search"],
      ["image_search", "beeuni", "beeuni:image_search"],
      ["scrape_webpage", "beeuni", "beeuni:scrape_webpage"],
      ["memory", "beeuni (overridden)", "tools/memory.ts"],
      ["show", "beeuni", "beeuni:show"],
    ],
  );
  assert.deepEqual(set.removed, []);
});

Deno.test("eject refuses a second eject: tools/<name>.ts exists (E4)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
  });
  assert.equal((await beeuni(repo.dir, ["tools", "eject", "memory"])).code, 0);
  const manifest = await read(repo.dir, "beeuni.yaml");
  const again = await beeuni(repo.dir, ["tools", "eject", "memory"]);
  assert.equal(again.code, 1);
  assert.equal(again.stdout, "");
  assert.equal(
    again.stderr,
    'beeuni tools eject: cannot eject "memory": tools/memory.ts exists; pass --force to overwrite it\n',
  );
  assert.equal(await read(repo.dir, "beeuni.yaml"), manifest);
});

Deno.test("eject refuses an existing tools/<name>.ts unless --force, which overwrites it (E4)", async () => {
  const manifest = "tools:\n  show: beeuni:show\n";
  await using repo = await tempRepo({
    "beeuni.yaml": manifest,
    "tools/show.ts": "// my own show\n",
  });
  const refused = await beeuni(repo.dir, ["tools", "eject", "show"]);
  assert.equal(refused.code, 1);
  assert.equal(
    refused.stderr,
    'beeuni tools eject: cannot eject "show": tools/show.ts exists; pass --force to overwrite it\n',
  );
  assert.equal(await read(repo.dir, "tools/show.ts"), "// my own show\n");
  assert.equal(await read(repo.dir, "beeuni.yaml"), manifest);

  const forced = await beeuni(repo.dir, ["tools", "eject", "show", "--force"]);
  assert.equal(forced.stdout, ejected("show"));
  assert.equal(forced.code, 0);
  assert.deepEqual(
    Deno.readFileSync(join(repo.dir, "tools/show.ts")),
    builtin("show"),
  );
  assert.equal(
    await read(repo.dir, "beeuni.yaml"),
    "tools:\n  show: tools/show.ts # ejected from beeuni:show\n",
  );
});

Deno.test("eject refuses a tool that points at another module unless --force (E4)", async () => {
  const manifest =
    "tools:\n  memory: lib/my_memory.ts # ours\n  show: beeuni:show\n";
  await using repo = await tempRepo({
    "beeuni.yaml": manifest,
    "lib/my_memory.ts": "export default {};\n",
  });
  const refused = await beeuni(repo.dir, ["tools", "eject", "memory"]);
  assert.equal(refused.code, 1);
  assert.equal(
    refused.stderr,
    'beeuni tools eject: cannot eject "memory": beeuni.yaml:2 already points it at "lib/my_memory.ts"; pass --force to replace that with tools/memory.ts\n',
  );
  assert.equal(existsSync(join(repo.dir, "tools")), false);
  assert.equal(await read(repo.dir, "beeuni.yaml"), manifest);

  const forced = await beeuni(repo.dir, [
    "tools",
    "eject",
    "--force",
    "memory",
  ]);
  assert.equal(forced.stdout, ejected("memory"));
  assert.equal(
    await read(repo.dir, "beeuni.yaml"),
    "tools:\n  memory: tools/memory.ts # ours # ejected from beeuni:memory\n  show: beeuni:show\n",
  );
  assert.equal(
    await read(repo.dir, "lib/my_memory.ts"),
    "export default {};\n",
  );
});

Deno.test("eject refuses names that are not Beeuni tools (E4)", async () => {
  const manifest = "tools:\n  lookup_order: tools/lookup_order.ts\n";
  await using repo = await tempRepo({
    "beeuni.yaml": manifest,
    "tools/lookup_order.ts": "export default {};\n",
  });
  for (const name of ["lookup_order", "bash", "Memory", "beeuni:memory"]) {
    const result = await beeuni(repo.dir, ["tools", "eject", name]);
    assert.equal(result.code, 1, name);
    assert.equal(
      result.stderr,
      `beeuni tools eject: cannot eject "${name}": not a Beeuni tool; eject one of web_search, image_search, scrape_webpage, memory, show\n`,
    );
  }
  assert.equal(await read(repo.dir, "beeuni.yaml"), manifest);
});

Deno.test("eject refuses a manifest with errors and writes nothing (E4, V1)", async () => {
  const manifest = "tools:\n  memory: beeuni:memory\n  Bad-Name: tools/x.ts\n";
  await using repo = await tempRepo({ "beeuni.yaml": manifest });
  const result = await beeuni(repo.dir, ["tools", "eject", "memory"]);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /^beeuni tools eject: cannot eject "memory": beeuni\.yaml has \d+ errors? \(first: beeuni\.yaml:3:3: .*\); run beeuni validate and fix (?:it|them) first\n$/,
  );
  assert.equal(existsSync(join(repo.dir, "tools")), false);
  assert.equal(await read(repo.dir, "beeuni.yaml"), manifest);
});

Deno.test("eject needs a name and takes --manifest (E5)", async () => {
  await using repo = await tempRepo({
    "app/beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
  });
  const usage = await beeuni(repo.dir, ["tools", "eject"]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /name the Beeuni tool to eject/);
  const result = await beeuni(repo.dir, [
    "tools",
    "eject",
    "memory",
    "--manifest",
    "app/beeuni.yaml",
  ]);
  assert.equal(result.stdout, ejected("memory"));
  assert.deepEqual(
    Deno.readFileSync(join(repo.dir, "app/tools/memory.ts")),
    builtin("memory"),
  );
});

Deno.test("eject leaves no temporary files behind (E1, E2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
  });
  assert.equal((await beeuni(repo.dir, ["tools", "eject", "memory"])).code, 0);
  assert.deepEqual(
    [...Deno.readDirSync(repo.dir)].map((e) => e.name).sort(),
    [".git", "beeuni.yaml", "tools"],
  );
  assert.deepEqual(
    [...Deno.readDirSync(join(repo.dir, "tools"))].map((e) => e.name),
    ["memory.ts"],
  );
});

Deno.test("after an eject the host runs the project's copy, and going back works (E1, E6, D1)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
  });
  assert.equal((await beeuni(repo.dir, ["tools", "eject", "memory"])).code, 0);
  // The copy is the project's to change: make it say so.
  const copy = join(repo.dir, "tools/memory.ts");
  const source = await Deno.readTextFile(copy);
  await Deno.writeTextFile(
    copy,
    source.replace(
      /(["'])Keep notes across sessions/,
      "$1Project copy. Keep notes across sessions",
    ),
  );
  await git(repo.dir, "add", "tools/memory.ts", "beeuni.yaml");
  await git(repo.dir, "commit", "-q", "-m", "Own the memory tool");
  assert.equal((await beeuni(repo.dir, ["validate"])).code, 0);
  {
    await using host = await createHost({
      directory: repo.dir,
      env: {},
      log: () => {},
    });
    assert.deepEqual(host.loadErrors(), []);
    const [tool] = host.list("build");
    assert.equal(tool.kind, "beeuni (overridden)");
    assert.equal(tool.source, "tools/memory.ts");
    assert.match(tool.description, /^Project copy\. /);
    const outcome = await host.call({
      name: "memory",
      args: { command: "create", path: "/memories/a.md", file_text: "hi\n" },
      sessionId: "s1",
      agent: "build",
    });
    assert.deepEqual(outcome, {
      ok: true,
      output: "Created memory/a.md (1 line, 3 bytes)",
    });
  }
  // E6: set the line back and delete the file.
  await Deno.writeTextFile(
    join(repo.dir, "beeuni.yaml"),
    "tools:\n  memory: beeuni:memory\n",
  );
  await Deno.remove(copy);
  assert.equal((await beeuni(repo.dir, ["validate"])).code, 0);
});

Deno.test({
  name: "eject writes web_search byte for byte (E1, E5)",
  async fn() {
    await ejectGolden(
      { "beeuni.yaml": "tools:\n  web_search: beeuni:web_search # search\n" },
      "web_search",
      {
        "beeuni.yaml":
          "tools:\n  web_search: tools/web_search.ts # search # ejected from beeuni:web_search\n",
      },
    );
  },
});

Deno.test("eject fills an entry left without a value (E2)", async () => {
  await ejectGolden(
    { "beeuni.yaml": "tools:\n  memory:   # to do\n  show: beeuni:show\n" },
    "memory",
    {
      "beeuni.yaml":
        "tools:\n  memory: tools/memory.ts   # to do # ejected from beeuni:memory\n  show: beeuni:show\n",
    },
  );
});

Deno.test("eject replaces both files by rename, never writing into them (E1, E2)", async () => {
  const manifest = "tools:\n  show: beeuni:show\n";
  await using repo = await tempRepo({
    "beeuni.yaml": manifest,
    "tools/show.ts": "// old copy\n",
  });
  // Hard links keep the old bytes when a file is replaced by a rename; an
  // in-place write would change them too.
  await Deno.link(
    join(repo.dir, "beeuni.yaml"),
    join(repo.dir, "old_manifest"),
  );
  await Deno.link(join(repo.dir, "tools/show.ts"), join(repo.dir, "old_copy"));
  const result = await beeuni(repo.dir, ["tools", "eject", "show", "--force"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(await read(repo.dir, "old_manifest"), manifest);
  assert.equal(await read(repo.dir, "old_copy"), "// old copy\n");
  assert.equal(
    await read(repo.dir, "beeuni.yaml"),
    "tools:\n  show: tools/show.ts # ejected from beeuni:show\n",
  );
  assert.deepEqual(
    Deno.readFileSync(join(repo.dir, "tools/show.ts")),
    builtin("show"),
  );
});

/** TypeScript from npm (`npm view typescript version`) and Node.js's types. */
const TYPESCRIPT = "7.0.2";
const TYPES_NODE = "22.20.7";

Deno.test("each ejected Beeuni tool imports only node:* modules and passes deno check and tsc --noEmit on its own in a fresh project (E1, B1)", async () => {
  const [tsc, nodeModules] = await Promise.all([
    npmBin("typescript", TYPESCRIPT, "tsc"),
    npmPackage("@types/node", TYPES_NODE),
  ]);
  await using repo = await tempRepo({ "beeuni.yaml": "agents: {}\n" });
  for (const name of BEEUNI_TOOLS) {
    const ejected = await beeuni(repo.dir, ["tools", "eject", name]);
    assert.equal(ejected.code, 0, ejected.stderr);
    const file = `tools/${name}.ts`;
    const source = await read(repo.dir, file);
    const { specifiers, typeSpecifiers } = moduleSpecifiers(source);
    for (const specifier of [...specifiers, ...typeSpecifiers]) {
      assert.match(specifier, /^node:/, `${file} imports "${specifier}"`);
    }
    const check = await runProgram(
      Deno.execPath(),
      ["check", "--quiet", file],
      { cwd: repo.dir, env: { NO_COLOR: "1" } },
    );
    assert.equal(check.code, 0, `deno check ${file}:\n${check.stderr}`);
    const typed = await runProgram(tsc, [
      "--noEmit",
      "--strict",
      "--target",
      "es2022",
      "--module",
      "nodenext",
      "--types",
      "node",
      "--typeRoots",
      join(nodeModules, "@types"),
      file,
    ], { cwd: repo.dir });
    assert.equal(
      typed.code,
      0,
      `tsc ${file}:\n${typed.stdout}${typed.stderr}`,
    );
  }
  // The copies are the project's own now: nothing of the toolkit is needed.
  assert.equal(existsSync(join(repo.dir, "node_modules")), false);
  assert.equal(existsSync(join(repo.dir, "deno.json")), false);
});
