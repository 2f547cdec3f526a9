/**
 * Removing the temporary files a killed writer left behind: files named
 * `.<name>.<16 hex digits>.tmp`, the shape {@linkcode writeFileAtomic}
 * writes, older than a grace period so that a writer still at work never
 * loses its file.
 *
 * @module
 */

import { lstatSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** How old a temporary file must be before {@linkcode removeStaleTemps} removes it: 60 seconds. */
export const STALE_TEMP_MS = 60_000;

const TEMP_NAME = /^\.(.+)\.[0-9a-f]{16}\.tmp$/;

/** The file a temporary file named `name` was written for, or undefined when `name` is not one. */
export function tempTarget(name: string): string | undefined {
  return TEMP_NAME.exec(name)?.[1];
}

/** Options of {@linkcode removeStaleTemps}. */
export interface StaleTempOptions {
  /** Only temporary files written for these names; default: any. */
  names?: string[];
  /**
   * Only files last modified at least this long ago, in milliseconds;
   * default {@linkcode STALE_TEMP_MS}. Pass 0 only when no writer can be
   * at work (it holds a lock every writer takes).
   */
  graceMs?: number;
}

/**
 * Removes the temporary files of {@linkcode writeFileAtomic}'s shape in
 * `dir` (not in its subfolders) that are older than the grace period;
 * returns the paths removed. A missing or unreadable folder removes
 * nothing; a file that cannot be removed is skipped.
 */
export function removeStaleTemps(
  dir: string,
  options: StaleTempOptions = {},
): string[] {
  const grace = options.graceMs ?? STALE_TEMP_MS;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  const now = Date.now();
  for (const name of names) {
    const target = tempTarget(name);
    if (target === undefined) continue;
    if (options.names && !options.names.includes(target)) continue;
    const path = join(dir, name);
    try {
      const info = lstatSync(path);
      if (info.isDirectory() || now - info.mtimeMs < grace) continue;
      rmSync(path);
      removed.push(path);
    } catch {
      // Gone already, or not ours to remove: leave it.
    }
  }
  return removed;
}

/**
 * Removes every temporary file a writer of `path` left beside it, however
 * young: for a file whose every writer holds its lock, called under that
 * lock, where no writer can be at work.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { removeTempsOf } from "./stale_temps.ts";
 *
 * const dir = mkdtempSync(join(tmpdir(), "temps_"));
 * writeFileSync(join(dir, ".token.0123456789abcdef.tmp"), "");
 * removeTempsOf(join(dir, "token"));
 * assert.deepEqual(readdirSync(dir), []);
 * ```
 */
export function removeTempsOf(path: string): string[] {
  return removeStaleTemps(dirname(path), {
    names: [basename(path)],
    graceMs: 0,
  });
}
