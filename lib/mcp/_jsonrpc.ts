/**
 * JSON-RPC 2.0 as MCP uses it: telling requests, notifications and
 * responses apart, refusing what is none of them with the right error, and
 * building answers. Pure functions.
 *
 * @module
 */

import {
  callerStringProblem,
  isPlainObject,
  MAX_CALLER_STRING,
} from "../common/mod.ts";

/** Invalid JSON was received. */
export const PARSE_ERROR = -32700;
/** The JSON sent is not a valid request object. */
export const INVALID_REQUEST = -32600;
/** The method does not exist or is not available. */
export const METHOD_NOT_FOUND = -32601;
/** Invalid method parameters (also MCP's unknown tool). */
export const INVALID_PARAMS = -32602;
/** An error inside the server. */
export const INTERNAL_ERROR = -32603;
/** A transport-level refusal (wrong headers, forbidden origin, …), as the MCP SDKs send it. */
export const TRANSPORT_ERROR = -32000;
/** The session named by `Mcp-Session-Id` does not exist (any more). */
export const SESSION_NOT_FOUND = -32001;
/** Headers and body disagree (protocol revision 2026-07-28). */
export const HEADER_MISMATCH = -32020;
/** The protocol revision the request names is not served (2026-07-28). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** A request id: a string or an integer (MCP forbids `null`). */
export type RequestId = string | number;

/** The error member of an error response. */
export interface RpcError {
  /** One of the codes above. */
  code: number;
  /** What went wrong, for a person. */
  message: string;
  /** More about it, when there is more. */
  data?: unknown;
}

/** A request: it gets exactly one response. */
export interface RpcRequest {
  /** Always `"2.0"`. */
  jsonrpc: "2.0";
  /** The id the response carries back. */
  id: RequestId;
  /** The method. */
  method: string;
  /** Its parameters, an object. */
  params?: Record<string, unknown>;
}

/** A notification: no response. */
export interface RpcNotification {
  /** Always `"2.0"`. */
  jsonrpc: "2.0";
  /** The method. */
  method: string;
  /** Its parameters, an object. */
  params?: Record<string, unknown>;
}

/** A response: a result or an error. */
export type RpcResponse =
  | { jsonrpc: "2.0"; id: RequestId; result: Record<string, unknown> }
  | { jsonrpc: "2.0"; id: RequestId | null; error: RpcError };

/** What one incoming JSON value is. */
export type Incoming =
  | { kind: "request"; message: RpcRequest }
  | { kind: "notification"; message: RpcNotification }
  | { kind: "response" }
  | { kind: "invalid"; response: RpcResponse };

/**
 * Whether `value` is an id MCP allows: a string (of at most 400
 * characters: an id is echoed back in full) or a safe integer.
 */
export function isRequestId(value: unknown): value is RequestId {
  if (typeof value === "string") return value.length <= MAX_CALLER_STRING;
  return typeof value === "number" && Number.isSafeInteger(value);
}

/** An error response. */
export function errorResponse(
  id: RequestId | null,
  code: number,
  message: string,
  data?: unknown,
): RpcResponse {
  const error: RpcError = data === undefined
    ? { code, message }
    : { code, message, data };
  return { jsonrpc: "2.0", id, error };
}

/** A result response. */
export function resultResponse(
  id: RequestId,
  result: Record<string, unknown>,
): RpcResponse {
  return { jsonrpc: "2.0", id, result };
}

function invalid(id: RequestId | null, detail: string): Incoming {
  return {
    kind: "invalid",
    response: errorResponse(id, INVALID_REQUEST, `Invalid Request: ${detail}`),
  };
}

/**
 * Tells what one parsed JSON value is. A value that is no JSON-RPC message
 * becomes an `invalid` entry holding the error response to send (its id is
 * echoed only when it is a valid one).
 *
 * @example
 * ```ts
 * import { classify } from "./_jsonrpc.ts";
 * classify({ jsonrpc: "2.0", id: 1, method: "ping" }).kind; // "request"
 * classify({ jsonrpc: "1.0", id: 1, method: "ping" }).kind; // "invalid"
 * ```
 */
export function classify(value: unknown): Incoming {
  if (!isPlainObject(value)) {
    return invalid(null, "a message must be a JSON object");
  }
  const id = isRequestId(value.id) ? value.id : null;
  if (value.jsonrpc !== "2.0") {
    return invalid(id, 'the "jsonrpc" member must be exactly "2.0"');
  }
  if (!("method" in value)) {
    if ("id" in value && ("result" in value || "error" in value)) {
      return { kind: "response" };
    }
    return invalid(id, 'a message needs "method" (or "result" or "error")');
  }
  if (typeof value.method !== "string" || value.method === "") {
    return invalid(id, '"method" must be a non-empty string');
  }
  const longMethod = callerStringProblem('"method"', value.method);
  if (longMethod !== undefined) return invalid(id, longMethod);
  if (value.params !== undefined && !isPlainObject(value.params)) {
    return invalid(id, '"params" must be an object');
  }
  if (!("id" in value)) {
    return {
      kind: "notification",
      message: value as unknown as RpcNotification,
    };
  }
  if (id === null) {
    return invalid(
      null,
      (typeof value.id === "string"
        ? callerStringProblem('"id"', value.id)
        : undefined) ?? '"id" must be a string or an integer',
    );
  }
  return { kind: "request", message: value as unknown as RpcRequest };
}

/** A key for an id that keeps `1` and `"1"` apart. */
export function idKey(id: RequestId): string {
  return typeof id === "number" ? `n${id}` : `s${id}`;
}
