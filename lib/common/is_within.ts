/**
 * Whether a path lies in a folder, compared as written (callers resolve
 * links first where that matters).
 *
 * @module
 */

import { sep } from "node:path";

/**
 * Whether the absolute `path` is `folder` or lies inside it.
 *
 * @example
 * ```ts
 * import { isWithin } from "./is_within.ts";
 * isWithin("/p/tools/x.ts", "/p"); // true
 * isWithin("/p2/x.ts", "/p"); // false
 * ```
 */
export function isWithin(path: string, folder: string): boolean {
  return path === folder ||
    path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}
