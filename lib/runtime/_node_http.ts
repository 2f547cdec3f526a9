// The server of the Node.js and Bun adapters (and of a Deno that cannot
// hand its own HTTP server a connection, see _deno_serve.ts): `node:http`
// serving web `Request`/`Response` handlers, behind the connection guard.
// Bun.serve gives a program no hold on a connection before its request
// arrives, so it can neither cap connections nor close an idle one;
// `node:http` hands over each socket as it is accepted.

import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from "node:http";
import type { Socket } from "node:net";
import { Buffer } from "node:buffer";
import type { Handler, ServeOptions, Server } from "./types.ts";
import {
  type ConnectionGuard,
  connectionGuard,
  resolveLimits,
} from "./_conn_guard.ts";

/**
 * The request body as a web stream that reads `incoming` only as fast as
 * it is consumed (cheaper than `Readable.toWeb`).
 */
function bodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.on("data", (chunk: Buffer) => {
        controller.enqueue(
          new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength),
        );
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      });
      incoming.once("end", () => controller.close());
      incoming.once("error", (error) => controller.error(error));
      incoming.pause();
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      incoming.destroy();
    },
  });
}

/** A body that has fully arrived, taken from `incoming`'s buffer. */
function receivedBody(incoming: IncomingMessage): Uint8Array<ArrayBuffer> {
  const chunks: Buffer[] = [];
  let chunk: Buffer | null;
  while ((chunk = incoming.read()) !== null) chunks.push(chunk);
  const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  return body as Uint8Array<ArrayBuffer>;
}

/** Every header of `incoming` that the web `Headers` type takes. */
function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i], raw[i + 1]);
    } catch {
      // A header the web Headers type refuses is dropped.
    }
  }
  return headers;
}

function toRequest(
  incoming: IncomingMessage,
  base: string,
  signal: AbortSignal,
): Request {
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const path = incoming.url ?? "/";
  let url: string;
  if (path.startsWith("/") && !path.startsWith("//")) {
    url = base + path.slice(1);
  } else {
    try {
      url = new URL(path, base).href;
    } catch {
      url = base;
    }
  }
  const init: RequestInit & { duplex: "half" } = {
    method,
    // Node.js's parsed record is the cheap way; one refused header sends
    // the request the slow way, which drops it.
    headers: incoming.headers as Record<string, string>,
    signal,
    // A body that came with its header is handed over whole; any other is
    // streamed, so a handler can answer (401, 413) before it arrives.
    body: hasBody
      ? (incoming.complete ? receivedBody(incoming) : bodyStream(incoming))
      : null,
    // Node's fetch needs `duplex` for a streamed body.
    duplex: "half",
  };
  try {
    return new Request(url, init);
  } catch {
    return new Request(url, { ...init, headers: headersOf(incoming) });
  }
}

function nodeHeaders(response: Response): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [key, value] of response.headers) {
    const seen = headers[key];
    if (seen === undefined) headers[key] = value;
    else headers[key] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return headers;
}

const LATER = Symbol("later");
/** The largest body sent in one piece with a Content-Length. */
const WHOLE_BODY_BYTES = 1024 * 1024;

/**
 * Resolves to LATER after a few turns of the microtask queue: a body made
 * from a string or bytes gives each chunk, and its end, well within them
 * (one to four turns under Deno, Node.js and Bun), a stream that is still
 * being produced does not. A timer would cost a wake-up per response.
 */
async function soon(): Promise<typeof LATER> {
  for (let turn = 0; turn < 16; turn++) await undefined;
  return LATER;
}

/**
 * Reads what `reader` gives at once: all of a body made from a string or
 * bytes (`done` true), or the start of a stream that goes on later (an
 * event stream, a body still being produced).
 */
async function readAtOnce(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<
  {
    chunks: Uint8Array[];
    done: boolean;
    pending?: Promise<ReadableStreamReadResult<Uint8Array>>;
  }
> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let pending = reader.read();
  while (size <= WHOLE_BODY_BYTES) {
    const got = await Promise.race([pending, soon()]);
    if (got === LATER) break;
    if (got.done) return { chunks, done: true };
    chunks.push(got.value);
    size += got.value.byteLength;
    pending = reader.read();
  }
  return { chunks, done: false, pending };
}

function waitForDrain(outgoing: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    outgoing.once("drain", resolve);
    outgoing.once("close", resolve);
  });
}

