// The command line's start-up under Deno, Node.js and Bun, side by side
// with an empty script of the same runtime, in one run:
//
//   P5a  `beeuni --help`
//   P5b  `beeuni validate` on examples/starter
//   P5c  `beeuni validate` on 1,000 tools in 20 imported files
//
// Each runtime runs `cli.ts` from this checkout the way the README says
// (`deno run -A cli.ts`, `node cli.ts`, `bun cli.ts`) and an empty `.ts`
// file (its own start-up: for Node.js that includes loading its type
// stripper). With --npm, the npm package (`deno task build:npm`, the way
// Node.js users install the CLI: JavaScript, no type stripping) runs under
// each Node.js too, against an empty `.js` file. With --bundle, the
// one-file build (`dist/beeuni.js`, built
// into a temporary folder) runs too, against an empty `.js` file. Every
// command is a real subprocess; each round runs every command once, in
// the same order, so drifts of a noisy machine hit all of them alike.
// The floor rows time scripts that only do what no design of this toolkit
// can avoid on that runtime: load `node:path` or `node:fs` (every runtime-
// neutral design reads files with them), or, on Deno, read the manifest
// and run git through Deno's own APIs.
//
//   deno run -A bench/cli.ts [--quick] [--rounds N] [--npm] [--bundle] [--deno-only]

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateBigProject } from "./_big_project.ts";
import {
  BUN,
  bunBin,
  NODE_22,
  NODE_LATEST,
  nodeBin,
} from "../tests/_runtimes.ts";
import { median } from "./_stats.ts";

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const CLI = join(REPO_ROOT, "cli.ts");
const STARTER = join(REPO_ROOT, "examples", "starter");
const args = Deno.args;
const QUICK = args.includes("--quick");
const roundsAt = args.indexOf("--rounds");
const ROUNDS = roundsAt >= 0 ? Number(args[roundsAt + 1]) : QUICK ? 5 : 15;
const BUNDLE = args.includes("--bundle");
const NPM = args.includes("--npm");
const DENO_ONLY = args.includes("--deno-only");

const work = mkdtempSync(join(tmpdir(), "beeuni_cli_bench_"));
const big = join(work, "big");
generateBigProject(big);
writeFileSync(join(work, "empty.ts"), "");
writeFileSync(join(work, "empty.js"), "");
/** What every design here loads on Deno: Node.js's file and path modules. */
writeFileSync(join(work, "node_fs.ts"), 'import "node:fs";\n');
writeFileSync(
  join(work, "node_path.ts"),
  'import "node:path";\n',
);
/**
 * What `beeuni validate` does on disk, on Deno's own APIs alone (no
 * `node:*` module): read the starter's manifest and ask git what it
 * tracks. The least any design of `validate` costs on Deno.
 */
writeFileSync(
  join(work, "deno_native.ts"),
  `Deno.readTextFileSync(${JSON.stringify(join(STARTER, "beeuni.yaml"))});
await new Deno.Command("git", {
  args: ["ls-files", "-z", "--cached"],
  cwd: ${JSON.stringify(STARTER)},
}).output();
`,
);

interface Side {
  runtime: string;
  label: string;
  argv: string[];
  /** The side this one is a ratio of. */
  baseline?: Side;
  times: number[];
}

const sides: Side[] = [];

function side(
  runtime: string,
  label: string,
  argv: string[],
  baseline?: Side,
): Side {
  const made = { runtime, label, argv, baseline, times: [] };
  sides.push(made);
  return made;
}

function cliSides(runtime: string, run: string[], baseline: Side): void {
  side(runtime, "beeuni --help (P5a)", [...run, "--help"], baseline);
  side(runtime, "beeuni validate, starter (P5b)", [
    ...run,
    "validate",
    "--manifest",
    STARTER,
  ], baseline);
  side(runtime, "beeuni validate, 1,000 tools (P5c)", [
    ...run,
    "validate",
    "--manifest",
    big,
  ], baseline);
}

