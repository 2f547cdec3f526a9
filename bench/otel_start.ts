// What OpenTelemetry costs a daemon's start, side by side in one run:
//
// - "off": this checkout's daemon without any OTEL_* variable (nothing of
//   OpenTelemetry is loaded);
// - "on": the same daemon exporting spans to a local OTLP/HTTP receiver
//   (OTEL_EXPORTER_OTLP_ENDPOINT set, protobuf as by default; the SDK is
//   imported at start);
// - "before" (with `--before <checkout>`): another checkout's daemon, such
//   as the code before traces, without the variables.
//
// Each side is timed from spawning `deno run -A daemon.ts` to its
// "listening on" line, and to the answer of its first call (a tool that
// echoes its text). Rounds alternate the sides; medians.
//
//   deno run -A bench/otel_start.ts [--rounds 11] [--before <checkout>]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { callTool, daemonEnv } from "./_daemon_env.ts";
import { spawnServer } from "./_process.ts";
import { median } from "./_stats.ts";
import { write } from "./_write.ts";

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    rounds: { type: "string", default: "11" },
    before: { type: "string" },
  },
});
const ROUNDS = Number(flags.rounds);

const root = mkdtempSync(join(tmpdir(), "beeuni_bench_otel_"));
const project = join(root, "project");
write(join(project, "beeuni.yaml"), "tools:\n  echo: tools/echo.ts\n");
write(
  join(project, "tools/echo.ts"),
  `export default {
  description: "Echo the text.",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args: { text: string }) => args.text,
};
`,
);

// The collector: answers every export at once.
let exports = 0;
const receiver = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  async (request) => {
    await request.arrayBuffer();
    exports++;
    // An empty export response, in the request's encoding.
    return request.headers.get("content-type") === "application/json"
      ? Response.json({})
      : new Response(new Uint8Array(), {
        headers: { "content-type": "application/x-protobuf" },
      });
  },
);

interface Side {
  daemon: string;
  env: Record<string, string>;
}

const base = daemonEnv(root);
for (const name of Object.keys(base)) {
  if (name.startsWith("OTEL_")) delete base[name];
}
const sides: Record<string, Side> = {
  ...(flags.before
    ? {
      before: { daemon: join(resolve(flags.before), "daemon.ts"), env: base },
    }
    : {}),
  off: { daemon: join(REPO_ROOT, "daemon.ts"), env: base },
  on: {
    daemon: join(REPO_ROOT, "daemon.ts"),
    env: {
      ...base,
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.addr.port}`,
      OTEL_BSP_SCHEDULE_DELAY: "100",
    },
  },
};

/** Starts `side`'s daemon, calls it once, stops it: the two times in ms. */
async function startOnce(
  side: Side,
): Promise<{ listening: number; answered: number }> {
  const start = performance.now();
  const server = await spawnServer([
    "run",
    "-A",
    "--quiet",
    side.daemon,
    "--dir",
    project,
    "--port",
    "0",
    "--no-watch",
    "--no-opencode",
  ], { env: side.env });
  const listening = performance.now() - start;
  const { body } = await callTool(`${server.url}/beeuni/tools/echo`, "hi");
  if (body.output !== "hi") {
    throw new Error(`unexpected answer: ${JSON.stringify(body)}`);
  }
  const answered = performance.now() - start;
  await server.stop();
  return { listening, answered };
}

try {
  // Once each first: Deno's caches (transpiled modules, npm packages).
  for (const side of Object.values(sides)) await startOnce(side);
  const times: Record<string, { listening: number[]; answered: number[] }> = {};
  for (const name of Object.keys(sides)) {
    times[name] = { listening: [], answered: [] };
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, side] of Object.entries(sides)) {
      const { listening, answered } = await startOnce(side);
      times[name].listening.push(listening);
      times[name].answered.push(answered);
    }
  }
  const reference = median(times.off.listening);
  const referenceAnswer = median(times.off.answered);
  console.log(`| daemon | "listening on" | ratio | first answer | ratio |`);
  console.log(`| ------ | -------------- | ----- | ------------ | ----- |`);
  for (const name of Object.keys(sides)) {
    const listening = median(times[name].listening);
    const answered = median(times[name].answered);
    console.log(
      `| ${name} | ${listening.toFixed(1)} ms | ${
        (listening / reference).toFixed(2)
      }x | ${answered.toFixed(1)} ms | ${
        (answered / referenceAnswer).toFixed(2)
      }x |`,
    );
  }
  console.log(
    `${ROUNDS} rounds; the receiver took ${exports} exports; load average ${
      Deno.loadavg().map((n) => n.toFixed(1)).join(" ")
    }`,
  );
} finally {
  await receiver.shutdown();
  rmSync(root, { recursive: true, force: true });
}
