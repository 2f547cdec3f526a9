/**
 * One way to turn anything thrown into the text a person reads.
 *
 * @module
 */

/**
 * The message of a thrown value: an `Error`'s `message`, anything else as
 * `String(value)`. Never throws, even for values whose `message` getter or
 * `toString` throws.
 *
 * @example
 * ```ts
 * import { errorMessage } from "./errors.ts";
 * errorMessage(new Error("file not found")); // "file not found"
 * errorMessage("plain text"); // "plain text"
 * ```
 */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message);
    return String(error);
  } catch {
    return "an error whose message cannot be read";
  }
}
