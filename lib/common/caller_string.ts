/**
 * The one length limit on the short strings a caller names things with:
 * session ids, agent and tool names, request ids, progress tokens, header
 * values and query parameters. Every transport checks them before a call
 * reaches the host, so that no caller can make the daemon keep, log or
 * echo megabytes of a name.
 *
 * @module
 */

/** The most characters (UTF-16 units) a caller-supplied name, id or token may have. */
export const MAX_CALLER_STRING = 400;

/**
 * Why `value` is too long to take from a caller, or `undefined` when it is
 * within {@linkcode MAX_CALLER_STRING}. `what` names it as the message
 * should: a field in quotes (`"sessionId"`), or words (`the Mcp-Session-Id
 * header`).
 *
 * @example
 * ```ts
 * import { callerStringProblem } from "./caller_string.ts";
 * callerStringProblem('"sessionId"', "s".repeat(500));
 * // '"sessionId" is 500 characters long: the limit is 400'
 * callerStringProblem('"sessionId"', "s1"); // undefined
 * ```
 */
export function callerStringProblem(
  what: string,
  value: string,
): string | undefined {
  return value.length <= MAX_CALLER_STRING
    ? undefined
    : `${what} is ${value.length} characters long: the limit is ${MAX_CALLER_STRING}`;
}
