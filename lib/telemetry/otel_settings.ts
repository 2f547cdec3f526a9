/**
 * Whether, and what, to export over OTLP, from the standard `OTEL_*`
 * variables: nothing is exported (and nothing of OpenTelemetry loaded)
 * unless an OTLP endpoint is set.
 *
 * @module
 */

/** What to export, read from the standard `OTEL_*` variables. */
export interface OtelSettings {
  /** Export spans (`OTEL_EXPORTER_OTLP_ENDPOINT` or `…_TRACES_ENDPOINT` set, `OTEL_TRACES_EXPORTER` not `none`). */
  traces: boolean;
  /** Export metrics (`OTEL_EXPORTER_OTLP_ENDPOINT` or `…_METRICS_ENDPOINT` set, `OTEL_METRICS_EXPORTER` not `none`). */
  metrics: boolean;
  /** How long spans wait to go in one batch (`OTEL_BSP_SCHEDULE_DELAY`, milliseconds; default 5000). */
  scheduleDelayMs: number;
  /** How often metrics are exported (`OTEL_METRIC_EXPORT_INTERVAL`, milliseconds; default 60000). */
  metricIntervalMs: number;
  /** Where traces go, for the one line said when the collector cannot be reached. */
  tracesEndpoint: string;
  /** Where metrics go. */
  metricsEndpoint: string;
  /** How spans are encoded (`OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`; default `http/protobuf`). */
  tracesProtocol: OtlpProtocol;
  /** How metrics are encoded (`OTEL_EXPORTER_OTLP_METRICS_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`; default `http/protobuf`). */
  metricsProtocol: OtlpProtocol;
  /** Which traces are sampled (`OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`). */
  sampler: SamplerSetting;
  /** One line for each variable whose value is not used, saying what to change. */
  notes: string[];
}

/** The OTLP/HTTP encodings exported: protobuf (the default) and JSON. */
export type OtlpProtocol = "http/protobuf" | "http/json";

/** The standard samplers, by their `OTEL_TRACES_SAMPLER` names. */
export const SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;

/** A sampler and, for the ratio samplers, the share of traces kept. */
export interface SamplerSetting {
  /** The sampler's standard name. */
  name: typeof SAMPLERS[number];
  /** The share of traces kept, from 0 to 1 (`OTEL_TRACES_SAMPLER_ARG`; default 1). */
  ratio: number;
}

const PROTOCOLS: readonly string[] = ["http/protobuf", "http/json"];

/** A positive whole number of milliseconds from `value`, else `fallback`. */
function millis(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value.trim() !== "" && Number.isFinite(n) &&
      n > 0
    ? Math.round(n)
    : fallback;
}

/** Whether the exporter list `value` (such as `otlp` or `none`) turns export off. */
function off(value: string | undefined): boolean {
  return value !== undefined &&
    value.split(",").map((name) => name.trim().toLowerCase()).includes("none");
}

/** The endpoint for `signal` (`traces`, `metrics`), the signal's own variable first. */
function endpoint(
  env: Record<string, string | undefined>,
  signal: "TRACES" | "METRICS",
): string {
  const own = env[`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`]?.trim();
  if (own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!base) return "";
  return `${base.replace(/\/+$/, "")}/v1/${signal.toLowerCase()}`;
}

/**
 * The protocol of `signal`, the signal's own variable first: a
 * {@linkcode OtlpProtocol}, or the variable and its value when they name
 * another (`grpc`, or a value no OTLP exporter knows).
 */
function protocol(
  env: Record<string, string | undefined>,
  signal: "TRACES" | "METRICS",
): OtlpProtocol | { variable: string; value: string } {
  for (
    const variable of [
      `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`,
      "OTEL_EXPORTER_OTLP_PROTOCOL",
    ]
  ) {
    const value = env[variable]?.trim();
    if (!value) continue;
    return PROTOCOLS.includes(value.toLowerCase())
      ? value.toLowerCase() as OtlpProtocol
      : { variable, value };
  }
  return "http/protobuf";
}

/** The sampler `OTEL_TRACES_SAMPLER` names, and a note when its value or its argument is not used. */
function sampler(
  env: Record<string, string | undefined>,
  notes: string[],
): SamplerSetting {
  const given = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() || undefined;
  let name: SamplerSetting["name"] = "parentbased_always_on";
  if (given !== undefined) {
    if ((SAMPLERS as readonly string[]).includes(given)) {
      name = given as SamplerSetting["name"];
    } else {
      notes.push(
        `OTEL_TRACES_SAMPLER "${given}" is not supported, sampling as parentbased_always_on: use one of ${
          SAMPLERS.join(", ")
        }`,
      );
    }
  }
  const arg = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!name.endsWith("traceidratio") || !arg) return { name, ratio: 1 };
  const ratio = Number(arg);
  if (Number.isFinite(ratio) && ratio >= 0 && ratio <= 1) {
    return { name, ratio };
  }
  notes.push(
    `OTEL_TRACES_SAMPLER_ARG "${arg}" is not a ratio, sampling every trace: use a number from 0 to 1`,
  );
  return { name, ratio: 1 };
}

/**
 * What to export given the variables `env`; `undefined` when nothing is
 * (no OTLP endpoint, `OTEL_SDK_DISABLED=true`, or both signals `none`).
 * A signal whose protocol is not supported is not exported: `notes` say
 * why, once for each variable.
 */
export function otelSettings(
  env: Record<string, string | undefined>,
): OtelSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  const tracesEndpoint = endpoint(env, "TRACES");
  const metricsEndpoint = endpoint(env, "METRICS");
  const wanted = {
    traces: tracesEndpoint !== "" && !off(env.OTEL_TRACES_EXPORTER),
    metrics: metricsEndpoint !== "" && !off(env.OTEL_METRICS_EXPORTER),
  };
  if (!wanted.traces && !wanted.metrics) return undefined;
  const protocols = {
    traces: protocol(env, "TRACES"),
    metrics: protocol(env, "METRICS"),
  };
  // The signals each unusable variable stops, said in one line per variable.
  const refused = new Map<string, { value: string; signals: string[] }>();
  for (const signal of ["traces", "metrics"] as const) {
    const chosen = protocols[signal];
    if (!wanted[signal] || typeof chosen === "string") continue;
    const entry = refused.get(chosen.variable) ??
      { value: chosen.value, signals: [] };
    entry.signals.push(signal);
    refused.set(chosen.variable, entry);
  }
  const notes = [...refused].map(([variable, { value, signals }]) =>
    `not exporting ${signals.join(" or ")}: ${variable} "${value}" ${
      value.toLowerCase() === "grpc"
        ? "is not supported"
        : "is not an OTLP protocol"
    }: use http/protobuf or http/json`
  );
  const traces = wanted.traces && typeof protocols.traces === "string";
  const metrics = wanted.metrics && typeof protocols.metrics === "string";
  return {
    traces,
    metrics,
    scheduleDelayMs: millis(env.OTEL_BSP_SCHEDULE_DELAY, 5_000),
    metricIntervalMs: millis(env.OTEL_METRIC_EXPORT_INTERVAL, 60_000),
    tracesEndpoint,
    metricsEndpoint,
    tracesProtocol: typeof protocols.traces === "string"
      ? protocols.traces
      : "http/protobuf",
    metricsProtocol: typeof protocols.metrics === "string"
      ? protocols.metrics
      : "http/protobuf",
    // A sampler's note is news only when spans are exported.
    sampler: sampler(env, traces ? notes : []),
    notes,
  };
}
