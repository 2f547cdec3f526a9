/**
 * MCP over stdio: one JSON-RPC message per line in, one per line out, for
 * clients that start the server themselves. One connection is one session
 * (its id is `context.sessionId`); requests run concurrently, so a
 * `notifications/cancelled` reaches a running call. The stateless revision
 * (2026-07-28) is answered per message, by the envelope it carries.
 *
 * @module
 */

import { isPlainObject } from "../common/mod.ts";
import {
  classify,
  errorResponse,
  idKey,
  INVALID_REQUEST,
  PARSE_ERROR,
  type RequestId,
  type RpcRequest,
  type RpcResponse,
} from "./_jsonrpc.ts";
import { DEFAULT_LEGACY_VERSION, hasEnvelope, META } from "./_protocol.ts";
import { answerBatch, batchProblem } from "./_batch.ts";
import {
  checkEnvelope,
  initializeResult,
  McpDispatcher,
  type McpHost,
  newPeer,
  newSessionId,
} from "./_server.ts";

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
}

/** A running stdio server. */
export interface McpStdio {
  /** The session id calls see as `context.sessionId`. */
  sessionId: string;
  /** Settles when standard input has ended and the requests read before have been answered, or after {@linkcode McpStdio.close}. */
  done: Promise<void>;
  /** Stops: running calls are aborted and nothing more is written. */
  close(): void;
}

interface Subscription {
  id: RequestId;
  listKey: string;
}

/** Serves MCP over `options.input` and `options.write` until the input ends. */
export function serveStdio(options: McpStdioOptions): McpStdio {
  const { host, agent } = options;
  const dispatcher = new McpDispatcher(host);
  const maxLine = options.maxLineLength ?? 10 * 1024 * 1024;
  const peer = newPeer(agent, DEFAULT_LEGACY_VERSION, newSessionId());
  const subscriptions = new Map<string, Subscription>();
  let initialized = false;
  let stopped = false;
  const pending = new Set<Promise<void>>();

  const send = (message: unknown) => {
    if (!stopped) options.write(JSON.stringify(message) + "\n");
  };

  const unsubscribe = host.subscribe?.((event) => {
    if (event.type !== "reload" || !event.ok || !event.changed || stopped) {
      return;
    }
    const key = dispatcher.listKey(agent);
    const changed = {
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
    };
    if (initialized && peer.listKey !== undefined && peer.listKey !== key) {
      send(changed);
    }
    if (initialized) peer.listKey = key;
    for (const subscription of subscriptions.values()) {
      if (subscription.listKey === key) continue;
      subscription.listKey = key;
      send({
        ...changed,
        params: { _meta: { [META.subscriptionId]: subscription.id } },
      });
    }
  });

  function listen(message: RpcRequest): RpcResponse | undefined {
    const filter = message.params?.notifications;
    const tools = isPlainObject(filter) && filter.toolsListChanged === true;
    if (tools) {
      subscriptions.set(idKey(message.id), {
        id: message.id,
        listKey: dispatcher.listKey(agent),
      });
    }
    send({
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: {
        notifications: tools ? { toolsListChanged: true } : {},
        _meta: { [META.subscriptionId]: message.id },
      },
    });
    return undefined;
  }

  /** The answer to one request; `undefined` when it gets none now. */
  async function answer(message: RpcRequest): Promise<RpcResponse | undefined> {
    const controller = new AbortController();
    const exchange = { controller, notify: send };
    if (hasEnvelope(message.params)) {
      const checked = checkEnvelope(message);
      if ("error" in checked) return checked.error;
      if (message.method === "subscriptions/listen") return listen(message);
      const response = await dispatcher.request(
        message,
        { ...peer, version: checked.version },
        true,
        exchange,
      );
      return controller.signal.aborted ? undefined : response;
    }
    if (message.method === "initialize") {
      const { version, response } = initializeResult(message);
      if ("result" in response) {
        peer.version = version;
        initialized = true;
        peer.listKey = dispatcher.listKey(agent);
      }
      return response;
    }
    const response = await dispatcher.request(message, peer, false, exchange);
    // A cancelled request gets no response.
    return controller.signal.aborted ? undefined : response;
  }

  function handleLine(line: string): void {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      send(
        errorResponse(
          null,
          PARSE_ERROR,
          "Parse error: the line is not valid JSON",
        ),
      );
      return;
    }
    if (Array.isArray(value)) {
      track(batch(value));
      return;
    }
    const incoming = classify(value);
    switch (incoming.kind) {
      case "invalid":
        send(incoming.response);
        return;
      case "response":
        return;
      case "notification": {
        const requestId = incoming.message.params?.requestId;
        if (
          incoming.message.method === "notifications/cancelled" &&
          (typeof requestId === "string" || typeof requestId === "number") &&
          subscriptions.delete(idKey(requestId))
        ) return;
        dispatcher.notification(incoming.message, peer);
        return;
      }
      default:
        track(
          answer(incoming.message).then((response) => {
            if (response) send(response);
          }),
        );
    }
  }

  async function batch(items: unknown[]): Promise<void> {
    const problem = batchProblem(items) ??
      (peer.version === "2025-03-26"
        ? undefined
        : "Invalid Request: JSON-RPC batches are accepted only with protocol version 2025-03-26; send one message per line");
    if (problem !== undefined) {
      send(errorResponse(null, INVALID_REQUEST, problem));
      return;
    }
    const reply = await answerBatch(items, {
      notification: (message) => dispatcher.notification(message, peer),
      request: answer,
    });
    if (reply !== undefined && !stopped) options.write(reply + "\n");
  }

  function track(work: Promise<void>): void {
    const done = work.catch(() => {}).finally(() => pending.delete(done));
    pending.add(done);
  }

  function stop(): void {
    if (stopped) return;
    stopped = true;
    unsubscribe?.();
    for (const controller of peer.inflight.values()) {
      controller.abort(new Error("the client went away"));
    }
  }

  const done = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    let skipping = false;
    try {
      for await (const chunk of options.input) {
        if (stopped) break;
        buffer += decoder.decode(chunk, { stream: true });
        let newline: number;
        while ((newline = buffer.indexOf("\n")) !== -1) {
          const line = buffer.slice(0, newline).replace(/\r$/, "");
          buffer = buffer.slice(newline + 1);
          if (skipping) {
            skipping = false;
            continue;
          }
          if (line.trim() !== "") handleLine(line);
        }
        if (buffer.length > maxLine) {
          send(errorResponse(
            null,
            PARSE_ERROR,
            `Parse error: a line is longer than ${maxLine} characters`,
          ));
          buffer = "";
          skipping = true;
        }
      }
      const rest = buffer + decoder.decode();
      if (!skipping && rest.trim() !== "") handleLine(rest);
    } finally {
      // The input ended: no more change notifications; the requests read
      // so far are still answered (a client that cannot wait stops the
      // process).
      unsubscribe?.();
      await Promise.all([...pending]);
      stop();
    }
  })();

  return {
    sessionId: peer.sessionId!,
    done,
    close: stop,
  };
}
