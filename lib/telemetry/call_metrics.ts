/**
 * `CallMetrics`: counts a host's calls, their durations and outcomes, its
 * reloads, runners and memory, fed by the host's events, as plain
 * {@linkcode MetricFamily} data. Cheap: each event updates a few numbers.
 *
 * Series stay bounded: a tool label is a tool of the served tool set or
 * `(unknown)`; an agent label is an agent the manifest declares, one of
 * the first {@linkcode MAX_OTHER_AGENTS} other names seen, or `(other)`.
 *
 * @module
 */

import type { CallOutcome, Host, HostEvent } from "../host/mod.ts";
import { utf8Length } from "../common/mod.ts";
import type {
  HistogramPoint,
  MetricFamily,
  MetricLabels,
  MetricPoint,
} from "./metric_family.ts";

/** The upper bounds of the call duration histogram, in seconds: 5 ms to 5 minutes. */
export const DURATION_BOUNDS: readonly number[] = [
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
  10,
  30,
  60,
  120,
  300,
];

/** How many agent names the manifest does not declare get series of their own. */
export const MAX_OTHER_AGENTS = 32;

/** How a call ended, as the `outcome` label says it. */
export type CallOutcomeLabel =
  | "ok"
  | "error"
  | "timeout"
  | "aborted"
  | "forbidden"
  | "not_found";

/** The daemon's own memory, as `process.memoryUsage()` gives it. */
export interface ProcessMemory {
  /** Resident set size, in bytes. */
  rss: number;
  /** JavaScript heap in use, in bytes. */
  heapUsed: number;
}

/** The part of a host the metrics read. */
export type MeteredHost = Pick<
  Host,
  "subscribe" | "toolSet" | "manifest" | "running" | "runners"
>;

/** Options of {@linkcode CallMetrics}. */
export interface CallMetricsOptions {
  /** The process's memory; without it no memory series. */
  memory?: () => ProcessMemory;
}

/** The outcome label of `outcome`. */
export function outcomeLabel(outcome: CallOutcome): CallOutcomeLabel {
  return outcome.ok ? "ok" : outcome.status;
}

/** The bytes a call's outcome carried: its output or error message (its full size when cut). */
export function outcomeBytes(outcome: CallOutcome): number {
  if (outcome.truncated && outcome.size !== undefined) return outcome.size;
  return utf8Length(outcome.ok ? outcome.output : outcome.error);
}

class Counter {
  readonly values = new Map<string, MetricPoint>();

  add(labels: MetricLabels, by = 1): void {
    const key = JSON.stringify(labels);
    const point = this.values.get(key);
    if (point) point.value += by;
    else this.values.set(key, { labels, value: by });
  }

  points(): MetricPoint[] {
    return [...this.values.values()].map((point) => ({ ...point }));
  }
}

class Histogram {
  readonly series = new Map<string, HistogramPoint>();

  observe(labels: MetricLabels, value: number): void {
    const key = JSON.stringify(labels);
    let point = this.series.get(key);
    if (!point) {
      point = {
        labels,
        bounds: [...DURATION_BOUNDS],
        counts: new Array(DURATION_BOUNDS.length + 1).fill(0),
        sum: 0,
        count: 0,
      };
      this.series.set(key, point);
    }
    let bucket = DURATION_BOUNDS.findIndex((bound) => value <= bound);
    if (bucket === -1) bucket = DURATION_BOUNDS.length;
    point.counts[bucket]++;
    point.sum += value;
    point.count++;
  }

  points(): HistogramPoint[] {
    return [...this.series.values()].map((point) => ({
      ...point,
      bounds: [...point.bounds],
      counts: [...point.counts],
    }));
  }
}

/**
 * A host's metrics, kept up to date from its events once {@linkcode attach}ed.
 *
 * @example Count a host's calls and print them as Prometheus text
 * ```ts ignore (needs a running host)
 * const metrics = new CallMetrics(host, { memory: () => process.memoryUsage() });
 * const detach = metrics.attach();
 * await host.call({ name: "echo", args: {}, sessionId: "s", agent: "build" });
 * console.log(prometheusText(metrics.families()));
 * detach();
 * ```
 */
