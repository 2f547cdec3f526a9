// `beeuni tools migrate` on real legacy opencode tool files in temporary git
// repositories: the converted modules load and run in the host (O1-O3, O4,
// T1, M4).

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beeuni, tempRepo } from "./_helpers.ts";

const DATABASE = `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Query the project database",
  args: {
    query: tool.schema.string().describe("SQL query to execute"),
    limit: tool.schema.number().int().min(1).max(100).optional().describe("Row limit"),
  },
  async execute(args) {
    // Your database logic here
    return \`Executed query: \${args.query} with \${process.env.DB_URL} limit \${args.limit ?? "none"}\`
  },
})
`;

const MATH = `import { tool } from "@opencode-ai/plugin"

export const add = tool({
  description: "Add two numbers",
  args: {
    a: tool.schema.number().describe("First number"),
    b: tool.schema.number().describe("Second number"),
  },
  async execute(args) {
    return args.a + args.b
  },
})

export const multiply = tool({
  description: "Multiply two numbers",
  args: {
    a: tool.schema.number().describe("First number"),
    b: tool.schema.number().describe("Second number"),
  },
  async execute(args) {
    return args.a * args.b
  },
})
`;

const PYTHON_ADD = `import { tool } from "@opencode-ai/plugin"
import path from "path"

export default tool({
  description: "Add two numbers using Python",
  args: {
    a: tool.schema.number().describe("First number"),
    b: tool.schema.number().describe("Second number"),
  },
  async execute(args, context) {
    const script = path.join(context.worktree, ".opencode/tools/add.py")
    const result = await Bun.$\`python3 \${script} \${args.a} \${args.b}\`.text()
    return result.trim()
  },
})
`;

const PLAIN = `import { z } from "zod"

export default {
  description: "Tool description",
  args: {
    param: z.string().describe("Parameter description"),
    mode: z.enum(["fast", "slow"]).default("fast"),
    tags: z.array(z.string()).nullable(),
    when: z.string().datetime(),
  },
  async execute(args, ctx) {
    return "result " + args.param + " " + ctx.sessionID + " " + process.env["TOKEN_X"]
  },
}
`;

const ROOT = `# The project.
tools:
  memory: beeuni:memory   # notes
  show: beeuni:show

agents:
  support:
    tools: all
`;

Deno.test("migrate turns tool() into a plain module with JSON Schema parameters that loads and runs (O3, T1)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": ROOT,
    "harnesses/opencode/tools/database.ts": DATABASE,
  });
  const result = await beeuni(repo.dir, ["tools", "migrate"]);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(
    result.stdout,
    `  ✓  Migrated harnesses/opencode/tools/database.ts
  wrote   tools/database.ts
  set     beeuni.yaml: tools.database: tools/database.ts

Next:
  1. Review the files above; each check line needs a look by hand.
  2. beeuni validate && beeuni tools call database --args '{}'
  3. Delete the originals once the tools work: git rm harnesses/opencode/tools/database.ts
     (until then opencode still loads them, and they win over the hosted tools: O2)
`,
  );
  assert.equal(
    readFileSync(join(repo.dir, "beeuni.yaml"), "utf8"),
    ROOT.replace(
      "  show: beeuni:show\n",
      "  show: beeuni:show\n  database: tools/database.ts # migrated from harnesses/opencode/tools/database.ts\n",
    ),
  );
  assert.equal(
    readFileSync(
      join(repo.dir, "harnesses/opencode/tools/database.ts"),
      "utf8",
    ),
    DATABASE,
  );
  const source = readFileSync(join(repo.dir, "tools/database.ts"), "utf8");
  assert.doesNotMatch(source, /@opencode-ai\/plugin|tool\(|process\.env/);
  assert.match(source, /context\.env\.DB_URL/);
  const module = await import(join(repo.dir, "tools/database.ts"));
  assert.deepEqual(module.default.parameters, {
    type: "object",
    properties: {
      query: { type: "string", description: "SQL query to execute" },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: 100,
        description: "Row limit",
      },
    },
    required: ["query"],
  });
  const call = await beeuni(repo.dir, [
    "tools",
    "call",
    "database",
    "--args",
    '{"query":"select 1"}',
  ], { env: { DB_URL: "postgres://db" } });
  assert.equal(call.code, 0, call.stderr);
  assert.match(
    call.stdout,
    /Executed query: select 1 with postgres:\/\/db limit none/,
  );
});

Deno.test("migrate keeps <file>_<export> names for named exports, each its own tool (O4)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": ROOT,
    "harnesses/opencode/tools/math.ts": MATH,
  });
  const result = await beeuni(repo.dir, [
    "tools",
    "migrate",
    "harnesses/opencode/tools/math.ts",
  ]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, /wrote {3}tools\/math\.ts\n/);
  assert.match(result.stdout, /wrote {3}tools\/math_add\.ts\n/);
  assert.match(
    result.stdout,
    /set {5}beeuni\.yaml: tools\.math_multiply: tools\/math_multiply\.ts\n/,
  );
  const ls = await beeuni(repo.dir, ["tools", "ls", "--json"]);
  const names = JSON.parse(ls.stdout).tools.map((tool: { name: string }) =>
    tool.name
  );
  assert.deepEqual(names, ["memory", "show", "math_add", "math_multiply"]);
  const add = await beeuni(repo.dir, [
    "tools",
    "call",
    "math_add",
    "--args",
    '{"a":2,"b":3}',
  ]);
  assert.equal(add.code, 0, add.stderr);
  assert.match(add.stdout, /^5\n?$/m);
  const multiply = await beeuni(repo.dir, [
    "tools",
    "call",
    "math_multiply",
    "--args",
    '{"a":4,"b":5}',
  ]);
  assert.match(multiply.stdout, /20/);
});

