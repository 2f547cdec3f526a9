// What the daemon tells about its calls: the metrics served at
// `GET /metrics`, the call record written to the state folder, and (when
// an OTLP endpoint is set) spans and metrics over OTLP.

import process from "node:process";
import type { Host } from "../host/mod.ts";
import { json, methodNotAllowed, type Mount } from "../http/mod.ts";
import {
  CallMetrics,
  PROMETHEUS_CONTENT_TYPE,
  prometheusText,
  watchCalls,
} from "../telemetry/mod.ts";

/** The daemon's metrics and call record, running. */
export interface DaemonTelemetry {
  /** Serves `GET /metrics` to the daemon's own token; an agent token gets 403. */
  mount: Mount;
  /** Stops counting and recording; writes the record's last lines. */
  close(): Promise<void>;
  /** For an exit that cannot wait: stops counting and writes the record's last lines at once (spans not yet sent are lost). */
  closeNow(): void;
}

/** What the daemon's telemetry needs to know. */
export interface DaemonTelemetryOptions {
  /** The project's state folder, where the call record goes. */
  stateDir: string;
  /** The project's secret values, redacted from the record. */
  secrets: () => Record<string, string>;
  /** The daemon's environment. */
  env: Record<string, string | undefined>;
  /** Where problems are told. */
  log: (line: string) => void;
}

/**
 * Starts counting `host`'s calls and recording them, and exporting spans
 * and metrics when the `OTEL_*` variables name an OTLP endpoint.
 */
export async function startTelemetry(
  host: Host,
  options: DaemonTelemetryOptions,
): Promise<DaemonTelemetry> {
  const metrics = new CallMetrics(host, {
    memory: () => process.memoryUsage(),
  });
  const detach = metrics.attach();
  const mount: Mount = {
    prefix: "/metrics",
    handler(request, url, principal) {
      if (url.pathname !== "/metrics") return undefined;
      // Every agent's series are here: only the daemon's own token reads them.
      if (principal?.kind !== "daemon") {
        return Promise.resolve(json(403, {
          error:
            "an agent token cannot read the metrics: use the daemon's own token (its token file)",
        }));
      }
      if (request.method !== "GET" && request.method !== "HEAD") {
        return Promise.resolve(methodNotAllowed("GET"));
      }
      return Promise.resolve(
        new Response(prometheusText(metrics.families()), {
          headers: {
            "content-type": PROMETHEUS_CONTENT_TYPE,
            "cache-control": "no-store",
          },
        }),
      );
    },
  };
  const watched = await watchCalls(host, {
    dir: options.stateDir,
    secrets: options.secrets,
    env: options.env,
    metrics: () => metrics.families(),
    log: options.log,
  });
  return {
    mount,
    async close(): Promise<void> {
      detach();
      await watched.stop();
    },
    closeNow(): void {
      detach();
      watched.stopNow();
    },
  };
}