export class CallMetrics {
  readonly #host: MeteredHost;
  readonly #options: CallMetricsOptions;
  readonly #calls = new Counter();
  readonly #errors = new Counter();
  readonly #timeouts = new Counter();
  readonly #outputBytes = new Counter();
  readonly #reloads = new Counter();
  readonly #durations = new Histogram();
  readonly #otherAgents = new Set<string>();

  /** Metrics of `host`; nothing is counted until {@linkcode attach}. */
  constructor(host: MeteredHost, options: CallMetricsOptions = {}) {
    this.#host = host;
    this.#options = options;
  }

  /** Starts counting the host's events; returns a function that stops. */
  attach(): () => void {
    return this.#host.subscribe((event) => this.observe(event));
  }

  /** Counts one host event (a call's end, a reload; a call's start counts nothing). */
  observe(event: HostEvent): void {
    if (event.type === "reload") {
      this.#reloads.add({ outcome: event.ok ? "ok" : "failed" });
      return;
    }
    if (event.type !== "call-end") return;
    const tool = this.#toolLabel(event.name);
    const agent = this.#agentLabel(event.agent);
    const outcome = outcomeLabel(event.outcome);
    this.#calls.add({ tool, agent, transport: event.transport, outcome });
    if (outcome !== "ok") this.#errors.add({ tool, agent });
    if (outcome === "timeout") this.#timeouts.add({ tool, agent });
    this.#outputBytes.add({ tool, agent }, outcomeBytes(event.outcome));
    this.#durations.observe({ tool, agent }, event.durationMs / 1000);
  }

  #toolLabel(name: string): string {
    const known = this.#host.toolSet().tools.some((tool) => tool.name === name);
    return known ? name : "(unknown)";
  }

  #agentLabel(name: string): string {
    const declared = this.#host.manifest().files.some((file) =>
      file.agents.some((agent) => agent.name === name)
    );
    if (declared || this.#otherAgents.has(name)) return name;
    if (this.#otherAgents.size >= MAX_OTHER_AGENTS) return "(other)";
    this.#otherAgents.add(name);
    return name;
  }

  /** Every metric now, as plain data. */
  families(): MetricFamily[] {
    const gauge = (value: number): MetricPoint[] => [{ labels: {}, value }];
    const families: MetricFamily[] = [
      {
        name: "beeuni_calls_total",
        help: "Tool calls that ended, by tool, agent, transport and outcome.",
        type: "counter",
        points: this.#calls.points(),
      },
      {
        name: "beeuni_call_errors_total",
        help: "Tool calls that did not answer (every outcome but ok).",
        type: "counter",
        points: this.#errors.points(),
      },
      {
        name: "beeuni_call_timeouts_total",
        help: "Tool calls stopped at their timeout.",
        type: "counter",
        points: this.#timeouts.points(),
      },
      {
        name: "beeuni_call_duration_seconds",
        help: "How long tool calls took, from arrival to answer.",
        unit: "seconds",
        type: "histogram",
        points: this.#durations.points(),
      },
      {
        name: "beeuni_call_output_bytes_total",
        help:
          "Bytes of the outputs and error messages calls returned (full size when cut).",
        unit: "bytes",
        type: "counter",
        points: this.#outputBytes.points(),
      },
      {
        name: "beeuni_calls_running",
        help: "Tool calls running now.",
        type: "gauge",
        points: gauge(this.#host.running()),
      },
      {
        name: "beeuni_runners",
        help: "Tool runner processes alive now, busy or idle.",
        type: "gauge",
        points: gauge(this.#host.runners()),
      },
      {
        name: "beeuni_reloads_total",
        help:
          "Reloads of the manifest or the tool modules, by outcome (ok or failed).",
        type: "counter",
        points: this.#reloads.points(),
      },
    ];
    const memory = this.#options.memory?.();
    if (memory) {
      families.push(
        {
          name: "beeuni_process_resident_memory_bytes",
          help: "Resident memory of the serving process, in bytes.",
          unit: "bytes",
          type: "gauge",
          points: gauge(memory.rss),
        },
        {
          name: "beeuni_process_heap_used_bytes",
          help: "JavaScript heap in use in the serving process, in bytes.",
          unit: "bytes",
          type: "gauge",
          points: gauge(memory.heapUsed),
        },
      );
    }
    return families;
  }
}
