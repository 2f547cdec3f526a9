/**
 * MCP's Streamable HTTP transport over a tool host: `POST`, `GET` and
 * `DELETE` on `/mcp` (agent `beeuni`) and `/mcp/<agent>`. Session-based
 * revisions (2025-03-26 to 2025-11-25) get `Mcp-Session-Id` sessions, a
 * `GET` stream for `list_changed`, and `DELETE`; the stateless revision
 * (2026-07-28) is served on the same endpoint, recognised by the `_meta`
 * envelope its requests carry. Answers are JSON, or a server-sent events
 * stream for a `tools/call` that asked for progress and for
 * `subscriptions/listen`.
 *
 * The bearer token and the loopback `Host` check are the daemon handler's,
 * which delegates `/mcp` paths here.
 *
 * @module
 */

import {
  BodyTextError,
  callerStringProblem,
  isLoopbackHostname,
  isPlainObject,
  readBodyText,
  StreamPool,
} from "../common/mod.ts";
import {
  classify,
  errorResponse,
  HEADER_MISMATCH,
  INVALID_PARAMS,
  INVALID_REQUEST,
  PARSE_ERROR,
  type RequestId,
  type RpcNotification,
  type RpcRequest,
  type RpcResponse,
  SESSION_NOT_FOUND,
  TRANSPORT_ERROR,
} from "./_jsonrpc.ts";
import {
  decodeNameHeader,
  hasEnvelope,
  isModernVersion,
  LEGACY_VERSIONS,
  META,
  progressTokenOf,
} from "./_protocol.ts";
import {
  checkEnvelope,
  type Exchange,
  initializeResult,
  McpDispatcher,
  type McpHost,
  newPeer,
  newSessionId,
  paramsProblem,
  type Peer,
} from "./_server.ts";
import { SseStream } from "./_sse.ts";
import { answerBatch, batchProblem } from "./_batch.ts";

/** How {@linkcode createMcpHttp} behaves. */
export interface McpHttpOptions {
  /** The host whose tools are served. */
  host: McpHost;
  /** The largest request body accepted, in bytes; default 10 MiB. */
  maxBodyBytes?: number;
  /** Receives one line per refused request and per session started or ended. */
  log?: (line: string) => void;
  /** Also accept an `Origin` whose host is the request's `Host` (a daemon listening beyond loopback). */
  allowSameOrigin?: boolean;
  /** Sessions kept at most; the least recently used idle one makes room. Default 1,000. */
  maxSessions?: number;
  /**
   * The pool that caps open event streams (`GET` streams and
   * `subscriptions/listen`), shared with the server's other event streams;
   * when it is full, the least recently used stream is closed to make
   * room. Default: a pool of 256 of their own.
   */
  streams?: StreamPool;
  /** How often an idle event stream gets a keep-alive comment, in milliseconds; default 25,000. */
  keepAliveMs?: number;
}

/** The `/mcp` part of a daemon. */
export interface McpHttp {
  /** Answers a request whose path is `/mcp` or `/mcp/<agent>`; never rejects. */
  handle(request: Request, url: URL): Promise<Response>;
  /** Ends every stream and session and stops listening to the host. */
  close(): Promise<void>;
}

interface Session extends Peer {
  id: string;
  stream?: SseStream;
  lastUsed: number;
}

interface Listen {
  id: RequestId;
  agent: string;
  stream: SseStream;
  listKey: string;
  /** Whether it asked for `toolsListChanged`. */
  tools: boolean;
  /** When it opened (`performance.now()`). */
  since: number;
}

/** Ends a subscription gracefully: a result for its listen request, then the end of its stream. */
function endListen(entry: Listen): void {
  entry.stream.send({
    jsonrpc: "2.0",
    id: entry.id,
    result: {
      resultType: "complete",
      _meta: { [META.subscriptionId]: entry.id },
    },
  });
  entry.stream.close();
}

/** An HTTP refusal carrying a JSON-RPC error body. */
class Refusal extends Error {
  status: number;
  response: RpcResponse;
  headers: Record<string, string>;

  constructor(
    status: number,
    response: RpcResponse,
    headers: Record<string, string> = {},
  ) {
    super("error" in response ? response.error.message : "refused");
    this.status = status;
    this.response = response;
    this.headers = headers;
  }
}

