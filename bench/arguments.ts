// What a call's arguments cost before `execute`: the schema's defaults
// filled in (on a copy) and the opt-in validation, per call, side by side
// with arguments passed on as sent; then what compiling a schema costs under
// each draft, and importing the schema module, this checkout against
// another (each import in a fresh process). Medians of the rounds.
//
//   deno run -A bench/arguments.ts [--compare <older checkout>] [--rounds 9]

import { join } from "node:path";
import { parseArgs } from "node:util";
import { type PrepareArgs, schemaCompiler } from "../lib/host/_schema.ts";
import { median } from "./_stats.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { compare: { type: "string" }, rounds: { type: "string" } },
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
function perCall(prepare: PrepareArgs | undefined, args: unknown): number {
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
const cases: [string, PrepareArgs | undefined][] = [
  ["passed as sent (no default, validation off)", undefined],
  ["defaults filled in, validation off", compile(searchSchema(true), false)],
  ["no default, validation on", compile(searchSchema(false), true)],
  ["defaults filled in, validation on", compile(searchSchema(true), true)],
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
    fresh(searchSchema(true, draft), true); // the draft's first schema
    const start = performance.now();
    fresh({ ...searchSchema(true, draft), required: ["query", "scope"] }, true);
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

/** Milliseconds to import `root`'s lib/host/_schema.ts in a fresh Deno. */
async function importMs(root: string): Promise<number> {
  const url = new URL(`file://${join(root, "lib/host/_schema.ts")}`).href;
  const script = `const t = performance.now(); await import(${
    JSON.stringify(url)
  }); console.log(performance.now() - t);`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "--config",
      join(root, "deno.json"),
      script,
    ],
    cwd: root,
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`importing in ${root} failed`);
  return Number(new TextDecoder().decode(out.stdout));
}

if (values.compare) {
  const here = join(import.meta.dirname!, "..");
  const sides = { before: [] as number[], now: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ["now", "before"] : ["before", "now"];
    for (const side of order) {
      sides[side as keyof typeof sides].push(
        await importMs(side === "now" ? here : values.compare),
      );
    }
  }
  const before = median(sides.before);
  const now = median(sides.now);
  console.log(`\nImporting the schema module, median of ${ROUNDS}:\n`);
  console.log("| before (ms) | now (ms) | ratio |");
  console.log("| ---: | ---: | ---: |");
  console.log(
    `| ${before.toFixed(1)} | ${now.toFixed(1)} | ${
      (now / before).toFixed(2)
    }x |`,
  );
}
