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
}

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
 * What to export given the variables `env`; `undefined` when nothing is
 * (no OTLP endpoint, `OTEL_SDK_DISABLED=true`, or both signals `none`).
 */
export function otelSettings(
  env: Record<string, string | undefined>,
): OtelSettings | undefined {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return undefined;
  const tracesEndpoint = endpoint(env, "TRACES");
  const metricsEndpoint = endpoint(env, "METRICS");
  const traces = tracesEndpoint !== "" && !off(env.OTEL_TRACES_EXPORTER);
  const metrics = metricsEndpoint !== "" && !off(env.OTEL_METRICS_EXPORTER);
  if (!traces && !metrics) return undefined;
  return {
    traces,
    metrics,
    scheduleDelayMs: millis(env.OTEL_BSP_SCHEDULE_DELAY, 5_000),
    metricIntervalMs: millis(env.OTEL_METRIC_EXPORT_INTERVAL, 60_000),
    tracesEndpoint,
    metricsEndpoint,
  };
}
