// Writing tools: `defineTool` from "@beeuni/tools" typed from a JSON
// Schema literal or a Standard Schema (zod 4), provided to runners under
// every runtime whether or not the project installed the package, and
// `beeuni tools new`.

import assert from "node:assert/strict";
import { cpSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import {
  beeuni,
  exists,
  git,
  REPO_ROOT,
  runProgram,
  tempRepo,
} from "./_helpers.ts";
import { startDaemon } from "./_daemon.ts";
import { RawMcp } from "./_mcp.ts";
import { npmBin, npmPackage } from "./_npm_cache.ts";
import { runArgv, RUNTIMES } from "./_runtimes.ts";

const ZOD = "4.6.7";
const TYPESCRIPT = "7.0.2";

const GREET = `import { defineTool } from "@beeuni/tools";

export default defineTool({
  description: "Greets someone.",
  parameters: {
    type: "object",
    properties: { name: { type: "string" } },
    required: ["name"],
  },
  execute: (args, context) => \`Hello, \${args.name} (from \${context.agent})\`,
});
`;

Deno.test("a tool importing defineTool from @beeuni/tools loads and runs under Deno, Node.js 22 and Bun in a project with no node_modules (validate --load, tools call)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory\n  greet: tools/greet.ts\n",
    "tools/greet.ts": GREET,
  });
  assert.equal(exists(join(repo.dir, "node_modules")), false);
  for (const runtime of RUNTIMES.slice(0, 2).concat(RUNTIMES.slice(3))) {
    const argv = [...await runtime.argv(), join(REPO_ROOT, "cli.ts")];
    const validate = await runArgv([...argv, "validate", "--load"], repo.dir);
    assert.equal(validate.code, 0, `${runtime.label}: ${validate.stderr}`);
    assert.match(validate.stdout, /beeuni\.yaml is valid/, runtime.label);
    const call = await runArgv(
      [...argv, "tools", "call", "greet", "--args", '{"name":"Ann"}'],
      repo.dir,
    );
    assert.equal(call.code, 0, `${runtime.label}: ${call.stderr}`);
    assert.equal(call.stdout.trim(), "Hello, Ann (from beeuni)", runtime.label);
  }
});

/** A project's node_modules: the toolkit's packages (for its types), zod, and `@beeuni/tools` as an npm dev dependency would install it. */
async function typedProject(dir: string): Promise<void> {
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, "@beeuni", "tools"), { recursive: true });
  for (const name of readdirSync(join(REPO_ROOT, "node_modules"))) {
    if (name.startsWith(".")) continue;
    symlinkSync(join(REPO_ROOT, "node_modules", name), join(modules, name));
  }
  cpSync(join(await npmPackage("zod", ZOD), "zod"), join(modules, "zod"), {
    recursive: true,
  });
  // The npm package's face for tool authors: its types of defineTool.
  const pkg = join(modules, "@beeuni", "tools");
  symlinkSync(join(REPO_ROOT, "lib"), join(pkg, "lib"));
  Deno.writeTextFileSync(
    join(pkg, "package.json"),
    JSON.stringify({
      name: "@beeuni/tools",
      type: "module",
      exports: { ".": "./lib/host/tool.ts" },
    }),
  );
}

const TYPED = `import { defineTool } from "@beeuni/tools";
import { z } from "zod";

const schema = {
  type: "object",
  properties: {
    city: { type: "string" },
    days: { type: "integer", default: 3 },
    unit: { enum: ["c", "f"] },
    tags: { type: "array", items: { type: "string" } },
    at: {
      type: "object",
      properties: { lat: { type: "number" } },
      required: ["lat"],
    },
    maybe: { type: ["string", "null"] },
  },
  required: ["city"],
} as const;

export const fromLiteral = defineTool({
  description: "Inference from a JSON Schema declared as const.",
  parameters: schema,
  execute(args) {
    const city: string = args.city;
    const days: number = args.days;
    const unit: "c" | "f" | undefined = args.unit;
    const tags: string[] | undefined = args.tags;
    const lat: number | undefined = args.at?.lat;
    const maybe: string | null | undefined = args.maybe;
    // @ts-expect-error a property the schema does not have
    args.country;
    // @ts-expect-error unit is "c" or "f"
    const wrong: "k" = args.unit;
    return { city, days, unit, tags, lat, maybe, wrong };
  },
});

export const inline = defineTool({
  description: "Inference from a schema written in place.",
  parameters: {
    type: "object",
    properties: { n: { type: "number" } },
    required: ["n"],
  },
  execute: async (args, context) => \`\${args.n * 2} \${context.agent}\`,
});

export const optional = defineTool({
  description: "A property not required may be missing.",
  parameters: { type: "object", properties: { n: { type: "number" } } },
  // @ts-expect-error n may be undefined
  execute: (args) => args.n.toFixed(),
});

export const noValue = defineTool({
  description: "execute must return a string or a JSON value.",
  parameters: { type: "object", properties: {} },
  // @ts-expect-error undefined is no JSON value
  execute: () => undefined,
});

export const fromZod = defineTool({
  description: "Inference from a zod schema.",
  parameters: z.object({ text: z.string(), times: z.number().optional() }),
  execute(args) {
    const text: string = args.text;
    const times: number | undefined = args.times;
    // @ts-expect-error text is a string
    const n: number = args.text;
    return text.repeat(times ?? n);
  },
});
`;

