// One side of bench/host_calls.ts: a tool host of the toolkit checkout
// whose mod.ts is the first argument, on the project that is the second,
// answering the parent's commands on standard input with one JSON line
// each on standard output. Runs under Deno, Node.js and Bun.

import { createInterface } from "node:readline";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { median } from "./_stats.ts";

const [modPath, directory] = process.argv.slice(2);
const started = performance.now();
const { createHost } = await import(pathToFileURL(modPath).href);
const host = await createHost({ directory, log: () => {} });
let calls = 0;
const call = async () => {
  const outcome = await host.call({
    name: "echo",
    args: { text: `c${calls++}` },
    sessionId: "bench",
    agent: "bench",
  });
  if (!outcome.ok) throw new Error(outcome.error);
};
await call();
const firstMs = performance.now() - started;

const commands: Record<string, (n: number, c: number) => Promise<unknown>> = {
  // The median time of one call of `n` sequential ones (ms).
  async latency(n) {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      await call();
      times.push(performance.now() - start);
    }
    return median(times);
  },
  // Calls per second over `n` calls with `c` in flight.
  async throughput(n, c) {
    let next = 0;
    const start = performance.now();
    await Promise.all(Array.from({ length: c }, async () => {
      while (next++ < n) await call();
    }));
    return n / ((performance.now() - start) / 1000);
  },
};

process.stdout.write(JSON.stringify({ firstMs }) + "\n");
for await (const line of createInterface({ input: process.stdin })) {
  const [name, n, c] = line.split(" ");
  if (name === "close") break;
  const value = await commands[name](Number(n), Number(c));
  process.stdout.write(JSON.stringify({ value }) + "\n");
}
await host.close();
process.exit(0);
