// `beeuni validate` on a generated project of 1,000 tools over 20 imported
// files, side by side with a bare `deno run` of an empty script. Both run as
// real subprocesses, so the figures include Deno's own start-up.
//
//   deno bench -A bench/validate_bench.ts

import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { loadProject } from "../lib/project/mod.ts";

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const CLI = join(REPO_ROOT, "cli.ts");
const FILES = 20;
const TOOLS_PER_FILE = 50;

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A git repository with a root manifest importing 20 files of 50 tools each. */
function generate(): string {
  const dir = join(
    tmpdir(),
    `beeuni_bench_${process.pid}_${Date.now().toString(36)}`,
  );
  const imports: string[] = [];
  for (let f = 0; f < FILES; f++) {
    const lines = ["tools:"];
    for (let t = 0; t < TOOLS_PER_FILE; t++) {
      const name = `tool_${f}_${t}`;
      lines.push(`  ${name}: tools/group_${f}/${name}.ts`);
      write(
        join(dir, `tools/group_${f}/${name}.ts`),
        `export default {\n  description: "Tool ${name}.",\n  parameters: { type: "object", properties: {} },\n  execute() {\n    return "${name}";\n  },\n};\n`,
      );
    }
    lines.push(
      "agents:",
      `  agent_${f}:`,
      `    tools: [read, grep, web_search, tool_${f}_0, tool_${f}_1]`,
      `    secrets: [KEY_${f}]`,
      `  excluder_${f}:`,
      `    tools: { exclude: [bash, tool_${f}_2] }`,
    );
    const path = `config/tools_${String(f).padStart(2, "0")}.yaml`;
    write(join(dir, path), `${lines.join("\n")}\n`);
    imports.push(`  - ${path}`);
  }
  write(
    join(dir, "beeuni.yaml"),
    [
      "imports:",
      ...imports,
      "tools:",
      "  web_search: beeuni:web_search",
      "  image_search: beeuni:image_search",
      "  scrape_webpage: beeuni:scrape_webpage",
      "  memory: beeuni:memory",
      "  show: beeuni:show",
      "",
    ].join("\n"),
  );
  write(join(dir, "empty.ts"), "");
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: dir,
      stdio: "ignore",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "Bench",
        GIT_AUTHOR_EMAIL: "bench@example.invalid",
        GIT_COMMITTER_NAME: "Bench",
        GIT_COMMITTER_EMAIL: "bench@example.invalid",
      },
    });
  git("init", "-q", "-b", "main");
  git("add", ".");
  git("commit", "-q", "-m", "generated");
  return dir;
}

const project = generate();
globalThis.addEventListener("unload", () => {
  rmSync(project, { recursive: true, force: true });
});

/** Wall-clock times of every run, by bench, for the medians printed at the end. */
const times: Record<string, number[]> = { empty: [], validate: [] };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

globalThis.addEventListener("unload", () => {
  if (times.empty.length === 0 || times.validate.length === 0) return;
  const empty = median(times.empty);
  const validate = median(times.validate);
  console.log(
    `medians: deno run empty.ts ${
      empty.toFixed(1)
    } ms (n=${times.empty.length}), ` +
      `beeuni validate ${
        validate.toFixed(1)
      } ms (n=${times.validate.length}), ` +
      `ratio ${(validate / empty).toFixed(2)}`,
  );
});

async function run(
  args: string[],
  record?: number[],
  expectCode = 0,
): Promise<void> {
  const start = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: project,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", RUST_BACKTRACE: "0" },
  }).output();
  record?.push(performance.now() - start);
  if (out.code !== expectCode) {
    throw new Error(
      `deno ${args.join(" ")} exited ${out.code}: ${
        new TextDecoder().decode(out.stdout)
      }${new TextDecoder().decode(out.stderr)}`,
    );
  }
}

// Warm Deno's module cache once so both benches measure steady state.
await run([
  "run",
  "-A",
  "--quiet",
  CLI,
  "validate",
  "--manifest",
  "beeuni.yaml",
]);

Deno.bench({
  name: "deno run empty.ts",
  group: "validate",
  baseline: true,
  async fn() {
    await run(["run", "--quiet", "empty.ts"], times.empty);
  },
});

Deno.bench({
  name: "beeuni validate (1,000 tools, 20 imports)",
  group: "validate",
  async fn() {
    await run([
      "run",
      "-A",
      "--quiet",
      CLI,
      "validate",
      "--manifest",
      join(project, "beeuni.yaml"),
    ], times.validate);
  },
});

Deno.bench({
  name: "loadProject() in process (parse, validate, resolve)",
  group: "in-process",
  async fn() {
    const loaded = await loadProject({ cwd: project });
    if (loaded.diagnostics.length > 0) {
      throw new Error(
        `unexpected diagnostics: ${loaded.diagnostics[0].message}`,
      );
    }
  },
});