function refuse(
  status: number,
  code: number,
  message: string,
  id: RequestId | null = null,
  headers?: Record<string, string>,
): never {
  throw new Refusal(status, errorResponse(id, code, message), headers);
}

function json(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): Response {
  // Response.json costs less than a Response with its header set by hand.
  const response = status === 200
    ? Response.json(body)
    : Response.json(body, { status });
  if (headers) {
    for (const [key, value] of Object.entries(headers)) {
      response.headers.set(key, value);
    }
  }
  return response;
}

/** Whether a browser `Origin` may use this server: a loopback origin, or (when allowed) the server's own. */
function originAllowed(
  origin: string,
  request: Request,
  sameOrigin: boolean,
): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (isLoopbackHostname(url.hostname)) return true;
  return sameOrigin && url.host === request.headers.get("host");
}

/**
 * The agent a path names: `beeuni` for `/mcp`, the decoded segment of
 * `/mcp/<agent>`; `undefined` for a path that names none. A name over the
 * caller-string limit is refused (400).
 */
function agentOf(path: string): string | undefined {
  if (path === "/mcp" || path === "/mcp/") return "beeuni";
  const match = /^\/mcp\/([^/]+)\/?$/.exec(path);
  if (!match) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f\x7f/]/.test(name)) return undefined;
  checkLength("the agent in the path", name);
  return name;
}

/** Refuses (400) a caller string over the length limit; `what` names it. */
function checkLength(what: string, value: string): void {
  const problem = callerStringProblem(what, value);
  if (problem !== undefined) {
    refuse(400, TRANSPORT_ERROR, `Bad Request: ${problem}`);
  }
}

/** The MCP headers a client names things with: each is a caller string. */
const NAMING_HEADERS = [
  "Mcp-Session-Id",
  "MCP-Protocol-Version",
  "Mcp-Method",
  "Mcp-Name",
];

/** Refuses (400) a request whose MCP header is over the length limit. */
function checkHeaders(request: Request): void {
  for (const name of NAMING_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) checkLength(`the ${name} header`, value);
  }
}

/** An `Accept` header in lower case, or "" when absent. */
function accepted(header: string | null): string {
  return header === null ? "" : header.toLowerCase();
}

function acceptsJson(accept: string): boolean {
  return accept.includes("application/json") ||
    accept.includes("application/*") || accept.includes("*/*");
}

function acceptsSse(accept: string): boolean {
  return accept.includes("text/event-stream") || accept.includes("text/*") ||
    accept.includes("*/*");
}

function isJsonContentType(header: string | null): boolean {
  return header !== null &&
    header.split(";")[0].trim().toLowerCase() === "application/json";
}

/** The body as text: over `limit` bytes a 413, not UTF-8 a parse error. */
async function readBody(request: Request, limit: number): Promise<string> {
  try {
    return await readBodyText(request, limit);
  } catch (error) {
    if (!(error instanceof BodyTextError)) throw error;
    return error.status === 413
      ? refuse(413, TRANSPORT_ERROR, error.message)
      : refuse(400, PARSE_ERROR, `Parse error: ${error.message}`);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return refuse(
      400,
      PARSE_ERROR,
      text.trim() === ""
        ? "Parse error: the body is empty"
        : "Parse error: the body is not valid JSON",
    );
  }
}

/** How long a call runs before its caller going away is watched (reading a request's signal has a cost a quick call should not pay). */
const WATCH_DELAY_MS = 5;

/**
 * How long a call runs before its answer becomes an event stream (when the
 * client takes one). A client leaving is then seen as the stream closing:
 * Deno does not always fire a request's signal when a client drops a
 * request that has no response yet.
 */
const STREAM_AFTER_MS = 100;

/** A running call answered as JSON so far, watched by one shared ticker. */
interface Watch {
  request: Request;
  controller: AbortController;
  since: number;
  wired: boolean;
  /** Turns the answer into an event stream; cleared once done. */
  toStream?: () => void;
}

/**
 * Builds the `/mcp` handler over `options.host`. It subscribes to the
 * host's reloads to send `notifications/tools/list_changed` to clients
 * whose tool list changed.
 */
