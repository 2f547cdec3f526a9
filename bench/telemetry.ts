// What the metrics and the call record cost per call, side by side in one
// run: a tool host answering trivial calls bare (no listener) and with the
// daemon's metrics and call record attached (the record written to a
// temporary folder), rounds alternating; then the cost of one call's
// events in the metrics and the recorder alone, and of one `GET /metrics`
// text; last, what importing `prom-client` (the usual Prometheus library)
// costs at start, beside this toolkit's own serializer.
//
//   deno run -A bench/telemetry.ts [--rounds 7]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createHost } from "../mod.ts";
import type { HostEvent } from "../lib/host/mod.ts";
import {
  CallMetrics,
  CallRecorder,
  prometheusText,
  recordCalls,
} from "../lib/telemetry/mod.ts";
import { npmPackage } from "../tests/_npm_cache.ts";
import { median } from "./_stats.ts";
import { write } from "./_write.ts";

const { values: flags } = parseArgs({
  args: Deno.args,
  options: { rounds: { type: "string", default: "7" } },
});
const ROUNDS = Number(flags.rounds);

const project = mkdtempSync(join(tmpdir(), "beeuni_bench_telemetry_"));
write(join(project, "beeuni.yaml"), "tools:\n  echo: tools/echo.ts\n");
write(
  join(project, "tools", "echo.ts"),
  `export default { description: "Echo", parameters: { type: "object" }, execute: (args) => String(args.text) };\n`,
);
const state = mkdtempSync(join(tmpdir(), "beeuni_bench_record_"));

const host = await createHost({ directory: project, log: () => {} });
let n = 0;
const call = async () => {
  const outcome = await host.call({
    name: "echo",
    args: { text: `c${n++}` },
    sessionId: "bench",
    agent: "bench",
    transport: "http",
  });
  if (!outcome.ok) throw new Error(outcome.error);
};

async function latency(calls: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function throughput(calls: number, inFlight: number): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next++ < calls) await call();
  }));
  return calls / ((performance.now() - start) / 1000);
}

/** Attaches what the daemon attaches; returns how to detach it. */
function attach(): () => Promise<void> {
  const metrics = new CallMetrics(host, {
    memory: () => Deno.memoryUsage(),
  });
  const detach = metrics.attach();
  const recording = recordCalls(host, {
    dir: state,
    secrets: () => ({}),
    log: console.error,
  });
  return async () => {
    detach();
    await recording.stop();
  };
}

const sides = {
  bare: { latency: [] as number[], throughput: [] as number[] },
  telemetry: { latency: [] as number[], throughput: [] as number[] },
};
try {
  await latency(300); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0
      ? ["bare", "telemetry"] as const
      : ["telemetry", "bare"] as const;
    for (const side of order) {
      const detach = side === "telemetry" ? attach() : undefined;
      sides[side].latency.push(await latency(500));
      sides[side].throughput.push(await throughput(3200, 32));
      await detach?.();
    }
  }
} finally {
  await host.close();
}

// One call's events through the metrics and the recorder alone.
const EVENTS = 200_000;
const metrics = new CallMetrics(host);
const recorder = new CallRecorder({
  dir: state,
  content: () => ({}),
  secrets: () => ({}),
  batchMs: 1_000_000,
  log: console.error,
});
const event = (i: number): HostEvent => ({
  type: "call-end",
  id: String(i),
  name: "echo",
  agent: "bench",
  sessionId: "bench",
  durationMs: i % 50,
  outcome: { ok: true, output: "echo:hello" },
  transport: "http",
});
let start = performance.now();
for (let i = 0; i < EVENTS; i++) metrics.observe(event(i));
const metricsUs = (performance.now() - start) * 1000 / EVENTS;
start = performance.now();
for (let i = 0; i < EVENTS; i++) recorder.observe(event(i));
await recorder.flush();
const recordUs = (performance.now() - start) * 1000 / EVENTS;
start = performance.now();
const TEXTS = 1000;
let bytes = 0;
for (let i = 0; i < TEXTS; i++) {
  bytes = prometheusText(metrics.families()).length;
}
const textUs = (performance.now() - start) * 1000 / TEXTS;

// Importing prom-client in a fresh process, beside importing the toolkit's serializer.
async function importMs(load: string): Promise<number> {
  const script = join(state, `import_${Math.random()}.mjs`);
  write(
    script,
    `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\nconst t = performance.now(); ${load}; console.log(performance.now() - t);\n`,
  );
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", script],
    stderr: "inherit",
  }).output();
  return Number(new TextDecoder().decode(out.stdout).trim());
}
const promClient = join(
  await npmPackage("prom-client", "15.1.3"),
  "prom-client",
  "index.js",
);
const own = new URL("../lib/telemetry/prometheus_text.ts", import.meta.url)
  .href;
const imports = { promClient: [] as number[], own: [] as number[] };
for (let i = 0; i < ROUNDS; i++) {
  imports.promClient.push(
    await importMs(`require(${JSON.stringify(promClient)})`),
  );
  imports.own.push(await importMs(`await import(${JSON.stringify(own)})`));
}

rmSync(project, { recursive: true, force: true });
rmSync(state, { recursive: true, force: true });

const fmt = (x: number, digits = 3) => x.toFixed(digits);
const bare = {
  latency: median(sides.bare.latency),
  throughput: median(sides.bare.throughput),
};
const tel = {
  latency: median(sides.telemetry.latency),
  throughput: median(sides.telemetry.throughput),
};
console.log(`rounds: ${ROUNDS}, medians`);
console.log(
  `one call (ms):       bare ${fmt(bare.latency)}  with metrics + record ${
    fmt(tel.latency)
  }  ratio ${fmt(tel.latency / bare.latency, 2)}`,
);
console.log(
  `calls/s (32 at once): bare ${
    fmt(bare.throughput, 0)
  }  with metrics + record ${fmt(tel.throughput, 0)}  ratio ${
    fmt(tel.throughput / bare.throughput, 2)
  }`,
);
console.log(
  `per call-end event: metrics ${fmt(metricsUs, 2)} µs, record line ${
    fmt(recordUs, 2)
  } µs (written)`,
);
console.log(
  `GET /metrics text: ${fmt(textUs, 1)} µs for ${bytes} bytes`,
);
console.log(
  `import in a fresh process (ms): prom-client 15.1.3 ${
    fmt(median(imports.promClient), 1)
  }  the toolkit's serializer ${fmt(median(imports.own), 1)}`,
);
