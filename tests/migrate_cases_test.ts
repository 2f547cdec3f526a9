// `beeuni tools migrate` where it must refuse, fall back or hold out: names
// that clash (V1, V2, V11, O4), a project with no tools: key (M4), the
// manifest's bytes (E2's editor), hostile input (a hang check), an import
// that fails, and where the plugin package comes from.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beeuni, CLI, tempRepo } from "./_helpers.ts";
import {
  FIXTURES,
  migrate,
  runOriginals,
  TEST_XDG_CACHE,
} from "./_migrate_oracle.ts";
import { npmPackage } from "./_npm_cache.ts";
import { parseManifest, validate } from "../lib/manifest/mod.ts";

const L = "harnesses/opencode/tools";

function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), "utf8");
}

const IMAGE = `import { tool } from "@opencode-ai/plugin"

export const search = tool({
  description: "Search images",
  args: { query: tool.schema.string() },
  async execute(args) {
    return \`images of \${args.query}\`
  },
})
`;

const BASH = `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Restricted bash wrapper",
  args: {
    command: tool.schema.string(),
  },
  async execute(args) {
    return \`blocked: \${args.command}\`
  },
})
`;

const SHOUT = `import { tool } from "@opencode-ai/plugin"
import { shout } from "./utils.ts"

export default tool({
  description: "Shout",
  args: { text: tool.schema.string() },
  async execute(args) {
    return shout(args.text)
  },
})
`;

Deno.test("migrate never declares a name twice: Beeuni copies (also by export name, O4), harness names and bad names are refused, and the new tools: key keeps the Beeuni tools (V1, V2, V11, M4)", async () => {
  const manifest = "agents:\n  support:\n    tools: all\n";
  await using repo = await tempRepo({
    "beeuni.yaml": manifest,
    [`${L}/web_search.ts`]: fixture("database.ts"),
    [`${L}/image.ts`]: IMAGE,
    [`${L}/bash.ts`]: BASH,
    [`${L}/python-add.ts`]: fixture("python_add.ts"),
    [`${L}/broken.ts`]:
      'import { tool } from "@opencode-ai/plugin"\n\nexport default tool({\n  description: "Broken",\n  args: {,\n})\n',
    [`${L}/utils.ts`]:
      "export function shout(text: string): string {\n  return text.toUpperCase()\n}\n",
    [`${L}/shout.ts`]: SHOUT,
    [`${L}/lonely.ts`]: 'export const VERSION = "1"\n',
  });
  const before = await beeuni(repo.dir, ["validate"]);
  assert.match(
    before.stdout,
    /image\.ts:1:1: warning: "image\.ts" exports the tool "image_search" \(opencode names each named export <file>_<export>\): in the standard harness it shadows the hosted "image_search" tool/,
  );

  const result = await migrate(repo.dir);
  assert.equal(result.code, 1);
  assert.equal(
    result.stderr,
    `  ✗  Not migrated ${L}/bash.ts
  "bash" is a harness tool name (V2): rename the file or export, then migrate it
  ✗  Not migrated ${L}/broken.ts
  cannot read ${L}/broken.ts:5:10: Unexpected token
  ✗  Not migrated ${L}/image.ts
  "image_search" is a Beeuni tool's name: in the standard harness this file shadows the hosted "image_search" (V11); delete ${L}/image.ts to use the hosted tool, or rename the file or export and migrate it
  ✗  Not migrated ${L}/lonely.ts
  no tool export found (export default tool({...}), export const x = tool({...}) or a plain { description, args, execute } object): nothing to migrate
  ✗  Not migrated ${L}/python-add.ts
  "python-add" is not a valid tool name (lowercase letters, digits and _, starting with a letter, V1): rename the file or export, then migrate it
  check   ${L}/python-add.ts:11: this path points into opencode's tools folder: check that it still leads where it should from the new module
  check   ${L}/python-add.ts:12: Bun.$ runs only when the daemon runs under Bun: use node:child_process (execFile) to run it anywhere
  ✗  Not migrated ${L}/web_search.ts
  "web_search" is a Beeuni tool's name: in the standard harness this file shadows the hosted "web_search" (V11); delete ${L}/web_search.ts to use the hosted tool, or rename the file or export and migrate it
`,
  );
  assert.match(
    result.stdout,
    new RegExp(
      `^ {2}✓ {2}Migrated ${L}/shout\\.ts\n {2}wrote {3}tools/shout\\.ts\n {2}copied {2}tools/utils\\.ts \\(a helper it imports, from ${L}/utils\\.ts\\)\n {2}set {5}beeuni\\.yaml: tools\\.shout: tools/shout\\.ts\n {2}✓ {2}Copied ${L}/utils\\.ts to tools/utils\\.ts \\(a helper the migrated tools import\\)\n\nNext:\n`,
    ),
  );
  assert.equal(
    readFileSync(join(repo.dir, "beeuni.yaml"), "utf8"),
    `${manifest}tools:
  web_search: beeuni:web_search
  image_search: beeuni:image_search
  scrape_webpage: beeuni:scrape_webpage
  memory: beeuni:memory
  show: beeuni:show
  shout: tools/shout.ts # migrated from ${L}/shout.ts
`,
  );
  const after = await beeuni(repo.dir, ["validate"]);
  assert.equal(after.code, 0, after.stdout);
  const call = await beeuni(repo.dir, [
    "tools",
    "call",
    "shout",
    "--args",
    '{"text":"hey"}',
  ]);
  assert.equal(call.stdout, "HEY\n");
  assert.equal(existsSync(join(repo.dir, "tools/web_search.ts")), false);
});

