// A local OTLP/HTTP receiver (protobuf or JSON) for the tests that check
// what the toolkit exports: spans with their attributes as plain values,
// and metrics by name.

import { createRequire } from "node:module";
import { join } from "node:path";
import { waitFor } from "./_daemon.ts";
import { npmPackage } from "./_npm_cache.ts";

// deno-lint-ignore no-explicit-any
export type Json = any;

/** One span as the receiver saw it, its attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status: { code?: number; message?: string };
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, unknown>;
  /** The resource's attributes. */
  resource: Record<string, unknown>;
}

function plainValue(value: Json): unknown {
  if ("stringValue" in value) return value.stringValue;
  if ("boolValue" in value) return value.boolValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return value.doubleValue;
  if ("arrayValue" in value) {
    return (value.arrayValue.values ?? []).map(plainValue);
  }
  return value;
}

/** An OTLP attribute list as a plain object. */
export function plainAttributes(
  list: Json[] | undefined,
): Record<string, unknown> {
  return Object.fromEntries(
    (list ?? []).map((a: Json) => [a.key, plainValue(a.value)]),
  );
}

const PROTOBUFJS = ["protobufjs", "8.8.1"] as const;

/**
 * The messages of OTLP's collector services that the receiver reads, with
 * their field numbers as opentelemetry-proto defines them (the fields these
 * tests do not check are left out: a decoder skips them).
 */
const OTLP_PROTO = `
syntax = "proto3";
package otlp;
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message Resource { repeated KeyValue attributes = 1; }
message Scope { string name = 1; string version = 2; }
message Status { string message = 2; int32 code = 3; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  Status status = 15;
}
message ScopeSpans { Scope scope = 1; repeated Span spans = 2; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message NumberDataPoint {
  repeated KeyValue attributes = 7;
  fixed64 start_time_unix_nano = 2;
  fixed64 time_unix_nano = 3;
  oneof value { double as_double = 4; sfixed64 as_int = 6; }
}
message HistogramDataPoint {
  repeated KeyValue attributes = 9;
  fixed64 count = 4;
  double sum = 5;
  repeated fixed64 bucket_counts = 6;
  repeated double explicit_bounds = 7;
}
message Gauge { repeated NumberDataPoint data_points = 1; }
message Sum {
  repeated NumberDataPoint data_points = 1;
  int32 aggregation_temporality = 2;
  bool is_monotonic = 3;
}
message Histogram {
  repeated HistogramDataPoint data_points = 1;
  int32 aggregation_temporality = 2;
}
message Metric {
  string name = 1;
  string description = 2;
  string unit = 3;
  oneof data { Gauge gauge = 5; Sum sum = 7; Histogram histogram = 9; }
}
message ScopeMetrics { Scope scope = 1; repeated Metric metrics = 2; }
message ResourceMetrics { Resource resource = 1; repeated ScopeMetrics scope_metrics = 2; }
message ExportMetricsServiceRequest { repeated ResourceMetrics resource_metrics = 1; }
`;

/** Decodes an OTLP protobuf request to the shape OTLP/JSON has (ids in hex). */
type ProtobufDecoder = (path: string, body: Uint8Array) => Json;

let decoder: Promise<ProtobufDecoder> | undefined;

/** protobufjs, installed into the tests' cache on first need, reading {@linkcode OTLP_PROTO}. */
function protobufDecoder(): Promise<ProtobufDecoder> {
  decoder ??= (async () => {
    const modules = await npmPackage(...PROTOBUFJS);
    const protobuf = createRequire(import.meta.url)(
      join(modules, PROTOBUFJS[0]),
    );
    const { root } = protobuf.parse(OTLP_PROTO);
    const types: Record<string, Json> = {
      "/v1/traces": root.lookupType("otlp.ExportTraceServiceRequest"),
      "/v1/metrics": root.lookupType("otlp.ExportMetricsServiceRequest"),
    };
    const hex = (bytes: number[] | undefined) =>
      bytes?.map((b) => b.toString(16).padStart(2, "0")).join("");
    return (path, body) => {
      const type = types[path];
      const request = type.toObject(type.decode(body), {
        longs: String,
        bytes: Array,
        arrays: true,
      });
      for (const rs of request.resourceSpans ?? []) {
        for (const ss of rs.scopeSpans) {
          for (const span of ss.spans) {
            span.traceId = hex(span.traceId);
            span.spanId = hex(span.spanId);
            span.parentSpanId = hex(span.parentSpanId);
            span.status ??= {};
          }
        }
      }
      return request;
    };
  })();
  return decoder;
}

