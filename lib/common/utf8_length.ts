/**
 * The UTF-8 size of a text, counted without encoding it.
 *
 * @module
 */

/**
 * How many bytes `text` takes in UTF-8, as `TextEncoder` would write it: a
 * surrogate pair takes 4, and a lone surrogate 3 (it is written as U+FFFD).
 *
 * @returns The number of bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { utf8Length } from "./utf8_length.ts";
 *
 * assert.equal(utf8Length("é€😀"), 9);
 * ```
 */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) {
      bytes += 1;
      continue;
    }
    if (unit >= 0xd800 && unit < 0xdc00) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        // Two units, four bytes.
        bytes += 2;
        i++;
        continue;
      }
    }
    bytes += 2;
  }
  return bytes;
}
