// The host's check of what a runner sends: a runner runs tool code,
// and tool code can write anything to the channel. Every message is parsed
// and checked against the protocol's types before the host acts on it;
// texts meant for the log are cut. Pure.

import { MAX_LINE_CHARS } from "./_channel.ts";
import { contentReturn, isPlainObject } from "./_content.ts";
import type {
  CallResult,
  CutText,
  LoadReport,
  SourceAt,
  ToHost,
} from "./_protocol.ts";

/** Why a message breaks the protocol. */
class Broken extends Error {}

/** The most results one `results` message may carry. */
const MAX_RESULTS = 100_000;
/** The longest tool name or file name a message may carry. */
const MAX_NAME_CHARS = 4_096;

function fail(what: string): never {
  throw new Broken(what);
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (!isPlainObject(value)) fail(`${what} is not an object`);
  return value;
}

function text(value: unknown, what: string, max?: number): string {
  if (typeof value !== "string") fail(`${what} is not a string`);
  if (max !== undefined && value.length > max) {
    fail(`${what} is ${value.length} characters long`);
  }
  return value;
}

function integer(value: unknown, what: string): number {
  if (!Number.isSafeInteger(value)) fail(`${what} is not an integer`);
  return value as number;
}

function count(value: unknown, what: string): number {
  const n = integer(value, what);
  if (n < 0) fail(`${what} is negative`);
  return n;
}

function finite(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    fail(`${what} is not a finite number`);
  }
  return value;
}

function flag(value: unknown, what: string): true | undefined {
  if (value === undefined) return undefined;
  if (value !== true) fail(`${what} is not true`);
  return true;
}

function sourceAt(value: unknown): SourceAt | undefined {
  if (value === undefined) return undefined;
  const at = record(value, "at");
  return {
    file: text(at.file, "at.file", MAX_NAME_CHARS),
    line: count(at.line, "at.line"),
    col: count(at.col, "at.col"),
  };
}

function cutText(value: unknown): CutText | undefined {
  if (value === undefined) return undefined;
  const cut = record(value, "cut");
  const size = count(cut.size, "cut.size");
  if (cut.saved === undefined) return { size };
  const saved = record(cut.saved, "cut.saved");
  return {
    size,
    saved: {
      name: text(saved.name, "cut.saved.name", MAX_NAME_CHARS),
      temp: text(saved.temp, "cut.saved.temp", MAX_NAME_CHARS),
    },
  };
}

function loadReport(message: Record<string, unknown>): LoadReport {
  const name = text(message.name, "name", MAX_NAME_CHARS);
  if (message.ok === true) {
    return {
      name,
      ok: true,
      description: text(message.description, "description"),
      parameters: record(message.parameters, "parameters"),
    };
  }
  if (message.ok !== false) fail("ok is not a boolean");
  const at = sourceAt(message.at);
  return {
    name,
    ok: false,
    reason: text(message.reason, "reason"),
    ...(at ? { at } : {}),
  };
}

function succeeded(message: Record<string, unknown>): CallResult {
  const result: Extract<CallResult, { ok: true }> = {
    ok: true,
    output: text(message.output, "output"),
  };
  if (flag(message.object, "object")) result.object = true;
  if (message.content !== undefined || message.structured !== undefined) {
    if (message.content === undefined) fail("structured comes without content");
    // The same check a tool's returned blocks get in its runner.
    const blocks = contentReturn({
      content: message.content,
      ...(message.structured === undefined
        ? {}
        : { structuredContent: message.structured }),
    });
    if (!blocks) fail("content is not a list of content blocks");
    result.content = blocks.content;
    if (blocks.structured) result.structured = blocks.structured;
  }
  const cut = cutText(message.cut);
  if (cut) result.cut = cut;
  return result;
}

function callResult(message: Record<string, unknown>): CallResult {
  if (message.ok === true) return succeeded(message);
  if (message.ok !== false) fail("ok is not a boolean");
  // A runner fails a call; only the host times it out or aborts it.
  if (message.status !== "error") fail('status is not "error"');
  const result: Extract<CallResult, { ok: false }> = {
    ok: false,
    status: "error",
    error: text(message.error, "error"),
  };
  if (flag(message.notRun, "notRun")) result.notRun = true;
  const cut = cutText(message.cut);
  if (cut) result.cut = cut;
  return result;
}

function resultEntry(value: unknown): { id: number } & CallResult {
  const entry = record(value, "a result");
  return { id: integer(entry.id, "id"), ...callResult(entry) };
}

function results(value: unknown): ToHost {
  if (!Array.isArray(value)) fail("results is not a list");
  if (value.length === 0 || value.length > MAX_RESULTS) {
    fail(`results holds ${value.length} entries`);
  }
  return { t: "results", results: value.map(resultEntry) };
}

function progress(message: Record<string, unknown>): ToHost {
  const checked: Extract<ToHost, { t: "progress" }> = {
    t: "progress",
    id: integer(message.id, "id"),
    progress: finite(message.progress, "progress"),
  };
  if (message.total !== undefined) {
    checked.total = finite(message.total, "total");
  }
  if (message.message !== undefined) {
    checked.message = text(message.message, "message").slice(
      0,
      MAX_LINE_CHARS,
    );
  }
  return checked;
}

function checked(message: Record<string, unknown>): ToHost {
  switch (message.t) {
    case "ready":
      return { t: "ready" };
    case "load-done":
      return { t: "load-done" };
    case "loading":
      return { t: "loading", name: text(message.name, "name", MAX_NAME_CHARS) };
    case "loaded":
      return { t: "loaded", ...loadReport(message) };
    case "result":
      return {
        t: "result",
        id: integer(message.id, "id"),
        ...callResult(message),
      };
    case "results":
      return results(message.results);
    case "progress":
      return progress(message);
    case "log":
      return {
        t: "log",
        text: text(message.text, "text").slice(0, MAX_LINE_CHARS),
      };
    case "pong":
      return { t: "pong", id: integer(message.id, "id") };
    default:
      return fail(
        typeof message.t === "string"
          ? `unknown message type ${JSON.stringify(message.t.slice(0, 40))}`
          : "the message has no type",
      );
  }
}

/**
 * The message a runner sent as the line `line`, checked and rebuilt from
 * the fields the protocol knows (texts for the log cut to one line's
 * length), or why it breaks the protocol.
 */
export function checkMessage(line: string): ToHost | { broken: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { broken: "a message is not JSON" };
  }
  try {
    return checked(record(value, "the message"));
  } catch (error) {
    if (error instanceof Broken) return { broken: error.message };
    throw error;
  }
}