/** A local OTLP/HTTP receiver recording what is POSTed to /v1/traces and /v1/metrics. */
export class Receiver {
  readonly traces: Json[] = [];
  readonly metrics: Json[] = [];
  readonly contentTypes = new Set<string>();
  /** The content type of each path's exports. */
  readonly contentTypeOf: Record<string, Set<string>> = {};
  /** The `x-collector-key` header of each export. */
  readonly keys = new Set<string | null>();
  readonly #server: Deno.HttpServer<Deno.NetAddr>;

  constructor() {
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      async (request) => {
        const path = new URL(request.url).pathname;
        const type = request.headers.get("content-type") ?? "";
        this.contentTypes.add(type);
        (this.contentTypeOf[path] ??= new Set()).add(type);
        this.keys.add(request.headers.get("x-collector-key"));
        if (path !== "/v1/traces" && path !== "/v1/metrics") {
          return new Response("not found", { status: 404 });
        }
        const protobuf = type === "application/x-protobuf";
        const body = protobuf
          ? (await protobufDecoder())(path, await request.bytes())
          : await request.json();
        (path === "/v1/traces" ? this.traces : this.metrics).push(body);
        // An empty ExportServiceResponse: full success.
        return protobuf
          ? new Response(new Uint8Array(), {
            headers: { "content-type": "application/x-protobuf" },
          })
          : Response.json({});
      },
    );
  }

  get url(): string {
    return `http://127.0.0.1:${this.#server.addr.port}`;
  }

  /** Every span received so far. */
  spans(): ReceivedSpan[] {
    return this.traces.flatMap((body) =>
      body.resourceSpans.flatMap((rs: Json) =>
        rs.scopeSpans.flatMap((ss: Json) =>
          ss.spans.map((span: Json) => ({
            ...span,
            parentSpanId: span.parentSpanId || undefined,
            attributes: plainAttributes(span.attributes),
            resource: plainAttributes(rs.resource.attributes),
          }))
        )
      )
    );
  }

  /** Waits for the span `name` matching `match`, and returns it. */
  async span(
    name: string,
    match: (span: ReceivedSpan) => boolean = () => true,
  ): Promise<ReceivedSpan> {
    let found: ReceivedSpan | undefined;
    await waitFor(`the span "${name}"`, () => {
      found = this.spans().find((s) => s.name === name && match(s));
      return found !== undefined;
    });
    return found!;
  }

  /** The children of span `parent`, by name. */
  children(parent: ReceivedSpan): Record<string, ReceivedSpan> {
    return Object.fromEntries(
      this.spans().filter((s) =>
        s.parentSpanId === parent.spanId && s.traceId === parent.traceId
      ).map((s) => [s.name, s]),
    );
  }

  /** Every metric received so far, by name (the last export's). */
  metricsByName(): Record<string, Json> {
    const out: Record<string, Json> = {};
    for (const body of this.metrics) {
      for (const rm of body.resourceMetrics) {
        for (const sm of rm.scopeMetrics) {
          for (const metric of sm.metrics) out[metric.name] = metric;
        }
      }
    }
    return out;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.#server.shutdown();
  }
}

/** The variables that send OTLP/JSON to `receiver`, batched briefly. */
export function otelEnv(receiver: Receiver): Record<string, string> {
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_BSP_SCHEDULE_DELAY: "50",
    OTEL_SERVICE_NAME: "beeuni-under-test",
    OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=test",
    OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=k1",
  };
}

/** The trace id of the caller's {@linkcode TRACEPARENT}. */
export const CALLER_TRACE = "0af7651916cd43dd8448eb211c80319c";
/** The span id of the caller's {@linkcode TRACEPARENT}. */
export const CALLER_SPAN = "b7ad6b7169203331";
/** A caller's W3C `traceparent` that a call's span continues. */
export const TRACEPARENT = `00-${CALLER_TRACE}-${CALLER_SPAN}-01`;
