import { errorMessage } from "../common/mod.ts";
/**
 * What a tool call's model reads: its return value as text (T3), thrown
 * values as readable messages (T4), and the head of an oversized output
 * (T6). Pure functions, shared by the host and its workers.
 *
 * @module
 */

/** T6: outputs longer than this many bytes (UTF-8) are cut. */
export const MAX_OUTPUT_BYTES = 51_200;
/** T6: outputs with more lines than this are cut. */
export const MAX_OUTPUT_LINES = 2_000;

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

/** Drops terminal colour codes some runtimes put into error messages. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

/**
 * The text the model reads for a value `execute` returned (T3): a string as
 * is, any other JSON value as JSON indented by two spaces. Throws an
 * `Error` with a clear message for `undefined`, BigInt, functions, symbols
 * and cycles.
 */
export function resultText(value: unknown): string {
  if (typeof value === "string") return value;
  const hint = "return a string or a JSON value";
  if (value === undefined) {
    throw new Error(`the tool returned undefined: ${hint}`);
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(
      value,
      function (this: unknown, key: string, inner: unknown): unknown {
        const where = key === "" ? "" : ` at key "${key}"`;
        if (typeof inner === "bigint") {
          throw new Error(
            `the tool returned a BigInt${where}, which JSON cannot hold: ${hint}`,
          );
        }
        if (typeof inner === "function" || typeof inner === "symbol") {
          throw new Error(
            `the tool returned a ${typeof inner}${where}, which JSON cannot hold: ${hint}`,
          );
        }
        return inner;
      },
      2,
    );
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("the tool")) {
      throw error;
    }
    const detail = errorMessage(error);
    if (/circular|cyclic/i.test(detail)) {
      throw new Error(
        `the tool returned a value with a cycle, which JSON cannot hold: ${hint}`,
      );
    }
    throw new Error(
      `the tool returned a value that cannot be turned into JSON: ${
        stripAnsi(detail)
      }`,
    );
  }
  if (text === undefined) {
    throw new Error(
      `the tool returned a value that JSON cannot hold: ${hint}`,
    );
  }
  return text;
}

/**
 * A readable message for any thrown value (T4): an `Error`'s message
 * (prefixed with its name when that is not plain `Error`), a string as is,
 * an object's `message` or its JSON, and a description for anything else.
 */
export function thrownMessage(thrown: unknown): string {
  if (thrown instanceof Error) {
    const message = stripAnsi(String(thrown.message ?? "")).trim();
    const name = thrown.name || "Error";
    if (message === "") return `the tool threw ${name} with no message`;
    return name === "Error" ? message : `${name}: ${message}`;
  }
  if (typeof thrown === "string") {
    return thrown.trim() === ""
      ? "the tool threw an empty string"
      : stripAnsi(thrown);
  }
  if (thrown === null || thrown === undefined) {
    return `the tool threw ${thrown}`;
  }
  if (typeof thrown === "object") {
    const message = (thrown as { message?: unknown }).message;
    if (typeof message === "string" && message.trim() !== "") {
      return stripAnsi(message);
    }
    try {
      const json = JSON.stringify(thrown);
      if (json !== undefined) return `the tool threw ${json}`;
    } catch {
      // Fall through to the generic description.
    }
    return `the tool threw an object that has no message`;
  }
  return `the tool threw ${typeof thrown} ${String(thrown)}`;
}

/** How many lines `text` has: a final line without `\n` counts. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let lines = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    lines++;
  }
  return text.endsWith("\n") ? lines : lines + 1;
}

/** Whether `text` is over either T6 limit. */
export function overLimits(
  text: string,
  bytes: number = new TextEncoder().encode(text).length,
): boolean {
  return bytes > MAX_OUTPUT_BYTES || countLines(text) > MAX_OUTPUT_LINES;
}

/**
 * The first part of `bytes` (UTF-8) that has at most `maxLines` lines and
 * `maxBytes` bytes, cut after a `\n` whenever at least one whole line fits,
 * otherwise inside the first line but never inside a UTF-8 character.
 */
export function headBytes(
  bytes: Uint8Array,
  maxBytes: number,
  maxLines: number,
): Uint8Array {
  let end = 0;
  let lines = 0;
  while (lines < maxLines && end < bytes.length) {
    const next = bytes.indexOf(0x0a, end);
    const lineEnd = next === -1 ? bytes.length : next + 1;
    if (lineEnd > maxBytes) break;
    end = lineEnd;
    lines++;
  }
  if (end === 0 && bytes.length > 0 && maxLines > 0) {
    let cut = Math.min(maxBytes, bytes.length);
    while (cut > 0 && cut < bytes.length && (bytes[cut] & 0xc0) === 0x80) {
      cut--;
    }
    end = cut;
  }
  return bytes.subarray(0, end);
}

/** The line a cut output ends with (T6); `path` holds the full output. */
export function truncationNotice(
  shownLines: number,
  totalLines: number,
  shownBytes: number,
  totalBytes: number,
  path: string,
): string {
  return `[output truncated: showing the first ${shownLines} of ${totalLines} lines (${shownBytes} of ${totalBytes} bytes); the full output is in ${path}]`;
}

/**
 * What the model reads for an output over a T6 limit: the head, then (on a
 * line of its own) the {@linkcode truncationNotice}; the whole stays within
 * both limits.
 */
export function truncatedText(
  text: string,
  path: string,
): { text: string; size: number } {
  const bytes = new TextEncoder().encode(text);
  const totalLines = countLines(text);
  // Room for the notice: its longest form with this path, plus its newline.
  const noticeBytes = new TextEncoder().encode(
    truncationNotice(
      totalLines,
      totalLines,
      bytes.length,
      bytes.length,
      path,
    ),
  ).length + 2;
  const head = headBytes(
    bytes,
    Math.max(0, MAX_OUTPUT_BYTES - noticeBytes),
    MAX_OUTPUT_LINES - 1,
  );
  let headText = new TextDecoder().decode(head);
  const shownLines = countLines(headText);
  if (headText !== "" && !headText.endsWith("\n")) headText += "\n";
  const notice = truncationNotice(
    shownLines,
    totalLines,
    head.length,
    bytes.length,
    path,
  );
  return { text: headText + notice, size: bytes.length };
}
