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

Deno.test("migrate never declares a name twice: Beeuni copies (also by export name, O4) and harness names are refused with the --name way out, a hyphenated name is made valid, a file without tools is left alone, and the new tools: key keeps the Beeuni tools (V1, V2, V11, M4)", async () => {
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
  "bash" is a harness tool name (V2): pass --name bash=NEW to choose another
  ✗  Not migrated ${L}/broken.ts
  cannot read ${L}/broken.ts:5:10: Unexpected token
  ✗  Not migrated ${L}/image.ts
  "image_search" is a Beeuni tool's name: in the standard harness this file shadows the hosted "image_search" (V11); delete ${L}/image.ts to use the hosted tool, or pass --name image_search=NEW to migrate it under another name
  ✗  Not migrated ${L}/web_search.ts
  "web_search" is a Beeuni tool's name: in the standard harness this file shadows the hosted "web_search" (V11); delete ${L}/web_search.ts to use the hosted tool, or pass --name web_search=NEW to migrate it under another name
`,
  );
  assert.equal(
    result.stdout.slice(0, result.stdout.indexOf("\nNext:\n")),
    `  ·  Left ${L}/lonely.ts: it holds no tool (a helper no migrated tool imports)
  ✓  Migrated ${L}/python-add.ts
  name    python-add → python_add (opencode's name is not a valid tool name; --name python-add=NEW chooses another)
  wrote   tools/python_add.ts
  set     beeuni.yaml: tools.python_add: tools/python_add.ts
  check   ${L}/python-add.ts:11: this path points into opencode's tools folder: check that it still leads where it should from the new module
  check   ${L}/python-add.ts:12: Bun.$ runs only when the daemon runs under Bun: use node:child_process (execFile) to run it anywhere
  ✓  Migrated ${L}/shout.ts
  wrote   tools/shout.ts
  copied  tools/utils.ts (a helper it imports, from ${L}/utils.ts)
  set     beeuni.yaml: tools.shout: tools/shout.ts
  ✓  Copied ${L}/utils.ts to tools/utils.ts (a helper the migrated tools import)
`,
  );
  assert.match(
    result.stdout,
    new RegExp(
      `\n {2}2\\. beeuni validate --load && beeuni tools call python_add --args '\\{"a":1,"b":1\\}'\n {2}3\\. Delete the originals once the migrated tools load: git rm ${L}/python-add\\.ts ${L}/shout\\.ts ${L}/utils\\.ts\n`,
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
  python_add: tools/python_add.ts # migrated from ${L}/python-add.ts
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
    /"database" is already declared under tools: \(as "tools\/db\/main\.ts"\): pass --name database=NEW to choose another, or remove that entry/,
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
      `check {3}${L}/trip\\.ts:5: parameters were read from the source, not computed by zod, because importing it failed: [^\n]*ip is not a function: compare them with args\n {2}check {3}${L}/trip\\.ts:8: the argument "from": zod's \`\\.ip\\(\\)\` is not read from the source: check parameters by hand\n`,
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

const OPS = `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Show the service status",
  args: { service: tool.schema.string() },
  async execute(args) {
    return \`\${args.service}: up\`
  },
})

export const restartService = tool({
  description: "Restart a service",
  args: { service: tool.schema.string() },
  async execute(args) {
    return \`restarted \${args.service}\`
  },
})

export const $reset = tool({
  description: "Reset everything",
  args: {},
  async execute() {
    return "reset"
  },
})
`;

Deno.test("migrate makes valid names of camelCase exports, refuses only the tool whose name it cannot make, and --name chooses any tool's name (file and module follow); a --name that names no tool or no valid name is a usage error that writes nothing (V1, O4)", async () => {
  const manifest = "tools:\n  memory: beeuni:memory\n";
  {
    await using repo = await tempRepo({
      "beeuni.yaml": manifest,
      [`${L}/ops.ts`]: OPS,
    });
    const result = await migrate(repo.dir);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `  ✗  Not migrated "ops_$reset" of ${L}/ops.ts
  "ops_$reset" is not a valid tool name (lowercase letters, digits and _, starting with a letter, at most 64 characters, V1) and none can be made from it: pass --name ops_$reset=NEW to choose one
`,
    );
    assert.match(
      result.stdout,
      new RegExp(
        `^ {2}✓ {2}Migrated ${L}/ops\\.ts\n {2}name {4}ops_restartService → ops_restart_service \\(opencode's name is not a valid tool name; --name ops_restartService=NEW chooses another\\)\n {2}wrote {3}tools/ops\\.ts\n {2}wrote {3}tools/ops_restart_service\\.ts\n {2}set {5}beeuni\\.yaml: tools\\.ops: tools/ops\\.ts\n {2}set {5}beeuni\\.yaml: tools\\.ops_restart_service: tools/ops_restart_service\\.ts\n`,
      ),
    );
    const call = await beeuni(repo.dir, [
      "tools",
      "call",
      "ops_restart_service",
      "--args",
      '{"service":"db"}',
    ]);
    assert.equal(call.stdout, "restarted db\n");
  }
  {
    await using repo = await tempRepo({
      "beeuni.yaml": manifest,
      [`${L}/ops.ts`]: OPS,
    });
    for (
      const [args, message] of [
        [
          ["--name", "opz=status"],
          `beeuni tools migrate: --name "opz=status": no tool of the files migrated is called "opz" (give opencode's name, e.g. github-pr-search or team_deleteContext)\n`,
        ],
        [
          ["--name", "ops=Status"],
          `beeuni tools migrate: --name "ops=Status": "Status" is not a valid tool name (lowercase letters, digits and _, starting with a letter, at most 64 characters, V1)\n`,
        ],
        [
          ["--name", "ops"],
          `beeuni tools migrate: --name "ops": write OLD=NEW, e.g. --name github-pr-search=pr_search\n`,
        ],
      ] as const
    ) {
      const refused = await migrate(repo.dir, [...args]);
      assert.equal(refused.code, 2);
      assert.equal(refused.stderr.split("\n")[0] + "\n", message);
      assert.equal(existsSync(join(repo.dir, "tools")), false);
      assert.equal(
        readFileSync(join(repo.dir, "beeuni.yaml"), "utf8"),
        manifest,
      );
    }
    const result = await migrate(repo.dir, [
      "--name",
      "ops=status",
      "--name",
      "ops_restart_service=restart",
      "--name",
      "ops_$reset=reset_all",
    ]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /\n {2}name {4}ops → status \(chosen with --name\)\n {2}name {4}ops_restartService → restart \(chosen with --name\)\n {2}name {4}ops_\$reset → reset_all \(chosen with --name\)\n {2}wrote {3}tools\/status\.ts\n {2}wrote {3}tools\/restart\.ts\n {2}wrote {3}tools\/reset_all\.ts\n/,
    );
    assert.equal(
      readFileSync(join(repo.dir, "tools/restart.ts"), "utf8"),
      '// The restartService tool of status.ts, as its own module.\nexport { restartService as default } from "./status.ts";\n',
    );
    for (
      const [name, args, output] of [
        ["status", '{"service":"db"}', "db: up\n"],
        ["restart", '{"service":"db"}', "restarted db\n"],
        ["reset_all", "{}", "reset\n"],
      ]
    ) {
      const call = await beeuni(repo.dir, [
        "tools",
        "call",
        name,
        "--args",
        args,
      ]);
      assert.equal(call.stdout, output, call.stderr);
    }
  }
});

const ISSUE = `import { tool } from "@opencode-ai/plugin"
import { LEVELS } from "./levels"

const z = tool.schema
const { schema } = tool
const TEAM = { ada: "Ada Lovelace", alan: "Alan Turing" } as const
const KINDS = ["bug", "chore"] as const
const title = z.string().min(3)

export default tool({
  description: "File an issue",
  args: {
    member: z.enum(Object.keys(TEAM) as [keyof typeof TEAM]).describe("Who files it"),
    kind: schema.enum(KINDS).default("bug"), title: title.describe("What is wrong"),
    labels: z.array(z.enum([...KINDS, "docs"])).optional(),
    // Written for zod 3: zod 4 has no .ip(), so importing this file throws.
    host: z.string().ip().optional(),
    level: z.enum(LEVELS), severity: z.enum(LEVELS).optional(),
  },
  async execute(args) {
    return \`\${TEAM[args.member]}: [\${args.kind ?? "bug"}/\${args.level}] \${args.title}\`
  },
})
`;

Deno.test("when importing fails, the source is read through aliases of tool.schema, constants and computed enums; each argument it cannot read is named on its own check line and stays in parameters as any value, required unless optional, so a validated call without it is refused", async () => {
  const levels =
    'export const LEVELS = ["low", "high"] as [string, ...string[]]\n';
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
    [`${L}/issue.ts`]: ISSUE,
    [`${L}/levels.ts`]: levels,
    "reference/issue.ts": ISSUE.replace("z.string().ip()", "z.string()"),
    "reference/levels.ts": levels,
  });
  const [reference] = (await runOriginals(
    repo.dir,
    [{
      file: "reference/issue.ts",
      exports: ["default"],
      calls: [],
    }],
    {},
    "bun",
  )).values();
  const result = await migrate(repo.dir, [`${L}/issue.ts`]);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(
    result.stdout.split("\n").filter((line) => line.startsWith("  check")),
    [
      `  check   ${L}/issue.ts:12: parameters were read from the source, not computed by zod, because importing it failed: z.string(...).ip is not a function: compare them with args`,
      `  check   ${L}/issue.ts:17: the argument "host": zod's \`.ip()\` is not read from the source: check parameters by hand`,
      `  check   ${L}/issue.ts:18: the argument "level" cannot be read from the source (\`enum(…)\` takes values computed at run time): parameters take any value for it and keep it required, where zod checks it; write its JSON Schema by hand`,
      `  check   ${L}/issue.ts:18: the argument "severity" cannot be read from the source (\`enum(…)\` takes values computed at run time): parameters take any value for it, where zod checks it; write its JSON Schema by hand`,
    ],
  );
  const { default: issue } = await import(
    pathToFileURL(join(repo.dir, "tools/issue.ts")).href
  );
  // deno-lint-ignore no-explicit-any
  const zod = reference.schemas.default as Record<string, any>;
  assert.deepEqual(issue.parameters, {
    ...zod,
    properties: { ...zod.properties, level: {}, severity: {} },
  });
  assert.deepEqual(zod.required, ["member", "title", "level"]);
  const call = (args: string) =>
    beeuni(repo.dir, ["tools", "call", "issue", "--validate", "--args", args]);
  const without = await call('{"member":"ada","title":"Crash"}');
  assert.equal(without.code, 1);
  assert.match(without.stderr, /level/);
  const full = await call('{"member":"ada","title":"Crash","level":"high"}');
  assert.equal(full.stdout, "Ada Lovelace: [bug/high] Crash\n", full.stderr);
});

