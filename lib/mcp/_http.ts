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
 * What HTTP alone has lives here (headers, statuses, event streams, a
 * client going away); sessions, subscriptions, batches and `list_changed`
 * are the core's ({@linkcode McpCore}), shared with stdio. The bearer token
 * and the loopback `Host` check are the daemon handler's, which delegates
 * `/mcp` paths here.
 *
 * @module
 */

import type { StreamPool } from "../common/mod.ts";
import type { Principal } from "../http/mod.ts";
import {
  classify,
  errorResponse,
  type Incoming,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  type RpcNotification,
  type RpcRequest,
  type RpcResponse,
  SESSION_NOT_FOUND,
  TRANSPORT_ERROR,
} from "./_jsonrpc.ts";
import {
  hasEnvelope,
  isModernVersion,
  LEGACY_VERSIONS,
  progressTokenOf,
} from "./_protocol.ts";
import type { McpHost, Peer } from "./_server.ts";
import { McpCore, type Session } from "./_core.ts";
import { SseStream } from "./_sse.ts";
import { CallWatcher } from "./_call_watch.ts";
import {
  accepted,
  acceptsSse,
  agentOf,
  checkHeaders,
  checkModernHeaders,
  checkOrigin,
  checkPostHeaders,
  json,
  readJson,
  Refusal,
  refuse,
} from "./_http_checks.ts";

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
  /**
   * Answers a request whose path is `/mcp` or `/mcp/<agent>`, made as
   * `principal` (the daemon's token when absent: every agent); never
   * rejects.
   */
  handle(request: Request, url: URL, principal?: Principal): Promise<Response>;
  /** Ends every stream and session and stops listening to the host. */
  close(): Promise<void>;
}

/**
 * Builds the `/mcp` handler over `options.host`. It subscribes to the
 * host's reloads to send `notifications/tools/list_changed` to clients
 * whose tool list changed.
 *
 * @returns The handler of `/mcp` and `/mcp/<agent>`, to close with the server.
 */
export function createMcpHttp(options: McpHttpOptions): McpHttp {
  const transport = new HttpTransport(options);
  return {
    handle: (request, url, principal) =>
      transport.handle(request, url, principal),
    close: () => Promise.resolve(transport.close()),
  };
}

/** A stream that also carries its answer's body (a server-sent events response). */
type OpenSse = (onClose: () => void) => SseStream;

/** Streamable HTTP over one {@linkcode McpCore}. */
class HttpTransport {
  #core: McpCore;
  #limit: number;
  #sameOrigin: boolean;
  #openSse: OpenSse;
  #watcher = new CallWatcher();

  constructor(options: McpHttpOptions) {
    this.#core = new McpCore(options);
    this.#limit = options.maxBodyBytes ?? 10 * 1024 * 1024;
    this.#sameOrigin = options.allowSameOrigin ?? false;
    const keepAliveMs = options.keepAliveMs ?? 25_000;
    this.#openSse = (onClose) => new SseStream({ keepAliveMs, onClose });
  }

  async handle(
    request: Request,
    url: URL,
    principal: Principal | undefined,
  ): Promise<Response> {
    try {
      if (this.#core.closed) {
        refuse(
          503,
          TRANSPORT_ERROR,
          "Service Unavailable: the server is stopping",
        );
      }
      checkHeaders(request);
      const agent = agentOf(url.pathname, principal);
      checkOrigin(request, this.#sameOrigin);
      switch (request.method) {
        case "POST":
          return await this.#post(request, agent);
        case "GET":
          return this.#get(request, agent);
        case "DELETE":
          return this.#delete(request, agent);
      }
      return refuse(
        405,
        TRANSPORT_ERROR,
        `Method Not Allowed: use POST, GET or DELETE`,
        null,
        { allow: "GET, POST, DELETE" },
      );
    } catch (error) {
      return this.#failed(error, `${request.method} ${url.pathname}`);
    }
  }

  /** The answer to a request that was refused or failed, logged with `where`. */
  #failed(error: unknown, where: string): Response {
    if (error instanceof Refusal) {
      this.#core.log(`[mcp] ${error.status} ${where}: ${error.message}`);
      return json(error.status, error.response, error.headers);
    }
    const message = error instanceof Error ? error.message : String(error);
    this.#core.log(`[mcp] 500 ${where}: ${message}`);
    return json(
      500,
      errorResponse(null, INTERNAL_ERROR, `Internal error: ${message}`),
    );
  }

