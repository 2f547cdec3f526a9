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

/**
 * The trace context in `traceparent` and `tracestate`, or `undefined` when
 * `traceparent` is absent or malformed (W3C: `version-traceid-parentid-flags`
 * in lowercase hex, version `ff` invalid, ids not all zeros). A malformed
 * value is ignored, never an error: the call runs as a new trace.
 */
export function callerTraceContext(
  traceparent: unknown,
  tracestate?: unknown,
): CallerTraceContext | undefined {
  if (typeof traceparent !== "string") return undefined;
  const value = traceparent.trim();
  const match = TRACEPARENT.exec(value);
  if (!match) return undefined;
  const [, version, traceId, parentId, , rest] = match;
  if (version === "ff" || (version === "00" && rest !== undefined)) {
    return undefined;
  }
  if (/^0+$/.test(traceId) || /^0+$/.test(parentId)) return undefined;
  const state = typeof tracestate === "string" && tracestate.trim() !== "" &&
      tracestate.length <= TRACESTATE_MAX
    ? { tracestate: tracestate.trim() }
    : {};
  return { traceparent: value, ...state };
}