Deno.test("validate() warns about a legacy file whose named export makes a Beeuni tool's name (V11, O4)", async () => {
  const manifest = await parseManifest(
    "/repo",
    "beeuni.yaml",
    () => "tools: {}\n",
  );
  const diagnostics = validate(manifest, {
    modules: {},
    legacyTools: ["image.ts", "web.ts"],
    legacyToolNames: {
      "image.ts": ["image_search", "image_tag"],
      "web.ts": ["web_fetch"],
    },
  }).filter((d) => d.rule === "V11");
  assert.deepEqual(
    diagnostics.map((d) => [d.file, d.message.slice(0, 40)]),
    [
      [`${L}/image.ts`, 'only the standard harness loads "image.t'],
      [`${L}/image.ts`, '"image.ts" exports the tool "image_searc'],
      [`${L}/web.ts`, 'only the standard harness loads "web.ts"'],
    ],
  );
});

Deno.test("migrate keeps every other byte of the manifest (CRLF, comments, flow map), and a second run declares nothing twice while --force rewrites the files (O3)", async () => {
  const manifest =
    "# tools below\r\ntools: { memory: beeuni:memory } # the list\r\nagents:\r\n  build:\r\n    tools: all\r\n";
  await using repo = await tempRepo({
    "beeuni.yaml": manifest,
    [`${L}/database.ts`]: fixture("database.ts"),
  });
  const first = await migrate(repo.dir);
  assert.equal(first.code, 0, first.stderr);
  const edited = manifest.replace(
    "tools: { memory: beeuni:memory } # the list\r\n",
    `tools: { memory: beeuni:memory, database: tools/database.ts } # the list # migrated from ${L}/database.ts\r\n`,
  );
  assert.equal(readFileSync(join(repo.dir, "beeuni.yaml"), "utf8"), edited);

  const again = await migrate(repo.dir);
  assert.equal(again.code, 1);
  assert.match(
    again.stderr,
    /tools\/database\.ts exists: pass --force to overwrite it/,
  );
  assert.equal(readFileSync(join(repo.dir, "beeuni.yaml"), "utf8"), edited);

  Deno.writeTextFileSync(join(repo.dir, "tools/database.ts"), "// mine\n");
  const forced = await migrate(repo.dir, ["--force"]);
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal(readFileSync(join(repo.dir, "beeuni.yaml"), "utf8"), edited);
  assert.match(
    readFileSync(join(repo.dir, "tools/database.ts"), "utf8"),
    /Query the project database/,
  );
});

Deno.test("migrate refuses a name another entry declares, and the manifest stays as it was (O3)", async () => {
  const manifest = "tools:\n  database: tools/db/main.ts\n";
  await using repo = await tempRepo({
    "beeuni.yaml": manifest,
    "tools/db/main.ts": "export default {}\n",
    [`${L}/database.ts`]: fixture("database.ts"),
  });
  const result = await migrate(repo.dir);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /"database" is already declared under tools: \(as "tools\/db\/main\.ts"\): rename the file or export, or remove that entry/,
  );
  assert.equal(readFileSync(join(repo.dir, "beeuni.yaml"), "utf8"), manifest);
  assert.equal(existsSync(join(repo.dir, "tools/database.ts")), false);
});

