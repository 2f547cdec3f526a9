// MCP `tools/call` of a trivial tool, side by side in one run:
//
// - bare: a bare `Deno.serve` server that parses the same JSON-RPC body,
//   calls the echo function and answers the same JSON-RPC result;
// - bare+headers: the same, also parsing the URL and reading the five
//   headers an MCP server must read (Origin, Accept, Content-Type,
//   Mcp-Session-Id, MCP-Protocol-Version): the floor of any MCP server;
// - sdk: the MCP SDK's stateless server (@modelcontextprotocol/sdk 1.32.2,
//   `WebStandardStreamableHTTPServerTransport` under `Deno.serve`, one
//   `Server` and transport per request, as the SDK requires) calling the
//   same function;
// - layer: our MCP layer (`createMcpHttp`, a 2025-11-25 session) calling the
//   same function in its own thread: the protocol alone;
// - daemon /mcp: the real daemon (`daemon.ts`, token and Host checks, the
//   echo tool in its worker) over MCP;
// - daemon route: the same daemon's `POST /beeuni/tools/echo`, for scale;
// - stdio: `beeuni mcp` on the same project (a 2025-11-25 session on its
//   standard input and output, the echo tool in its runner), calls told
//   apart by id.
//
// With `--compare <older checkout>`, the layer, the daemon's /mcp and stdio
// of that checkout run too ("… before"), in the same rounds.
//
// Latency: the median of sequential calls, sides alternating. Throughput:
// calls per second with 32 in flight, the median of several rounds, sides
// alternating. Goals (issue 11): layer latency at most 1.2x bare, layer
// throughput at least 0.85x bare. Every server is a subprocess on
// 127.0.0.1; the client is this process. The SDK is installed from npm into
// the test cache folder the first time.
//
//   deno run -A bench/mcp.ts [--quick] [--compare <older checkout>]

import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { TOKEN } from "./_daemon_env.ts";
import { type Server, spawnServer } from "./_process.ts";
import { latency, throughput } from "./_rounds.ts";
import { write } from "./_write.ts";

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const { values: FLAGS } = parseArgs({
  args: Deno.args,
  options: { quick: { type: "boolean" }, compare: { type: "string" } },
});
const QUICK = FLAGS.quick === true;
/** An older checkout whose layer, daemon and stdio server run beside this one's. */
const BEFORE = FLAGS.compare;
const LATENCY_WARMUP = QUICK ? 50 : 300;
const LATENCY_CALLS = QUICK ? 300 : 1500; // per side
const CONCURRENCY = 32;
const THROUGHPUT_CALLS = QUICK ? 640 : 3200; // per side and round
const THROUGHPUT_ROUNDS = QUICK ? 3 : 5;
const SDK = "@modelcontextprotocol/sdk";
const SDK_VERSION = "1.32.2";

const LISTEN =
  `onListen: ({ port }) => console.log("listening on http://127.0.0.1:" + port)`;

const BARE_SERVER = `const echo = (args) => String(args.text);
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, ${LISTEN} }, async (request) => {
  const message = await request.json();
  return Response.json({
    jsonrpc: "2.0",
    id: message.id,
    result: { content: [{ type: "text", text: echo(message.params.arguments) }] },
  });
});
Deno.addSignalListener("SIGTERM", () => server.shutdown());
`;

/** The bare server plus what any MCP server must read: the URL and five headers. */
const BARE_HEADERS_SERVER = `const echo = (args) => String(args.text);
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, ${LISTEN} }, async (request) => {
  const url = new URL(request.url);
  const headers = request.headers;
  let seen = url.pathname.length;
  for (const name of ["origin", "accept", "content-type", "mcp-session-id", "mcp-protocol-version"]) {
    if (headers.get(name) !== null) seen++;
  }
  const message = await request.json();
  return Response.json({
    jsonrpc: "2.0",
    id: message.id,
    result: { content: [{ type: "text", text: echo(message.params.arguments) }], seen },
  });
});
Deno.addSignalListener("SIGTERM", () => server.shutdown());
`;

