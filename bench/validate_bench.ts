// `beeuni validate` on a generated project of 1,000 tools over 20 imported
// files, side by side with a bare `deno run` of an empty script. Both run as
// real subprocesses, so the figures include Deno's own start-up.
//
//   deno bench -A bench/validate_bench.ts

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { loadProject } from "../lib/project/mod.ts";
import { generateBigProject } from "./_big_project.ts";
import { median } from "./_stats.ts";

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const CLI = join(REPO_ROOT, "cli.ts");
/** A git repository holding the 1,000-tool project and an empty script. */
function generate(): string {
  const dir = join(
    tmpdir(),
    `beeuni_bench_${process.pid}_${Date.now().toString(36)}`,
  );
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "empty.ts"), "");
  generateBigProject(dir);
  return dir;
}

const project = generate();
globalThis.addEventListener("unload", () => {
  rmSync(project, { recursive: true, force: true });
});

/** Wall-clock times of every run, by bench, for the medians printed at the end. */
const times: Record<string, number[]> = { empty: [], validate: [] };

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
