// Schemas every provider accepts: `beeuni validate --target` on schemas each
// provider documents it refuses and accepts, and the provider-shaped
// schemas the daemon serves with `?target=`, arguments mapped back (T1, D2).

import assert from "node:assert/strict";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { beeuni, git, REPO_ROOT, tempDir, tempRepo } from "./_helpers.ts";
import { startDaemon } from "./_daemon.ts";

/** A tool module that answers with the arguments it received, as JSON. */
function echoTool(parameters: unknown): string {
  return `export default {
  description: "Answers with its arguments.",
  parameters: ${JSON.stringify(parameters)},
  execute(args) {
    return JSON.stringify(args);
  },
};
`;
}

/** Accepted by every provider, strict mode included. */
const PORTABLE = {
  type: "object",
  properties: {
    query: { type: "string", description: "What to look up" },
    mode: { type: "string", enum: ["fast", "deep"] },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["query", "mode", "tags"],
  additionalProperties: false,
};

/** A top-level union of whole argument shapes: OpenAI and Anthropic refuse it. */
const UNION = {
  type: "object",
  properties: { id: { type: "string" } },
  anyOf: [
    { properties: { id: { type: "string" } }, required: ["id"] },
    { properties: { name: { type: "string" } }, required: ["name"] },
  ],
};

/** A top-level anyOf that only says "one of these is required": droppable. */
const AT_LEAST_ONE = {
  type: "object",
  properties: { text: { type: "string" }, path: { type: "string" } },
  anyOf: [{ required: ["text"] }, { required: ["path"] }],
};

/** An array without items: OpenAI and Gemini refuse it. */
const BARE_ARRAY = {
  type: "object",
  properties: { tags: { type: "array" } },
  required: ["tags"],
};

/** A map: strict mode cannot express it. */
const MAP = {
  type: "object",
  properties: {
    labels: { type: "object", additionalProperties: { type: "string" } },
  },
  required: ["labels"],
  additionalProperties: false,
};

/** What Gemini refuses and the daemon can rewrite, and what it cannot. */
const GEMINI_FIXABLE = {
  type: "object",
  properties: {
    unit: { const: "km" },
    count: { type: ["integer", "null"], exclusiveMinimum: 0 },
    level: { type: "integer", enum: [1, 2, 3] },
    note: { type: "string", properties: {} },
  },
  additionalProperties: false,
};
const GEMINI_BROKEN = {
  type: "object",
  properties: { "dry-run": { type: "boolean" } },
};

/** Optional properties inside array elements: strict mode's nulls map back there too. */
const NESTED = {
  type: "object",
  properties: {
    links: {
      type: "array",
      items: {
        anyOf: [
          { type: "string" },
          {
            type: "object",
            properties: { title: { type: "string" }, url: { type: "string" } },
            required: ["title"],
          },
        ],
      },
    },
  },
  required: ["links"],
};

const PROJECT = {
  "beeuni.yaml": `tools:
  web_search: beeuni:web_search
  portable: tools/portable.ts
  union: tools/union.ts
  at_least_one: tools/at_least_one.ts
  bare_array: tools/bare_array.ts
  map: tools/map.ts
  gemini_fixable: tools/gemini_fixable.ts
  gemini_broken: tools/gemini_broken.ts
  nested: tools/nested.ts
`,
  "tools/portable.ts": echoTool(PORTABLE),
  "tools/union.ts": echoTool(UNION),
  "tools/at_least_one.ts": echoTool(AT_LEAST_ONE),
  "tools/bare_array.ts": echoTool(BARE_ARRAY),
  "tools/map.ts": echoTool(MAP),
  "tools/gemini_fixable.ts": echoTool(GEMINI_FIXABLE),
  "tools/gemini_broken.ts": echoTool(GEMINI_BROKEN),
  "tools/nested.ts": echoTool(NESTED),
};

interface JsonDiagnostic {
  file: string;
  line: number;
  col: number;
  severity: string;
  rule: string;
  message: string;
}

async function validateJson(
  dir: string,
  target: string,
): Promise<{ code: number; diagnostics: JsonDiagnostic[] }> {
  const result = await beeuni(dir, ["validate", "--target", target, "--json"]);
  assert.equal(result.stderr, "");
  const report = JSON.parse(result.stdout);
  return { code: result.code, diagnostics: report.diagnostics };
}

/** The diagnostics about `tool`, as `severity message` lines. */
function about(diagnostics: JsonDiagnostic[], tool: string): string[] {
  return diagnostics
    .filter((d) => d.message.startsWith(`tool "${tool}" `))
    .map((d) => `${d.severity} ${d.message}`);
}

Deno.test("validate --target anthropic refuses a top-level union of argument shapes and accepts a portable schema, naming tool, pointer, provider and fix (T1)", async () => {
  await using repo = await tempRepo(PROJECT);
  const { code, diagnostics } = await validateJson(repo.dir, "anthropic");
  assert.equal(code, 1);
  assert.deepEqual(about(diagnostics, "portable"), []);
  assert.deepEqual(about(diagnostics, "union"), [
    'error tool "union" at #/anyOf: Anthropic refuses "anyOf" at the top level of the parameters: list every argument under "properties" and check the combination in execute',
  ]);
  // "One of these is required" only narrows: the daemon drops it and the host checks it.
  assert.deepEqual(about(diagnostics, "at_least_one"), [
    'warning tool "at_least_one" at #/anyOf: Anthropic refuses "anyOf" at the top level of the parameters: list every argument under "properties" and check the combination in execute (the daemon serves it rewritten with ?target=anthropic)',
  ]);
  // Anthropic takes arrays without items and maps.
  assert.deepEqual(about(diagnostics, "bare_array"), []);
  assert.deepEqual(about(diagnostics, "map"), []);
  const union = diagnostics.find((d) => d.message.startsWith('tool "union"'))!;
  assert.deepEqual([union.file, union.line, union.col, union.rule], [
    "beeuni.yaml",
    4,
    10,
    "root_combinator",
  ]);
});

Deno.test("validate --target openai refuses an array without items; openai-strict refuses a map and serves optional properties as nullable (T1)", async () => {
  await using repo = await tempRepo(PROJECT);
  const openai = await validateJson(repo.dir, "openai");
  assert.equal(openai.code, 1);
  assert.deepEqual(about(openai.diagnostics, "portable"), []);
  assert.deepEqual(about(openai.diagnostics, "map"), []);
  assert.deepEqual(about(openai.diagnostics, "bare_array"), [
    'error tool "bare_array" at #/properties/tags: OpenAI refuses an array schema without "items": add "items" with the schema of the elements',
  ]);

  const strict = await validateJson(repo.dir, "openai-strict");
  assert.deepEqual(about(strict.diagnostics, "portable"), []);
  assert.deepEqual(about(strict.diagnostics, "map"), [
    'error tool "map" at #/properties/labels: OpenAI strict mode refuses an object whose keys are not listed in "properties" (a map or a free-form object): list its keys under "properties", or take a list of { "key", "value" } objects instead',
  ]);
  assert.deepEqual(about(strict.diagnostics, "at_least_one"), [
    'warning tool "at_least_one" at #: OpenAI strict mode refuses an object without "additionalProperties": false: add "additionalProperties": false (the daemon serves it rewritten with ?target=openai-strict)',
    'warning tool "at_least_one" at #/anyOf: OpenAI strict mode refuses "anyOf" at the top level of the parameters: list every argument under "properties" and check the combination in execute (the daemon serves it rewritten with ?target=openai-strict)',
    'warning tool "at_least_one" at #/properties/path, #/properties/text: OpenAI strict mode refuses a property that is not listed in "required": list it in "required" and let an optional one be null ("type": ["string", "null"]) (the daemon serves it rewritten with ?target=openai-strict)',
  ]);
  // A property that already takes null cannot be left out with null.
  assert.deepEqual(
    about(strict.diagnostics, "gemini_fixable").filter((line) =>
      line.includes("#/properties/count:")
    ),
    [
      'error tool "gemini_fixable" at #/properties/count: OpenAI strict mode refuses a property that is not listed in "required": list it in "required": it already accepts null, so null cannot stand for "left out"',
    ],
  );
});

Deno.test("validate --target gemini refuses const, type lists, non-string enums, properties on a string and bad property names; the rewritable ones are warnings (T1)", async () => {
  await using repo = await tempRepo(PROJECT);
  const { code, diagnostics } = await validateJson(repo.dir, "gemini");
  assert.equal(code, 1);
  assert.deepEqual(about(diagnostics, "portable"), [
    'warning tool "portable" at #/additionalProperties: Gemini refuses the keyword "additionalProperties", which its Schema subset lacks: remove it and check what it says in execute (the daemon serves it rewritten with ?target=gemini)',
  ]);
  assert.deepEqual(about(diagnostics, "gemini_fixable"), [
    'warning tool "gemini_fixable" at #/additionalProperties: Gemini refuses the keyword "additionalProperties", which its Schema subset lacks: remove it and check what it says in execute (the daemon serves it rewritten with ?target=gemini)',
    'warning tool "gemini_fixable" at #/properties/count/exclusiveMinimum: Gemini refuses the keyword "exclusiveMinimum", which its Schema subset lacks: remove it and check what it says in execute (the daemon serves it rewritten with ?target=gemini)',
    'warning tool "gemini_fixable" at #/properties/count/type: Gemini refuses a list of types ("type": ["integer","null"]): use one type, with "nullable": true for null (the daemon serves it rewritten with ?target=gemini)',
    'warning tool "gemini_fixable" at #/properties/level/enum: Gemini refuses "enum" values that are not strings, or "enum" on a non-string: take the values as strings ("type": "string"), or drop "enum" and check the value in execute (the daemon serves it rewritten with ?target=gemini)',
    'warning tool "gemini_fixable" at #/properties/note/properties: Gemini refuses "properties" on a schema whose type is not "object": remove it, or set "type": "object" (the daemon serves it rewritten with ?target=gemini)',
    'warning tool "gemini_fixable" at #/properties/unit/const: Gemini refuses the keyword "const": use "enum" with the one value, as a string (the daemon serves it rewritten with ?target=gemini)',
  ]);
  assert.deepEqual(about(diagnostics, "gemini_broken"), [
    'error tool "gemini_broken" at #/properties/dry-run: Gemini refuses the property name "dry-run": start it with a letter or an underscore and use only letters, digits and underscores, at most 64',
  ]);
  assert.deepEqual(about(diagnostics, "bare_array"), [
    'error tool "bare_array" at #/properties/tags: Gemini refuses an array schema without "items": add "items" with the schema of the elements',
  ]);
});

Deno.test("validate --target prints findings like a compiler and as GitHub annotations, exits 0 on warnings only, and refuses an unknown target (T1, V12)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml":
      "tools:\n  web_search: beeuni:web_search\n  at_least_one: tools/at_least_one.ts\n  bare_array: tools/bare_array.ts\n",
    "tools/at_least_one.ts": echoTool(AT_LEAST_ONE),
    "tools/bare_array.ts": echoTool(BARE_ARRAY),
  });
  const text = await beeuni(repo.dir, ["validate", "--target", "anthropic"]);
  assert.deepEqual(text, {
    code: 0,
    stdout:
      'beeuni.yaml:3:17: warning: tool "at_least_one" at #/anyOf: Anthropic refuses "anyOf" at the top level of the parameters: list every argument under "properties" and check the combination in execute (the daemon serves it rewritten with ?target=anthropic)\n\n0 errors, 1 warning\n',
    stderr: "",
  });
  const github = await beeuni(repo.dir, [
    "validate",
    "--target",
    "openai",
    "--format",
    "github",
  ]);
  assert.equal(github.code, 1);
  assert.match(
    github.stdout,
    /^::error file=beeuni\.yaml,line=4,col=15,title=beeuni array_items::tool "bare_array" at #\/properties\/tags: OpenAI refuses an array schema without "items": add "items" with the schema of the elements$/m,
  );
  const unknown = await beeuni(repo.dir, ["validate", "--target", "mistral"]);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stdout, "");
  assert.match(
    unknown.stderr,
    /unknown target "mistral": use openai, openai-strict, anthropic, gemini or all/,
  );
});