const SDK_SERVER = `// @ts-nocheck
import { Server } from "${SDK}/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "${SDK}/server/webStandardStreamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "${SDK}/types.js";
const echo = (args) => String(args.text);
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, ${LISTEN} }, async (request) => {
  const mcp = new Server({ name: "sdk", version: "1.0.0" }, { capabilities: { tools: {} } });
  mcp.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: "echo", description: "Echo", inputSchema: { type: "object" } }],
  }));
  mcp.setRequestHandler(CallToolRequestSchema, (call) => ({
    content: [{ type: "text", text: echo(call.params.arguments ?? {}) }],
  }));
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await mcp.connect(transport);
  return await transport.handleRequest(request);
});
Deno.addSignalListener("SIGTERM", () => server.shutdown());
`;

/** The layer's server script, from the checkout at `root`. */
function layerServer(root: string): string {
  const mod = new URL(`file://${join(root, "lib/mcp/mod.ts")}`).href;
  return `import { createMcpHttp } from ${JSON.stringify(mod)};
const echo = (args) => String(args.text);
const host = {
  list: () => [{ name: "echo", description: "Echo", parameters: { type: "object" } }],
  call: (call) => Promise.resolve({ ok: true, output: echo(call.args) }),
};
const mcp = createMcpHttp({ host });
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, ${LISTEN} }, (request) =>
  mcp.handle(request, new URL(request.url)));
Deno.addSignalListener("SIGTERM", () => server.shutdown());
`;
}

/** The SDK's install in the test cache folder (as the tests install it). */
async function sdkInstall(): Promise<string> {
  const xdg = Deno.env.get("XDG_CACHE_HOME");
  const base = xdg && xdg.startsWith("/") ? xdg : join(homedir(), ".cache");
  const dir = join(base, "beeuni-test", `${SDK}-${SDK_VERSION}`);
  if (existsSync(join(dir, "node_modules", SDK, "package.json"))) return dir;
  const staging = `${dir}.${Deno.pid}.tmp`;
  mkdirSync(staging, { recursive: true });
  const out = await new Deno.Command("npm", {
    args: [
      "install",
      "--prefix",
      staging,
      `${SDK}@${SDK_VERSION}`,
      "--no-audit",
      "--no-fund",
    ],
    stdout: "null",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`npm install ${SDK} failed`);
  await Deno.rename(staging, dir);
  return dir;
}

/** How a side is called: its URL, the headers of every call, and (for the daemon's route) its own body shape; or a stdio server. */
type Side = HttpSide | StdioSide;

interface HttpSide {
  url: string;
  headers: Record<string, string>;
  route?: boolean;
}

let ids = 0;

/** `beeuni mcp` of the checkout at `root` serving `project` (its state in `state`), in a 2025-11-25 session; calls are told apart by id. */
class StdioSide {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #waiting = new Map<number, (message: Record<string, unknown>) => void>();
  #encoder = new TextEncoder();
  #reading: Promise<void>;

  constructor(root: string, project: string, state: string) {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--quiet",
        "--config",
        join(root, "deno.json"),
        join(root, "cli.ts"),
        "mcp",
        "--manifest",
        join(project, "beeuni.yaml"),
        "--agent",
        "bench",
        "--no-watch",
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
      env: { NO_COLOR: "1", XDG_STATE_HOME: state },
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#reading = this.#read();
  }

  async #read(): Promise<void> {
    let buffer = "";
    for await (
      const text of this.#child.stdout.pipeThrough(new TextDecoderStream())
    ) {
      buffer += text;
      let newline;
      while ((newline = buffer.indexOf("\n")) !== -1) {
        const message = JSON.parse(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
        const resolve = this.#waiting.get(message.id);
        this.#waiting.delete(message.id);
        resolve?.(message);
      }
    }
  }

  /** Sends a request and gives its response. */
  request(
    method: string,
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const id = ++ids;
    const answer = new Promise<Record<string, unknown>>((resolve) =>
      this.#waiting.set(id, resolve)
    );
    void this.#writer.write(this.#encoder.encode(
      JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n",
    ));
    return answer;
  }

  async start(): Promise<StdioSide> {
    await this.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "bench", version: "1" },
    });
    return this;
  }

  async stop(): Promise<void> {
    await this.#writer.close().catch(() => {});
    await this.#child.status;
    await this.#reading;
  }
}

