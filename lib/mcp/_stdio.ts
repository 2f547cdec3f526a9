/**
 * MCP over stdio: one JSON-RPC message per line in, one per line out, for
 * clients that start the server themselves. One connection is one session
 * (its id is `context.sessionId`); requests run concurrently, so a
 * `notifications/cancelled` reaches a running call or ends a subscription.
 * The stateless revision (2026-07-28) is answered per message, by the
 * envelope it carries.
 *
 * What stdio alone has lives here (lines, one channel for everything);
 * sessions, subscriptions, batches and `list_changed` are the core's
 * ({@linkcode McpCore}), shared with Streamable HTTP.
 *
 * @module
 */

import type { StreamPool } from "../common/mod.ts";
import {
  classify,
  errorResponse,
  PARSE_ERROR,
  type RpcRequest,
  type RpcResponse,
} from "./_jsonrpc.ts";
import { DEFAULT_LEGACY_VERSION, hasEnvelope } from "./_protocol.ts";
import type { McpHost } from "./_server.ts";
import { type ClientStream, McpCore, type Session } from "./_core.ts";

/** How {@linkcode serveStdio} behaves. */
export interface McpStdioOptions {
  /** The host whose tools are served. */
  host: McpHost;
  /** The agent whose tools the client sees. */
  agent: string;
  /** Standard input, as chunks of bytes. */
  input: AsyncIterable<Uint8Array>;
  /** Writes to standard output (whole lines, synchronously). */
  write: (text: string) => void;
  /** The longest line accepted, in characters; default 10 MiB. */
  maxLineLength?: number;
  /** Receives one line per subscription started or ended (for standard error). */
  log?: (line: string) => void;
  /**
   * The pool that caps open subscriptions; when it is full, the least
   * recently opened one ends (with its result) to make room. Default: a
   * pool of 256, as over HTTP.
   */
  streams?: StreamPool;
}

/** A running stdio server. */
export interface McpStdio {
  /** The session id calls see as `context.sessionId`. */
  sessionId: string;
  /** Settles when standard input has ended and the requests read before have been answered, or after {@linkcode McpStdio.close}. */
  done: Promise<void>;
  /** Stops: open subscriptions get their result, running calls are aborted, and nothing more is written. */
  close(): void;
}

/**
 * Serves MCP over `options.input` and `options.write` until the input ends.
 *
 * @returns The running server: its session id, a promise settled when it is
 * done, and `close()`.
 */
export function serveStdio(options: McpStdioOptions): McpStdio {
  const connection = new StdioConnection(options);
  return {
    sessionId: connection.session.id,
    done: connection.run(options.input, options.maxLineLength),
    close: () => connection.stop(),
  };
}

/**
 * A stream on the connection: what it sends is written as lines, and
 * closing it only stops it sending (the connection goes on).
 */
function lineStream(
  send: (message: unknown) => boolean,
  onClose: () => void = () => {},
): ClientStream {
  let closed = false;
  return {
    send: (message) => !closed && send(message),
    close: () => {
      if (closed) return;
      closed = true;
      onClose();
    },
    get closed() {
      return closed;
    },
  };
}

/** One stdio connection over one {@linkcode McpCore}. */
class StdioConnection {
  /** The connection's session. */
  readonly session: Session;
  #core: McpCore;
  #write: (text: string) => void;
  #stopped = false;
  #pending = new Set<Promise<void>>();
  #send = (message: unknown): boolean => {
    if (this.#stopped) return false;
    this.#write(JSON.stringify(message) + "\n");
    return true;
  };
  #openStream = (onClose: () => void) => lineStream(this.#send, onClose);

