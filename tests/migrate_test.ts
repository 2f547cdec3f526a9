// `beeuni tools migrate` on realistic opencode custom tool files
// (tests/fixtures/migrate/tools: seed 003's examples and the failures of the
// character scanner), each checked three ways against the original imported
// with the real @opencode-ai/plugin package: `tools call` gives the same
// output as the original's execute, `parameters` equals what opencode hands
// the model, and what is lost has a file:line note (O1-O4, T1, T5).

import assert from "node:assert/strict";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beeuni, CLI, REPO_ROOT, runProgram, tempRepo } from "./_helpers.ts";
import { bunBin } from "./_runtimes.ts";
import {
  ENV,
  FIXTURES,
  migrate,
  ORACLE_CONTEXT,
  type OracleJob,
  PROJECT,
  PROJECT_TOOLS,
  projectParameters,
  runOriginals,
} from "./_migrate_oracle.ts";

type Args = Record<string, unknown>;

/** What `tools call` must print for a call: the original's output unless said otherwise. */
type Expect =
  | { same: true }
  | { lost: [string, string] } // the original's text with one part replaced
  | { error: RegExp };

interface Call {
  tool: string;
  args: Args;
  expect?: Expect;
}

interface Fixture {
  /** File name in the fixture folder. */
  file: string;
  /** Its tools: opencode's name (O4) to the export. */
  tools: Record<string, string>;
  calls: Call[];
  /** Every check line for the file, as `line: message start`. */
  notes?: string[];
  /** Why its module does not load (the note says so), if it does not. */
  noLoad?: RegExp;
}

