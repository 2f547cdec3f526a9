/**
 * Metrics as plain data: what the daemon counts, in a shape both of its
 * outlets read (Prometheus' text at `GET /metrics`, and OTLP when it is
 * configured).
 *
 * @module
 */

/** The labels of one series, such as `{ tool: "memory", agent: "build" }`. */
export type MetricLabels = Record<string, string>;

/** One value of a counter or a gauge. */
export interface MetricPoint {
  /** The series' labels. */
  labels: MetricLabels;
  /** Its value now (a counter's total since the start). */
  value: number;
}

/** One series of a histogram. */
export interface HistogramPoint {
  /** The series' labels. */
  labels: MetricLabels;
  /** The buckets' upper bounds, ascending (without +Inf). */
  bounds: number[];
  /** How many observations fell in each bucket, not cumulative: one more than `bounds` (the last is above every bound). */
  counts: number[];
  /** The sum of every observation. */
  sum: number;
  /** How many observations there were. */
  count: number;
}

/** One metric and every series of it. */
export type MetricFamily =
  | {
    /** The metric's name, such as `beeuni_calls_total`. */
    name: string;
    /** One line saying what it counts. */
    help: string;
    /** Its unit, such as `seconds` or `bytes`; absent when it counts things. */
    unit?: string;
    /** A counter only grows; a gauge goes up and down. */
    type: "counter" | "gauge";
    /** Its series. */
    points: MetricPoint[];
  }
  | {
    /** The metric's name, such as `beeuni_call_duration_seconds`. */
    name: string;
    /** One line saying what it measures. */
    help: string;
    /** Its unit, such as `seconds`. */
    unit?: string;
    /** A histogram. */
    type: "histogram";
    /** Its series. */
    points: HistogramPoint[];
  };
