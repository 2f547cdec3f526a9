// The manifest parser on hostile input, in process (no start-up): each
// input ends with its positioned error in time that grows with the input,
// side by side with ordinary manifests and with the yaml library's own
// duplicate-key check that the parser no longer uses.
//
//   deno bench -A bench/manifest_limits_bench.ts

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { type ManifestLimits, parseManifest } from "../lib/manifest/mod.ts";
import { loadProject } from "../lib/project/mod.ts";
import { median } from "./_stats.ts";

type Files = Record<string, string>;

function entries(count: number, value = "tools/t.ts"): string {
  return Array.from({ length: count }, (_, i) => `  t${i}: ${value}\n`).join(
    "",
  );
}

/** 1,000 project tools over 20 imported files, plus agents. */
function ordinary(): Files {
  const files: Files = {};
  const imports: string[] = [];
  for (let f = 0; f < 20; f++) {
    const lines = ["tools:"];
    for (let t = 0; t < 50; t++) {
      lines.push(`  tool_${f}_${t}: tools/group_${f}/tool_${f}_${t}.ts`);
    }
    lines.push(
      "agents:",
      `  agent_${f}:`,
      `    tools: [read, grep, web_search, tool_${f}_0]`,
      `    secrets: [KEY_${f}]`,
    );
    files[`config/tools_${f}.yaml`] = lines.join("\n") + "\n";
    imports.push(`  - config/tools_${f}.yaml`);
  }
  files["beeuni.yaml"] = `imports:\n${
    imports.join("\n")
  }\ntools:\n  web_search: beeuni:web_search\n`;
  return files;
}

function chain(length: number): Files {
  const files: Files = { "beeuni.yaml": "imports: [f0.yaml]\n" };
  for (let i = 0; i < length; i++) {
    files[`f${i}.yaml`] = i < length - 1
      ? `imports: [f${i + 1}.yaml]\n`
      : "{}\n";
  }
  return files;
}

const RAISED: Partial<ManifestLimits> = {
  maxEntries: 1e6,
  maxNodes: 1e7,
  maxFileBytes: 1e8,
  maxTotalBytes: 1e8,
  maxImportDepth: 1e5,
  maxImports: 1e5,
};

const CASES: Record<
  string,
  { files: Files; limits?: Partial<ManifestLimits> }
> = {
  "ordinary: 1,000 tools over 20 files": { files: ordinary() },
  "2,500 entries": { files: { "beeuni.yaml": `tools:\n${entries(2_500)}` } },
  "5,000 entries": { files: { "beeuni.yaml": `tools:\n${entries(5_000)}` } },
  "10,000 entries (the limit)": {
    files: { "beeuni.yaml": `tools:\n${entries(10_000)}` },
  },
  "32,000 entries (refused at 10,001)": {
    files: { "beeuni.yaml": `tools:\n${entries(32_000)}` },
  },
  "1 MiB of [ (refused at depth 65)": {
    files: { "beeuni.yaml": "[".repeat(1024 * 1024 - 1) },
  },
  "10 MiB of [ (refused by size)": {
    files: { "beeuni.yaml": "[".repeat(10 * 1024 * 1024) },
  },
  "100,000 nested `- ` (refused at depth 65)": {
    files: { "beeuni.yaml": "tools:\n  " + "- ".repeat(100_000) + "a\n" },
  },
  "dense lists, 4 x 1 MiB (refused at 100,000 nodes)": {
    files: (() => {
      const files: Files = {
        "beeuni.yaml": "imports: [d0.yaml, d1.yaml, d2.yaml, d3.yaml]\n",
      };
      const line = `k: [${"a,".repeat(9_999)}a]\n`;
      for (let f = 0; f < 4; f++) {
        files[`d${f}.yaml`] = Array.from(
          { length: 50 },
          (_, i) => `k${i}` + line.slice(1),
        ).join("");
      }
      return files;
    })(),
  },
  "import chain of 4,000 files (refused at depth 33)": { files: chain(4_000) },
  "import chain of 4,000 files, limits raised": {
    files: chain(4_000),
    limits: RAISED,
  },
  "150,000 findings in one file, limits raised": {
    files: { "beeuni.yaml": `tools:\n${entries(150_000, "1")}` },
    limits: RAISED,
  },
};

/** Wall-clock times of every run, by bench, for the medians printed at the end. */
const times: Record<string, number[]> = {};

function timed(name: string, fn: () => unknown): () => Promise<void> {
  return async () => {
    const start = performance.now();
    await fn();
    (times[name] ??= []).push(performance.now() - start);
  };
}

for (const [name, { files, limits }] of Object.entries(CASES)) {
  Deno.bench({
    name,
    group: "parseManifest",
    baseline: name.startsWith("ordinary"),
    fn: timed(
      name,
      () =>
        parseManifest("/repo", "beeuni.yaml", (path) => files[path], {
          limits,
        }),
    ),
  });
}

// The yaml library's own duplicate-key check (uniqueKeys: true, as the
// parser used before) against the parser's, on the same 10,000 entries.
const tenThousand = `tools:\n${entries(10_000)}`;
Deno.bench({
  name: "yaml parseDocument, uniqueKeys: true, 10,000 entries",
  group: "duplicate keys",
  fn: timed(
    "yaml parseDocument, uniqueKeys: true, 10,000 entries",
    () => parseDocument(tenThousand, { uniqueKeys: true }),
  ),
});
Deno.bench({
  name: "parseManifest, 10,000 entries",
  group: "duplicate keys",
  baseline: true,
  fn: timed(
    "parseManifest, 10,000 entries",
    () => parseManifest("/repo", "beeuni.yaml", () => tenThousand),
  ),
});

// On disk, a file over the size limit is refused before it is read.
const dir = mkdtempSync(join(tmpdir(), "beeuni_bench_limits_"));
writeFileSync(join(dir, "beeuni.yaml"), "[".repeat(100 * 1024 * 1024));
Deno.bench({
  name: "loadProject(), 100 MiB of [ on disk (refused by size)",
  group: "on disk",
  fn: timed(
    "loadProject(), 100 MiB of [ on disk (refused by size)",
    () => loadProject({ cwd: dir, tracking: false }),
  ),
});

globalThis.addEventListener("unload", () => {
  rmSync(dir, { recursive: true, force: true });
  for (const [name, values] of Object.entries(times)) {
    console.log(
      `median ${median(values).toFixed(1)} ms (n=${values.length})  ${name}`,
    );
  }
});