  close(): void {
    this.#watcher.close();
    this.#core.close();
  }

  async #post(request: Request, agent: string): Promise<Response> {
    const types = accepted(request.headers.get("accept"));
    checkPostHeaders(request, types);
    const value = await readJson(request, this.#limit);
    if (Array.isArray(value)) return await this.#batch(request, value, agent);
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
      return await this.#modernPost(request, incoming, agent, sse);
    }
    return await this.#legacyPost(request, incoming, agent, {
      sse,
      versionHeader,
    });
  }

  async #batch(
    request: Request,
    items: unknown[],
    agent: string,
  ): Promise<Response> {
    const session = request.headers.get("mcp-session-id") === null
      ? undefined
      : this.#sessionOf(request, agent);
    const answer = await this.#core.batch(items, session);
    if ("refused" in answer) {
      throw new Refusal(400, answer.refused);
    }
    return answer.reply === undefined
      ? new Response(null, { status: 202 })
      : new Response(answer.reply, {
        headers: { "content-type": "application/json" },
      });
  }

  // The session-based revisions.

  async #legacyPost(
    request: Request,
    incoming: Incoming,
    agent: string,
    headers: { sse: boolean; versionHeader: string | null },
  ): Promise<Response> {
    if (
      incoming.kind === "request" && incoming.message.method === "initialize"
    ) {
      return this.#initialize(request, incoming.message, agent);
    }
    const session = this.#sessionOf(request, agent);
    const { sse, versionHeader } = headers;
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
      this.#core.notification(incoming.message, session);
      return new Response(null, { status: 202 });
    }
    if (incoming.kind !== "request") return new Response(null, { status: 202 });
    return await this.#respond(request, incoming.message, session, false, sse);
  }

  /** `initialize` starts a session: its id goes back in `Mcp-Session-Id`. */
  #initialize(request: Request, message: RpcRequest, agent: string): Response {
    if (request.headers.get("mcp-session-id") !== null) {
      refuse(
        400,
        INVALID_REQUEST,
        "Invalid Request: initialize starts a session and must not carry Mcp-Session-Id",
        message.id,
      );
    }
    const { version, response } = this.#core.initialize(message);
    if ("error" in response) return json(200, response);
    const session = this.#core.startSession(agent, version);
    if (session === undefined) {
      return refuse(
        503,
        TRANSPORT_ERROR,
        `Service Unavailable: ${this.#core.maxSessions} sessions are open and busy; end one with DELETE`,
      );
    }
    this.#core.log(
      `[mcp] session ${
        session.id.slice(0, 12)
      }… started: agent "${agent}", protocol ${version}`,
    );
    return json(200, response, { "mcp-session-id": session.id });
  }

  /** The session `Mcp-Session-Id` names: 400 without the header, 404 for one that ended or never existed. */
  #sessionOf(request: Request, agent: string): Session {
    const id = request.headers.get("mcp-session-id");
    if (id === null) {
      refuse(
        400,
        TRANSPORT_ERROR,
        "Bad Request: the Mcp-Session-Id header is required: send initialize first and repeat the session id it returned",
      );
    }
    const session = this.#core.session(id, agent);
    if (session === undefined) {
      refuse(
        404,
        SESSION_NOT_FOUND,
        "Session not found: it ended or never existed; start a new one with initialize",
      );
    }
    return session;
  }

  // The stateless revision.

  async #modernPost(
    request: Request,
    incoming: Incoming,
    agent: string,
    sse: boolean,
  ): Promise<Response> {
    if (incoming.kind !== "request") {
      // Without sessions a notification cannot name whose request it
      // cancels; a closed stream is what ends a stateless request.
      return new Response(null, { status: 202 });
    }
    const message = incoming.message;
    const checked = this.#core.envelope(message);
    if ("error" in checked) return json(400, checked.error);
    // Before the headers' check, which quotes the tool's name.
    const refused = this.#core.paramsProblem(message);
    if (refused !== undefined) return json(200, refused);
    checkModernHeaders(request, message, checked.version);
    const peer = this.#core.statelessPeer(agent, checked.version);
    if (message.method === "subscriptions/listen") {
      return this.#listen(message, peer, sse);
    }
    return await this.#respond(request, message, peer, true, sse);
  }

  /** A subscription: its stream is the answer's event stream; closing it ends the subscription. */
  #listen(message: RpcRequest, peer: Peer, sse: boolean): Response {
    const problem = this.#core.listenProblem(message);
    if (problem !== undefined) return json(200, problem);
    if (!sse) {
      refuse(
        406,
        TRANSPORT_ERROR,
        "Not Acceptable: subscriptions/listen answers with an event stream: accept text/event-stream",
        message.id,
      );
    }
    return this.#core.listen(message, peer, this.#openSse).response;
  }

  // Answers.

  /** Runs a request and answers it as JSON, or as an event stream when it asked for progress and the client takes one. */
  #respond(
    request: Request,
    message: RpcRequest,
    peer: Peer,
    modern: boolean,
    sse: boolean,
  ): Promise<Response> {
    const controller = new AbortController();
    if (
      sse && message.method === "tools/call" &&
      progressTokenOf(message.params) !== undefined
    ) {
      const stream = this.#openSse(() =>
        controller.abort(new Error("the client closed the stream"))
      );
      const answer = this.#core.dispatcher.request(message, peer, modern, {
        controller,
        notify: (note: RpcNotification) => stream.send(note),
      });
      return Promise.resolve(endWith(stream, answer, controller));
    }
    const answer = this.#core.dispatcher.request(message, peer, modern, {
      controller,
    });
    if (message.method !== "tools/call") return answer.then(asJson);
    return this.#watched(request, answer, controller, sse);
  }

  /**
   * The answer to a call without progress: JSON, unless it runs long and
   * the client takes an event stream, so that its client leaving is seen.
   */
  async #watched(
    request: Request,
    answer: Promise<RpcResponse>,
    controller: AbortController,
    sse: boolean,
  ): Promise<Response> {
    const watch = this.#watcher.add(request, controller);
    const first = sse
      ? await new Promise<RpcResponse | undefined>((resolve, reject) => {
        watch.toStream = () => resolve(undefined);
        answer.then(resolve, reject);
      })
      : await answer;
    if (first !== undefined) {
      this.#watcher.delete(watch);
      return json(200, first);
    }
    const stream = this.#openSse(() =>
      controller.abort(new Error("the client closed the stream"))
    );
    return endWith(
      stream,
      answer.finally(() => this.#watcher.delete(watch)),
      controller,
    );
  }

  // The session's GET stream and DELETE.

  #get(request: Request, agent: string): Response {
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
    const session = this.#sessionOf(request, agent);
    if (session.stream && !session.stream.closed) {
      refuse(
        409,
        TRANSPORT_ERROR,
        "Conflict: this session already has a GET stream open",
      );
    }
    return this.#core.openSessionStream(session, this.#openSse).response;
  }

  #delete(request: Request, agent: string): Response {
    const session = this.#sessionOf(request, agent);
    this.#core.endSession(session, "the client ended it (DELETE)");
    return new Response(null, { status: 200 });
  }
}

function asJson(response: RpcResponse): Response {
  return json(200, response);
}

/** Sends `answer` on `stream` once it comes, then ends the stream; the stream's response. */
function endWith(
  stream: SseStream,
  answer: Promise<RpcResponse>,
  controller: AbortController,
): Response {
  void answer.then((response) => {
    // A cancelled request gets no response (the stream just ends).
    if (!controller.signal.aborted) stream.send(response);
    stream.close();
  });
  return stream.response;
}
