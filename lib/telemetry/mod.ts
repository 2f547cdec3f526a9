/**
 * What the daemon tells about itself: metrics of its calls, runners and
 * reloads, and (when configured) OpenTelemetry traces and metrics over
 * OTLP.
 *
 * @module
 */

export type {
  HistogramPoint,
  MetricFamily,
  MetricLabels,
  MetricPoint,
} from "./metric_family.ts";
export { type OtelSettings, otelSettings } from "./otel_settings.ts";
export {
  startTelemetry,
  type Telemetry,
  type TelemetryOptions,
} from "./start_telemetry.ts";