const WRONG = `import { defineTool } from "@beeuni/tools";

export default defineTool({
  description: "Uses a number as a string.",
  parameters: {
    type: "object",
    properties: { n: { type: "number" } },
    required: ["n"],
  },
  execute: (args) => args.n.toUpperCase(),
});
`;

Deno.test("defineTool infers args from a JSON Schema literal and from a zod schema, and a wrong use of args fails deno check (Deno import map) and tsc (npm dev dependency)", async () => {
  await using repo = await tempRepo({
    "deno.json": JSON.stringify({
      imports: { "@beeuni/tools": join(REPO_ROOT, "mod.ts") },
      nodeModulesDir: "manual",
    }),
    "tools/typed.ts": TYPED,
    "tools/wrong.ts": WRONG,
  });
  await typedProject(repo.dir);
  const tsc = await npmBin("typescript", TYPESCRIPT, "tsc");
  const check = (file: string) =>
    runProgram(Deno.execPath(), ["check", "--quiet", file], {
      cwd: repo.dir,
      env: { NO_COLOR: "1" },
    });
  const tscCheck = (file: string) =>
    runProgram(tsc, [
      "--noEmit",
      "--strict",
      "--target",
      "es2022",
      "--module",
      "nodenext",
      "--allowImportingTsExtensions",
      "--types",
      "node",
      file,
    ], { cwd: repo.dir });

  const typed = await check("tools/typed.ts");
  assert.equal(typed.code, 0, typed.stderr);
  const typedTsc = await tscCheck("tools/typed.ts");
  assert.equal(typedTsc.code, 0, typedTsc.stdout + typedTsc.stderr);

  const wrong = await check("tools/wrong.ts");
  assert.equal(wrong.code, 1);
  assert.match(
    wrong.stderr,
    /TS2339.*'toUpperCase' does not exist on type 'number'/,
  );
  assert.match(wrong.stderr, /tools\/wrong\.ts:10/);
  const wrongTsc = await tscCheck("tools/wrong.ts");
  assert.notEqual(wrongTsc.code, 0);
  assert.match(
    wrongTsc.stdout,
    /tools\/wrong\.ts\(10,\d+\): error TS2339: Property 'toUpperCase' does not exist on type 'number'/,
  );
});

Deno.test("a zod schema as parameters gives the tool its JSON Schema, and zod's validation runs before execute with an error naming the field", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml":
      "tools:\n  memory: beeuni:memory\n  repeat: tools/repeat.ts\n",
    "tools/repeat.ts": `import { defineTool } from "@beeuni/tools";
import { z } from "zod";

export default defineTool({
  description: "Repeats a text.",
  parameters: z.object({
    text: z.string().min(1),
    times: z.number().int().default(2),
  }),
  execute: (args) => args.text.repeat(args.times),
});
`,
  });
  cpSync(
    join(await npmPackage("zod", ZOD), "zod"),
    join(repo.dir, "node_modules", "zod"),
    { recursive: true },
  );
  const listed = await beeuni(repo.dir, [
    "tools",
    "call",
    "repeat",
    "--args",
    '{"text":"ab"}',
  ]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.equal(listed.stdout.trim(), "abab");
  const refused = await beeuni(repo.dir, [
    "tools",
    "call",
    "repeat",
    "--args",
    '{"text":""}',
  ]);
  assert.notEqual(refused.code, 0);
  assert.match(
    refused.stdout + refused.stderr,
    /invalid arguments: field "text": /,
  );
  await using daemon = await startDaemon(repo.dir);
  const mcp = new RawMcp(`${daemon.url}/mcp`, daemon.token);
  await mcp.initialize();
  const tools = (await mcp.request("tools/list")).result.tools;
  const repeat = tools.find((tool: { name: string }) => tool.name === "repeat");
  assert.deepEqual(repeat.inputSchema.properties.text, {
    type: "string",
    minLength: 1,
  });
  assert.deepEqual(repeat.inputSchema.required, ["text"]);
});