/** A tool file of `size` bytes whose description is one long string. */
function longTool(size: number): string {
  const head =
    'import { tool } from "@opencode-ai/plugin"\n\nexport default tool({\n  description: "';
  const tail =
    '",\n  args: { q: tool.schema.string() },\n  async execute(args) {\n    return args.q\n  },\n})\n';
  return head + "x".repeat(size - head.length - tail.length) + tail;
}

Deno.test("a hang check: hostile files end within a generous budget, each refused with its reason or migrated with a note", async () => {
  const junk = Array.from(
    { length: 4096 },
    (_, i) => String.fromCharCode((i * 7919) % 256),
  ).join("");
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
    // The scanner's endless loop: an escaped backtick, then a regex literal
    // holding a backtick inside ${}.
    [`${L}/fence_hang.ts`]:
      'import { tool } from "@opencode-ai/plugin"\nexport default tool({\n  description: "f",\n  args: { s: tool.schema.string() },\n  async execute(args) {\n    return `\\`${args.s.replace(/`/g, "\'")}` + `${/[`"]/.source}`\n  },\n})\n',
    [`${L}/deep.ts`]: `export const x = ${"(".repeat(60000)}1${
      ")".repeat(60000)
    }\n`,
    [`${L}/long_line.ts`]: longTool(900_000),
    [`${L}/too_big.ts`]: longTool(1_200_000),
    [`${L}/junk.ts`]: junk,
    [`${L}/unterminated.ts`]:
      'import { tool } from "@opencode-ai/plugin"\nexport default tool({ description: `never closed',
    [`${L}/spins.ts`]:
      'import { tool } from "@opencode-ai/plugin"\n\nwhile (true) {}\n\nexport default tool({\n  description: "Never finishes importing",\n  args: { n: tool.schema.number().int().min(1) },\n  async execute(args) {\n    return String(args.n)\n  },\n})\n',
  });
  // A budget for a slow machine, not a benchmark: the command gives up on
  // an import after 8 s, so it ends far sooner.
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CLI, "tools", "migrate"],
    cwd: repo.dir,
    env: { XDG_CACHE_HOME: TEST_XDG_CACHE, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).spawn();
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.notEqual(out.signal, "SIGTERM", "migrate did not end in time");
  assert.equal(out.code, 1, stdout + stderr);
  assert.match(stdout, new RegExp(`✓ {2}Migrated ${L}/fence_hang\\.ts\n`));
  assert.match(stdout, new RegExp(`✓ {2}Migrated ${L}/long_line\\.ts\n`));
  assert.match(
    stderr,
    new RegExp(
      `Not migrated ${L}/deep\\.ts\n {2}cannot read ${L}/deep\\.ts:1:1: the code is nested too deeply to read\n`,
    ),
  );
  assert.match(
    stderr,
    new RegExp(
      `Not migrated ${L}/too_big\\.ts\n {2}cannot read ${L}/too_big\\.ts:1:1: the file is over 1000000 bytes\n`,
    ),
  );
  assert.match(
    stderr,
    new RegExp(
      `Not migrated ${L}/junk\\.ts\n {2}cannot read ${L}/junk\\.ts:\\d+:\\d+: `,
    ),
  );
  assert.match(
    stderr,
    new RegExp(
      `Not migrated ${L}/unterminated\\.ts\n {2}cannot read ${L}/unterminated\\.ts:2:\\d+: Unterminated template`,
    ),
  );
  // The file whose import never ends is still migrated, from its source.
  assert.match(
    stdout,
    new RegExp(
      `✓ {2}Migrated ${L}/spins\\.ts\n[^]*check {3}${L}/spins\\.ts:7: parameters were read from the source, not computed by zod, because importing it failed: it did not finish importing within 8 s: compare them with args\n`,
    ),
  );
  // The module keeps its loop (the user's code); its parameters are read
  // from a copy without it.
  const migrated = readFileSync(join(repo.dir, "tools/spins.ts"), "utf8");
  assert.match(migrated, /\nwhile \(true\) \{\}\n/);
  Deno.writeTextFileSync(
    join(repo.dir, "tools/spins_copy.ts"),
    migrated.replace("while (true) {}", ""),
  );
  const { default: spins } = await import(
    pathToFileURL(join(repo.dir, "tools/spins_copy.ts")).href
  );
  assert.deepEqual(spins.parameters, {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: {
      n: { type: "integer", minimum: 1, maximum: 9007199254740991 },
    },
    required: ["n"],
  });
});