const CONFIGURED = `import { tool } from "@opencode-ai/plugin"
import config from "./config"
import { shout } from "$text/shout"
import { version } from "../../../scripts/version"
import { join } from "path"

export default tool({
  description: "Say what is configured",
  args: { name: tool.schema.string() },
  async execute(args) {
    const here = join(__dirname, "..")
    return \`\${shout(config.greeting)} \${args.name} (v\${version()}, \${here.length > 0})\`
  },
})
`;

const STRAY = `import { tool } from "@opencode-ai/plugin"
import { a } from "./gone"
import { b } from "~/lib/b"
import { c } from "@/lib/c"

export default tool({
  description: "Imports what is not there",
  args: {},
  async execute() {
    return a + b + c
  },
})
`;

Deno.test("migrate gives a JSON import its type, a deno.json alias and an extensionless import outside the tools folder their real paths, turns __dirname into import.meta.dirname with a note, and names each import that leads nowhere: a missing file, an alias no config maps, an alias tsconfig.json maps to nothing, a file that stays and imports without an extension (T7)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
    "deno.json":
      '{\n  // The project\'s own aliases.\n  "imports": { "$text/": "./lib/text/" }\n}\n',
    "lib/text/shout.ts":
      "export function shout(text: string): string {\n  return text.toUpperCase()\n}\n",
    "scripts/version.ts":
      'import { major } from "./major"\n\nexport function version(): string {\n  return `${major}.0`\n}\n',
    "scripts/major.ts": "export const major = 3\n",
    "tsconfig.json":
      '{ "compilerOptions": { "paths": { "@/*": ["./src/*"] } } }\n',
    [`${L}/config.json`]: '{ "greeting": "hello" }\n',
    [`${L}/configured.ts`]: CONFIGURED,
    [`${L}/stray.ts`]: STRAY,
  });
  const result = await migrate(repo.dir);
  assert.equal(result.code, 0, result.stderr);
  const migrated = readFileSync(join(repo.dir, "tools/configured.ts"), "utf8");
  assert.match(
    migrated,
    /\nimport config from "\.\/config\.json" with \{ type: "json" \}\nimport \{ shout \} from "\.\.\/lib\/text\/shout\.ts"\nimport \{ version \} from "\.\.\/scripts\/version\.ts"\nimport \{ join \} from "node:path"\n/,
  );
  assert.match(migrated, /join\(import\.meta\.dirname, "\.\."\)/);
  assert.deepEqual(
    result.stdout.split("\n").filter((line) => line.startsWith("  check")),
    [
      `  check   ${L}/configured.ts:11: __dirname is now import.meta.dirname, the folder of tools/configured.ts, not of the original: check the paths built from it`,
      `  check   scripts/version.ts:1: imports "./major", which only Bun and TypeScript find (as scripts/major.ts): write "./major.ts" so the migrated tool, which imports this file, loads under Deno and Node.js too`,
      `  check   ${L}/stray.ts:2: imports "./gone", which leads to no file, with or without an extension or /index (opencode cannot load it either)`,
      `  check   ${L}/stray.ts:3: imports "~/lib/b", which looks like a path alias, but no tsconfig.json, jsconfig.json or deno.json above ${L}/stray.ts maps it: add it to the "paths" of tsconfig.json, or write a relative path`,
      `  check   ${L}/stray.ts:4: imports "@/lib/c", a path alias that tsconfig.json maps ("@/*") to no file: fix the alias there, or write a relative path`,
      `  check   ${L}/stray.ts:8: parameters were read from the source, not computed by zod, because importing it failed: it imports "@/lib/c", which is neither a file nor an installed package: compare them with args`,
    ],
  );
  assert.match(
    result.stdout,
    /\n {2}copied {2}tools\/config\.json \(a helper it imports, from harnesses\/opencode\/tools\/config\.json\)\n/,
  );
  const args = ["tools", "call", "configured", "--args", '{"name":"Ada"}'];
  const before = await beeuni(repo.dir, args);
  assert.equal(before.code, 1);
  assert.match(before.stderr, /major/);
  // After the edit the check line asks for, the tool loads and answers.
  Deno.writeTextFileSync(
    join(repo.dir, "scripts/version.ts"),
    readFileSync(join(repo.dir, "scripts/version.ts"), "utf8").replace(
      '"./major"',
      '"./major.ts"',
    ),
  );
  const call = await beeuni(repo.dir, args);
  assert.equal(call.stdout, "HELLO Ada (v3.0, true)\n", call.stderr);
});