  constructor(options: McpStdioOptions) {
    this.#core = new McpCore(options);
    this.#write = options.write;
    // One session, which makes room for no other: it is never evicted.
    this.session = this.#core.startSession(
      options.agent,
      DEFAULT_LEGACY_VERSION,
    )!;
  }

  /** Reads `input` line by line until it ends, then answers what it read and stops. */
  async run(
    input: AsyncIterable<Uint8Array>,
    maxLine = 10 * 1024 * 1024,
  ): Promise<void> {
    try {
      await readLines(input, maxLine, {
        line: (line) => this.#line(line),
        tooLong: (message) => this.#send(message),
        stopped: () => this.#stopped,
      });
    } finally {
      // The input ended: the requests read so far are still answered (a
      // client that cannot wait stops the process).
      await Promise.all([...this.#pending]);
      this.stop();
    }
  }

  /** Stops: subscriptions get their result, running calls are aborted, and nothing more is written. */
  stop(): void {
    if (this.#stopped) return;
    this.#core.close();
    this.#stopped = true;
  }

  #line(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.#send(
        errorResponse(
          null,
          PARSE_ERROR,
          "Parse error: the line is not valid JSON",
        ),
      );
      return;
    }
    if (Array.isArray(value)) {
      this.#track(this.#batch(value));
      return;
    }
    const incoming = classify(value);
    switch (incoming.kind) {
      case "invalid":
        this.#send(incoming.response);
        return;
      case "response":
        return;
      case "notification":
        this.#core.notification(incoming.message, this.session);
        return;
    }
    const answer = this.#answer(incoming.message);
    if (answer !== undefined) {
      this.#track(answer.then((response) => void this.#sendAnswer(response)));
    }
  }

  #sendAnswer(response: RpcResponse | undefined): void {
    if (response !== undefined) this.#send(response);
  }

  /** The answer to one request, `undefined` when it has none now (a subscription). */
  #answer(
    message: RpcRequest,
  ): Promise<RpcResponse | undefined> | undefined {
    if (hasEnvelope(message.params)) return this.#stateless(message);
    if (message.method === "initialize") {
      return Promise.resolve(
        this.#core.initializeConnection(
          message,
          this.session,
          lineStream(this.#send),
        ),
      );
    }
    return this.#core.answer(message, this.session, false, {
      controller: new AbortController(),
      notify: this.#send,
    });
  }

  /** A stateless-revision request: its own peer, but cancelled by notification on this connection. */
  #stateless(
    message: RpcRequest,
  ): Promise<RpcResponse | undefined> | undefined {
    const checked = this.#core.envelope(message);
    if ("error" in checked) return Promise.resolve(checked.error);
    const peer = this.#core.statelessPeer(
      this.session.agent,
      checked.version,
      this.session.inflight,
    );
    if (message.method !== "subscriptions/listen") {
      return this.#core.answer(message, peer, true, {
        controller: new AbortController(),
        notify: this.#send,
      });
    }
    const refused = this.#core.paramsProblem(message) ??
      this.#core.listenProblem(message);
    if (refused !== undefined) return Promise.resolve(refused);
    this.#core.listen(message, peer, this.#openStream);
    return undefined;
  }

  async #batch(items: unknown[]): Promise<void> {
    const answer = await this.#core.batch(items, this.session, this.#send);
    if ("refused" in answer) this.#send(answer.refused);
    else if (answer.reply !== undefined && !this.#stopped) {
      this.#write(answer.reply + "\n");
    }
  }

  #track(work: Promise<void>): void {
    const done = work.catch(() => {}).finally(() => this.#pending.delete(done));
    this.#pending.add(done);
  }
}

/** What {@linkcode readLines} does with what it reads. */
interface LineHandlers {
  /** Handles one line (without its `\r\n` or `\n`; never blank). */
  line(line: string): void;
  /** Sends the parse error that takes the place of a line too long. */
  tooLong(message: unknown): void;
  /** Whether to stop reading. */
  stopped(): boolean;
}

/**
 * Hands each line of `input` to `handlers.line`, skipping blank ones, until
 * the input ends or `handlers.stopped()`. A line longer than `maxLine`
 * characters is dropped with a parse error sent in its place.
 */
async function readLines(
  input: AsyncIterable<Uint8Array>,
  maxLine: number,
  handlers: LineHandlers,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  let skipping = false;
  for await (const chunk of input) {
    if (handlers.stopped()) return;
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, newline).replace(/\r$/, "");
      buffer = buffer.slice(newline + 1);
      if (skipping) skipping = false;
      else if (line.trim() !== "") handlers.line(line);
    }
    if (buffer.length > maxLine) {
      handlers.tooLong(errorResponse(
        null,
        PARSE_ERROR,
        `Parse error: a line is longer than ${maxLine} characters`,
      ));
      buffer = "";
      skipping = true;
    }
  }
  const rest = buffer + decoder.decode();
  if (!skipping && rest.trim() !== "") handlers.line(rest);
}