/** One call of the echo tool; throws unless it answers `text`. */
async function callOnce(side: Side, text: string): Promise<void> {
  if (side instanceof StdioSide) {
    const answer = await side.request("tools/call", {
      name: "echo",
      arguments: { text },
    }) as { result?: { content?: { text?: string }[] } };
    if (answer.result?.content?.[0]?.text !== text) {
      throw new Error(`unexpected answer: ${JSON.stringify(answer)}`);
    }
    return;
  }
  const body = side.route
    ? { args: { text }, sessionId: "bench", agent: "bench" }
    : {
      jsonrpc: "2.0",
      id: ++ids,
      method: "tools/call",
      params: { name: "echo", arguments: { text } },
    };
  const response = await fetch(side.url, {
    method: "POST",
    headers: side.headers,
    body: JSON.stringify(body),
  });
  // A call still running after 100 ms is answered as an event stream.
  const raw = await response.text();
  const answer = response.headers.get("content-type")?.includes("event-stream")
    ? JSON.parse(
      raw.trim().split("\n").filter((l) => l.startsWith("data:")).at(-1)!.slice(
        5,
      ),
    )
    : JSON.parse(raw);
  const got = side.route ? answer.output : answer.result?.content?.[0]?.text;
  if (response.status !== 200 || got !== text) {
    throw new Error(
      `unexpected answer ${response.status}: ${JSON.stringify(answer)}`,
    );
  }
}

/** A 2025-11-25 session with an MCP server: the headers its calls carry. */
async function session(
  url: string,
  auth: Record<string, string>,
): Promise<HttpSide> {
  const headers = {
    ...auth,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const response = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      },
    }),
  });
  await response.body?.cancel();
  const id = response.headers.get("mcp-session-id");
  if (!id) throw new Error(`no session from ${url}`);
  return {
    url,
    headers: {
      ...headers,
      "mcp-session-id": id,
      "mcp-protocol-version": "2025-11-25",
    },
  };
}

