/**
 * OpenTelemetry export of a host's calls and reloads (spans) and of the
 * daemon's metrics, over OTLP/HTTP (protobuf or JSON) with the official JS
 * SDK, when the standard `OTEL_*` variables ask for it. Without them
 * nothing of OpenTelemetry is loaded.
 *
 * @module
 */

import { errorMessage } from "../common/mod.ts";
import type { HostEvent } from "../host/mod.ts";
import type { MetricFamily } from "./metric_family.ts";
import { familiesProducer } from "./_metric_bridge.ts";
import type { Sampler } from "@opentelemetry/sdk-trace";
import { importOtel, type OtelModules } from "./_otel.ts";
import { HostSpans } from "./_spans.ts";
import {
  type OtelSettings,
  otelSettings,
  type SamplerSetting,
} from "./otel_settings.ts";

/** What {@linkcode startOtlpExport} exports, and where it says a failure. */
export interface OtlpExportOptions {
  /**
   * The variables to read `OTEL_*` from (the process environment): whether
   * to export, the endpoints, the protocols, the sampler and the batch
   * timings. The SDK reads the
   * others (headers, timeout, resource attributes, service name) from the
   * process environment itself.
   */
  env: Record<string, string | undefined>;
  /** The host whose calls and reloads become spans. */
  host?: { subscribe(listener: (event: HostEvent) => void): () => void };
  /** The metrics to export, read at each export. */
  metrics?: () => MetricFamily[];
  /** Where the one line about an unreachable collector goes. */
  log: (line: string) => void;
}

/** Export under way; stop it with {@linkcode OtlpExport.shutdown}. */
export interface OtlpExport {
  /** Sends what is pending and stops, waiting at most `timeoutMs` (default 2000). */
  shutdown(timeoutMs?: number): Promise<void>;
}

/** The name the service goes by when `OTEL_SERVICE_NAME` does not say. */
const SERVICE_NAME = "beeuni";

/**
 * Starts exporting spans of `options.host` and `options.metrics` when the
 * `OTEL_*` variables name an OTLP endpoint; resolves to `undefined`, having
 * loaded nothing, when they do not. Never rejects: when the SDK cannot be
 * loaded, one line says so and nothing is exported. A collector that
 * cannot be reached never fails a call: its first failure is said in one
 * line, the rest are dropped silently.
 */
export async function startOtlpExport(
  options: OtlpExportOptions,
): Promise<OtlpExport | undefined> {
  const settings = otelSettings(options.env);
  if (settings === undefined) return undefined;
  for (const note of settings.notes) options.log(`[telemetry] ${note}`);
  if (!settings.traces && !settings.metrics) return undefined;
  try {
    return await started(settings, options);
  } catch (error) {
    options.log(`[telemetry] not exporting: ${errorMessage(error)}`);
    return undefined;
  }
}

async function started(
  settings: OtelSettings,
  options: OtlpExportOptions,
): Promise<OtlpExport> {
  const [api, resources] = await Promise.all([
    importOtel("@opentelemetry/api"),
    importOtel("@opentelemetry/resources"),
  ]);
  const resource = resources.defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": SERVICE_NAME }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  let said = false;
  const sayOnce = (endpoint: string, error: unknown) => {
    if (said) return;
    said = true;
    options.log(
      `[telemetry] cannot export to ${endpoint}: ${
        errorMessage(error)
      }; later failures are not reported`,
    );
  };
  const stops: (() => Promise<void>)[] = [];

  if (settings.traces && options.host !== undefined) {
    const [sdk, { OTLPTraceExporter }] = await Promise.all([
      importOtel("@opentelemetry/sdk-trace"),
      importOtel(
        settings.tracesProtocol === "http/json"
          ? "@opentelemetry/exporter-trace-otlp-http"
          : "@opentelemetry/exporter-trace-otlp-proto",
      ),
    ]);
    const exporter = reporting(
      new OTLPTraceExporter({ url: settings.tracesEndpoint }),
      (error) => sayOnce(settings.tracesEndpoint, error),
    );
    const provider = new sdk.TracerProvider({
      resource,
      // The SDK's tracer provider does not read OTEL_TRACES_SAMPLER itself.
      sampler: sampler(sdk, settings.sampler),
      spanProcessors: [
        new sdk.BatchSpanProcessor({
          exporter,
          scheduledDelayMillis: settings.scheduleDelayMs,
        }),
      ],
    });
    const spans = new HostSpans(api, provider.getTracer("beeuni"));
    const unsubscribe = options.host.subscribe((event) => spans.event(event));
    stops.push(() => {
      unsubscribe();
      return provider.shutdown();
    });
  }

  if (settings.metrics && options.metrics !== undefined) {
    const [sdk, { OTLPMetricExporter }] = await Promise.all([
      importOtel("@opentelemetry/sdk-metrics"),
      importOtel(
        settings.metricsProtocol === "http/json"
          ? "@opentelemetry/exporter-metrics-otlp-http"
          : "@opentelemetry/exporter-metrics-otlp-proto",
      ),
    ]);
    const exporter = reporting(
      new OTLPMetricExporter({ url: settings.metricsEndpoint }),
      (error) => sayOnce(settings.metricsEndpoint, error),
    );
    const provider = new sdk.MeterProvider({
      resource,
      readers: [
        new sdk.PeriodicExportingMetricReader({
          exporter,
          exportIntervalMillis: settings.metricIntervalMs,
          exportTimeoutMillis: Math.min(settings.metricIntervalMs, 30_000),
          metricProducers: [
            familiesProducer(api, sdk, options.metrics, resource),
          ],
        }),
      ],
    });
    stops.push(() => provider.shutdown());
  }

  return {
    async shutdown(timeoutMs = 2_000) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      const done = Promise.allSettled(stops.map((stop) => stop()));
      await Promise.race([done, late]);
      clearTimeout(timer);
    },
  };
}

/** The SDK's sampler for `setting`. */
function sampler(
  sdk: OtelModules["@opentelemetry/sdk-trace"],
  setting: SamplerSetting,
): Sampler {
  const root = setting.name.endsWith("always_off")
    ? new sdk.AlwaysOffSampler()
    : setting.name.endsWith("traceidratio")
    ? new sdk.TraceIdRatioBasedSampler(setting.ratio)
    : new sdk.AlwaysOnSampler();
  return setting.name.startsWith("parentbased_")
    ? new sdk.ParentBasedSampler({ root })
    : root;
}

/** What an OTLP exporter answers for each export. */
interface ExportAnswer {
  /** 0 when it succeeded. */
  code: number;
  error?: Error;
}

/** An exporter of `T` (spans or metrics). */
interface Exporting<T> {
  export(items: T, done: (answer: ExportAnswer) => void): void;
}

/** Makes `exporter` tell `fail` when an export fails; returns it. */
function reporting<E extends Exporting<never>>(
  exporter: E,
  fail: (error: unknown) => void,
): E {
  const send = exporter.export.bind(exporter);
  exporter.export = (items, done) =>
    send(items, (answer) => {
      if (answer.code !== 0) fail(answer.error ?? "the export failed");
      done(answer);
    });
  return exporter;
}
