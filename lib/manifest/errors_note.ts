/**
 * Why a command that edits the manifest refuses a manifest with errors.
 *
 * @module
 */

import type { Diagnostic } from "./types.ts";

/**
 * `<manifestPath> has N error(s) (first: file:line:col: message); run
 * beeuni validate and fix it/them first`, for `errors` (at least one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { manifestErrorsNote } from "./errors_note.ts";
 *
 * assert.equal(
 *   manifestErrorsNote("beeuni.yaml", [{
 *     file: "beeuni.yaml", line: 2, col: 3, severity: "error", rule: "V1",
 *     message: "bad name",
 *   }]),
 *   "beeuni.yaml has 1 error (first: beeuni.yaml:2:3: bad name); run beeuni validate and fix it first",
 * );
 * ```
 */
export function manifestErrorsNote(
  manifestPath: string,
  errors: readonly Diagnostic[],
): string {
  const first = errors[0];
  const one = errors.length === 1;
  return `${manifestPath} has ${errors.length} ${
    one ? "error" : "errors"
  } (first: ${first.file}:${first.line}:${first.col}: ${first.message}); run beeuni validate and fix ${
    one ? "it" : "them"
  } first`;
}