const work = mkdtempSync(join(tmpdir(), "beeuni-bench-mcp-"));
const procs: Server[] = [];
const stdios: StdioSide[] = [];
try {
  write(join(work, "bare.ts"), BARE_SERVER);
  write(join(work, "bare_headers.ts"), BARE_HEADERS_SERVER);
  // The SDK runs from its npm install: a folder whose node_modules links to it.
  const sdkDir = join(work, "sdk");
  mkdirSync(sdkDir);
  Deno.symlinkSync(
    join(await sdkInstall(), "node_modules"),
    join(sdkDir, "node_modules"),
  );
  write(
    join(sdkDir, "package.json"),
    '{ "type": "module", "private": true }\n',
  );
  write(join(sdkDir, "server.ts"), SDK_SERVER);
  const project = join(work, "project");
  write(
    join(project, "beeuni.yaml"),
    "tools:\n  echo: tools/echo.ts\nagents:\n  bench:\n    tools: all\n",
  );
  write(
    join(project, "tools/echo.ts"),
    `export default {
  description: "Echo the text.",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute(args) {
    return String(args.text);
  },
};
`,
  );

  const bare = await spawnServer([
    "run",
    "-A",
    "--quiet",
    "--no-config",
    join(work, "bare.ts"),
  ], { stderr: "piped" });
  procs.push(bare);
  const bareHeaders = await spawnServer([
    "run",
    "-A",
    "--quiet",
    "--no-config",
    join(work, "bare_headers.ts"),
  ], { stderr: "piped" });
  procs.push(bareHeaders);
  const sdk = await spawnServer(
    [
      "run",
      "-A",
      "--quiet",
      "--no-config",
      "--no-lock",
      "--node-modules-dir=manual",
      "server.ts",
    ],
    { cwd: sdkDir, stderr: "piped" },
  );
  procs.push(sdk);

  const json = { "content-type": "application/json" };
  const both = { ...json, accept: "application/json, text/event-stream" };
  const auth = { authorization: `Bearer ${TOKEN}` };
  // What a client in a session sends, for the bare+headers side.
  const sessionLike = {
    ...both,
    "mcp-session-id": "mcp-000000000000000000000000",
    "mcp-protocol-version": "2025-11-25",
  };
  const sides: Record<string, Side> = {
    "bare": { url: `${bare.url}/`, headers: json },
    "bare+headers": { url: `${bareHeaders.url}/`, headers: sessionLike },
    "sdk": { url: `${sdk.url}/mcp`, headers: both },
  };
  /** The layer, the daemon and `beeuni mcp` of the checkout at `root`, named with `suffix`. */
  const checkout = async (root: string, suffix: string) => {
    write(join(work, `layer${suffix}.ts`), layerServer(root));
    const config = ["--config", join(root, "deno.json")];
    const layer = await spawnServer(
      ["run", "-A", "--quiet", ...config, join(work, `layer${suffix}.ts`)],
      { stderr: "piped" },
    );
    procs.push(layer);
    const daemon = await spawnServer(
      [
        "run",
        "-A",
        "--quiet",
        ...config,
        join(root, "daemon.ts"),
        "--dir",
        project,
        "--port",
        "0",
        "--no-watch",
        "--no-opencode",
      ],
      {
        env: {
          BEEUNI_DAEMON_TOKEN: TOKEN,
          PATH: Deno.env.get("PATH") ?? "",
          XDG_STATE_HOME: join(work, `state${suffix}`),
        },
        stderr: "piped",
      },
    );
    procs.push(daemon);
    const stdio = new StdioSide(root, project, join(work, `stdio${suffix}`));
    stdios.push(stdio);
    sides[`layer${suffix}`] = await session(`${layer.url}/mcp`, {});
    sides[`daemon /mcp${suffix}`] = await session(`${daemon.url}/mcp`, auth);
    if (suffix === "") {
      sides["daemon route"] = {
        url: `${daemon.url}/beeuni/tools/echo`,
        headers: { ...json, ...auth },
        route: true,
      };
    }
    sides[`stdio${suffix}`] = await stdio.start();
  };
  await checkout(REPO_ROOT, "");
  if (BEFORE !== undefined) await checkout(BEFORE, " before");
  const lat = await latency(sides, callOnce, {
    warmup: LATENCY_WARMUP,
    calls: LATENCY_CALLS,
  });
  const rate = await throughput(sides, callOnce, {
    concurrency: CONCURRENCY,
    calls: THROUGHPUT_CALLS,
    rounds: THROUGHPUT_ROUNDS,
  });
  const rows = Object.keys(sides).map((name) => ({
    side: name,
    latencyMs: lat[name].toFixed(3),
    latencyVsBare: (lat[name] / lat.bare).toFixed(2) + "x",
    callsPerSecond: Math.round(rate[name]),
    throughputVsBare: (rate[name] / rate.bare).toFixed(2) + "x",
  }));
  console.log(
    `MCP tools/call, ${LATENCY_CALLS} sequential calls per side (median), ` +
      `${THROUGHPUT_ROUNDS} rounds of ${THROUGHPUT_CALLS} calls with ${CONCURRENCY} in flight (median), Deno ${Deno.version.deno}`,
  );
  console.table(rows);
  const layerLatency = lat.layer / lat.bare;
  const layerRate = rate.layer / rate.bare;
  if (BEFORE !== undefined) {
    for (const name of ["layer", "daemon /mcp", "stdio"]) {
      console.log(
        `${name} against ${name} before: latency ${
          (lat[name] / lat[`${name} before`]).toFixed(2)
        }x, throughput ${(rate[name] / rate[`${name} before`]).toFixed(2)}x`,
      );
    }
  }
  console.log(
    `goal, layer latency <= 1.2x bare: ${layerLatency.toFixed(2)}x ${
      layerLatency <= 1.2 ? "met" : "missed"
    }; ` +
      `layer throughput >= 0.85x bare: ${layerRate.toFixed(2)}x ${
        layerRate >= 0.85 ? "met" : "missed"
      }`,
  );
} finally {
  for (const stdio of stdios) await stdio.stop();
  for (const proc of procs) await proc.stop();
  rmSync(work, { recursive: true, force: true });
}
