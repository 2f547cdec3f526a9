// The built scrape_webpage tool, side by side with another build of it
// (`--before <file>`, e.g. an older commit's builtin_tools/scrape_webpage.ts):
// the file's size, a fresh process's import of it under Deno and Node.js,
// and the time of a whole call on each HTML fixture of its tests, served by a
// server on 127.0.0.1 (fetch over the pinned client, parse, readable part,
// Markdown). Rounds alternate the two builds, so both share the machine's
// drift; the figures are medians.
//
//   git show 92436c4:builtin_tools/scrape_webpage.ts > /tmp/scrape_before.ts
//   deno run -A bench/scrape_webpage.ts --before /tmp/scrape_before.ts
//     [--rounds 15] [--imports 9] [--node <node binary>]

import { readdirSync, readFileSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { median } from "./_stats.ts";

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const FIXTURES = join(REPO_ROOT, "tests", "fixtures", "scrape_webpage");

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    before: { type: "string" },
    rounds: { type: "string", default: "15" },
    imports: { type: "string", default: "9" },
    node: { type: "string" },
  },
});

/** A build of the tool under test. */
interface Build {
  label: string;
  file: string;
  execute(args: unknown, context: unknown): Promise<{ content: string }>;
}

async function load(label: string, file: string): Promise<Build> {
  const tool = (await import(pathToFileURL(resolve(file)).href)).default;
  return { label, file, execute: tool.execute };
}

const builds = [
  await load("now", join(REPO_ROOT, "builtin_tools", "scrape_webpage.ts")),
];
if (flags.before) builds.unshift(await load("before", flags.before));

const pages = readdirSync(FIXTURES).filter((name) => name.endsWith(".html"))
  .sort();
const bodies = new Map(
  pages.map((name) => [name, readFileSync(join(FIXTURES, name))]),
);
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  (request) => {
    const name = new URL(request.url).pathname.slice(1);
    const type = name.startsWith("shift_jis")
      ? "text/html; charset=Shift_JIS"
      : name.startsWith("windows_1252")
      ? "text/html; charset=windows-1252"
      : "text/html; charset=utf-8";
    return new Response(bodies.get(name), {
      headers: { "content-type": type },
    });
  },
);
const context = { env: { BEEUNI_SCRAPE_ALLOW_PRIVATE: "1" } };

/** Milliseconds of one call of `build` on fixture `page`. */
async function call(build: Build, page: string): Promise<number> {
  const url = `http://127.0.0.1:${server.addr.port}/${page}`;
  const start = performance.now();
  const out = await build.execute({ url, max_length: 1_000_000 }, context);
  const ms = performance.now() - start;
  if (typeof out.content !== "string") throw new Error(`${page}: no content`);
  return ms;
}

/** Milliseconds of a fresh process that imports `file` under `argv`. */
async function importTime(argv: string[], file: string): Promise<number> {
  const script = `const t = performance.now();
await import(${JSON.stringify(pathToFileURL(file).href)});
console.log(performance.now() - t);`;
  const [program, ...args] = argv;
  const out = await new Deno.Command(program, {
    args: [...args, script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return Number(new TextDecoder().decode(out.stdout).trim());
}

const loadBefore = loadavg()[0];
const rounds = Number(flags.rounds);
const times = new Map<string, number[]>();
for (const build of builds) for (const page of pages) await call(build, page);
for (let round = 0; round < rounds; round++) {
  for (const page of pages) {
    for (const build of builds) {
      const key = `${build.label} ${page}`;
      times.set(key, [...times.get(key) ?? [], await call(build, page)]);
    }
  }
}
const runtimes: [string, string[]][] = [
  ["Deno", [Deno.execPath(), "eval"]],
];
if (flags.node) {
  runtimes.push(["Node.js", [flags.node, "--input-type=module", "-e"]]);
}
const imports = new Map<string, number[]>();
for (let round = 0; round < Number(flags.imports); round++) {
  for (const [runtime, argv] of runtimes) {
    for (const build of builds) {
      const key = `${build.label} ${runtime}`;
      imports.set(key, [
        ...imports.get(key) ?? [],
        await importTime(argv, build.file),
      ]);
    }
  }
}
await server.shutdown();
const loadAfter = loadavg()[0];

const ms = (value: number) => `${value.toFixed(1)} ms`;
const ratio = (now: number, before: number) =>
  builds.length > 1 ? ` | ${(now / before).toFixed(2)}x` : "";
const row = (label: string, values: (number | undefined)[]) => {
  const [a, b] = values as number[];
  const cells = values.map((value) => value === undefined ? "" : ms(value));
  return `| ${label} | ${cells.join(" | ")}${
    b === undefined ? "" : ratio(b, a)
  } |`;
};
console.log(
  `Deno ${Deno.version.deno}, ${rounds} rounds, load ${
    loadBefore.toFixed(1)
  } before and ${loadAfter.toFixed(1)} after`,
);
console.log(`| | ${builds.map((b) => b.label).join(" | ")} |`);
console.log(
  `| file size | ${
    builds.map((b) => `${(statSync(b.file).size / 1024).toFixed(0)} KiB`)
      .join(" | ")
  } |`,
);
for (const [runtime] of runtimes) {
  console.log(row(
    `import in a fresh ${runtime} process`,
    builds.map((b) => median(imports.get(`${b.label} ${runtime}`) ?? [])),
  ));
}
for (const page of pages) {
  console.log(row(
    `call: ${page} (${(bodies.get(page)!.length / 1024).toFixed(1)} KiB)`,
    builds.map((b) => median(times.get(`${b.label} ${page}`) ?? [])),
  ));
}
