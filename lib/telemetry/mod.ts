/**
 * What the daemon tells about itself: metrics of its calls, runners and
 * reloads, and (when configured) OpenTelemetry traces.
 *
 * @module
 */

export type {
  HistogramPoint,
  MetricFamily,
  MetricLabels,
  MetricPoint,
} from "./metric_family.ts";
