/**
 * The MCP server whatever carries it: sessions, the subscriptions of the
 * stateless revision, `list_changed` after a reload, batches, cancellation,
 * and the bounds on what a client may make it hold (sessions, open event
 * streams, batches). Streamable HTTP and stdio are thin transports over
 * one {@linkcode McpCore}: they frame messages, check what only their
 * medium has (headers, `Origin`, lines), and give the core a
 * {@linkcode ClientStream} wherever a client gets messages that answer no
 * request of the moment.
 *
 * @module
 */

import { StreamPool } from "../common/mod.ts";
import {
  errorResponse,
  idKey,
  INVALID_PARAMS,
  INVALID_REQUEST,
  type RequestId,
  type RpcNotification,
  type RpcRequest,
  type RpcResponse,
} from "./_jsonrpc.ts";
import { META } from "./_protocol.ts";
import { answerBatch, batchProblem } from "./_batch.ts";
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

/**
 * Messages to one client that answer no request of the moment: a session's
 * `list_changed`, a subscription's notifications. HTTP gives a server-sent
 * events response; stdio gives the connection itself.
 */
export interface ClientStream {
  /** Sends one message; false once the stream has ended. */
  send(message: unknown): boolean;
  /** Ends the stream after what was sent. */
  close(): void;
  /** Whether the stream has ended. */
  readonly closed: boolean;
}

/** Opens a {@linkcode ClientStream}; `onClose` runs once, when it ends (closed by either side). */
export type OpenStream<S extends ClientStream> = (onClose: () => void) => S;

/** A client of a session-based revision: an HTTP session, or a stdio connection. */
export interface Session extends Peer {
  /** Its id (also `context.sessionId` of its calls). */
  id: string;
  /** Where its `list_changed` goes, once it has one (a `GET` stream, the stdio connection). */
  stream?: ClientStream;
  /** When a request last named it (`performance.now()`). */
  lastUsed: number;
}

/** An open `subscriptions/listen` request. */
interface Listen {
  id: RequestId;
  agent: string;
  stream: ClientStream;
  listKey: string;
  /** Whether it asked for `toolsListChanged`. */
  tools: boolean;
  /** When it opened (`performance.now()`). */
  since: number;
}

/** How {@linkcode McpCore} behaves. */
export interface McpCoreOptions {
  /** The host whose tools are served. */
  host: McpHost;
  /** Receives one line per session and subscription started or ended. */
  log?: (line: string) => void;
  /** Sessions kept at most; the least recently used idle one makes room. Default 1,000. */
  maxSessions?: number;
  /**
   * The pool that caps open event streams (`GET` streams and
   * subscriptions); when it is full, the least recently used one is closed
   * to make room. Default: a pool of 256 of their own.
   */
  streams?: StreamPool;
}

/** The only revision that takes JSON-RPC batches. */
const BATCH_VERSION = "2025-03-26";

const LIST_CHANGED = "notifications/tools/list_changed";

/** The first characters of a session id, for the log. */
function shortId(id: string): string {
  return `${id.slice(0, 12)}…`;
}

/** One MCP server over a host, shared by every transport that carries it. */
export class McpCore {
  /** Answers single requests. */
  readonly dispatcher: McpDispatcher;
  /** Receives the core's log lines. */
  readonly log: (line: string) => void;
  #maxSessions: number;
  #streams: StreamPool;
  #sessions = new Map<string, Session>();
  #listens = new Set<Listen>();
  #unsubscribe?: () => void;
  #closed = false;

