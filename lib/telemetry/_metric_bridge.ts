// The daemon's metrics (plain MetricFamily data) as the OpenTelemetry
// SDK's ResourceMetrics, for a metric reader to export over OTLP:
// counters as cumulative monotonic sums, gauges as gauges, histograms
// with their explicit bounds.

import type { HrTime } from "@opentelemetry/api";
import type { Resource } from "@opentelemetry/resources";
import type {
  MetricData,
  MetricProducer,
  ResourceMetrics,
} from "@opentelemetry/sdk-metrics";
import type { MetricFamily } from "./metric_family.ts";
import type { OtelModules } from "./_otel.ts";

type Api = OtelModules["@opentelemetry/api"];
type Metrics = OtelModules["@opentelemetry/sdk-metrics"];

/** Milliseconds since the epoch as OpenTelemetry's `[seconds, nanoseconds]`. */
function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

/**
 * `families` as one scope's metrics of `resource`, counted since `startMs`
 * (milliseconds since the epoch) and read at `nowMs`.
 */
export function resourceMetrics(
  api: Api,
  sdk: Metrics,
  families: MetricFamily[],
  resource: Resource,
  startMs: number,
  nowMs: number,
): ResourceMetrics {
  const startTime = hrTime(startMs);
  const endTime = hrTime(nowMs);
  const metrics = families.map((family): MetricData => {
    const descriptor = {
      name: family.name,
      description: family.help,
      unit: family.unit ?? "",
      valueType: api.ValueType.DOUBLE,
    };
    const aggregationTemporality = sdk.AggregationTemporality.CUMULATIVE;
    if (family.type === "histogram") {
      return {
        descriptor,
        aggregationTemporality,
        dataPointType: sdk.DataPointType.HISTOGRAM,
        dataPoints: family.points.map((point) => ({
          startTime,
          endTime,
          attributes: point.labels,
          value: {
            buckets: { boundaries: point.bounds, counts: point.counts },
            sum: point.sum,
            count: point.count,
          },
        })),
      };
    }
    const dataPoints = family.points.map((point) => ({
      startTime,
      endTime,
      attributes: point.labels,
      value: point.value,
    }));
    return family.type === "counter"
      ? {
        descriptor,
        aggregationTemporality,
        dataPointType: sdk.DataPointType.SUM,
        dataPoints,
        isMonotonic: true,
      }
      : {
        descriptor,
        aggregationTemporality,
        dataPointType: sdk.DataPointType.GAUGE,
        dataPoints,
      };
  });
  return { resource, scopeMetrics: [{ scope: { name: "beeuni" }, metrics }] };
}

/** A metric producer that reads `families` at every collection. */
export function familiesProducer(
  api: Api,
  sdk: Metrics,
  families: () => MetricFamily[],
  resource: Resource,
): MetricProducer {
  const startMs = Date.now();
  return {
    collect: () => {
      try {
        return Promise.resolve({
          resourceMetrics: resourceMetrics(
            api,
            sdk,
            families(),
            resource,
            startMs,
            Date.now(),
          ),
          errors: [],
        });
      } catch (error) {
        return Promise.resolve({
          resourceMetrics: { resource, scopeMetrics: [] },
          errors: [error],
        });
      }
    },
  };
}
