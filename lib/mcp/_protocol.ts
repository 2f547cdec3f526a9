/**
 * The MCP revisions served and what each one names: versions, the
 * per-request `_meta` envelope of the stateless revision, the server's
 * identity and capabilities. Pure.
 *
 * @module
 */

import {
  callerStringProblem,
  isPlainObject,
  MAX_CALLER_STRING,
} from "../common/mod.ts";

/** The newest session-based revision, offered when a client asks for one not served. */
export const LATEST_VERSION = "2025-11-25";

/** The session-based revisions served (`initialize`, `Mcp-Session-Id`), newest first. */
export const LEGACY_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
];

/** The stateless revisions served (`server/discover`, a `_meta` envelope on every request). */
export const MODERN_VERSIONS: readonly string[] = ["2026-07-28"];

/** The revision clients assume when a request has no `MCP-Protocol-Version` header. */
export const DEFAULT_LEGACY_VERSION = "2025-03-26";

/** `_meta` keys of the stateless revision. */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** Log levels, least severe first. */
export const LOG_LEVELS: readonly string[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** Who the server is. */
export const SERVER_INFO: Readonly<Record<string, string>> = {
  name: "beeuni",
  title: "Beeuni tools",
  version: "0.1.0",
};

/** What the server offers: tools (with change notifications) and a log level to set. */
export function capabilities(): Record<string, unknown> {
  return { tools: { listChanged: true }, logging: {} };
}

/** The revision a session uses: the one the client asked for when served, else the newest. */
export function negotiateVersion(requested: unknown): string {
  return typeof requested === "string" && LEGACY_VERSIONS.includes(requested)
    ? requested
    : LATEST_VERSION;
}

/** Whether a revision string names the stateless era (2026-07-28 or later). */
export function isModernVersion(version: string): boolean {
  return version >= "2026-07-28";
}

/** A request's `params._meta`, when it is an object. */
export function metaOf(
  params: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const meta = params?._meta;
  return isPlainObject(meta) ? meta : undefined;
}

/** Whether the params carry a stateless-revision envelope claim (any `protocolVersion` key in `_meta`). */
export function hasEnvelope(
  params: Record<string, unknown> | undefined,
): boolean {
  const meta = metaOf(params);
  return meta !== undefined && META.protocolVersion in meta;
}

/**
 * What is wrong with an envelope, or `undefined` when it is well formed:
 * `protocolVersion` a string (of at most 400 characters), `clientCapabilities`
 * an object, `clientInfo` an object when present.
 */
export function envelopeProblem(
  meta: Record<string, unknown>,
): string | undefined {
  const version = meta[META.protocolVersion];
  if (typeof version !== "string") {
    return `_meta["${META.protocolVersion}"] must be a string`;
  }
  const long = callerStringProblem(`_meta["${META.protocolVersion}"]`, version);
  if (long !== undefined) return long;
  if (!isPlainObject(meta[META.clientCapabilities])) {
    return `_meta["${META.clientCapabilities}"] must be an object`;
  }
  const info = meta[META.clientInfo];
  if (info !== undefined && !isPlainObject(info)) {
    return `_meta["${META.clientInfo}"] must be an object`;
  }
  return undefined;
}

/** Whether `token` is a progress token MCP allows: a string (within the caller-string limit) or a safe integer. */
function isProgressToken(token: unknown): token is string | number {
  return typeof token === "string"
    ? token.length <= MAX_CALLER_STRING
    : typeof token === "number" && Number.isSafeInteger(token);
}

/** A request's progress token, when it asked for progress with a valid one. */
export function progressTokenOf(
  params: Record<string, unknown> | undefined,
): string | number | undefined {
  const token = metaOf(params)?.progressToken;
  return isProgressToken(token) ? token : undefined;
}

/**
 * What is wrong with a request's `_meta.progressToken`, or `undefined`
 * when it has none or a valid one (a string of at most 400 characters, or
 * an integer).
 */
export function progressTokenProblem(
  params: Record<string, unknown> | undefined,
): string | undefined {
  const token = metaOf(params)?.progressToken;
  if (token === undefined || isProgressToken(token)) return undefined;
  return typeof token === "string"
    ? callerStringProblem('"progressToken"', token)
    : '"progressToken" must be a string or an integer';
}

const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";

/**
 * The value of an `Mcp-Name` header: as is, or decoded from the
 * `=?base64?…?=` form clients use for values HTTP headers cannot carry;
 * `undefined` when that form is broken.
 */
export function decodeNameHeader(value: string): string | undefined {
  const trimmed = value.trim();
  if (
    !trimmed.startsWith(SENTINEL_PREFIX) || !trimmed.endsWith(SENTINEL_SUFFIX)
  ) {
    return trimmed;
  }
  const base64 = trimmed.slice(
    SENTINEL_PREFIX.length,
    trimmed.length - SENTINEL_SUFFIX.length,
  );
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) {
    return undefined;
  }
  try {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