Deno.test("migrate reports Bun.$ and opencode-only context fields with file:line (O3)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": ROOT,
    "harnesses/opencode/tools/python-add.ts": PYTHON_ADD,
    "harnesses/opencode/tools/pyadd.ts": PYTHON_ADD,
  });
  const result = await beeuni(repo.dir, ["tools", "migrate"]);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /✗ {2}Not migrated harnesses\/opencode\/tools\/python-add\.ts\n/,
  );
  assert.match(result.stderr, /"python-add" is not a valid tool name/);
  assert.match(
    result.stdout,
    /check {3}harnesses\/opencode\/tools\/pyadd\.ts:11: context\.worktree does not exist for project tools .*: use context\.directory\n/,
  );
  assert.match(
    result.stdout,
    /check {3}harnesses\/opencode\/tools\/pyadd\.ts:12: Bun\.\$ runs only when the daemon runs under Bun: use node:child_process/,
  );
  assert.equal(existsSync(join(repo.dir, "tools/python-add.ts")), false);
  assert.equal(existsSync(join(repo.dir, "tools/pyadd.ts")), true);
});

Deno.test("migrate converts plain zod objects and env reads, reports unknown zod methods, and keeps the Beeuni tools when it adds tools: (M4)", async () => {
  const manifest = "agents:\n  support:\n    tools: all\n";
  await using repo = await tempRepo({
    "beeuni.yaml": manifest,
    "harnesses/opencode/tools/plain.ts": PLAIN,
  });
  const result = await beeuni(repo.dir, ["tools", "migrate"]);
  assert.equal(result.code, 0, result.stderr);
  assert.match(
    result.stdout,
    /check {3}harnesses\/opencode\/tools\/plain\.ts:9: unknown zod method `\.datetime\(\)`/,
  );
  assert.equal(
    readFileSync(join(repo.dir, "beeuni.yaml"), "utf8"),
    `${manifest}tools:
  web_search: beeuni:web_search
  image_search: beeuni:image_search
  scrape_webpage: beeuni:scrape_webpage
  memory: beeuni:memory
  show: beeuni:show
  plain: tools/plain.ts # migrated from harnesses/opencode/tools/plain.ts
`,
  );
  const module = await import(join(repo.dir, "tools/plain.ts"));
  assert.deepEqual(module.default.parameters, {
    type: "object",
    properties: {
      param: { type: "string", description: "Parameter description" },
      mode: { type: "string", enum: ["fast", "slow"], default: "fast" },
      tags: { type: ["array", "null"], items: { type: "string" } },
      when: { type: "string" },
    },
    required: ["param", "tags", "when"],
  });
  const source = readFileSync(join(repo.dir, "tools/plain.ts"), "utf8");
  assert.match(source, /ctx\.sessionId \+ " " \+ ctx\.env\["TOKEN_X"\]/);
  assert.doesNotMatch(source, /from "zod"/);
  const call = await beeuni(repo.dir, [
    "tools",
    "call",
    "plain",
    "--args",
    '{"param":"p"}',
    "--session",
    "s1",
  ], { env: { TOKEN_X: "tx" } });
  assert.equal(call.code, 0, call.stderr);
  assert.match(call.stdout, /result p s1 tx/);
});

Deno.test("migrate refuses to overwrite a module or redeclare a tool, and --force overwrites (O3)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": ROOT,
    "tools/database.ts": "// mine\n",
    "harnesses/opencode/tools/database.ts": DATABASE,
    "harnesses/opencode/tools/memory.ts": DATABASE,
  });
  const result = await beeuni(repo.dir, ["tools", "migrate"]);
  assert.equal(result.code, 1);
  assert.match(
    result.stderr,
    /tools\/database\.ts exists: pass --force to overwrite it/,
  );
  assert.match(
    result.stderr,
    /"memory" is already declared under tools: \(a copy of a Beeuni tool: delete harnesses\/opencode\/tools\/memory\.ts instead, V11\)/,
  );
  assert.equal(readFileSync(join(repo.dir, "beeuni.yaml"), "utf8"), ROOT);
  assert.equal(
    readFileSync(join(repo.dir, "tools/database.ts"), "utf8"),
    "// mine\n",
  );
  const forced = await beeuni(repo.dir, [
    "tools",
    "migrate",
    "--force",
    "harnesses/opencode/tools/database.ts",
  ]);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(
    readFileSync(join(repo.dir, "tools/database.ts"), "utf8"),
    /Query the project database/,
  );
});
