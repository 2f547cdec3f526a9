// Measures, under the runtime that runs it, what each place a tool could run
// costs: time to start, one message round trip, and resident memory. Prints
// JSON. Run by bench/runners.ts under Deno, Node.js and Bun.

import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import process from "node:process";
import { Worker as ThreadWorker } from "node:worker_threads";

const ECHO = new URL("./_echo.ts", import.meta.url);
const HOPS = 2_000;
const COUNT = 5;

function rssMb(pid: number | "self" = "self"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}

/** Proportional set size: shared pages (the runtime's binary) split among the processes sharing them. */
function pssMb(pid: number): number {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)![1]) / 1024;
}

interface Channel {
  send(message: unknown): void;
  onMessage(handler: (message: unknown) => void): void;
  close(): Promise<void> | void;
  pid?: number;
}

function runtimeName(): string {
  const g = globalThis as Record<string, unknown>;
  return typeof g.Deno === "object"
    ? "deno"
    : typeof g.Bun === "object"
    ? "bun"
    : "node";
}

const kinds: Record<string, () => Channel> = {
  worker_threads: () => {
    const worker = new ThreadWorker(ECHO);
    return {
      send: (m) => worker.postMessage(m),
      onMessage: (h) => worker.on("message", h),
      close: async () => void await worker.terminate(),
    };
  },
  web_worker: () => {
    const worker = new Worker(ECHO, { type: "module" });
    return {
      send: (m) => worker.postMessage(m),
      onMessage: (h) => worker.onmessage = (event) => h(event.data),
      close: () => worker.terminate(),
    };
  },
  process: () => {
    const args = runtimeName() === "deno"
      ? ["run", "--no-config", "--allow-read", ECHO.pathname]
      : [ECHO.pathname];
    const child = fork(ECHO.pathname, [], {
      execPath: process.execPath,
      execArgv: [],
      // fork() runs execPath with the script; Deno needs its own arguments.
      ...(runtimeName() === "deno" ? { execArgv: args.slice(0, -1) } : {}),
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    return {
      send: (m) => child.send(m as never),
      onMessage: (h) => child.on("message", h),
      close: () => void child.kill("SIGKILL"),
      pid: child.pid,
    };
  },
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(make: () => Channel) {
  const starts: number[] = [];
  const hops: number[] = [];
  const memory: number[] = [];
  const proportional: number[] = [];
  for (let round = 0; round < COUNT; round++) {
    const before = rssMb();
    const t0 = performance.now();
    const channel = make();
    let waiting: ((m: unknown) => void) | undefined;
    channel.onMessage((m) => waiting?.(m));
    const next = () => new Promise((resolve) => waiting = resolve);
    await next();
    starts.push(performance.now() - t0);
    const t1 = performance.now();
    for (let i = 0; i < HOPS; i++) {
      const answer = next();
      channel.send({ i });
      await answer;
    }
    hops.push((performance.now() - t1) / HOPS * 1000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    memory.push(
      channel.pid === undefined ? rssMb() - before : rssMb(channel.pid),
    );
    if (channel.pid !== undefined) proportional.push(pssMb(channel.pid));
    await channel.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    startMs: median(starts),
    hopUs: median(hops),
    rssMb: median(memory),
    ...(proportional.length > 0 ? { pssMb: median(proportional) } : {}),
  };
}

const results: Record<string, unknown> = {};
for (const [kind, make] of Object.entries(kinds)) {
  if (kind === "web_worker" && typeof Worker !== "function") continue;
  // Node.js's web Worker global does not exist; Bun's and Deno's do.
  try {
    results[kind] = await measure(make);
  } catch (error) {
    results[kind] = { error: String(error) };
  }
}
console.log(JSON.stringify({ runtime: runtimeName(), results }));
process.exit(0);
