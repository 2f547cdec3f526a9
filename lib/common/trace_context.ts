// The W3C trace context a caller sends (an HTTP `traceparent` header, or
// MCP's `params._meta.traceparent`), checked before a trace continues it.

/** A caller's W3C trace context: `traceparent`, and `tracestate` when sent. */
export interface CallerTraceContext {
  /** The `traceparent` value, lowercase hex, as sent. */
  traceparent: string;
  /** The `tracestate` value, when sent. */
  tracestate?: string;
}

const TRACEPARENT =
  /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/** The most of `tracestate` kept: the W3C limit is 32 members of 256 characters. */
const TRACESTATE_MAX = 8_192;

/** The parts of a well-formed `traceparent`. */
export interface TraceparentParts {
  /** The trace id, 32 lowercase hex digits. */
  traceId: string;
  /** The caller's span id, 16 lowercase hex digits. */
  parentId: string;
  /** The trace flags (bit 0: sampled). */
  flags: number;
}

/**
 * The parts of `value` as a W3C `traceparent`
 * (`version-traceid-parentid-flags` in lowercase hex, version `ff`
 * invalid, ids not all zeros), or `undefined` when it is not one.
 */
export function traceparentParts(value: string): TraceparentParts | undefined {
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, parentId, flags, rest] = match;
  if (version === "ff" || (version === "00" && rest !== undefined)) {
    return undefined;
  }
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  return { traceId, parentId, flags: parseInt(flags, 16) };
}

/**
 * The trace context in `traceparent` and `tracestate`, or `undefined` when
 * `traceparent` is absent or malformed ({@linkcode traceparentParts}). A
 * malformed value is ignored, never an error: the call runs as a new trace.
 */
export function callerTraceContext(
  traceparent: unknown,
  tracestate?: unknown,
): CallerTraceContext | undefined {
  if (typeof traceparent !== "string") return undefined;
  if (traceparentParts(traceparent) === undefined) return undefined;
  const state = typeof tracestate === "string" && tracestate.trim() !== "" &&
      tracestate.length <= TRACESTATE_MAX
    ? { tracestate: tracestate.trim() }
    : {};
  return { traceparent: traceparent.trim(), ...state };
}
