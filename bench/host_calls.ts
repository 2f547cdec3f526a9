// A tool call through `createHost()`, this checkout against another, side
// by side in one run: the median time of one call (the round trip from the
// host to the tool's runner process and back), calls per second with 32 in
// flight, and the time from importing the toolkit to the first answer.
// Each side is a process of its own running bench/_host_driver.ts; rounds
// alternate the sides' order.
//
//   deno run -A bench/host_calls.ts --compare <older checkout> [--runtime node|bun] [--rounds 9]

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { comparison, runtimeArgv } from "./_compare.ts";
import { median } from "./_stats.ts";
import { write } from "./_write.ts";

const { here: HERE, before: BEFORE, runtime: RUNTIME, rounds: ROUNDS } =
  comparison(Deno.args);
const DRIVER = join(import.meta.dirname!, "_host_driver.ts");

const project = mkdtempSync(join(tmpdir(), "beeuni_bench_calls_"));
write(join(project, "beeuni.yaml"), "tools:\n  echo: tools/echo.ts\n");
write(
  join(project, "tools", "echo.ts"),
  `export default { description: "Echo", parameters: { type: "object" }, execute: (args) => String(args.text) };\n`,
);

/** A driver process for the checkout at `root`. */
async function side(root: string) {
  const argv = await runtimeArgv(RUNTIME);
  const config = RUNTIME === "deno"
    ? ["--config", join(root, "deno.json")]
    : [];
  const child = spawn(argv[0], [
    ...argv.slice(1),
    ...config,
    DRIVER,
    join(root, "mod.ts"),
    project,
  ], { stdio: ["pipe", "pipe", "inherit"], cwd: root });
  const lines = createInterface({ input: child.stdout! })
    [Symbol.asyncIterator]();
  const next = async () => JSON.parse((await lines.next()).value as string);
  const { firstMs } = await next();
  return {
    firstMs: firstMs as number,
    async ask(command: string): Promise<number> {
      child.stdin!.write(command + "\n");
      return (await next()).value;
    },
    close() {
      child.stdin!.write("close\n");
      return new Promise((done) => child.on("exit", done));
    },
  };
}

const sides = { now: HERE, before: BEFORE };
const results: Record<
  string,
  { latency: number[]; throughput: number[]; first: number[] }
> = {
  now: { latency: [], throughput: [], first: [] },
  before: { latency: [], throughput: [], first: [] },
};
try {
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ["now", "before"] : ["before", "now"];
    for (const name of order) {
      const s = await side(sides[name as keyof typeof sides]);
      results[name].first.push(s.firstMs);
      await s.ask("latency 200 0"); // warm-up
      results[name].latency.push(await s.ask("latency 500 0"));
      results[name].throughput.push(await s.ask("throughput 3200 32"));
      await s.close();
    }
  }
} finally {
  rmSync(project, { recursive: true, force: true });
}
const m = (name: string, key: "latency" | "throughput" | "first") =>
  median(results[name][key]);
console.log(
  `runtime ${RUNTIME}, ${ROUNDS} rounds, medians (before -> now, now/before):`,
);
console.log(
  `latency of one call (ms): ${m("before", "latency").toFixed(3)} -> ${
    m("now", "latency").toFixed(3)
  } (${(m("now", "latency") / m("before", "latency")).toFixed(2)}x)`,
);
console.log(
  `calls/s, 32 in flight:    ${m("before", "throughput").toFixed(0)} -> ${
    m("now", "throughput").toFixed(0)
  } (${(m("now", "throughput") / m("before", "throughput")).toFixed(2)}x)`,
);
console.log(
  `import to first answer (ms): ${m("before", "first").toFixed(0)} -> ${
    m("now", "first").toFixed(0)
  } (${(m("now", "first") / m("before", "first")).toFixed(2)}x)`,
);