export function createMcpHttp(options: McpHttpOptions): McpHttp {
  const host = options.host;
  const dispatcher = new McpDispatcher(host);
  const limit = options.maxBodyBytes ?? 10 * 1024 * 1024;
  const log = options.log ?? (() => {});
  const maxSessions = options.maxSessions ?? 1000;
  const streams = options.streams ?? new StreamPool(256);
  const keepAliveMs = options.keepAliveMs ?? 25_000;
  const sessions = new Map<string, Session>();
  const listens = new Set<Listen>();
  // Calls still running, watched for the client leaving and for running
  // long enough to stream their answer.
  const watched = new Set<Watch>();
  let ticker: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const tick = () => {
    ticker = undefined;
    const now = performance.now();
    for (const entry of watched) {
      const age = now - entry.since;
      if (!entry.wired && age >= WATCH_DELAY_MS) {
        entry.wired = true;
        const signal = entry.request.signal;
        const abort = () =>
          entry.controller.abort(new Error("the client went away"));
        if (signal.aborted) abort();
        else signal.addEventListener("abort", abort, { once: true });
      }
      if (entry.toStream && age >= STREAM_AFTER_MS) {
        entry.toStream();
        entry.toStream = undefined;
      }
      if (entry.wired && !entry.toStream) watched.delete(entry);
    }
    if (watched.size > 0) ticker = setTimeout(tick, WATCH_DELAY_MS);
  };

  function onReload(): void {
    const keys = new Map<string, string>();
    const keyOf = (agent: string) => {
      let key = keys.get(agent);
      if (key === undefined) keys.set(agent, key = dispatcher.listKey(agent));
      return key;
    };
    const changed = {
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
    };
    for (const session of sessions.values()) {
      if (!session.stream || session.stream.closed) continue;
      const key = keyOf(session.agent);
      if (key !== session.listKey) session.stream.send(changed);
      session.listKey = key;
    }
    for (const listen of listens) {
      if (!listen.tools) continue;
      const key = keyOf(listen.agent);
      if (key === listen.listKey) continue;
      listen.listKey = key;
      listen.stream.send({
        ...changed,
        params: { _meta: { [META.subscriptionId]: listen.id } },
      });
    }
  }
  const unsubscribe = host.subscribe?.((event) => {
    if (event.type === "reload" && event.ok && event.changed && !closed) {
      onReload();
    }
  });

  function endSession(session: Session, why: string): void {
    sessions.delete(session.id);
    for (const controller of session.inflight.values()) {
      controller.abort(new Error(why));
    }
    session.stream?.close();
    log(`[mcp] session ${session.id.slice(0, 12)}… ended: ${why}`);
  }

  function startSession(agent: string, version: string): Session {
    if (sessions.size >= maxSessions) {
      let oldest: Session | undefined;
      for (const session of sessions.values()) {
        const idle = session.inflight.size === 0 &&
          (!session.stream || session.stream.closed);
        if (idle && (!oldest || session.lastUsed < oldest.lastUsed)) {
          oldest = session;
        }
      }
      if (!oldest) {
        refuse(
          503,
          TRANSPORT_ERROR,
          `Service Unavailable: ${maxSessions} sessions are open and busy; end one with DELETE`,
        );
      }
      endSession(oldest, "the least recently used session made room");
    }
    const session: Session = {
      ...newPeer(agent, version, newSessionId()),
      id: "",
      lastUsed: performance.now(),
    };
    session.id = session.sessionId!;
    sessions.set(session.id, session);
    log(
      `[mcp] session ${
        session.id.slice(0, 12)
      }… started: agent "${agent}", protocol ${version}`,
    );
    return session;
  }

  function sessionOf(request: Request, agent: string): Session {
    const id = request.headers.get("mcp-session-id");
    if (id === null) {
      refuse(
        400,
        TRANSPORT_ERROR,
        "Bad Request: the Mcp-Session-Id header is required: send initialize first and repeat the session id it returned",
      );
    }
    const session = sessions.get(id);
    if (!session || session.agent !== agent) {
      refuse(
        404,
        SESSION_NOT_FOUND,
        "Session not found: it ended or never existed; start a new one with initialize",
      );
    }
    session.lastUsed = performance.now();
    return session;
  }

  /** Runs a request and answers it as JSON, or as an event stream when it asked for progress and the client takes one. */
  async function respond(
    request: Request,
    message: RpcRequest,
    peer: Peer,
    modern: boolean,
    sse: boolean,
  ): Promise<Response> {
    const controller = new AbortController();
    const streamed = sse && message.method === "tools/call" &&
      progressTokenOf(message.params) !== undefined;
    if (streamed) {
      const stream = new SseStream({
        onClose: () =>
          controller.abort(new Error("the client closed the stream")),
      });
      const exchange: Exchange = {
        controller,
        notify: (note: RpcNotification) => stream.send(note),
      };
      void dispatcher.request(message, peer, modern, exchange).then(
        (response) => {
          // A cancelled request gets no response (the stream just ends).
          if (!controller.signal.aborted) stream.send(response);
          stream.close();
        },
      );
      return stream.response;
    }
    const answer = dispatcher.request(message, peer, modern, { controller });
    if (message.method !== "tools/call") return json(200, await answer);
    const watch: Watch = {
      request,
      controller,
      since: performance.now(),
      wired: false,
    };
    // A call that runs long answers as an event stream (when the client
    // takes one), so that its client leaving is seen.
    // The ticker stops itself once nothing is watched: no timer per call.
    watched.add(watch);
    ticker ??= setTimeout(tick, WATCH_DELAY_MS);
    const first = sse
      ? await new Promise<RpcResponse | undefined>((resolve, reject) => {
        watch.toStream = () => resolve(undefined);
        answer.then(resolve, reject);
      })
      : await answer;
    if (first !== undefined) {
      watched.delete(watch);
      return json(200, first);
    }
    const done = answer.finally(() => watched.delete(watch));
    const stream = new SseStream({
      keepAliveMs,
      onClose: () =>
        controller.abort(new Error("the client closed the stream")),
    });
    void done.then((response) => {
      // A cancelled request gets no response (the stream just ends).
      if (!controller.signal.aborted) stream.send(response);
      stream.close();
    });
    return stream.response;
  }

  async function legacyPost(
    request: Request,
    incoming: ReturnType<typeof classify>,
    agent: string,
    sse: boolean,
    versionHeader: string | null,
  ): Promise<Response> {
    if (
      incoming.kind === "request" && incoming.message.method === "initialize"
    ) {
      if (request.headers.get("mcp-session-id") !== null) {
        refuse(
          400,
          INVALID_REQUEST,
          "Invalid Request: initialize starts a session and must not carry Mcp-Session-Id",
          incoming.message.id,
        );
      }
      const { version, response } = initializeResult(incoming.message);
      if ("error" in response) return json(200, response);
      const session = startSession(agent, version);
      return json(200, response, { "mcp-session-id": session.id });
    }
    const session = sessionOf(request, agent);
    if (versionHeader !== null && !LEGACY_VERSIONS.includes(versionHeader)) {
      refuse(
        400,
        TRANSPORT_ERROR,
        `Bad Request: unsupported MCP-Protocol-Version "${versionHeader}" (supported: ${
          LEGACY_VERSIONS.join(", ")
        })`,
        incoming.kind === "request" ? incoming.message.id : null,
      );
    }
    if (incoming.kind === "notification") {
      dispatcher.notification(incoming.message, session);
      return new Response(null, { status: 202 });
    }
    if (incoming.kind !== "request") return new Response(null, { status: 202 });
    return await respond(request, incoming.message, session, false, sse);
  }

  function checkModernHeaders(
    request: Request,
    message: RpcRequest,
    version: string,
  ): void {
    const mismatch = (detail: string) =>
      refuse(
        400,
        HEADER_MISMATCH,
        `Bad Request: the request headers and body disagree: ${detail}`,
        message.id,
      );
    const versionHeader = request.headers.get("mcp-protocol-version");
    if (versionHeader === null) {
      mismatch("the MCP-Protocol-Version header is missing");
    } else if (versionHeader.trim() !== version) {
      mismatch(
        `MCP-Protocol-Version is "${versionHeader}" but the body names ${version}`,
      );
    }
    const method = request.headers.get("mcp-method");
    if (method === null) mismatch("the Mcp-Method header is missing");
    else if (method.trim() !== message.method) {
      mismatch(
        `Mcp-Method is "${method}" but the body's method is "${message.method}"`,
      );
    }
    const name = message.params?.name;
    if (message.method === "tools/call" && typeof name === "string") {
      const header = request.headers.get("mcp-name");
      if (header === null) mismatch("the Mcp-Name header is missing");
      else if (decodeNameHeader(header) !== name) {
        mismatch(`Mcp-Name does not name the tool "${name}"`);
      }
    }
  }

  function listen(
    message: RpcRequest,
    agent: string,
    sse: boolean,
    version: string,
  ): Response {
    const filter = message.params?.notifications;
    if (!isPlainObject(filter)) {
      return json(
        200,
        errorResponse(
          message.id,
          INVALID_PARAMS,
          'Invalid params: "notifications" must be an object',
        ),
      );
    }
    if (!sse) {
      refuse(
        406,
        TRANSPORT_ERROR,
        "Not Acceptable: subscriptions/listen answers with an event stream: accept text/event-stream",
        message.id,
      );
    }
    const honored: Record<string, boolean> = {};
    if ((filter as Record<string, unknown>).toolsListChanged === true) {
      honored.toolsListChanged = true;
    }
    const release = streams.admit({
      lastUsed: () => entry.since,
      evict: () => {
        log(
          `[mcp] subscription of agent "${agent}" closed to make room: ${streams.max} event streams are open`,
        );
        endListen(entry);
      },
    });
    const entry: Listen = {
      id: message.id,
      agent,
      tools: honored.toolsListChanged === true,
      listKey: dispatcher.listKey(agent),
      since: performance.now(),
      stream: new SseStream({
        keepAliveMs,
        onClose: () => {
          release();
          listens.delete(entry);
          log(`[mcp] subscription of agent "${agent}" ended`);
        },
      }),
    };
    listens.add(entry);
    log(
      `[mcp] subscription started: agent "${agent}", protocol ${version}, ${
        entry.tools ? "tools/list_changed" : "no notifications"
      }`,
    );
    entry.stream.send({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: {
        notifications: honored,
        _meta: { [META.subscriptionId]: message.id },
      },
    });
    return entry.stream.response;
  }

  async function modernPost(
    request: Request,
    incoming: ReturnType<typeof classify>,
    agent: string,
    sse: boolean,
  ): Promise<Response> {
    if (incoming.kind !== "request") {
      // Without sessions a notification cannot name whose request it
      // cancels; a closed stream is what ends a stateless request.
      return new Response(null, { status: 202 });
    }
    const message = incoming.message;
    const checked = checkEnvelope(message);
    if ("error" in checked) return json(400, checked.error);
    // Before the headers' check, which quotes the tool's name.
    const refused = paramsProblem(message);
    if (refused !== undefined) return json(200, refused);
    checkModernHeaders(request, message, checked.version);
    if (message.method === "subscriptions/listen") {
      return listen(message, agent, sse, checked.version);
    }
    return await respond(
      request,
      message,
      newPeer(agent, checked.version),
      true,
      sse,
    );
  }

  async function batch(
    request: Request,
    items: unknown[],
    agent: string,
  ): Promise<Response> {
    const problem = batchProblem(items);
    if (problem !== undefined) refuse(400, INVALID_REQUEST, problem);
    const session = request.headers.get("mcp-session-id") === null
      ? undefined
      : sessionOf(request, agent);
    if (!session || session.version !== "2025-03-26") {
      refuse(
        400,
        INVALID_REQUEST,
        "Invalid Request: JSON-RPC batches are accepted only in a session using protocol version 2025-03-26; send one message per request",
      );
    }
    const reply = await answerBatch(items, {
      notification: (message) => dispatcher.notification(message, session),
      request: (message) =>
        dispatcher.request(message, session, false, {
          controller: new AbortController(),
        }),
    });
    return reply === undefined
      ? new Response(null, { status: 202 })
      : new Response(reply, {
        headers: { "content-type": "application/json" },
      });
  }

  async function post(request: Request, agent: string): Promise<Response> {
    const types = accepted(request.headers.get("accept"));
    if (!acceptsJson(types)) {
      refuse(
        406,
        TRANSPORT_ERROR,
        "Not Acceptable: the Accept header must list application/json and text/event-stream",
      );
    }
    if (!isJsonContentType(request.headers.get("content-type"))) {
      refuse(
        415,
        TRANSPORT_ERROR,
        "Unsupported Media Type: Content-Type must be application/json",
      );
    }
    const value = parseJson(await readBody(request, limit));
    if (Array.isArray(value)) return await batch(request, value, agent);
    const incoming = classify(value);
    if (incoming.kind === "invalid") return json(400, incoming.response);
    const sse = acceptsSse(types);
    const params = incoming.kind === "response"
      ? undefined
      : incoming.message.params;
    const versionHeader = request.headers.get("mcp-protocol-version");
    if (
      hasEnvelope(params) ||
      (versionHeader !== null && isModernVersion(versionHeader.trim()))
    ) {
      return await modernPost(request, incoming, agent, sse);
    }
    return await legacyPost(request, incoming, agent, sse, versionHeader);
  }

  function get(request: Request, agent: string): Response {
    const version = request.headers.get("mcp-protocol-version");
    if (version !== null && isModernVersion(version.trim())) {
      refuse(
        405,
        TRANSPORT_ERROR,
        "Method Not Allowed: protocol version 2026-07-28 has no GET stream; use subscriptions/listen",
        null,
        { allow: "POST" },
      );
    }
    if (!acceptsSse(accepted(request.headers.get("accept")))) {
      refuse(
        406,
        TRANSPORT_ERROR,
        "Not Acceptable: the Accept header must list text/event-stream",
      );
    }
    const session = sessionOf(request, agent);
    if (session.stream && !session.stream.closed) {
      refuse(
        409,
        TRANSPORT_ERROR,
        "Conflict: this session already has a GET stream open",
      );
    }
    session.listKey ??= dispatcher.listKey(agent);
    // The stream of a session whose client has been quiet longest makes
    // room when the pool is full; the session goes on.
    const release = streams.admit({
      lastUsed: () => session.lastUsed,
      evict: () => {
        log(
          `[mcp] GET stream of session ${
            session.id.slice(0, 12)
          }… closed to make room: ${streams.max} event streams are open`,
        );
        stream.close();
      },
    });
    const stream: SseStream = new SseStream({
      keepAliveMs,
      onClose: () => {
        release();
        if (session.stream === stream) session.stream = undefined;
      },
    });
    session.stream = stream;
    return stream.response;
  }

  function del(request: Request, agent: string): Response {
    const session = sessionOf(request, agent);
    endSession(session, "the client ended it (DELETE)");
    return new Response(null, { status: 200 });
  }

  return {
    async handle(request: Request, url: URL): Promise<Response> {
      const where = `${request.method} ${url.pathname}`;
      try {
        if (closed) {
          refuse(
            503,
            TRANSPORT_ERROR,
            "Service Unavailable: the server is stopping",
          );
        }
        checkHeaders(request);
        const agent = agentOf(url.pathname);
        if (agent === undefined) {
          refuse(
            404,
            TRANSPORT_ERROR,
            "Not Found: MCP is served at /mcp (agent beeuni) and /mcp/<agent>",
          );
        }
        const origin = request.headers.get("origin");
        if (
          origin !== null &&
          !originAllowed(origin, request, options.allowSameOrigin ?? false)
        ) {
          refuse(
            403,
            TRANSPORT_ERROR,
            `Forbidden: Origin "${
              origin.slice(0, 200)
            }" is not allowed: only loopback pages may call this server`,
          );
        }
        switch (request.method) {
          case "POST":
            return await post(request, agent);
          case "GET":
            return get(request, agent);
          case "DELETE":
            return del(request, agent);
          default:
            refuse(
              405,
              TRANSPORT_ERROR,
              `Method Not Allowed: use POST, GET or DELETE`,
              null,
              { allow: "GET, POST, DELETE" },
            );
        }
      } catch (error) {
        if (error instanceof Refusal) {
          log(`[mcp] ${error.status} ${where}: ${error.message}`);
          return json(error.status, error.response, error.headers);
        }
        const message = error instanceof Error ? error.message : String(error);
        log(`[mcp] 500 ${where}: ${message}`);
        return json(
          500,
          errorResponse(null, -32603, `Internal error: ${message}`),
        );
      }
    },
    close(): Promise<void> {
      if (closed) return Promise.resolve();
      closed = true;
      unsubscribe?.();
      clearTimeout(ticker);
      for (const session of [...sessions.values()]) {
        endSession(session, "the server is stopping");
      }
      // A result for the listen request is the graceful end of a subscription.
      for (const entry of [...listens]) endListen(entry);
      listens.clear();
      return Promise.resolve();
    },
  };
}
