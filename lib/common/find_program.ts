/**
 * Finding a program on `PATH` the way a shell does, without running it.
 *
 * @module
 */

import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import type { Env } from "./dirs.ts";

/**
 * The absolute path of the first executable file named `name` in the
 * folders of `env.PATH` (relative entries are skipped), or `undefined`
 * when there is none.
 *
 * @example Whether the GitHub CLI is installed
 * ```ts
 * import { findProgram } from "./find_program.ts";
 *
 * const gh = findProgram("gh", { PATH: "/usr/local/bin:/usr/bin" });
 * console.log(gh ?? "gh is not installed");
 * ```
 */
export function findProgram(name: string, env: Env): string | undefined {
  for (const folder of (env.PATH ?? "").split(delimiter)) {
    if (!isAbsolute(folder)) continue;
    const path = join(folder, name);
    try {
      if (!statSync(path).isFile()) continue;
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      continue;
    }
  }
  return undefined;
}
