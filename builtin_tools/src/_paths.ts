/**
 * The path checks `memory` and `show` share: text that could name another
 * file than it reads is refused before it is resolved.
 *
 * @module
 */

import { relative, sep } from "node:path";

/**
 * Throws when the path text `text` (of argument `argName`) holds a NUL or
 * other control character, a backslash or a percent-encoded character.
 */
export function refuseAmbiguousPath(text: string, argName: string): void {
  if (text.includes("\0")) {
    throw new Error(
      `${argName} "${text.replaceAll("\0", "\\0")}" contains a NUL byte`,
    );
  }
  if ([...text].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) {
    throw new Error(`${argName} "${text}" contains a control character`);
  }
  if (text.includes("\\")) {
    throw new Error(
      `${argName} "${text}" contains a backslash: separate folders with "/"`,
    );
  }
  if (/%[0-9a-fA-F]{2}/.test(text)) {
    throw new Error(
      `${argName} "${text}" contains a percent-encoded character: write the path plainly`,
    );
  }
}

/** Whether `target` is `base` or inside it (both absolute, resolved). */
export function isInside(base: string, target: string): boolean {
  const rel = relative(base, target);
  return rel === "" ||
    (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}
