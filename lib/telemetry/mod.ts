/**
 * What the daemon tells about itself: metrics of its calls, runners and
 * reloads (as plain data, and as Prometheus text), the call record on
 * disk, and (when configured) OpenTelemetry traces and metrics over OTLP.
 *
 * @module
 */

export type {
  HistogramPoint,
  MetricFamily,
  MetricLabels,
  MetricPoint,
} from "./metric_family.ts";
export {
  CallMetrics,
  type CallMetricsOptions,
  type CallOutcomeLabel,
  DURATION_BOUNDS,
  MAX_OTHER_AGENTS,
  type MeteredHost,
  outcomeBytes,
  outcomeLabel,
  type ProcessMemory,
} from "./call_metrics.ts";
export { PROMETHEUS_CONTENT_TYPE, prometheusText } from "./prometheus_text.ts";
export {
  CALL_RECORD_FILE,
  CallRecorder,
  type CallRecorderOptions,
  type CallRecordLine,
  callRecordPath,
  DEFAULT_RECORD_KEEP,
  DEFAULT_RECORD_MAX_BYTES,
  MIN_REDACTED_LENGTH,
  RECORD_MAX_BYTES_VARIABLE,
  recordCalls,
  type RecordCallsOptions,
  type RecordContent,
  type RecordingCalls,
  recordMaxBytesFrom,
  redactSecrets,
} from "./call_record.ts";
export {
  callRecordFiles,
  followCallRecord,
  type FollowOptions,
  readCallRecord,
  type RecordSink,
  type SkippedLine,
} from "./read_call_record.ts";
export { type OtelSettings, otelSettings } from "./otel_settings.ts";
export {
  type OtlpExport,
  type OtlpExportOptions,
  startOtlpExport,
} from "./start_otlp_export.ts";
export {
  watchCalls,
  type WatchCallsOptions,
  type WatchedCalls,
} from "./watch_calls.ts";
