/**
 * A session's records as `beeuni sessions log` prints them: the prompt,
 * the model's text, and each tool call with its arguments, status,
 * duration and the output the model read.
 *
 * @module
 */

import { escapeControl } from "../common/mod.ts";
import { type SessionRecord, summarize } from "./record.ts";

const indent = (text: string) =>
  escapeControl(text, { keepNewlines: true }).replace(/^/gm, "    ");

/** The text of a session's log. */
export function formatSessionLog(records: SessionRecord[]): string {
  const summary = summarize(records);
  const lines: string[] = [];
  if (summary) {
    lines.push(
      `session ${summary.id}  agent ${
        escapeControl(summary.agent)
      }  harness ${summary.harness}  model ${
        escapeControl(summary.model)
      }  started ${summary.startedAt}  ${summary.status}`,
      "",
      "prompt:",
      indent(summary.prompt),
    );
  }
  for (const record of records) {
    switch (record.type) {
      case "text":
        lines.push("", "model:", indent(record.text));
        break;
      case "tool-call":
        lines.push(
          "",
          `tool call ${escapeControl(record.name)} ${
            escapeControl(JSON.stringify(record.args ?? {}))
          }`,
        );
        break;
      case "tool-result":
        lines.push(
          "",
          `tool result ${
            escapeControl(record.name)
          }: ${record.status} in ${record.durationMs} ms; the model read:`,
          indent(record.output),
        );
        break;
      case "end":
        lines.push(
          "",
          record.status === "done"
            ? `end: done at ${record.endedAt}`
            : `end: failed at ${record.endedAt}: ${
              escapeControl(record.error ?? "")
            }`,
        );
        break;
    }
  }
  return lines.join("\n") + "\n";
}
