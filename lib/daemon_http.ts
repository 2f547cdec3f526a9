/**
 * The daemon's HTTP interface as one runtime-neutral function from a web
 * `Request` to a `Response`, over a tool host. `daemon.ts` serves it with
 * `Deno.serve`; the same function runs under any server that speaks the web
 * `Request`/`Response` types (Bun.serve, Node adapters).
 *
 * Every request must come with a loopback `Host` header and the daemon's
 * bearer token (D7). Routes:
 *
 * | method | path | answer |
 * | --- | --- | --- |
 * | GET | `/beeuni/health` | `{ ok, tools, running }` |
 * | GET | `/beeuni/tools?agent=A&parentAgent=P` | `{ tools: [{ name, description, parameters }] }` |
 * | POST | `/beeuni/tools/<name>` | `{ output }` or `{ error }` (D2); with `Accept: text/event-stream`, `progress` events then a `result` event |
 * | POST | `/beeuni/sessions/<id>/stop` | `{ stopped }` (T5) |
 *
 * @example Serve a host with Deno
 * ```ts ignore
 * import { createHandler } from "./daemon_http.ts";
 * const handler = createHandler({ host, token: "a-long-random-token" });
 * Deno.serve({ hostname: "127.0.0.1", port: 0 }, handler);
 * ```
 *
 * @module
 */

import { bearerChecker } from "./daemon_token.ts";
import type { CallOutcome, CallRequest } from "./host.ts";

/** The default largest request body accepted: 10 MiB. */
export const DEFAULT_MAX_BODY_BYTES: number = 10 * 1024 * 1024;

/** One tool as the HTTP list returns it. */
export interface ListedTool {
  /** The tool's name. */
  name: string;
  /** What the model reads about it. */
  description: string;
  /** Its JSON Schema, as the module gives it. */
  parameters: Record<string, unknown>;
}

/** One call handed to the host: the host's own call, less the per-call timeout. */
export type HostCall = Omit<CallRequest, "timeoutMs">;

/** What the host answers to a call. */
export type HostOutcome = CallOutcome;

/** The part of a tool host the HTTP layer uses (`lib/host.ts` `Host` fits it). */
export interface DaemonHost {
  /** The tools `agent` sees. */
  list(agent?: string, parentAgent?: string): ListedTool[];
  /** Runs one call. */
  call(request: HostCall): Promise<HostOutcome>;
  /** Aborts every running call of a session; resolves to how many. */
  stopSession(sessionId: string): number;
  /** How many calls are running. */
  running(): number;
}

/** How the handler behaves. */
export interface HandlerOptions {
  /** The host that runs the tools. */
  host: DaemonHost;
  /** The bearer token every request must carry. */
  token: string;
  /** The largest request body accepted, in bytes (default 10 MiB). */
  maxBodyBytes?: number;
  /** Skip the loopback `Host` header check (only with `--allow-remote`). */
  allowAnyHost?: boolean;
  /** Receives one line per refused request (no token, argument or secret in it). */
  log?: (line: string) => void;
  /** Answers `/mcp` and `/mcp/<agent>` once the `Host` and token checks passed (the daemon passes its MCP handler). */
  mcp?: (request: Request, url: URL) => Promise<Response>;
}

/** How long a call runs before the handler starts watching for the caller going away. */
const WATCH_DELAY_MS = 5;

/** A running call and how its caller going away is watched. */
interface Watch {
  request: Request;
  controller: AbortController;
  since: number;
  running: boolean;
  watched?: AbortSignal;
  onAbort?: () => void;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether a `Host` header names a loopback host: `localhost`, `127.0.0.1` or
 * `[::1]`, with or without a port.
 */
export function isLoopbackHostHeader(value: string | null): boolean {
  if (value === null) return false;
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return false;
  return LOOPBACK_HOSTS.has(match[1].toLowerCase());
}

function json(status: number, body: unknown, headers?: HeadersInit): Response {
  // Setting the headers one by one costs half what a headers record does.
  const response = new Response(JSON.stringify(body) + "\n", { status });
  response.headers.set("content-type", "application/json; charset=utf-8");
  response.headers.set("cache-control", "no-store");
  if (headers) {
    for (const [key, value] of new Headers(headers)) {
      response.headers.set(key, value);
    }
  }
  return response;
}

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpError(400, "request body is not valid UTF-8");
  }
}

async function readBody(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    if (Number(declared) > limit) {
      throw new HttpError(
        413,
        `request body too large: ${declared} bytes, the limit is ${limit}`,
      );
    }
    // The server delivers exactly Content-Length bytes.
    return decodeUtf8(new Uint8Array(await request.arrayBuffer()));
  }
  if (request.body === null) return "";
  // No declared length (chunked): count the bytes as they arrive.
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new HttpError(
        413,
        `request body too large: over ${limit} bytes, the limit`,
      );
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decodeUtf8(bytes);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface CallBody {
  args: Record<string, unknown>;
  sessionId: string;
  agent: string;
  parentAgent?: string;
}

