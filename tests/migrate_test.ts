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
import { beeuni, tempRepo } from "./_helpers.ts";
import {
  ENV,
  FIXTURES,
  migrate,
  ORACLE_CONTEXT,
  type OracleJob,
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