Deno.test("the five Beeuni tools and the starter project pass validate --target all (T1, B1)", async () => {
  await using dir = await tempDir("beeuni_starter_");
  await cp(join(REPO_ROOT, "examples", "starter"), dir.dir, {
    recursive: true,
  });
  await git(dir.dir, "init", "-q", "-b", "main");
  await git(dir.dir, "add", "-A");
  await git(dir.dir, "commit", "-q", "-m", "starter");
  const result = await beeuni(dir.dir, ["validate", "--target", "all"]);
  assert.equal(result.stderr, "");
  assert.equal(result.code, 0, result.stdout);
  assert.match(result.stdout, /\n0 errors, \d+ warnings\n$/);
  for (
    const name of [
      "web_search",
      "image_search",
      "scrape_webpage",
      "memory",
      "show",
      "word_count",
      "unit_convert",
      "todo_list",
    ]
  ) {
    // Every tool is checked: strict mode finds something in each.
    assert.match(result.stdout, new RegExp(`: warning: tool "${name}" at #`));
  }
});

Deno.test("the daemon serves provider-shaped schemas with ?target= and maps the provider's arguments back on calls (D2, T1)", async () => {
  await using repo = await tempRepo(PROJECT);
  await using daemon = await startDaemon(repo.dir);
  const list = async (query: string) => {
    const response = await daemon.fetch(`/beeuni/tools${query}`);
    return { status: response.status, body: await response.json() };
  };
  const tool = (
    body: { tools: Record<string, unknown>[] },
    name: string,
  ) => body.tools.find((t) => t.name === name)!;

  const plain = await list("");
  assert.deepEqual(
    tool(plain.body, "gemini_fixable").parameters,
    GEMINI_FIXABLE,
  );

  const gemini = await list("?target=gemini");
  assert.equal(gemini.status, 200);
  assert.deepEqual(tool(gemini.body, "gemini_fixable"), {
    name: "gemini_fixable",
    description: "Answers with its arguments.",
    parameters: {
      type: "object",
      properties: {
        unit: { enum: ["km"], type: "string" },
        count: { type: "integer", nullable: true },
        level: { type: "integer" },
        note: { type: "string" },
      },
    },
  });
  assert.deepEqual(tool(gemini.body, "gemini_broken").problems, [
    '#/properties/dry-run: Gemini refuses the property name "dry-run": start it with a letter or an underscore and use only letters, digits and underscores, at most 64',
  ]);
  // A schema every provider takes is served as it is.
  assert.equal(tool(gemini.body, "portable").problems, undefined);

  const strict = await list("?target=openai-strict");
  assert.deepEqual(tool(strict.body, "at_least_one").parameters, {
    type: "object",
    properties: {
      text: { type: ["string", "null"] },
      path: { type: ["string", "null"] },
    },
    additionalProperties: false,
    required: ["text", "path"],
  });

  const call = async (name: string, query: string, args: unknown) => {
    const response = await daemon.fetch(`/beeuni/tools/${name}${query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ args, sessionId: "s1", agent: "build" }),
    });
    return { status: response.status, body: await response.json() };
  };

  // Strict mode's null for a left-out property reaches the tool as absent.
  assert.deepEqual(
    await call("at_least_one", "?target=openai-strict", {
      text: "hi",
      path: null,
    }),
    { status: 200, body: { output: '{"text":"hi"}' } },
  );
  assert.deepEqual(
    await call("nested", "?target=openai-strict", {
      links: ["a", { title: "t", url: null }, { title: "u", url: "v" }],
    }),
    {
      status: 200,
      body: {
        output: '{"links":["a",{"title":"t"},{"title":"u","url":"v"}]}',
      },
    },
  );
  // What the rewrite dropped is checked against the tool's own schema.
  assert.deepEqual(
    await call("at_least_one", "?target=openai-strict", {
      text: null,
      path: null,
    }),
    {
      status: 200,
      body: {
        error:
          'invalid arguments for tool "at_least_one": missing required field "text"; missing required field "path"; the arguments must match a schema in anyOf',
      },
    },
  );
  const tooSmall = await call("gemini_fixable", "?target=gemini", {
    count: 0,
  });
  assert.match(
    String(tooSmall.body.error),
    /^invalid arguments for tool "gemini_fixable": field "count" must be > 0/,
  );
  // Without a target the daemon passes arguments as they are (no --validate).
  assert.deepEqual(await call("gemini_fixable", "", { count: 0 }), {
    status: 200,
    body: { output: '{"count":0}' },
  });

  const unknown = await list("?target=mistral");
  assert.deepEqual(unknown, {
    status: 400,
    body: {
      error:
        'unknown target "mistral": use openai, openai-strict, anthropic, gemini',
    },
  });
  assert.equal(
    (await call("portable", "?target=mistral", {})).status,
    400,
  );
});
