// The MCP layer alone, in this process, this checkout against another side
// by side: the time of one `tools/call` of an echo function through
// `createMcpHttp().handle()` (a 2025-11-25 session, a `Request` in, the
// JSON answer read), and through `serveStdio()` (a line in, the answer's
// line out). No network, no runner process: the protocol's own work, which
// bench/mcp.ts measures behind a socket.
//
//   deno run -A bench/mcp_layer.ts --compare <older checkout> [--rounds 9]

import { join } from "node:path";
import { comparison } from "./_compare.ts";
import { median } from "./_stats.ts";

const { here: HERE, before: BEFORE, rounds: ROUNDS } = comparison(Deno.args);
const WARMUP = 2000;
const CALLS = 5000; // per side and round

/** A host with one tool, `echo`, that answers at once. */
const host = {
  list: () => [{
    name: "echo",
    description: "Echo",
    parameters: { type: "object" },
  }],
  call: (call: { args: Record<string, unknown> }) =>
    Promise.resolve({ ok: true as const, output: String(call.args.text) }),
};

type Call = () => Promise<void>;

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};
const INITIALIZE = {
  protocolVersion: "2025-11-25",
  capabilities: {},
  clientInfo: { name: "bench", version: "1" },
};

/** Throws unless `answer` is the echo of "x". */
function check(answer: { result?: { content?: { text?: string }[] } }): void {
  if (answer.result?.content?.[0]?.text !== "x") {
    throw new Error(`unexpected answer: ${JSON.stringify(answer)}`);
  }
}

/** One call through the HTTP handler of the checkout at `root`. */
async function httpSide(root: string): Promise<Call> {
  const { createMcpHttp } = await import(join(root, "lib/mcp/mod.ts"));
  const mcp = createMcpHttp({ host });
  const url = new URL("http://127.0.0.1/mcp");
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    mcp.handle(
      new Request(url, {
        method: "POST",
        headers: { ...HEADERS, ...headers },
        body: JSON.stringify(body),
      }),
      url,
    ) as Promise<Response>;
  const started = await post({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: INITIALIZE,
  });
  const session = {
    "mcp-session-id": started.headers.get("mcp-session-id")!,
    "mcp-protocol-version": "2025-11-25",
  };
  let id = 0;
  return async () => {
    const response = await post({
      jsonrpc: "2.0",
      id: ++id,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "x" } },
    }, session);
    check(await response.json());
  };
}

/** One call through the stdio server of the checkout at `root`, its input fed from memory. */
async function stdioSide(root: string): Promise<Call> {
  const { serveStdio } = await import(join(root, "lib/mcp/mod.ts"));
  const chunks: Uint8Array[] = [];
  let wake: (() => void) | undefined;
  const input = {
    async *[Symbol.asyncIterator]() {
      while (true) {
        while (chunks.length > 0) yield chunks.shift()!;
        await new Promise<void>((resolve) => wake = resolve);
      }
    },
  };
  const waiting = new Map<number, (message: never) => void>();
  serveStdio({
    host,
    agent: "beeuni",
    input,
    write: (text: string) => {
      for (const line of text.split("\n")) {
        if (line === "") continue;
        const message = JSON.parse(line);
        waiting.get(message.id)?.(message as never);
        waiting.delete(message.id);
      }
    },
  });
  const encoder = new TextEncoder();
  let id = 0;
  const send = (method: string, params: unknown) => {
    const answer = new Promise<never>((resolve) => waiting.set(++id, resolve));
    chunks.push(encoder.encode(
      JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n",
    ));
    wake?.();
    return answer;
  };
  await send("initialize", INITIALIZE);
  return async () =>
    check(
      await send("tools/call", { name: "echo", arguments: { text: "x" } }),
    );
}

/** The median time of one call (µs) per side, `CALLS` calls a round, sides alternating. */
async function measure(
  sides: Record<string, Call>,
): Promise<Record<string, number>> {
  const names = Object.keys(sides);
  const samples: Record<string, number[]> = Object.fromEntries(
    names.map((name) => [name, []]),
  );
  for (let i = 0; i < WARMUP; i++) {
    for (const name of names) await sides[name]();
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < CALLS; i++) {
      const order = (round + i) % 2 === 0 ? names : [...names].reverse();
      for (const name of order) {
        const start = performance.now();
        await sides[name]();
        samples[name].push((performance.now() - start) * 1000);
      }
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(samples[name])]));
}

const http = await measure({
  now: await httpSide(HERE),
  before: await httpSide(BEFORE),
});
const stdio = await measure({
  now: await stdioSide(HERE),
  before: await stdioSide(BEFORE),
});
console.log(
  `MCP tools/call in process, ${ROUNDS} rounds of ${CALLS} calls per side, medians (before -> now, now/before), Deno ${Deno.version.deno}:`,
);
for (
  const [name, figures] of [["HTTP handle()", http], ["stdio", stdio]] as const
) {
  console.log(
    `${name}: ${figures.before.toFixed(1)} us -> ${
      figures.now.toFixed(1)
    } us (${(figures.now / figures.before).toFixed(2)}x)`,
  );
}
// The stdio servers wait on their input for good.
Deno.exit(0);
