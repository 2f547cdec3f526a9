// OpenTelemetry's packages, loaded when an OTLP endpoint is configured and
// never before (see importPackage): a bundle leaves them out, and a daemon
// without the variables starts as fast as without them.

import { importPackage } from "../common/mod.ts";
import type * as Api from "@opentelemetry/api";
import type * as Resources from "@opentelemetry/resources";
import type * as SdkTrace from "@opentelemetry/sdk-trace";
import type * as SdkMetrics from "@opentelemetry/sdk-metrics";
import type * as TraceExporter from "@opentelemetry/exporter-trace-otlp-http";
import type * as MetricExporter from "@opentelemetry/exporter-metrics-otlp-http";
import type * as TraceProtoExporter from "@opentelemetry/exporter-trace-otlp-proto";
import type * as MetricProtoExporter from "@opentelemetry/exporter-metrics-otlp-proto";

/**
 * The packages and the versions the toolkit is built and tested with: the
 * exporters require these exact SDK versions, so one copy of each loads.
 */
export const OTEL_VERSIONS = {
  "@opentelemetry/api": "^1.10.0",
  "@opentelemetry/resources": "3.1.0",
  "@opentelemetry/sdk-trace": "3.1.0",
  "@opentelemetry/sdk-metrics": "3.1.0",
  "@opentelemetry/exporter-trace-otlp-http": "0.301.0",
  "@opentelemetry/exporter-metrics-otlp-http": "0.301.0",
  "@opentelemetry/exporter-trace-otlp-proto": "0.301.0",
  "@opentelemetry/exporter-metrics-otlp-proto": "0.301.0",
} as const;

/** Each package's module. */
export type OtelModules = {
  "@opentelemetry/api": typeof Api;
  "@opentelemetry/resources": typeof Resources;
  "@opentelemetry/sdk-trace": typeof SdkTrace;
  "@opentelemetry/sdk-metrics": typeof SdkMetrics;
  "@opentelemetry/exporter-trace-otlp-http": typeof TraceExporter;
  "@opentelemetry/exporter-metrics-otlp-http": typeof MetricExporter;
  "@opentelemetry/exporter-trace-otlp-proto": typeof TraceProtoExporter;
  "@opentelemetry/exporter-metrics-otlp-proto": typeof MetricProtoExporter;
};

/** Imports one of OpenTelemetry's packages. */
export function importOtel<N extends keyof OtelModules>(
  name: N,
): Promise<OtelModules[N]> {
  return importPackage(
    name,
    OTEL_VERSIONS[name],
    "OpenTelemetry's export needs",
    ", or unset the OTEL_EXPORTER_OTLP_* variables",
  );
}