const FIXTURE_LIST: Fixture[] = [
  {
    file: "database.ts",
    tools: { database: "default" },
    calls: [{ tool: "database", args: { query: "select 1" } }],
  },
  {
    file: "math.ts",
    tools: { math_add: "add", math_multiply: "multiply" },
    calls: [
      { tool: "math_add", args: { a: 2, b: 3 } },
      { tool: "math_multiply", args: { a: 4, b: 5 } },
    ],
  },
  {
    file: "plain_zod.ts",
    tools: { plain_zod: "default" },
    calls: [{ tool: "plain_zod", args: { param: "p" } }],
  },
  {
    file: "project.ts",
    tools: { project: "default" },
    calls: [{
      tool: "project",
      args: {},
      expect: { lost: ["Message: m1", "Message: undefined"] },
    }],
    notes: ["8: context.messageID does not exist for project tools"],
  },
  {
    file: "fence.ts",
    tools: { fence: "default" },
    calls: [
      { tool: "fence", args: { code: "let a = `x`\r\n", lang: "t`s" } },
      { tool: "fence", args: { code: "x" } },
    ],
  },
  {
    file: "whoami.ts",
    tools: { whoami: "default" },
    calls: [{ tool: "whoami", args: { greeting: "Hi" } }],
  },
  {
    file: "commented.ts",
    tools: { commented: "default" },
    calls: [{ tool: "commented", args: {} }],
  },
  {
    file: "annotated.ts",
    tools: { annotated: "default" },
    calls: [{ tool: "annotated", args: { name: "Ada", shout: true } }],
  },
  {
    file: "quotes.ts",
    tools: { quotes: "default" },
    calls: [{ tool: "quotes", args: { text: `a"b'c\`d /* x */ e` } }],
  },
  {
    file: "calc.ts",
    tools: { calc_sub: "sub", calc_times: "times" },
    calls: [
      { tool: "calc_sub", args: { a: 7, b: 2 } },
      { tool: "calc_times", args: { a: 7, b: 2 } },
    ],
  },
  {
    file: "slugify.ts",
    tools: { slugify: "default" },
    calls: [{ tool: "slugify", args: { title: "Hello, World!" } }],
  },
  {
    file: "search_docs.ts",
    tools: { search_docs: "default" },
    calls: [
      { tool: "search_docs", args: { query: "in" } },
      { tool: "search_docs", args: { query: "zzz", limit: 1 } },
    ],
    notes: ["11: opencode's { title, output, metadata } result"],
  },
  {
    file: "severity.ts",
    tools: { severity: "default" },
    calls: [
      { tool: "severity", args: { title: "db down" } },
      { tool: "severity", args: { title: "disk", level: "high" } },
      { tool: "severity", args: { title: "cpu", level: null } },
    ],
  },
  {
    file: "weather.ts",
    tools: { weather: "default" },
    calls: [{ tool: "weather", args: { city: "Oslo" } }],
  },
  {
    file: "status.ts",
    tools: { status: "default" },
    calls: [{ tool: "status", args: {} }],
    notes: ["3: process.env is read outside execute"],
  },
  {
    file: "shapes.ts",
    tools: { shapes_area: "area", shapes_perimeter: "perimeter" },
    calls: [
      { tool: "shapes_area", args: { w: 2, h: 3 } },
      { tool: "shapes_perimeter", args: { w: 2, h: 3 } },
    ],
  },
  {
    file: "wait.ts",
    tools: { wait: "default" },
    calls: [{ tool: "wait", args: { ms: 5 } }],
  },
  {
    file: "progress.ts",
    tools: { progress: "default" },
    calls: [{ tool: "progress", args: { text: "a b  c" } }],
    notes: [
      "9: context.metadata() sets what opencode shows about a call",
      "11: context.metadata() sets what opencode shows about a call",
    ],
  },
  {
    file: "deploy.ts",
    tools: { deploy: "default" },
    calls: [{
      tool: "deploy",
      args: { target: "staging" },
      expect: { error: /context\.ask is not a function/ },
    }],
    notes: ["9: context.ask() asks opencode for a permission"],
  },
  {
    file: "lookup.ts",
    tools: { lookup: "default" },
    calls: [
      { tool: "lookup", args: { id: "A-17" } },
      { tool: "lookup", args: { id: "B-2", verbose: true } },
    ],
  },
  {
    file: "report.ts",
    tools: { report: "default" },
    calls: [{
      tool: "report",
      args: {
        sections: [{ heading: "Plan", bullets: ["a", "b"] }],
        labels: { team: "core" },
      },
    }],
  },
  {
    file: "typed.ts",
    tools: { typed: "default" },
    calls: [{ tool: "typed", args: { text: "one\ntwo" } }],
  },
  {
    file: "echo_js.js",
    tools: { echo_js: "default" },
    calls: [{ tool: "echo_js", args: { text: "hi", times: 2 } }],
  },
  {
    file: "readme.ts",
    tools: { readme: "default" },
    calls: [{ tool: "readme", args: {} }],
  },
  {
    file: "defaults.ts",
    tools: { defaults: "default" },
    calls: [
      { tool: "defaults", args: { filter: null } },
      {
        tool: "defaults",
        args: { page: 2, size: 10, sort: "desc", filter: "x" },
      },
    ],
  },
  {
    file: "raw_schema.ts",
    tools: { raw_schema: "default" },
    calls: [{ tool: "raw_schema", args: { file: "a.ts", tag: "done" } }],
  },
  {
    file: "ping.ts",
    tools: { ping: "default" },
    calls: [{ tool: "ping", args: {} }],
    notes: ["3: this tool has no args: opencode 1.18.33 does not offer it"],
  },
  {
    file: "notes.ts",
    tools: { notes: "default", notes_count: "count" },
    calls: [
      { tool: "notes", args: { text: "buy milk" } },
      { tool: "notes_count", args: {} },
    ],
  },
  {
    file: "timer.ts",
    tools: { timer: "default" },
    calls: [{ tool: "timer", args: { seconds: 125 } }],
  },
  {
    file: "validate_input.ts",
    tools: { validate_input: "default" },
    calls: [{
      tool: "validate_input",
      args: { name: "ann", ratio: 0.5, kind: "user" },
    }],
  },
  {
    file: "email.ts",
    tools: { email: "default" },
    calls: [{
      tool: "email",
      args: { to: "a@example.com" },
      expect: { error: /Cannot find package 'zod'/ },
    }],
    notes: ["4: zod is still used here (outside args)"],
    noLoad: /zod/,
  },
  {
    file: "python_add.ts",
    tools: { python_add: "default" },
    calls: [{
      tool: "python_add",
      args: { a: 1, b: 2 },
      expect: { error: /Bun/ },
    }],
    notes: [
      "11: this path points into opencode's tools folder",
      "12: Bun.$ runs only when the daemon runs under Bun",
    ],
  },
  {
    file: "session.ts",
    tools: { session: "default" },
    calls: [{ tool: "session", args: {} }],
  },
];