const deno = Deno.execPath();
const denoRun = [deno, "run", "-A", "--quiet"];
const denoEmpty = side("Deno", "empty .ts", [
  ...denoRun,
  join(work, "empty.ts"),
]);
cliSides("Deno", [...denoRun, CLI], denoEmpty);
side("Deno", "floor: import node:path", [
  ...denoRun,
  join(work, "node_path.ts"),
], denoEmpty);
side("Deno", "floor: import node:fs", [
  ...denoRun,
  join(work, "node_fs.ts"),
], denoEmpty);
side("Deno", "floor: read + git, Deno APIs only", [
  ...denoRun,
  join(work, "deno_native.ts"),
], denoEmpty);

const runtimes: { name: string; program: string }[] = [];
if (!DENO_ONLY) {
  runtimes.push(
    { name: `Node.js ${NODE_22}`, program: await nodeBin(NODE_22) },
    { name: `Node.js ${NODE_LATEST}`, program: await nodeBin(NODE_LATEST) },
    { name: `Bun ${BUN}`, program: await bunBin() },
  );
}
for (const { name, program } of runtimes) {
  const empty = side(name, "empty .ts", [program, join(work, "empty.ts")]);
  cliSides(name, [program, CLI], empty);
  side(
    name,
    "floor: import node:fs",
    [program, join(work, "node_fs.ts")],
    empty,
  );
}

if (NPM && !DENO_ONLY) {
  const { buildNpm, OUT } = await import("../scripts/build_npm.ts");
  await buildNpm();
  const bin = join(OUT, "bin", "beeuni.js");
  for (const { name, program } of runtimes) {
    if (!name.startsWith("Node.js")) continue;
    const empty = side(`${name}, npm package`, "empty .js", [
      program,
      join(work, "empty.js"),
    ]);
    cliSides(`${name}, npm package`, [program, bin], empty);
  }
}

if (BUNDLE) {
  const bundle = join(work, "beeuni.js");
  const built = await new Deno.Command(deno, {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "deno",
      "-o",
      bundle,
      join(REPO_ROOT, "scripts", "bundle_main.ts"),
    ],
    cwd: REPO_ROOT,
  }).output();
  if (!built.success) throw new Error("deno bundle failed");
  const all = [
    { name: "Deno", program: [...denoRun] },
    ...runtimes.map((r) => ({
      name: r.name,
      program: [r.program],
    })),
  ];
  for (const { name, program } of all) {
    const empty = side(`${name}, bundle`, "empty .js", [
      ...program,
      join(work, "empty.js"),
    ]);
    cliSides(`${name}, bundle`, [...program, bundle], empty);
  }
}

async function time(s: Side): Promise<number> {
  const [program, ...rest] = s.argv;
  const start = performance.now();
  const out = await new Deno.Command(program, {
    args: rest,
    cwd: work,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", RUST_BACKTRACE: "0" },
  }).output();
  const elapsed = performance.now() - start;
  if (out.code !== 0) {
    throw new Error(
      `${s.argv.join(" ")} exited ${out.code}: ${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
  return elapsed;
}

try {
  // One warm-up run each: Deno's transpile cache, Node.js's and Bun's
  // file caches.
  for (const s of sides) await time(s);
  const loadBefore = loadavg()[0];
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of sides) s.times.push(await time(s));
  }
  const loadAfter = loadavg()[0];

  const rows = sides.map((s) => {
    const ms = median(s.times);
    const ratio = s.baseline
      ? `${(ms / median(s.baseline.times)).toFixed(2)}x`
      : "";
    return [s.runtime, s.label, `${ms.toFixed(1)} ms`, ratio];
  });
  const header = ["runtime", "command", "median", "ratio"];
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.map((r) => r[i].length))
  );
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log(line(header));
  console.log(`| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
  for (const row of rows) console.log(line(row));
  console.log(
    `\n${ROUNDS} rounds; load average ${loadBefore.toFixed(1)} before, ${
      loadAfter.toFixed(1)
    } after (2 cores)`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
