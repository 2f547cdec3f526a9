/**
 * The records of a session, read from the events `opencode run --format
 * json` prints (one JSON object a line): `text` for the model's text,
 * `tool_use` for a finished tool call, `error` for a failed session.
 *
 * @module
 */

import type { SessionRecord, ToolCallStatus } from "./record.ts";

/** What one opencode event says for the session. */
export interface OpencodeEventRecords {
  /** The records it adds, in order. */
  records: SessionRecord[];
  /** The session's error, for an `error` event. */
  error?: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/** The status of a tool call opencode reports as failed, from its error text. */
function failedStatus(error: string): ToolCallStatus {
  if (/did not finish within \d+ ms/.test(error)) return "timeout";
  if (/\baborted\b/i.test(error)) return "aborted";
  return "error";
}

/** The two records of a finished opencode tool part. */
function toolRecords(part: Json): SessionRecord[] {
  const state = isObject(part.state) ? part.state : {};
  const status = text(state.status);
  if (status !== "completed" && status !== "error") return [];
  const callId = text(part.callID) ?? text(part.id) ?? "";
  let name = text(part.tool) ?? "";
  let args: unknown = state.input ?? {};
  let result: ToolCallStatus = status === "completed"
    ? "ok"
    : failedStatus(text(state.error) ?? "");
  const output = status === "completed"
    ? text(state.output) ?? JSON.stringify(state.output ?? "")
    : text(state.error) ?? "";
  // A call opencode could not run (a tool it does not offer, or arguments
  // it could not read) reaches the model as its `invalid` tool.
  if (name === "invalid" && isObject(args) && typeof args.tool === "string") {
    const reason = text(args.error) ?? "";
    name = args.tool;
    result = /unavailable tool/i.test(reason) ? "not_found" : "error";
    args = {};
  }
  const time = isObject(state.time) ? state.time : {};
  const durationMs = typeof time.start === "number" &&
      typeof time.end === "number"
    ? Math.max(0, time.end - time.start)
    : 0;
  return [
    { type: "tool-call", callId, name, args },
    { type: "tool-result", callId, name, status: result, output, durationMs },
  ];
}

/** The message of an opencode `error` event. */
function errorText(error: unknown): string {
  if (!isObject(error)) return text(error) ?? "opencode reported an error";
  const data = isObject(error.data) ? error.data : {};
  return text(data.message) ?? text(error.message) ?? text(error.name) ??
    "opencode reported an error";
}

/**
 * The records one line of `opencode run --format json` adds; nothing for
 * a line that is not a JSON event or an event the log does not show
 * (steps, tool calls still running).
 */
export function opencodeEventRecords(line: string): OpencodeEventRecords {
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return { records: [] };
  }
  if (!isObject(event)) return { records: [] };
  const part = isObject(event.part) ? event.part : {};
  switch (event.type) {
    case "text": {
      const said = text(part.text);
      return { records: said ? [{ type: "text", text: said }] : [] };
    }
    case "tool_use":
      return { records: toolRecords(part) };
    case "error":
      return { records: [], error: errorText(event.error) };
    default:
      return { records: [] };
  }
}
