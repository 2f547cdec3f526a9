// What a call's model reads, worked out where the tool ran: its return
// value as text, any thrown value as a message. Nothing here
// may throw or hang on a hostile value.

import { contentReturn, contentText } from "./_content.ts";
import type { CallResult } from "./_protocol.ts";

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

/** Drops terminal colour codes some runtimes put into error messages. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

const HINT = "return a string or a JSON value";

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function jsonOf(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(
      value,
      function (this: unknown, key: string, inner: unknown): unknown {
        const where = key === "" ? "" : ` at key "${key}"`;
        if (typeof inner === "bigint") {
          throw new Error(
            `the tool returned a BigInt${where}, which JSON cannot hold: ${HINT}`,
          );
        }
        if (typeof inner === "function" || typeof inner === "symbol") {
          throw new Error(
            `the tool returned a ${typeof inner}${where}, which JSON cannot hold: ${HINT}`,
          );
        }
        return inner;
      },
      2,
    );
  } catch (error) {
    const detail = safeMessage(error);
    if (detail.startsWith("the tool")) throw new Error(detail);
    if (/circular|cyclic/i.test(detail)) {
      throw new Error(
        `the tool returned a value with a cycle, which JSON cannot hold: ${HINT}`,
      );
    }
    throw new Error(
      `the tool returned a value that cannot be turned into JSON: ${
        stripAnsi(detail)
      }`,
    );
  }
  if (text === undefined) {
    throw new Error(`the tool returned a value that JSON cannot hold: ${HINT}`);
  }
  return text;
}

/**
 * The text the model reads for a value `execute` returned: a string as
 * is, any other JSON value as JSON indented by two spaces. Throws an
 * `Error` with a clear message for `undefined`, BigInt, functions, symbols
 * and cycles.
 */
export function resultText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) {
    throw new Error(`the tool returned undefined: ${HINT}`);
  }
  return jsonOf(value);
}

/** The outcome of a returned value: its text, and what else a caller may use. */
export function returnedResult(value: unknown): CallResult {
  const blocks = contentReturn(value);
  if (blocks) {
    const result: CallResult = {
      ok: true,
      output: contentText(blocks.content),
      content: blocks.content,
    };
    if (blocks.structured) result.structured = blocks.structured;
    return result;
  }
  const output = resultText(value);
  return isPlainObject(value)
    ? { ok: true, output, object: true }
    : { ok: true, output };
}

function readField(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** `String(value)` that never throws. */
function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "a value that cannot be shown";
  }
}

function safeMessage(error: unknown): string {
  try {
    if (error instanceof Error) return safeString(readField(error, "message"));
  } catch {
    // A Proxy whose traps throw.
  }
  return safeString(error);
}

function describeObject(thrown: object): string {
  const message = readField(thrown, "message");
  if (typeof message === "string" && message.trim() !== "") {
    return stripAnsi(message);
  }
  try {
    const json = JSON.stringify(thrown);
    if (json !== undefined) return `the tool threw ${json}`;
  } catch {
    // Fall through to the generic description.
  }
  return "the tool threw an object that has no message";
}

function describeError(thrown: Error): string {
  const message = stripAnsi(safeString(readField(thrown, "message") ?? ""))
    .trim();
  const rawName = readField(thrown, "name");
  const name = typeof rawName === "string" && rawName !== ""
    ? rawName
    : "Error";
  if (message === "") return `the tool threw ${name} with no message`;
  return name === "Error" ? message : `${name}: ${message}`;
}

/**
 * A readable message for any thrown value: an `Error`'s message
 * (prefixed with its name when that is not plain `Error`), a string as is,
 * an object's `message` or its JSON, and a description for anything else.
 * Never throws: getters and Proxy traps that throw are read as absent.
 */
export function thrownMessage(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return describeError(thrown);
    if (typeof thrown === "string") {
      return thrown.trim() === ""
        ? "the tool threw an empty string"
        : stripAnsi(thrown);
    }
    if (thrown === null || thrown === undefined) {
      return `the tool threw ${thrown}`;
    }
    if (typeof thrown === "object") return describeObject(thrown);
    return `the tool threw ${typeof thrown} ${safeString(thrown)}`;
  } catch {
    return "the tool threw a value that cannot be read";
  }
}