const ROOT_MANIFEST = `# The project.
tools:
  memory: beeuni:memory   # notes
  show: beeuni:show

agents:
  support:
    tools: all
`;

/** A repository with the fixture folder as its legacy tools folder. */
async function fixtureRepo(manifest = ROOT_MANIFEST) {
  const repo = await tempRepo({
    "beeuni.yaml": manifest,
    "README.md": "# Fixture project\nMore.\n",
    "lib/banner.ts": 'export function banner(): string {\n  return "=="\n}\n',
  });
  cpSync(FIXTURES, join(repo.dir, "harnesses/opencode/tools"), {
    recursive: true,
  });
  return repo;
}

/** The check lines printed for `file`, as `line: message`. */
function checks(output: string, file: string): string[] {
  const prefix = `  check   harnesses/opencode/tools/${file}:`;
  return output.split("\n").filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length));
}

Deno.test("migrate turns 33 realistic opencode tool files into project tools with the original's output, opencode's parameters and a file:line note for what is lost (O3, O4, T1, T5)", async (t) => {
  await using repo = await fixtureRepo();
  const jobs: OracleJob[] = FIXTURE_LIST.map((fixture) => ({
    file: `harnesses/opencode/tools/${fixture.file}`,
    exports: [...new Set(Object.values(fixture.tools))],
    calls: fixture.calls.map((call) => ({
      exportName: fixture.tools[call.tool],
      args: call.args,
    })),
  }));
  const originals = await runOriginals(repo.dir, jobs, ENV);

  const result = await migrate(repo.dir);
  assert.equal(result.code, 0, result.stderr);
  const output = result.stdout;
  for (const fixture of FIXTURE_LIST) {
    assert.match(
      output,
      new RegExp(`  ✓  Migrated harnesses/opencode/tools/${fixture.file}\n`),
    );
  }
  assert.match(
    output,
    / {2}copied {2}tools\/lib\/format\.ts \(a helper it imports, from harnesses\/opencode\/tools\/lib\/format\.ts\)\n/,
  );
  assert.match(output, / {2}copied {2}tools\/lib\/strings\.ts /);
  assert.equal(
    readFileSync(join(repo.dir, "tools/slugify.ts"), "utf8").includes(
      'import { banner } from "../lib/banner.ts"',
    ),
    true,
  );

  const validate = await beeuni(repo.dir, ["validate"]);
  assert.equal(validate.code, 0, validate.stdout);
  const ls = await beeuni(repo.dir, ["tools", "ls", "--json"]);
  const names = JSON.parse(ls.stdout).tools.map((tool: { name: string }) =>
    tool.name
  );
  assert.deepEqual(
    names.sort(),
    ["memory", "show", ...FIXTURE_LIST.flatMap((f) => Object.keys(f.tools))]
      .sort(),
  );

  for (const fixture of FIXTURE_LIST) {
    await t.step(fixture.file, async () => {
      const original = originals.get(
        `harnesses/opencode/tools/${fixture.file}`,
      )!;
      // Nothing lost without a note: exactly the expected check lines.
      const got = checks(output, fixture.file);
      const wanted = fixture.notes ?? [];
      assert.equal(got.length, wanted.length, got.join("\n"));
      wanted.forEach((note, i) => assert.ok(got[i].startsWith(note), got[i]));

      // parameters: what opencode hands the model.
      const ext = fixture.file.endsWith(".js") ? ".js" : ".ts";
      for (const [name, exportName] of Object.entries(fixture.tools)) {
        const module = exportName === "default"
          ? `tools/${fixture.file}`
          : `tools/${name}${ext}`;
        const url = pathToFileURL(join(repo.dir, module)).href;
        if (fixture.noLoad) {
          await assert.rejects(import(url), fixture.noLoad);
          continue;
        }
        const { default: tool } = await import(url);
        assert.deepEqual(tool.parameters, original.schemas[exportName], name);
      }

      // execute: the same output as the original's for the same arguments.
      for (const [i, call] of fixture.calls.entries()) {
        const run = await beeuni(repo.dir, [
          "tools",
          "call",
          call.tool,
          "--args",
          JSON.stringify(call.args),
          "--session",
          ORACLE_CONTEXT.sessionID,
        ], { env: ENV });
        const expect = call.expect ?? { same: true };
        if ("error" in expect) {
          assert.equal(run.code, 1, run.stdout);
          assert.match(run.stderr, expect.error);
          continue;
        }
        const reference = original.outputs[i];
        assert.ok("text" in reference, JSON.stringify(reference));
        const text = "lost" in expect
          ? reference.text.replace(expect.lost[0], expect.lost[1])
          : reference.text;
        assert.notEqual("lost" in expect && text === reference.text, true);
        assert.equal(run.stderr, "");
        assert.equal(run.stdout, text.endsWith("\n") ? text : `${text}\n`);
      }
    });
  }
});