  /** A core over `options.host`, told of the host's reloads to send `list_changed`. */
  constructor(options: McpCoreOptions) {
    this.dispatcher = new McpDispatcher(options.host);
    this.log = options.log ?? (() => {});
    this.#maxSessions = options.maxSessions ?? 1000;
    this.#streams = options.streams ?? new StreamPool(256);
    this.#unsubscribe = options.host.subscribe?.((event) => {
      if (event.type === "reload" && event.ok && event.changed) {
        this.#reloaded();
      }
    });
  }

  /** Whether {@linkcode McpCore.close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The most sessions kept. */
  get maxSessions(): number {
    return this.#maxSessions;
  }

  // Sessions.

  /**
   * Starts a session of `agent` speaking `version`. When the table is full
   * the least recently used idle session ends to make room; `undefined`
   * when every session is busy.
   */
  startSession(agent: string, version: string): Session | undefined {
    if (this.#sessions.size >= this.#maxSessions) {
      const idle = this.#leastRecentIdle();
      if (idle === undefined) return undefined;
      this.endSession(idle, "the least recently used session made room");
    }
    const id = newSessionId();
    const session: Session = {
      ...newPeer(agent, version, id),
      id,
      lastUsed: performance.now(),
    };
    this.#sessions.set(id, session);
    return session;
  }

  #leastRecentIdle(): Session | undefined {
    let oldest: Session | undefined;
    for (const session of this.#sessions.values()) {
      const idle = session.inflight.size === 0 &&
        (!session.stream || session.stream.closed);
      if (idle && (!oldest || session.lastUsed < oldest.lastUsed)) {
        oldest = session;
      }
    }
    return oldest;
  }

  /** The session `id` of `agent`, marked as used; `undefined` when it ended or never existed. */
  session(id: string, agent: string): Session | undefined {
    const session = this.#sessions.get(id);
    if (!session || session.agent !== agent) return undefined;
    session.lastUsed = performance.now();
    return session;
  }

  /** Ends a session: its running requests are aborted and its stream closed. */
  endSession(session: Session, why: string): void {
    if (!this.#sessions.delete(session.id)) return;
    for (const controller of session.inflight.values()) {
      controller.abort(new Error(why));
    }
    session.stream?.close();
    this.log(`[mcp] session ${shortId(session.id)} ended: ${why}`);
  }

  /**
   * Gives `session` its stream for `list_changed` (a `GET` stream). It
   * counts against the cap on event streams: when the pool is full, the
   * stream of the session whose client has been quiet longest is closed
   * (that session goes on).
   */
  openSessionStream<S extends ClientStream>(
    session: Session,
    open: OpenStream<S>,
  ): S {
    session.listKey ??= this.dispatcher.listKey(session.agent);
    const release = this.#streams.admit({
      lastUsed: () => session.lastUsed,
      evict: () => {
        this.log(
          `[mcp] GET stream of session ${
            shortId(session.id)
          } closed to make room: ${this.#streams.max} event streams are open`,
        );
        stream.close();
      },
    });
    const stream: S = open(() => {
      release();
      if (session.stream === stream) session.stream = undefined;
    });
    session.stream = stream;
    return stream;
  }

  /**
   * The `initialize` answer: the revision to use (the client's when served,
   * else the newest) and the result, or an error for malformed params.
   */
  initialize(message: RpcRequest): { version: string; response: RpcResponse } {
    return initializeResult(message);
  }

  /**
   * Answers `initialize` on a connection that is a session of its own
   * (stdio): the session takes the revision agreed, and `stream` carries
   * its `list_changed` from then on. A second `initialize` starts over.
   */
  initializeConnection(
    message: RpcRequest,
    session: Session,
    stream: ClientStream,
  ): RpcResponse {
    const { version, response } = this.initialize(message);
    if ("result" in response) {
      session.version = version;
      session.listKey = this.dispatcher.listKey(session.agent);
      session.stream = stream;
    }
    return response;
  }

  // Requests.

  /**
   * A peer for one stateless-revision request of `agent`: a fresh
   * `context.sessionId` per call. `inflight` is where a transport that can
   * cancel by notification (stdio) finds its running requests.
   */
  statelessPeer(
    agent: string,
    version: string,
    inflight?: Map<string, AbortController>,
  ): Peer {
    const peer = newPeer(agent, version);
    if (inflight) peer.inflight = inflight;
    return peer;
  }

  /**
   * Checks a stateless-revision request's envelope: an error response when
   * it is malformed or names a revision not served, otherwise the revision.
   */
  envelope(message: RpcRequest): { version: string } | { error: RpcResponse } {
    return checkEnvelope(message);
  }

  /**
   * The invalid-params error for a request whose caller-supplied strings
   * are refused (a bad progress token, a tool name over the limit);
   * `undefined` when there is none.
   */
  paramsProblem(message: RpcRequest): RpcResponse | undefined {
    return paramsProblem(message);
  }

  /**
   * Answers one request of `peer`; `undefined` when it was cancelled (a
   * cancelled request gets no response). Never rejects.
   */
  async answer(
    message: RpcRequest,
    peer: Peer,
    modern: boolean,
    exchange: Exchange,
  ): Promise<RpcResponse | undefined> {
    const response = await this.dispatcher.request(
      message,
      peer,
      modern,
      exchange,
    );
    return exchange.controller.signal.aborted ? undefined : response;
  }

  /**
   * Handles a notification of `peer`: `notifications/cancelled` aborts the
   * running request it names, or ends the subscription it names.
   */
  notification(message: RpcNotification, peer: Peer): void {
    this.dispatcher.notification(message, peer);
  }

  // Batches.

  /**
   * Answers a JSON-RPC batch of `session` (2025-03-26 only, bounded as
   * `_batch.ts` says): the reply's JSON text, `undefined` when no message
   * gets an answer, or the error refusing the whole batch. `notify` carries
   * progress when the transport can send it beside the reply.
   */
  async batch(
    items: readonly unknown[],
    session: Session | undefined,
    notify?: (message: RpcNotification) => void,
  ): Promise<{ reply?: string } | { refused: RpcResponse }> {
    const problem = batchProblem(items) ??
      (session?.version === BATCH_VERSION
        ? undefined
        : `Invalid Request: JSON-RPC batches are accepted only in a session using protocol version ${BATCH_VERSION}; send one message per request`);
    if (problem !== undefined) {
      return { refused: errorResponse(null, INVALID_REQUEST, problem) };
    }
    const peer = session!;
    const reply = await answerBatch(items, {
      notification: (message) => this.notification(message, peer),
      request: (message) =>
        this.answer(message, peer, false, {
          controller: new AbortController(),
          notify,
        }),
    });
    return { reply };
  }

  // Subscriptions (the stateless revision's `subscriptions/listen`).

  /** The error for a `subscriptions/listen` whose `notifications` filter is not an object; `undefined` when it may open. */
  listenProblem(message: RpcRequest): RpcResponse | undefined {
    const filter = message.params?.notifications;
    if (
      typeof filter === "object" && filter !== null && !Array.isArray(filter)
    ) return undefined;
    return errorResponse(
      message.id,
      INVALID_PARAMS,
      'Invalid params: "notifications" must be an object',
    );
  }

  /**
   * Opens a subscription (checked by {@linkcode McpCore.listenProblem}) of
   * `agent` on a stream `open` gives, and acknowledges it there: it gets
   * `list_changed` when it asked for `toolsListChanged`. It ends when its
   * stream closes, when `notifications/cancelled` names it in `inflight`
   * (stdio), or when the cap on event streams makes room for a newer one:
   * then it first gets its result (`resultType: "complete"`).
   */
  listen<S extends ClientStream>(
    message: RpcRequest,
    peer: Peer,
    open: OpenStream<S>,
  ): S {
    const filter = message.params!.notifications as Record<string, unknown>;
    const honored: Record<string, boolean> = {};
    if (filter.toolsListChanged === true) honored.toolsListChanged = true;
    const { agent } = peer;
    const entry: Listen = {
      id: message.id,
      agent,
      tools: honored.toolsListChanged === true,
      listKey: this.dispatcher.listKey(agent),
      since: performance.now(),
      stream: undefined!,
    };
    const release = this.#streams.admit({
      lastUsed: () => entry.since,
      evict: () => {
        this.log(
          `[mcp] subscription of agent "${agent}" closed to make room: ${this.#streams.max} event streams are open`,
        );
        endListen(entry);
      },
    });
    const key = idKey(message.id);
    const controller = new AbortController();
    const stream = open(() => {
      release();
      this.#listens.delete(entry);
      if (peer.inflight.get(key) === controller) peer.inflight.delete(key);
      this.log(`[mcp] subscription of agent "${agent}" ended`);
    });
    entry.stream = stream;
    // A cancelled subscription just ends: no result.
    controller.signal.addEventListener("abort", () => stream.close());
    peer.inflight.set(key, controller);
    this.#listens.add(entry);
    this.log(
      `[mcp] subscription started: agent "${agent}", protocol ${peer.version}, ${
        entry.tools ? "tools/list_changed" : "no notifications"
      }`,
    );
    stream.send({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: {
        notifications: honored,
        _meta: { [META.subscriptionId]: message.id },
      },
    });
    return stream;
  }

  // Reloads and the end.

  /** Sends `list_changed` to each session stream and subscription whose agent's list changed. */
  #reloaded(): void {
    if (this.#closed) return;
    const keys = new Map<string, string>();
    const keyOf = (agent: string) => {
      let key = keys.get(agent);
      if (key === undefined) {
        keys.set(agent, key = this.dispatcher.listKey(agent));
      }
      return key;
    };
    for (const session of this.#sessions.values()) {
      if (!session.stream || session.stream.closed) continue;
      const key = keyOf(session.agent);
      if (key !== session.listKey) {
        session.stream.send({ jsonrpc: "2.0", method: LIST_CHANGED });
      }
      session.listKey = key;
    }
    for (const listen of this.#listens) {
      if (!listen.tools) continue;
      const key = keyOf(listen.agent);
      if (key === listen.listKey) continue;
      listen.listKey = key;
      listen.stream.send({
        jsonrpc: "2.0",
        method: LIST_CHANGED,
        params: { _meta: { [META.subscriptionId]: listen.id } },
      });
    }
  }

  /**
   * Stops: no more `list_changed`, every subscription gets its result and
   * then its stream ends, and every session ends (its running requests
   * aborted).
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribe?.();
    // Subscriptions first: one a stdio session holds would end without
    // its result once the session aborts what it holds.
    for (const entry of [...this.#listens]) endListen(entry);
    this.#listens.clear();
    for (const session of [...this.#sessions.values()]) {
      this.endSession(session, "the server is stopping");
    }
  }
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