/**
 * Writes `response` to `outgoing`: a body known at once goes in one piece
 * with a Content-Length, any other as it comes (chunked).
 */
async function writeResponse(
  response: Response,
  outgoing: ServerResponse,
): Promise<void> {
  const headers = nodeHeaders(response);
  if (response.body === null) {
    outgoing.writeHead(response.status, headers);
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  outgoing.on("close", () => void reader.cancel().catch(() => {}));
  const start = await readAtOnce(reader);
  if (start.done) {
    const body = Buffer.concat(start.chunks);
    if (!("content-length" in headers || "transfer-encoding" in headers)) {
      headers["content-length"] = String(body.byteLength);
    }
    outgoing.writeHead(response.status, headers);
    outgoing.end(body);
    return;
  }
  outgoing.writeHead(response.status, headers);
  // A stream (server-sent events) may wait long for its first chunk: the
  // caller gets the status now, and its going away is seen.
  if (start.chunks.length === 0) outgoing.flushHeaders();
  // A body that errors (its producer gave up on a caller that does not
  // read) ends the connection, even while a write waits for the socket.
  const failed = new Promise<never>((_, reject) => {
    reader.closed.catch(reject);
  });
  failed.catch(() => {});
  try {
    for (const chunk of start.chunks) outgoing.write(chunk);
    let pending = start.pending!;
    while (!outgoing.destroyed) {
      const { done, value } = await pending;
      if (done) break;
      if (!outgoing.write(value)) {
        await Promise.race([waitForDrain(outgoing), failed]);
      }
      pending = reader.read();
    }
  } finally {
    outgoing.end();
  }
}

const INTERNAL_ERROR = '{"error":"internal error"}\n';

/** Answers one request with `handler`; the request's signal aborts when its caller goes away first. */
async function respond(
  handler: Handler,
  base: string,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  const controller = new AbortController();
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) controller.abort();
  });
  let response: Response;
  try {
    // The parser takes in what arrived with the header after this turn.
    await undefined;
    response = await handler(toRequest(incoming, base, controller.signal));
  } catch {
    response = new Response(INTERNAL_ERROR, {
      status: 500,
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  }
  await writeResponse(response, outgoing).catch(() => outgoing.destroy());
}

/** Tells `guard` about every connection of `server` and every request on it. */
function watchConnections(server: HttpServer, guard: ConnectionGuard): void {
  server.on("connection", (socket: Socket) => {
    if (guard.opened(socket)) {
      socket.once("close", () => guard.closed(socket));
    }
  });
  server.on(
    "request",
    (incoming: IncomingMessage, outgoing: ServerResponse) => {
      const socket = incoming.socket;
      guard.requestStarted(socket);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        guard.requestEnded(socket);
      };
      outgoing.once("finish", end);
      outgoing.once("close", end);
    },
  );
}

/** Serves `handler` with `node:http` on `options.hostname:options.port`, within `options.limits`. */
export function serveNodeHttp(
  options: ServeOptions,
  handler: Handler,
): Promise<Server> {
  const limits = resolveLimits(options.limits);
  const guard = connectionGuard(limits);
  return new Promise((resolve, reject) => {
    let base = "http://127.0.0.1/";
    const server = createServer();
    watchConnections(server, guard);
    server.on("request", (incoming, outgoing) => {
      void respond(handler, base, incoming, outgoing);
    });
    // Node.js closes an idle keep-alive connection itself and tells the
    // client when (Keep-Alive: timeout=N); make that the guard's deadline.
    server.keepAliveTimeout = limits.idleTimeoutMs;
    let finish: () => void;
    const finished = new Promise<void>((done) => finish = done);
    server.on("close", () => finish());
    server.once("error", reject);
    server.listen(options.port, options.hostname, () => {
      server.off("error", reject);
      // A failed accept (out of file descriptors) must not end the process.
      server.on("error", () => {});
      const address = server.address();
      const port = typeof address === "object" && address
        ? address.port
        : options.port;
      // The address it listens on, not the name it was given: a page opened
      // at `localhost` may reach another server on the other loopback
      // address (`::1` against `127.0.0.1`) at the same port first.
      const hostname = typeof address === "object" && address
        ? address.address
        : options.hostname;
      const host = hostname.includes(":") ? `[${hostname}]` : hostname;
      base = `http://${host}:${port}/`;
      resolve({
        hostname,
        port,
        limits,
        shutdown: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            guard.close();
            server.closeIdleConnections?.();
          }),
        finished,
      });
    });
  });
}