const P = "harnesses/opencode/tools";

/** A repository holding the fixture project, with a manifest. */
async function projectRepo() {
  const repo = await tempRepo({ "beeuni.yaml": ROOT_MANIFEST });
  cpSync(PROJECT, repo.dir, { recursive: true });
  return repo;
}

/** `parameters` of a module imported under Bun (for a module only Bun loads). */
async function parametersUnderBun(
  dir: string,
  module: string,
): Promise<Record<string, unknown>> {
  const script = join(dir, ".parameters.mjs");
  Deno.writeTextFileSync(
    script,
    `const { default: tool } = await import(${
      JSON.stringify(pathToFileURL(join(dir, module)).href)
    });\nconsole.log(JSON.stringify(tool.parameters));\n`,
  );
  try {
    const out = await runProgram(await bunBin(), [script], { cwd: dir });
    assert.equal(out.code, 0, out.stderr);
    return JSON.parse(out.stdout);
  } finally {
    Deno.removeSync(script);
  }
}

Deno.test("migrate takes a real project's opencode tools as they are: hyphenated and camelCase names made valid, .js, extensionless, /index and path-alias imports found as Bun finds them, require() made portable, arguments behind aliases and computed enums read, a bun: module named; each tool loads, has zod's parameters (or a check line naming the difference) and answers as the original does under Bun (O3, O4, V1, T1, T7)", async (t) => {
  await using repo = await projectRepo();
  const jobs: OracleJob[] = [...new Set(PROJECT_TOOLS.map((tool) => tool.file))]
    .map((file) => {
      const tools = PROJECT_TOOLS.filter((tool) => tool.file === file);
      return {
        file: `${P}/${file}`,
        exports: tools.map((tool) => tool.exportName),
        calls: tools.flatMap((tool) =>
          tool.calls.map((args) => ({ exportName: tool.exportName, args }))
        ),
      };
    });
  // The originals as opencode runs them: under Bun.
  const originals = await runOriginals(repo.dir, jobs, ENV, "bun");

  const result = await migrate(repo.dir);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, "");
  const out = result.stdout;
  for (const tool of PROJECT_TOOLS) {
    const { opencodeName: from, name: to } = tool;
    assert.ok(
      out.includes(
        `\n  name    ${from} → ${to} (opencode's name is not a valid tool name; --name ${from}=NEW chooses another)\n`,
      ),
      `${from}:\n${out}`,
    );
  }
  for (
    const [copy, from] of [
      ["tools/tool-utils.ts", "tool-utils.ts"],
      ["tools/utils.ts", "utils.ts"],
      ["tools/format/index.ts", "format/index.ts"],
    ]
  ) {
    assert.ok(
      out.includes(
        `\n  copied  ${copy} (a helper it imports, from ${P}/${from})\n`,
      ),
      copy,
    );
  }
  // Every check line: only kv-store's, each argument it cannot read by name.
  assert.deepEqual(
    out.split("\n").filter((line) => line.startsWith("  check   ")),
    [
      `  check   ${P}/kv-store.ts:2: "bun:sqlite" is a Bun module: it exists only when the daemon runs under Bun; use node:sqlite (or a package) to run it anywhere`,
      `  check   ${P}/kv-store.ts:13: parameters were read from the source, not computed by zod, because importing it failed: it imports "bun:sqlite", a Bun module, which exists only under Bun: compare them with args`,
      `  check   ${P}/kv-store.ts:16: the argument "owner" cannot be read from the source (\`enum(…)\` takes values computed at run time): parameters take any value for it and keep it required, where zod checks it; write its JSON Schema by hand`,
      `  check   ${P}/kv-store.ts:16: the argument "reader" cannot be read from the source (\`enum(…)\` takes values computed at run time): parameters take any value for it, where zod checks it; write its JSON Schema by hand`,
    ],
  );
  assert.match(
    out,
    /\n {2}2\. beeuni validate --load && beeuni tools call git_context --args '\{"file":"example"\}'\n/,
  );
  // Imports name the files exactly: copied helpers beside, the rest where they are.
  const text = (path: string) => readFileSync(join(repo.dir, path), "utf8");
  assert.match(text("tools/github_pr_search.ts"), /from "\.\/utils\.ts"/);
  assert.match(text("tools/utils.ts"), /from "\.\/format\/index\.ts"/);
  assert.match(text("tools/git_context.ts"), /from "\.\/tool-utils\.ts"/);
  assert.match(text("tools/team_tools.ts"), /from "\.\.\/lib\/team\.ts"/);
  assert.match(
    text("tools/workspace_info.ts"),
    /from "\.\.\/src\/core\/workspace\.ts"/,
  );
  assert.match(
    text("tools/git_context.ts"),
    /\nimport \{ createRequire \} from "node:module";\nconst require = createRequire\(import\.meta\.url\);\n/,
  );

  // Loads: every tool under Bun; under Deno all but the one importing bun:sqlite.
  const bun = await runProgram(await bunBin(), [CLI, "validate", "--load"], {
    cwd: repo.dir,
  });
  assert.match(bun.stdout, /\n0 errors, /, bun.stdout);
  const deno = await beeuni(repo.dir, ["validate", "--load"]);
  assert.equal(deno.code, 1);
  assert.deepEqual(
    deno.stdout.split("\n").filter((line) => line.includes(": error: ")).map(
      (line) => line.replace(/ \(.*$/, ""),
    ),
    [
      'beeuni.yaml:7:13: error: tool "kv_store" did not load: the module threw while loading: Bun APIs exist only when the daemon runs under Bun, and this one runs under Deno: start it with Bun instead, `bun ' +
      join(REPO_ROOT, "daemon.ts") +
      ` --dir ${repo.dir}\`, or use node:* modules in the tool`,
    ],
  );

  for (const tool of PROJECT_TOOLS) {
    await t.step(tool.name, async () => {
      const original = originals.get(`${P}/${tool.file}`)!;
      const expected = projectParameters(
        tool,
        original.schemas[tool.exportName] as Record<string, unknown>,
      );
      if (tool.bunOnly) {
        // The arguments its check lines name take any value; "owner"
        // stays required. Everything else is zod's.
        const parameters = await parametersUnderBun(repo.dir, tool.module);
        assert.deepEqual(parameters.required, ["key", "owner"]);
        assert.deepEqual(parameters, expected);
      } else {
        const { default: migrated } = await import(
          pathToFileURL(join(repo.dir, tool.module)).href
        );
        assert.deepEqual(migrated.parameters, expected);
      }
      const callAt = PROJECT_TOOLS.filter((other) => other.file === tool.file)
        .flatMap((other) => other.calls.map((args) => ({ other, args })));
      for (const args of tool.calls) {
        const i = callAt.findIndex((c) => c.other === tool && c.args === args);
        const reference = original.outputs[i];
        assert.ok("text" in reference, JSON.stringify(reference));
        const argv = [
          "tools",
          "call",
          tool.name,
          "--args",
          JSON.stringify(args),
          "--session",
          ORACLE_CONTEXT.sessionID,
        ];
        const run = tool.bunOnly
          ? await runProgram(await bunBin(), [CLI, ...argv], {
            cwd: repo.dir,
            env: ENV,
          })
          : await beeuni(repo.dir, argv, { env: ENV });
        assert.equal(run.stderr, "");
        assert.equal(run.stdout, `${reference.text}\n`);
      }
    });
  }
});