const FALLBACK = `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Plan a trip",
  args: {
    city: tool.schema.string().min(2).max(40).describe("Where to"),
    // Written for zod 3: zod 4 has no .ip(), so importing this file throws.
    from: tool.schema.string().ip().optional(),
    nights: tool.schema.number().int().positive().default(1),
    budget: tool.schema.number().nonnegative().optional(),
    mode: tool.schema.enum(["train", "plane"]).default("train"),
    flexible: tool.schema.boolean().optional(),
    stops: tool.schema.array(tool.schema.string()).min(1).optional(),
    note: tool.schema.string().nullable(),
    seat: tool.schema.enum(["aisle", "window"]).nullish(),
    kind: tool.schema.literal("trip"),
    link: tool.schema.string().url().optional(),
    traveller: tool.schema.object({ name: tool.schema.string(), age: tool.schema.number().int().optional() }),
    tags: tool.schema.record(tool.schema.string(), tool.schema.string()).optional(),
    when: tool.schema.union([tool.schema.string(), tool.schema.number()]),
  },
  async execute(args) {
    return \`\${args.city} from \${HOME}\`
  },
})
`;

Deno.test("when importing the original fails, parameters are read from the source, equal zod's for the methods it reads, and a note says so", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
    [`${L}/trip.ts`]: FALLBACK,
    "reference/trip.ts": FALLBACK.replace("string().ip()", "string()"),
  });
  const [reference] = (await runOriginals(repo.dir, [{
    file: "reference/trip.ts",
    exports: ["default"],
    calls: [],
  }], {})).values();
  const result = await migrate(repo.dir, [`${L}/trip.ts`]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stdout,
    new RegExp(
      `check {3}${L}/trip\\.ts:5: parameters were read from the source, not computed by zod, because importing it failed: [^\n]*ip is not a function: compare them with args\n {2}check {3}${L}/trip\\.ts:8: zod's \`\\.ip\\(\\)\` is not read from the source: check parameters by hand\n`,
    ),
  );
  const { default: trip } = await import(
    pathToFileURL(join(repo.dir, "tools/trip.ts")).href
  );
  assert.deepEqual(trip.parameters, reference.schemas.default);
});

Deno.test("migrate uses the project's own plugin package when it has one, installing nothing", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
    [`${L}/severity.ts`]: fixture("severity.ts"),
  });
  await Deno.symlink(
    await npmPackage("@opencode-ai/plugin", "1.18.33"),
    join(repo.dir, "harnesses/opencode/node_modules"),
  );
  const empty = await Deno.makeTempDir({ prefix: "beeuni_cache_" });
  try {
    const result = await beeuni(repo.dir, ["tools", "migrate"], {
      env: { XDG_CACHE_HOME: empty },
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "");
    assert.doesNotMatch(result.stdout, / {2}check {3}/);
    assert.equal(
      existsSync(
        join(empty, "beeuni", "opencode-plugin-1.18.33", "node_modules"),
      ),
      false,
    );
    const { default: tool } = await import(
      pathToFileURL(join(repo.dir, "tools/severity.ts")).href
    );
    assert.deepEqual(tool.parameters.properties.level, {
      description: "How bad it is",
      anyOf: [{ type: "string", enum: ["low", "medium", "high"] }, {
        type: "null",
      }],
    });
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("migrate installs the plugin package once into $XDG_CACHE_HOME/beeuni/ and says so", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
    [`${L}/database.ts`]: fixture("database.ts"),
    [`${L}/ping.ts`]: fixture("ping.ts"),
  });
  const home = await Deno.makeTempDir({ prefix: "beeuni_home_" });
  const env = { XDG_CACHE_HOME: join(home, "cache"), HOME: home };
  try {
    const dir = join(home, "cache", "beeuni", "opencode-plugin-1.18.33");
    const first = await beeuni(repo.dir, [
      "tools",
      "migrate",
      `${L}/database.ts`,
    ], { env });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(
      first.stderr,
      `  installing @opencode-ai/plugin@1.18.33 with npm into ${dir} (once) to compute each tool's parameters as opencode does\n`,
    );
    assert.ok(
      existsSync(
        join(dir, "node_modules", "@opencode-ai", "plugin", "package.json"),
      ),
    );
    const second = await beeuni(
      repo.dir,
      ["tools", "migrate", `${L}/ping.ts`],
      {
        env,
      },
    );
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stderr, "");
    // Nothing else in the home folder: npm's own cache went to the toolkit's.
    const entries = [...Deno.readDirSync(home)].map((e) => e.name);
    assert.deepEqual(entries, ["cache"]);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
