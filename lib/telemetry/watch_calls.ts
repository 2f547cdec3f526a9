/**
 * A host's calls on record and, when an OTLP endpoint is set, exported as
 * spans (and metrics): what the daemon, `beeuni mcp` and a session each
 * start beside their host.
 *
 * @module
 */

import type { Host } from "../host/mod.ts";
import { recordCalls, recordMaxBytesFrom } from "./call_record.ts";
import type { MetricFamily } from "./metric_family.ts";
import { startOtlpExport } from "./start_otlp_export.ts";

/** What {@linkcode watchCalls} needs. */
export interface WatchCallsOptions {
  /** The project's state folder, where the call record goes. */
  dir: string;
  /** The project's secret values, redacted from the record. */
  secrets: () => Record<string, string>;
  /** The environment: the `OTEL_*` variables and the record's size limit. */
  env: Record<string, string | undefined>;
  /** The metrics exported over OTLP, when there are any. */
  metrics?: () => MetricFamily[];
  /** Where problems are told. */
  log: (line: string) => void;
}

/** A host's calls, watched. */
export interface WatchedCalls {
  /** Stops watching: writes the record's last lines, then sends the last spans and metrics. */
  stop(): Promise<void>;
  /** For an exit that cannot wait: writes the record's last lines at once (spans not yet sent are lost). */
  stopNow(): void;
}

/**
 * Records every call of `host` from now on, then starts the OTLP export
 * when the `OTEL_*` variables name an endpoint (a call made while the SDK
 * loads is still recorded).
 */
export async function watchCalls(
  host: Pick<Host, "subscribe" | "manifest">,
  options: WatchCallsOptions,
): Promise<WatchedCalls> {
  const recording = recordCalls(host, {
    dir: options.dir,
    secrets: options.secrets,
    maxBytes: recordMaxBytesFrom(options.env, options.log),
    log: options.log,
  });
  const otlp = await startOtlpExport({
    env: options.env,
    host,
    metrics: options.metrics,
    log: options.log,
  });
  return {
    async stop(): Promise<void> {
      await recording.stop();
      // Last: the final export holds every call recorded.
      await otlp?.shutdown();
    },
    stopNow(): void {
      recording.stopNow();
    },
  };
}
