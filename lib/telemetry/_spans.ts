// Host events as OpenTelemetry spans: one per call (with children for the
// wait, a runner starting and the tool's run) and one per reload. Spans
// carry names, sizes and outcomes, never arguments, outputs, error text,
// secrets or tokens.

import type { Context, Span, Tracer } from "@opentelemetry/api";
import { traceparentParts } from "../common/mod.ts";
import type { HostEvent, TraceContext } from "../host/mod.ts";
import { outcomeBytes, outcomeLabel } from "./call_metrics.ts";
import type { OtelModules } from "./_otel.ts";

type Api = OtelModules["@opentelemetry/api"];
type CallStart = Extract<HostEvent, { type: "call-start" }>;
type CallEnd = Extract<HostEvent, { type: "call-end" }>;
type Reload = Extract<HostEvent, { type: "reload" }>;

/** Turns host events into spans of `tracer`. */
export class HostSpans {
  readonly #api: Api;
  readonly #tracer: Tracer;
  /** The spans of calls under way, with their start (milliseconds since the epoch). */
  readonly #open = new Map<string, { span: Span; startedAt: number }>();

  /** Spans of `tracer`, built with the API `api`. */
  constructor(api: Api, tracer: Tracer) {
    this.#api = api;
    this.#tracer = tracer;
  }

  /** Records one host event. */
  event(event: HostEvent): void {
    if (event.type === "call-start") this.#start(event);
    else if (event.type === "call-end") this.#end(event);
    else this.#reload(event);
  }

  /** The caller's span as the parent context, or the root when there is none. */
  #parent(trace: TraceContext | undefined): Context {
    const api = this.#api;
    // A context the host was handed directly may be malformed: a new trace then.
    const parts = trace && traceparentParts(trace.traceparent);
    if (trace === undefined || parts === undefined) return api.ROOT_CONTEXT;
    return api.trace.setSpanContext(api.ROOT_CONTEXT, {
      traceId: parts.traceId,
      spanId: parts.parentId,
      traceFlags: parts.flags & 1,
      isRemote: true,
      ...(trace.tracestate === undefined
        ? {}
        : { traceState: api.createTraceState(trace.tracestate) }),
    });
  }

  #start(event: CallStart): void {
    const api = this.#api;
    const served = event.transport === "http" || event.transport === "mcp";
    const span = this.#tracer.startSpan(
      `tools/call ${event.name}`,
      {
        kind: served ? api.SpanKind.SERVER : api.SpanKind.INTERNAL,
        startTime: event.startedAt,
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": event.name,
          ...(event.transport === "mcp"
            ? { "mcp.method.name": "tools/call" }
            : {}),
          "beeuni.agent": event.agent,
          "beeuni.session.id": event.sessionId,
          "beeuni.transport": event.transport,
        },
      },
      this.#parent(event.traceContext),
    );
    this.#open.set(event.id, { span, startedAt: event.startedAt });
  }

  #end(event: CallEnd): void {
    const open = this.#open.get(event.id);
    if (open === undefined) return;
    this.#open.delete(event.id);
    const { span, startedAt: start } = open;
    const api = this.#api;
    const outcome = event.outcome;
    const phases = event.phases;
    // The children's times are finer than the clock's milliseconds: the
    // call ends no earlier than its run.
    const end = Math.max(
      Date.now(),
      phases === undefined ? 0 : start + phases.queuedMs + phases.runMs,
    );
    span.setAttributes({
      "beeuni.outcome": outcomeLabel(outcome),
      "beeuni.output.bytes": outcomeBytes(outcome),
      "beeuni.output.truncated": outcome.truncated === true,
    });
    if (!outcome.ok) {
      span.setAttribute("error.type", outcome.status);
      span.setStatus({
        code: api.SpanStatusCode.ERROR,
        message: outcome.status,
      });
    }
    if (phases !== undefined) {
      const inside = api.trace.setSpan(api.ROOT_CONTEXT, span);
      const sent = start + phases.queuedMs;
      const child = (name: string, from: number, to: number) =>
        this.#tracer.startSpan(name, { startTime: from }, inside).end(to);
      child("queue", start, sent);
      if (phases.runnerStartMs !== undefined) {
        child("runner start", sent - phases.runnerStartMs, sent);
      }
      child(`run ${event.name}`, sent, sent + phases.runMs);
    }
    span.end(end);
  }

  #reload(event: Reload): void {
    const api = this.#api;
    const span = this.#tracer.startSpan("reload", {
      startTime: event.startedAt ?? Date.now(),
      attributes: {
        "beeuni.reload.ok": event.ok,
        "beeuni.reload.changed": event.changed,
        "beeuni.reload.tools": event.reloaded ?? [],
      },
    }, api.ROOT_CONTEXT);
    if (!event.ok) span.setStatus({ code: api.SpanStatusCode.ERROR });
    span.end();
  }
}
