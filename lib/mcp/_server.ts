/**
 * The MCP methods over a tool host, whatever carries them (Streamable HTTP
 * or stdio): `initialize`, `ping`, `tools/list`, `tools/call`,
 * `logging/setLevel`, `server/discover`, and the cancellation
 * notification. The core (`_core.ts`) keeps sessions and streams; this
 * decides answers.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import { callerStringProblem, isPlainObject } from "../common/mod.ts";
import type { CallOutcome, CallRequest, HostEvent } from "../host/mod.ts";
import {
  errorResponse,
  idKey,
  INVALID_PARAMS,
  INVALID_REQUEST,
  isRequestId,
  METHOD_NOT_FOUND,
  resultResponse,
  type RpcNotification,
  type RpcRequest,
  type RpcResponse,
  UNSUPPORTED_PROTOCOL_VERSION,
} from "./_jsonrpc.ts";
import {
  capabilities,
  envelopeProblem,
  LEGACY_VERSIONS,
  LOG_LEVELS,
  META,
  metaOf,
  MODERN_VERSIONS,
  negotiateVersion,
  progressTokenOf,
  progressTokenProblem,
  SERVER_INFO,
} from "./_protocol.ts";
import {
  callResult,
  type ListedTool,
  mcpTools,
  toolsKey,
  unknownToolMessage,
} from "./_result.ts";

/** The part of a tool host MCP uses (`createHost()`'s `Host` fits it). */
export interface McpHost {
  /** The tools `agent` sees, in manifest order. */
  list(agent?: string): ListedTool[];
  /** Runs one call; never rejects. */
  call(request: CallRequest): Promise<CallOutcome>;
  /** Calls and reloads as they happen; reloads that change a list become `list_changed`. */
  subscribe?(listener: (event: HostEvent) => void): () => void;
}

/** One client as the server knows it: a session, a stdio connection, or a single stateless request. */
export interface Peer {
  /** The agent whose tools it sees. */
  agent: string;
  /** `context.sessionId` of its calls; a fresh id per call when absent. */
  sessionId?: string;
  /** The revision it speaks. */
  version: string;
  /** The least severe log level it wants. */
  logLevel: string;
  /** Its running requests by id, to cancel them. */
  inflight: Map<string, AbortController>;
  /** What it last saw of its tool list (for `list_changed`). */
  listKey?: string;
}

/** What carries one request's answer. */
export interface Exchange {
  /** Aborts the request (its stream closed, or it was cancelled). */
  controller: AbortController;
  /** Sends a notification about this request on its stream (progress); absent when it has none. */
  notify?: (message: RpcNotification) => void;
}

/** A new {@linkcode Peer}. */
export function newPeer(
  agent: string,
  version: string,
  sessionId?: string,
): Peer {
  return {
    agent,
    sessionId,
    version,
    logLevel: "info",
    inflight: new Map(),
  };
}

/** A fresh random session id (also `context.sessionId` of a stateless call). */
export function newSessionId(): string {
  return `mcp-${randomBytes(12).toString("hex")}`;
}

function invalidParams(id: RequestId, detail: string): RpcResponse {
  return errorResponse(id, INVALID_PARAMS, `Invalid params: ${detail}`);
}

type RequestId = RpcRequest["id"];

/**
 * The invalid-params error for a request whose caller-supplied strings the
 * server does not take: a `_meta.progressToken` that is neither a string
 * of at most 400 characters nor an integer, or a `tools/call` tool name
 * over 400 characters. `undefined` when there is none.
 */
export function paramsProblem(message: RpcRequest): RpcResponse | undefined {
  const params = message.params;
  let problem = progressTokenProblem(params);
  const name = params?.name;
  if (
    problem === undefined && message.method === "tools/call" &&
    typeof name === "string"
  ) {
    problem = callerStringProblem('"name"', name);
  }
  return problem === undefined ? undefined : invalidParams(message.id, problem);
}

/**
 * The `initialize` answer: the revision to use (the client's when served,
 * else the newest) and the result, or an error for malformed params.
 */
export function initializeResult(
  message: RpcRequest,
): { version: string; response: RpcResponse } {
  const params = message.params ?? {};
  if (typeof params.protocolVersion !== "string") {
    return {
      version: "",
      response: invalidParams(message.id, '"protocolVersion" must be a string'),
    };
  }
  const version = negotiateVersion(params.protocolVersion);
  return {
    version,
    response: resultResponse(message.id, {
      protocolVersion: version,
      capabilities: capabilities(),
      serverInfo: SERVER_INFO,
    }),
  };
}

/**
 * Checks a stateless-revision request's envelope: an error response when
 * it is malformed or names a revision not served, otherwise the revision.
 */
export function checkEnvelope(
  message: RpcRequest | { method: string; params?: Record<string, unknown> },
): { version: string } | { error: RpcResponse } {
  const id = "id" in message && isRequestId(message.id) ? message.id : null;
  const meta = metaOf(message.params);
  const problem = meta === undefined
    ? "params._meta is missing"
    : envelopeProblem(meta);
  if (problem !== undefined) {
    return {
      error: errorResponse(id, INVALID_PARAMS, `Invalid params: ${problem}`),
    };
  }
  const version = meta![META.protocolVersion] as string;
  if (!MODERN_VERSIONS.includes(version)) {
    return {
      error: errorResponse(
        id,
        UNSUPPORTED_PROTOCOL_VERSION,
        `Unsupported protocol version: ${version}`,
        { supported: [...MODERN_VERSIONS], requested: version },
      ),
    };
  }
  return { version };
}