/** Checks a tool call body; throws a 400 naming the faulty field. */
function parseCallBody(text: string): CallBody {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new HttpError(
      400,
      text.trim() === ""
        ? 'request body is empty: send JSON { "args": {...}, "sessionId": "...", "agent": "..." }'
        : "request body is not valid JSON",
    );
  }
  if (!isPlainObject(data)) {
    throw new HttpError(
      400,
      'request body must be a JSON object: { "args": {...}, "sessionId": "...", "agent": "..." }',
    );
  }
  const args = data.args === undefined ? {} : data.args;
  if (!isPlainObject(args)) {
    throw new HttpError(400, '"args" must be a JSON object');
  }
  for (const field of ["sessionId", "agent"] as const) {
    const value = data[field];
    if (value === undefined) {
      throw new HttpError(400, `missing "${field}": a non-empty string`);
    }
    if (typeof value !== "string" || value === "") {
      throw new HttpError(400, `"${field}" must be a non-empty string`);
    }
  }
  const parentAgent = data.parentAgent;
  if (
    parentAgent !== undefined && parentAgent !== null &&
    (typeof parentAgent !== "string" || parentAgent === "")
  ) {
    throw new HttpError(400, '"parentAgent" must be a non-empty string');
  }
  return {
    args,
    sessionId: data.sessionId as string,
    agent: data.agent as string,
    parentAgent: typeof parentAgent === "string" ? parentAgent : undefined,
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, "malformed percent-encoding in the path");
  }
}

/**
 * The status and JSON body answering a call: `{ output }` (with the cut's
 * `truncated`, `size`, `path`, and the tool's `content` blocks when it
 * returned some), or `{ error }`.
 */
function outcomeBody(
  outcome: HostOutcome,
  name: string,
): [number, Record<string, unknown>] {
  if (outcome.ok) {
    const result: Record<string, unknown> = { output: outcome.output };
    if (outcome.truncated) {
      result.truncated = true;
      result.size = outcome.size;
      result.path = outcome.path;
    }
    if (outcome.content) result.content = outcome.content;
    return [200, result];
  }
  switch (outcome.status) {
    case "not_found":
      return [404, { error: `no tool named ${name} is loaded` }];
    case "forbidden":
      return [403, { error: outcome.error }];
    default:
      // A tool's own failure, its timeout or its abort is what the model
      // reads: 200 with `error`.
      return [200, { error: outcome.error }];
  }
}

function methodNotAllowed(allow: string): Response {
  return json(405, { error: `method not allowed: use ${allow}` }, {
    allow,
  });
}

/**
 * Builds the daemon's request handler over `options.host`. The handler
 * never throws: every failure is a JSON `{ "error": "..." }` response.
 */
