// The Deno adapter's server: Deno's own HTTP server (the one behind
// `Deno.serve`) on connections this module accepts itself, behind the
// connection guard. `Deno.serve` accepts its connections out of reach: a
// program sees a connection only once a request arrives on it, and its
// accept loop ends for good the first time the process runs out of file
// descriptors. So the listener is ours: each accepted connection is counted
// by the guard, then handed to Deno's server for that one connection, which
// the guard can close whenever no request is in progress on it.

import type { Handler, ServeOptions, Server } from "./types.ts";
import {
  type ConnectionGuard,
  connectionGuard,
  type GuardedSocket,
  resolveLimits,
} from "./_conn_guard.ts";

/** Deno's HTTP server on one connection. */
interface ConnectionServer {
  /** Settles once the connection has ended. */
  finished: Promise<void>;
  /**
   * Closes the connection as soon as no request is in progress on it (at
   * once when none is); settles once it has closed.
   */
  shutdown(): Promise<void>;
}

/** A request handler as Deno's server calls it. */
type ConnectionHandler = (
  request: Request,
  info: Deno.ServeHandlerInfo,
) => Response | Promise<Response>;

/** Serves one accepted connection with Deno's HTTP server. */
type ServeOnConnection = (
  connection: Deno.Conn,
  signal: AbortSignal | undefined,
  handler: ConnectionHandler,
  onError: (error: unknown) => Response,
  onListen: () => void,
) => ConnectionServer;

/**
 * Deno's HTTP server for one connection, what `Deno.serve` runs on each
 * connection it accepts. Deno has it as an internal, not in its public API
 * (Deno 2.9 has it); `undefined` where this Deno does not.
 */
function serveOnConnection(): ServeOnConnection | undefined {
  const deno = Deno as unknown as { internal?: unknown };
  if (typeof deno.internal !== "symbol") return undefined;
  const internals = (Deno as unknown as Record<symbol, unknown>)[
    deno.internal
  ] as { serveHttpOnConnection?: unknown } | undefined;
  const serve = internals?.serveHttpOnConnection;
  return typeof serve === "function" ? serve as ServeOnConnection : undefined;
}

const INTERNAL_ERROR = '{"error":"internal error"}\n';

function internalError(): Response {
  return new Response(INTERNAL_ERROR, {
    status: 500,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

/** How long the listener waits after an accept failed (out of file descriptors). */
const ACCEPT_RETRY_MS = 20;

/** Whether a failed accept concerned only the connection being accepted. */
function connectionGone(error: unknown): boolean {
  return error instanceof Deno.errors.ConnectionAborted ||
    error instanceof Deno.errors.ConnectionReset;
}

/**
 * `handler` with a `Keep-Alive: timeout=<s>` header on its responses, so
 * that clients that read it (Node.js's `fetch`) stop reusing a connection
 * before the idle timeout closes it.
 */
function withKeepAlive(handler: Handler, idleTimeoutMs: number): Handler {
  const keepAlive = `timeout=${Math.floor(idleTimeoutMs / 1000)}`;
  const tell = (response: Response) => {
    try {
      response.headers.set("keep-alive", keepAlive);
    } catch {
      // Headers that cannot change (a redirect) go as they are.
    }
    return response;
  };
  return (request) => {
    const response = handler(request);
    return response instanceof Response ? tell(response) : response.then(tell);
  };
}

/**
 * Hands `conn` to Deno's server for it, under `guard`, each request to
 * `respond`; resolves once the connection has ended, or is `undefined` when
 * the guard refused it.
 */
function serveConnection(
  conn: Deno.Conn,
  serveOn: ServeOnConnection,
  guard: ConnectionGuard,
  respond: Handler,
): Promise<void> | undefined {
  // Before Deno's server has the connection, closing it is ours to do.
  let close = () => {
    try {
      conn.close();
    } catch {
      // Already closed.
    }
  };
  const socket: GuardedSocket = { destroy: () => close() };
  if (!guard.opened(socket)) return undefined;
  const requestEnded = () => guard.requestEnded(socket);
  let server: ConnectionServer;
  try {
    server = serveOn(
      conn,
      undefined,
      (request, info) => {
        guard.requestStarted(socket);
        info.completed.then(requestEnded, requestEnded);
        return respond(request);
      },
      internalError,
      () => {},
    );
  } catch {
    // Gone before it could be served (reset by its client).
    guard.closed(socket);
    close();
    return undefined;
  }
  // The guard closes only waiting connections (and busy ones once their
  // requests end, when the server shuts down), so a graceful close is as
  // quick as an abort, and safe: Deno's abort of a connection that has just
  // ended throws where nothing can catch it.
  close = () => void server.shutdown().catch(() => {});
  return server.finished.catch(() => {}).then(() => guard.closed(socket));
}

/** Accepts connections on `listener`, each to `onConnection`, until it closes. */
async function acceptAll(
  listener: Deno.Listener,
  onConnection: (conn: Deno.Conn) => void,
): Promise<void> {
  while (true) {
    let conn: Deno.Conn;
    try {
      conn = await listener.accept();
    } catch (error) {
      if (
        error instanceof Deno.errors.BadResource ||
        error instanceof Deno.errors.Interrupted
      ) return;
      // Out of file descriptors (the connection waits in the queue), or a
      // connection gone before it was accepted: the listener goes on.
      if (!connectionGone(error)) {
        await new Promise((resolve) => setTimeout(resolve, ACCEPT_RETRY_MS));
      }
      continue;
    }
    onConnection(conn);
  }
}

/**
 * Serves `handler` on `options.hostname:options.port` within
 * `options.limits` with Deno's HTTP server, or with Deno's `node:http`
 * where this Deno cannot hand that server a connection.
 */
export async function serveDeno(
  options: ServeOptions,
  handler: Handler,
): Promise<Server> {
  const serveOn = serveOnConnection();
  if (!serveOn) {
    return (await import("./_node_http.ts")).serveNodeHttp(options, handler);
  }
  const limits = resolveLimits(options.limits);
  const guard = connectionGuard(limits);
  const respond = withKeepAlive(handler, limits.idleTimeoutMs);
  const listener = Deno.listen({
    transport: "tcp",
    hostname: options.hostname,
    port: options.port,
  });
  const open = new Set<Promise<void>>();
  const accepting = acceptAll(listener, (conn) => {
    const ended = serveConnection(conn, serveOn, guard, respond);
    if (!ended) return;
    open.add(ended);
    ended.then(() => open.delete(ended));
  });
  const finished = accepting.then(async () => {
    while (open.size > 0) await Promise.all(open);
  });
  let closing = false;
  return {
    hostname: listener.addr.hostname,
    port: listener.addr.port,
    limits,
    shutdown() {
      if (!closing) {
        closing = true;
        listener.close();
        guard.close();
      }
      return finished;
    },
    finished,
  };
}