/**
 * A progress listener that sends `notifications/progress` for `token`,
 * dropping reports that do not increase (the spec requires increasing
 * values).
 */
function progressSender(
  token: string | number,
  notify: (message: RpcNotification) => void,
): CallRequest["onProgress"] {
  let last = -Infinity;
  return (update) => {
    if (!(update.progress > last)) return;
    last = update.progress;
    const params: Record<string, unknown> = {
      progressToken: token,
      progress: update.progress,
    };
    if (update.total !== undefined) params.total = update.total;
    if (update.message !== undefined) params.message = update.message;
    notify({ jsonrpc: "2.0", method: "notifications/progress", params });
  };
}

/** Answers MCP requests over `host`. */
export class McpDispatcher {
  #host: McpHost;

  /** A dispatcher over `host`. */
  constructor(host: McpHost) {
    this.#host = host;
  }

  /** The tool list fingerprint of `agent`, for `list_changed`. */
  listKey(agent: string): string {
    return toolsKey(this.#host.list(agent));
  }

  /**
   * Answers one request of `peer`. `modern` selects the stateless
   * revision's methods and result shape. Never rejects.
   */
  request(
    message: RpcRequest,
    peer: Peer,
    modern: boolean,
    exchange: Exchange,
  ): Promise<RpcResponse> {
    // Not async: a call is one promise, not three (this is every call's path).
    const refused = paramsProblem(message);
    const answer = refused !== undefined
      ? Promise.resolve(refused)
      : message.method === "tools/call"
      ? this.#call(message, peer, exchange)
      : Promise.resolve(this.#answer(message, peer, modern));
    return modern
      ? answer.then((response) => {
        if ("result" in response) response.result.resultType = "complete";
        return response;
      })
      : answer;
  }

  #answer(message: RpcRequest, peer: Peer, modern: boolean): RpcResponse {
    const { id, method } = message;
    switch (method) {
      case "tools/list": {
        const response = this.#list(message, peer);
        // The list may change at any reload: clients must not cache it
        // (2026-07-28 requires saying so).
        if (modern && "result" in response) {
          response.result.ttlMs = 0;
          response.result.cacheScope = "private";
        }
        return response;
      }
      case "ping":
        if (modern) break;
        return resultResponse(id, {});
      case "logging/setLevel":
        if (modern) break;
        return this.#setLevel(message, peer);
      case "initialize":
        if (modern) break;
        return errorResponse(
          id,
          INVALID_REQUEST,
          "Invalid Request: the session is already initialized; start a new one with initialize and no Mcp-Session-Id",
        );
      case "server/discover":
        if (!modern) break;
        return resultResponse(id, {
          ttlMs: 0,
          cacheScope: "private",
          supportedVersions: [...MODERN_VERSIONS, ...LEGACY_VERSIONS],
          capabilities: { tools: { listChanged: true } },
          _meta: { [META.serverInfo]: SERVER_INFO },
        });
    }
    return errorResponse(id, METHOD_NOT_FOUND, `Method not found: ${method}`);
  }

  #list(message: RpcRequest, peer: Peer): RpcResponse {
    if (message.params?.cursor !== undefined) {
      return invalidParams(
        message.id,
        "unknown cursor: tools/list returns every tool on the first page",
      );
    }
    const tools = this.#host.list(peer.agent);
    peer.listKey = toolsKey(tools);
    return resultResponse(message.id, { tools: mcpTools(tools) });
  }

  #setLevel(message: RpcRequest, peer: Peer): RpcResponse {
    const level = message.params?.level;
    if (typeof level !== "string" || !LOG_LEVELS.includes(level)) {
      return invalidParams(
        message.id,
        `"level" must be one of ${LOG_LEVELS.join(", ")}`,
      );
    }
    peer.logLevel = level;
    return resultResponse(message.id, {});
  }

  async #call(
    message: RpcRequest,
    peer: Peer,
    exchange: Exchange,
  ): Promise<RpcResponse> {
    const params = message.params ?? {};
    if (typeof params.name !== "string") {
      return invalidParams(message.id, '"name" must be a string');
    }
    const args = params.arguments ?? {};
    if (!isPlainObject(args)) {
      return invalidParams(message.id, '"arguments" must be an object');
    }
    const token = progressTokenOf(params);
    const key = idKey(message.id);
    peer.inflight.set(key, exchange.controller);
    let outcome: CallOutcome;
    try {
      outcome = await this.#host.call({
        name: params.name,
        args,
        sessionId: peer.sessionId ?? newSessionId(),
        agent: peer.agent,
        transport: "mcp",
        signal: exchange.controller.signal,
        onProgress: token !== undefined && exchange.notify
          ? progressSender(token, exchange.notify)
          : undefined,
      });
    } finally {
      if (peer.inflight.get(key) === exchange.controller) {
        peer.inflight.delete(key);
      }
    }
    const result = callResult(outcome);
    return result === undefined
      ? errorResponse(
        message.id,
        INVALID_PARAMS,
        unknownToolMessage(params.name),
      )
      : resultResponse(message.id, result);
  }

  /** Handles a notification of `peer`: `notifications/cancelled` aborts the request it names. */
  notification(message: RpcNotification, peer: Peer): void {
    if (message.method !== "notifications/cancelled") return;
    const requestId = message.params?.requestId;
    if (!isRequestId(requestId)) return;
    peer.inflight.get(idKey(requestId))?.abort(
      new Error("the client cancelled the request"),
    );
  }
}
