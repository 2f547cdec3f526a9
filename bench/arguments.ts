// What a call's arguments cost before `execute`: the schema's defaults
// filled in (on a copy) and the opt-in validation, per call, side by side
// with arguments passed on as sent; a whole call through `createHost()` to
// a tool with defaults and to one without, side by side; what compiling a
// schema costs under each draft; and what importing the 2019-09 and
// 2020-12 classes adds to Ajv's (in a fresh process). Medians of the rounds.
//
//   deno run -A bench/arguments.ts [--rounds 9]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createHost } from "../mod.ts";
import { type PrepareArgs, schemaCompiler } from "../lib/host/_schema.ts";
import { median } from "./_stats.ts";
import { write } from "./_write.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { rounds: { type: "string" } },
});
const ROUNDS = Number(values.rounds ?? 9);
const CALLS = 20_000;

/** A search tool's schema, with or without its defaults, under `draft`. */
function searchSchema(
  defaults: boolean,
  draft?: string,
): Record<string, unknown> {
  const d = (value: unknown) => defaults ? { default: value } : {};
  return {
    ...(draft ? { $schema: draft } : {}),
    type: "object",
    properties: {
      query: { type: "string" },
      scope: { type: "string", enum: ["all", "docs"], ...d("all") },
      options: {
        type: "object",
        ...d({}),
        properties: {
          limit: { type: "integer", minimum: 1, ...d(5) },
          sort: { type: "string", ...d("relevance") },
        },
      },
      tags: { type: "array", items: { type: "string" } },
    },
    required: ["query"],
  };
}

const SMALL = { query: "q", options: { limit: 1 }, tags: ["a", "b"] };
const LARGE = { ...SMALL, query: "x".repeat(100_000) };

/** Mean ns per call of `prepare` (or of passing `args` on as sent). */
function perCall(
  prepare: ((args: unknown) => unknown) | undefined,
  args: unknown,
): number {
  let kept: unknown;
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) {
    kept = prepare ? prepare(args) : args;
  }
  const ns = (performance.now() - start) * 1e6 / CALLS;
  if (kept === undefined) throw new Error("nothing prepared");
  return ns;
}

const compile = schemaCompiler();
/** `prepare` with validation on or off, as a call gets it. */
const withCheck =
  (prepare: PrepareArgs, validate: boolean) => (args: unknown) =>
    prepare(args, validate);
const cases: [string, ((args: unknown) => unknown) | undefined][] = [
  ["passed as sent (no default, validation off)", undefined],
  [
    "defaults filled in, validation off",
    withCheck(compile(searchSchema(true)), false),
  ],
  ["no default, validation on", withCheck(compile(searchSchema(false)), true)],
  [
    "defaults filled in, validation on",
    withCheck(compile(searchSchema(true)), true),
  ],
];
const calls = new Map(
  cases.map((
    [name],
  ) => [name, { small: [] as number[], large: [] as number[] }]),
);
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, prepare] of cases) {
    calls.get(name)!.small.push(perCall(prepare, SMALL));
    calls.get(name)!.large.push(perCall(prepare, LARGE));
  }
}
console.log(
  `\nPer call (mean of ${CALLS} calls, median of ${ROUNDS} rounds):\n`,
);
console.log("| arguments | 3 fields (ns) | a 100 KB string among them (ns) |");
console.log("| --- | ---: | ---: |");
for (const [name, { small, large }] of calls) {
  console.log(
    `| ${name} | ${median(small).toFixed(0)} | ${median(large).toFixed(0)} |`,
  );
}

// A whole call: the same tool with and without defaults in its schema.
const project = mkdtempSync(join(tmpdir(), "beeuni_bench_arguments_"));
write(
  join(project, "beeuni.yaml"),
  "tools:\n  plain: tools/plain.ts\n  defaulted: tools/defaulted.ts\n",
);
for (const [name, defaults] of [["plain", false], ["defaulted", true]]) {
  write(
    join(project, "tools", `${name}.ts`),
    `export default { description: "Echo", parameters: ${
      JSON.stringify(searchSchema(defaults as boolean))
    }, execute: (args) => args.query };\n`,
  );
}
const host = await createHost({ directory: project, log: () => {} });
const whole = { plain: [] as number[], defaulted: [] as number[] };
try {
  const once = async (name: string) => {
    const start = performance.now();
    const outcome = await host.call({
      name,
      args: SMALL,
      sessionId: "bench",
      agent: "bench",
    });
    if (!outcome.ok) throw new Error(outcome.error);
    return performance.now() - start;
  };
  for (let i = 0; i < 200; i++) await once("plain"), await once("defaulted");
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0
      ? ["plain", "defaulted"] as const
      : ["defaulted", "plain"] as const;
    for (const name of order) {
      const times: number[] = [];
      for (let i = 0; i < 500; i++) times.push(await once(name));
      whole[name].push(median(times));
    }
  }
} finally {
  await host.close();
  rmSync(project, { recursive: true, force: true });
}
const plain = median(whole.plain);
const defaulted = median(whole.defaulted);
console.log(
  `\nOne call through createHost() (median of 500, median of ${ROUNDS} rounds):\n`,
);
console.log("| no default (ms) | defaults filled in (ms) | ratio |");
console.log("| ---: | ---: | ---: |");
console.log(
  `| ${plain.toFixed(3)} | ${defaulted.toFixed(3)} | ${
    (defaulted / plain).toFixed(2)
  }x |`,
);

// Compiling: a fresh compiler per schema, so nothing comes from its cache.
const DRAFTS: [string, string | undefined][] = [
  ["draft-07 (no `$schema`)", undefined],
  ["2019-09", "https://json-schema.org/draft/2019-09/schema"],
  ["2020-12", "https://json-schema.org/draft/2020-12/schema"],
];
const compiled = new Map(DRAFTS.map(([name]) => [name, [] as number[]]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, draft] of DRAFTS) {
    const fresh = schemaCompiler();
    fresh(searchSchema(true, draft)); // the draft's first schema
    const start = performance.now();
    fresh({ ...searchSchema(true, draft), required: ["query", "scope"] });
    compiled.get(name)!.push(performance.now() - start);
  }
}
console.log(
  `\nCompiling one schema (its draft's second), median of ${ROUNDS}:\n`,
);
console.log("| draft | ms |");
console.log("| --- | ---: |");
for (const [name, times] of compiled) {
  console.log(`| ${name} | ${median(times).toFixed(2)} |`);
}

/**
 * In a fresh Deno: milliseconds to import Ajv's draft-07 class (all the
 * host imported before), then its 2019-09 and 2020-12 classes beside it.
 */
async function importMs(): Promise<[number, number]> {
  const script = `let t = performance.now(); await import("ajv");
const base = performance.now() - t; t = performance.now();
await import("ajv/dist/2019.js"); await import("ajv/dist/2020.js");
console.log(JSON.stringify([base, performance.now() - t]));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    cwd: join(import.meta.dirname!, ".."),
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error("importing Ajv failed");
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

const imports = { base: [] as number[], drafts: [] as number[] };
for (let round = 0; round < ROUNDS; round++) {
  const [base, drafts] = await importMs();
  imports.base.push(base);
  imports.drafts.push(drafts);
}
console.log(`\nImporting Ajv in a fresh process, median of ${ROUNDS}:\n`);
console.log("| Ajv (draft-07) (ms) | then 2019-09 and 2020-12 (ms) |");
console.log("| ---: | ---: |");
console.log(
  `| ${median(imports.base).toFixed(1)} | ${
    median(imports.drafts).toFixed(1)
  } |`,
);
