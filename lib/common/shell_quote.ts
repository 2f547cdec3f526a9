/**
 * Quoting a word for a POSIX shell, for commands the toolkit prints.
 *
 * @module
 */

/**
 * `text` as one POSIX shell word: in single quotes, each `'` written as
 * `'\''`.
 *
 * @example
 * ```ts
 * import { shellQuote } from "./shell_quote.ts";
 *
 * console.log(`gh pr create --title ${shellQuote("It's done")}`);
 * // gh pr create --title 'It'\''s done'
 * ```
 */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
