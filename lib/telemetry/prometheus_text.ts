/**
 * Metrics in Prometheus' text exposition format, version 0.0.4.
 *
 * @module
 */

import type { MetricFamily, MetricLabels } from "./metric_family.ts";

/** The `content-type` of {@linkcode prometheusText}'s output. */
export const PROMETHEUS_CONTENT_TYPE =
  "text/plain; version=0.0.4; charset=utf-8";

/** A label value with `\`, `"` and line feeds escaped, as the format wants. */
function escapeLabel(value: string): string {
  return value.replace(
    /[\\"\n]/g,
    (char) => char === "\n" ? "\\n" : `\\${char}`,
  );
}

/** A `# HELP` text with `\` and line feeds escaped. */
function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (char) => char === "\n" ? "\\n" : "\\\\");
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

function formatLabels(labels: MetricLabels): string {
  const pairs = Object.entries(labels).map(([name, value]) =>
    `${name}="${escapeLabel(value)}"`
  );
  return pairs.length === 0 ? "" : `{${pairs.join(",")}}`;
}

function sample(name: string, labels: MetricLabels, value: number): string {
  return `${name}${formatLabels(labels)} ${formatValue(value)}\n`;
}

/**
 * `families` as Prometheus text (format 0.0.4): `# HELP` and `# TYPE`
 * lines, then one sample per series; a histogram's buckets cumulative,
 * with `le="+Inf"`, `_sum` and `_count`.
 *
 * @returns The text, ending with a line feed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { prometheusText } from "./prometheus_text.ts";
 *
 * const text = prometheusText([{
 *   name: "beeuni_runners",
 *   help: "Runners alive.",
 *   type: "gauge",
 *   points: [{ labels: {}, value: 2 }],
 * }]);
 * assert.equal(
 *   text,
 *   "# HELP beeuni_runners Runners alive.\n# TYPE beeuni_runners gauge\nbeeuni_runners 2\n",
 * );
 * ```
 */
export function prometheusText(families: readonly MetricFamily[]): string {
  let text = "";
  for (const family of families) {
    text += `# HELP ${family.name} ${escapeHelp(family.help)}\n`;
    text += `# TYPE ${family.name} ${family.type}\n`;
    if (family.type !== "histogram") {
      for (const point of family.points) {
        text += sample(family.name, point.labels, point.value);
      }
      continue;
    }
    for (const point of family.points) {
      let cumulative = 0;
      point.bounds.forEach((bound, index) => {
        cumulative += point.counts[index];
        text += sample(
          `${family.name}_bucket`,
          { ...point.labels, le: formatValue(bound) },
          cumulative,
        );
      });
      text += sample(
        `${family.name}_bucket`,
        { ...point.labels, le: "+Inf" },
        point.count,
      );
      text += sample(`${family.name}_sum`, point.labels, point.sum);
      text += sample(`${family.name}_count`, point.labels, point.count);
    }
  }
  return text;
}