Deno.test("beeuni tools new writes a typed tool and its test in a fresh repository: validate --load passes, the written test passes, the daemon calls it and MCP tools/list lists it; bad or taken names are refused with the rule's message (V1, V2, V6)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory # notes\n",
    ".gitignore": "node_modules\n",
    // How a Deno project resolves @beeuni/tools for its own test.
    "deno.json": JSON.stringify({
      imports: { "@beeuni/tools": join(REPO_ROOT, "mod.ts") },
      nodeModulesDir: "manual",
    }),
  });
  symlinkSync(join(REPO_ROOT, "node_modules"), join(repo.dir, "node_modules"));
  Deno.chmodSync(join(repo.dir, "beeuni.yaml"), 0o664);
  const created = await beeuni(repo.dir, ["tools", "new", "word_repeat"]);
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /Created word_repeat/);
  assert.equal(
    Deno.readTextFileSync(join(repo.dir, "beeuni.yaml")),
    "tools:\n  memory: beeuni:memory # notes\n  word_repeat: tools/word_repeat.ts\n",
  );
  // The manifest keeps its mode; the new files are readable by all.
  assert.equal(
    Deno.statSync(join(repo.dir, "beeuni.yaml")).mode! & 0o777,
    0o664,
  );
  assert.equal(
    Deno.statSync(join(repo.dir, "tools/word_repeat.ts")).mode! & 0o777,
    0o644,
  );
  await git(repo.dir, "add", "-A");
  const validate = await beeuni(repo.dir, ["validate", "--load"]);
  assert.equal(validate.code, 0, validate.stdout + validate.stderr);
  assert.equal(validate.stdout.trim(), "beeuni.yaml is valid");
  const written = await runProgram(
    Deno.execPath(),
    ["test", "-A", "tools/word_repeat_test.ts"],
    { cwd: repo.dir, env: { NO_COLOR: "1" } },
  );
  assert.equal(written.code, 0, written.stdout + written.stderr);
  assert.match(written.stdout, /word_repeat repeats its text \.\.\. ok/);

  await using daemon = await startDaemon(repo.dir);
  const { status, body } = await daemon.call("word_repeat", {
    args: { text: "na", times: 3 },
    sessionId: "s1",
    agent: "build",
  });
  assert.equal(status, 200);
  assert.equal(body.output, "nanana");
  const mcp = new RawMcp(`${daemon.url}/mcp`, daemon.token);
  await mcp.initialize();
  const tools = (await mcp.request("tools/list")).result.tools;
  const tool = tools.find((t: { name: string }) => t.name === "word_repeat");
  assert.deepEqual(tool.inputSchema.required, ["text"]);

  const refusals: [string, string][] = [
    [
      "Word",
      'invalid tool name "Word": a name starts with a lowercase letter followed by up to 63 lowercase letters, digits or underscores (^[a-z][a-z0-9_]{0,63}$)',
    ],
    [
      "bash",
      '"bash" is a harness tool: the harness implements it, so it cannot be declared under `tools:`; give the tool another name',
    ],
    [
      "word_repeat",
      'tool "word_repeat" is declared already, in beeuni.yaml:3:3: give the new tool another name',
    ],
    [
      "web_search",
      '"web_search" is a Beeuni tool: to change it, run beeuni tools eject web_search; otherwise give the new tool another name',
    ],
  ];
  const before = await git(repo.dir, "status", "--porcelain");
  for (const [name, message] of refusals) {
    const refused = await beeuni(repo.dir, ["tools", "new", name]);
    assert.equal(refused.code, 1, name);
    assert.equal(
      refused.stderr.trim(),
      `beeuni tools new: cannot create tool "${name}": ${message}`,
    );
  }
  // A refusal writes nothing.
  assert.equal(await git(repo.dir, "status", "--porcelain"), before);
});

Deno.test("beeuni tools new --zod writes a tool whose parameters are a zod schema, which loads and runs at once", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
  });
  cpSync(
    join(await npmPackage("zod", ZOD), "zod"),
    join(repo.dir, "node_modules", "zod"),
    { recursive: true },
  );
  const created = await beeuni(repo.dir, ["tools", "new", "shout", "--zod"]);
  assert.equal(created.code, 0, created.stderr);
  assert.match(
    Deno.readTextFileSync(join(repo.dir, "tools/shout.ts")),
    /import \{ z \} from "zod";/,
  );
  const call = await beeuni(repo.dir, [
    "tools",
    "call",
    "shout",
    "--args",
    '{"text":"hey","times":2}',
  ]);
  assert.equal(call.code, 0, call.stderr);
  assert.equal(call.stdout.trim(), "heyhey");
});
