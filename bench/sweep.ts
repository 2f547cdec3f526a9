// T6: what a save costs when a tool has flooded the folder of saved
// outputs. A host in this process (Deno, or the runtime running this file:
// `node bench/sweep.ts`, `bun bench/sweep.ts`) over a project whose tool returns
// 60 KB (cut and saved, so each call sweeps the folder first); the folder
// is empty, holds `--files` empty files, or `--folders` empty folders. Each
// case times `--runs` calls after one warm-up call, and prints medians side
// by side, with what reading the flooded folder's whole listing once costs
// (node:fs `readdir`, which an unbounded sweep would pay at every save).
//
//   deno run -A bench/sweep.ts [--files 1000000] [--folders 10000] [--runs 9]
//   node bench/sweep.ts [--files N] …    bun bench/sweep.ts [--files N] …

import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { readdir } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { createHost } from "../mod.ts";
import { median } from "./_stats.ts";
import { write } from "./_write.ts";

const { values } = parseArgs({
  options: {
    files: { type: "string", default: "1000000" },
    folders: { type: "string", default: "10000" },
    runs: { type: "string", default: "9" },
  },
});
const files = Number(values.files);
const folders = Number(values.folders);
const runs = Number(values.runs);

const TOOL = `export default {
  description: "Returns 60 KB",
  parameters: { type: "object", properties: {} },
  execute: () => "x".repeat(60_000),
};
`;

/** The runtime running this file, and its version. */
function runtime(): string {
  const versions = process.versions as Record<string, string | undefined>;
  if (versions.deno) return `Deno ${versions.deno}`;
  if (versions.bun) return `Bun ${versions.bun}`;
  return `Node.js ${versions.node}`;
}

/** The milliseconds `act` took. */
async function timed(act: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await act();
  return performance.now() - start;
}

/** Median milliseconds of a saving call with the folder `out` filled by `fill`, and the entries left. */
async function saves(
  project: string,
  out: string,
  fill: () => void,
): Promise<{ ms: number; left: number }> {
  mkdirSync(out);
  fill();
  const host = await createHost({
    directory: project,
    tmpDir: out,
    log: () => {},
  });
  try {
    const call = () =>
      host.call({ name: "big", args: {}, sessionId: "s", agent: "beeuni" });
    await call();
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await timed(call));
    return { ms: median(times), left: readdirSync(out).length };
  } finally {
    await host.close();
  }
}

const root = mkdtempSync(join(tmpdir(), "beeuni-sweep-bench-"));
try {
  const project = join(root, "project");
  write(join(project, "beeuni.yaml"), "tools:\n  big: tools/big.ts\n");
  write(join(project, "tools", "big.ts"), TOOL);
  const load = loadavg()[0];
  const empty = await saves(project, join(root, "empty"), () => {});
  const flooded = join(root, "files");
  const many = await saves(project, flooded, () => {
    const none = new Uint8Array();
    for (let i = 0; i < files; i++) {
      writeFileSync(join(flooded, `f${i}`), none);
    }
  });
  const listing = await timed(() => readdir(flooded));
  const dirs = join(root, "folders");
  const nested = await saves(project, dirs, () => {
    for (let i = 0; i < folders; i++) mkdirSync(join(dirs, `d${i}`));
  });
  const row = (what: string, ms: number, left?: number) =>
    `| ${what} | ${ms.toFixed(1)} ms | ${(ms / empty.ms).toFixed(1)}× | ${
      left?.toLocaleString("en") ?? ""
    } |`;
  console.log(
    [
      `| a call saving 60 KB (${runtime()}, load average ~${
        load.toFixed(0)
      } on 2 cores), median of ${runs} | time | ratio | entries left |`,
      "| --- | --- | --- | --- |",
      row("empty folder", empty.ms, empty.left),
      row(`${files.toLocaleString("en")} files`, many.ms, many.left),
      row(
        `${folders.toLocaleString("en")} empty folders`,
        nested.ms,
        nested.left,
      ),
      row("(reading the whole listing of the files once)", listing),
    ].join("\n"),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