export function createHandler(
  options: HandlerOptions,
): (request: Request) => Promise<Response> {
  const { host, token } = options;
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = options.log ?? (() => {});
  const authorized = bearerChecker(token);

  // Calls that run, watched for their caller going away by one ticker that
  // runs while there are calls and stops on a tick that finds none.
  const watching = new Set<Watch>();
  let ticker: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    if (watching.size === 0) {
      ticker = undefined;
      return;
    }
    ticker = setTimeout(tick, WATCH_DELAY_MS);
    const now = performance.now();
    for (const watch of watching) {
      if (watch.watched || now - watch.since < WATCH_DELAY_MS) continue;
      const signal = watch.request.signal;
      watch.watched = signal;
      watch.onAbort = () => {
        if (watch.running) {
          watch.controller.abort(new Error("the caller went away"));
        }
      };
      signal.addEventListener("abort", watch.onAbort, { once: true });
      if (signal.aborted) watch.onAbort();
    }
  };
  const startTicker = () => {
    ticker ??= setTimeout(tick, WATCH_DELAY_MS);
  };

  async function callTool(request: Request, name: string): Promise<Response> {
    const body = parseCallBody(await readBody(request, limit));
    // The caller going away aborts the call (T5). The request's signal is
    // only looked at once the call has run for WATCH_DELAY_MS: a quick call
    // never pays for it, and a signal first read after a disconnect still
    // fires. Deno (legacy behaviour) also fires it after every completed
    // response, so it only counts while the call is running. One ticker
    // serves every running call, instead of a timer per call.
    const watch: Watch = {
      request,
      controller: new AbortController(),
      since: performance.now(),
      running: true,
    };
    watching.add(watch);
    startTicker();
    let outcome: HostOutcome;
    try {
      outcome = await host.call({
        name,
        args: body.args,
        sessionId: body.sessionId,
        agent: body.agent,
        parentAgent: body.parentAgent,
        signal: watch.controller.signal,
      });
    } finally {
      watch.running = false;
      watching.delete(watch);
      watch.watched?.removeEventListener("abort", watch.onAbort!);
      // No timer outlives the last call (a server may be shut down now).
      if (watching.size === 0) {
        clearTimeout(ticker);
        ticker = undefined;
      }
    }
    const [status, result] = outcomeBody(outcome, name);
    return json(status, result);
  }

  /**
   * A call answered as server-sent events (the request accepts
   * `text/event-stream`): a `progress` event per progress report of the
   * tool, then one `result` event holding what the JSON answer would, plus
   * the `status` it would have had. The stream closing aborts the call.
   */
  async function streamCall(request: Request, name: string): Promise<Response> {
    const body = parseCallBody(await readBody(request, limit));
    const controller = new AbortController();
    const encoder = new TextEncoder();
    let sink: ReadableStreamDefaultController<Uint8Array> | undefined;
    let open = true;
    const send = (event: string, data: unknown) => {
      if (!open) return;
      try {
        sink!.enqueue(
          encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
        );
      } catch {
        open = false;
      }
    };
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => {
        sink = c;
      },
      cancel: () => {
        open = false;
        controller.abort(new Error("the caller went away"));
      },
    });
    void host.call({
      name,
      args: body.args,
      sessionId: body.sessionId,
      agent: body.agent,
      parentAgent: body.parentAgent,
      signal: controller.signal,
      onProgress: (update) => send("progress", update),
    }).then((outcome) => {
      const [status, result] = outcomeBody(outcome, name);
      send("result", { status, ...result });
      if (open) sink!.close();
      open = false;
    });
    const response = new Response(stream, { status: 200 });
    response.headers.set("content-type", "text/event-stream");
    response.headers.set("cache-control", "no-store");
    return response;
  }

  async function route(request: Request, url: URL): Promise<Response> {
    const path = url.pathname;
    const method = request.method;
    if (options.mcp && (path === "/mcp" || path.startsWith("/mcp/"))) {
      return await options.mcp(request, url);
    }
    if (path === "/beeuni/health") {
      if (method !== "GET") return methodNotAllowed("GET");
      return json(200, {
        ok: true,
        tools: host.list().length,
        running: host.running(),
      });
    }
    if (path === "/beeuni/tools" || path === "/beeuni/tools/") {
      if (method !== "GET") return methodNotAllowed("GET");
      const agent = url.searchParams.get("agent") ?? undefined;
      const parent = url.searchParams.get("parentAgent") ?? undefined;
      const tools = host.list(agent || undefined, parent || undefined).map((
        tool,
      ) => ({
        name: tool.name,
        description: tool.description,
        parameters: tool.parameters,
      }));
      return json(200, { tools });
    }
    const toolMatch = /^\/beeuni\/tools\/([^/]+)$/.exec(path);
    if (toolMatch) {
      if (method !== "POST") return methodNotAllowed("POST");
      const name = decodeSegment(toolMatch[1]);
      return request.headers.get("accept")?.includes("text/event-stream")
        ? await streamCall(request, name)
        : await callTool(request, name);
    }
    const stopMatch = /^\/beeuni\/sessions\/([^/]+)\/stop$/.exec(path);
    if (stopMatch) {
      if (method !== "POST") return methodNotAllowed("POST");
      const sessionId = decodeSegment(stopMatch[1]);
      return json(200, { stopped: host.stopSession(sessionId) });
    }
    return json(404, { error: `no route for ${method} ${path}` });
  }

  return async function handle(request: Request): Promise<Response> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return json(400, { error: "malformed request URL" });
    }
    const where = `${request.method} ${url.pathname}`;
    if (
      !options.allowAnyHost &&
      !isLoopbackHostHeader(request.headers.get("host"))
    ) {
      log(`[http] 421 ${where}: Host header is not a loopback name`);
      return json(421, {
        error:
          "the Host header must be localhost, 127.0.0.1 or [::1]: this daemon only answers loopback requests",
      });
    }
    if (!authorized(request.headers.get("authorization"))) {
      log(`[http] 401 ${where}: missing or wrong bearer token`);
      return json(
        401,
        {
          error:
            "missing or wrong bearer token: send Authorization: Bearer <token> (the daemon printed its token file's path)",
        },
        { "www-authenticate": 'Bearer realm="beeuni"' },
      );
    }
    try {
      return await route(request, url);
    } catch (error) {
      if (error instanceof HttpError) {
        log(`[http] ${error.status} ${where}: ${error.message}`);
        return json(error.status, { error: error.message });
      }
      const message = error instanceof Error ? error.message : String(error);
      log(`[http] 500 ${where}: ${message}`);
      return json(500, { error: `internal error: ${message}` });
    }
  };
}
