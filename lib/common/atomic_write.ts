/**
 * Writing a file so that a reader sees the old bytes or the new ones, never
 * half of them: the data goes to a temporary file in the same folder, is
 * flushed, then renamed over the target.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/** Options of {@linkcode writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** The file mode of the result; default `0o600` (only the owner reads it). */
  mode?: number;
  /** The mode of folders created on the way; default `0o700`. */
  dirMode?: number;
  /** Called with the temporary file's path once it is written and flushed, before the rename. */
  beforeRename?: (temp: string) => void;
}

/** The prefix of temporary files written by {@linkcode writeFileAtomic}: `.<name>.`. */
export function tempPrefix(path: string): string {
  return `.${basename(path)}.`;
}

/**
 * Writes `data` to `path` atomically: through a temporary file
 * `.<name>.<random>.tmp` beside it, flushed to disk, then renamed into
 * place. Missing folders are created. On failure the temporary file is
 * removed and `path` is left as it was.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readFileSync } from "node:fs";
 * import { writeFileAtomic } from "./atomic_write.ts";
 *
 * const dir = await Deno.makeTempDir();
 * writeFileAtomic(`${dir}/x/settings.json`, '{"a":1}\n', { mode: 0o644 });
 * assert.equal(readFileSync(`${dir}/x/settings.json`, "utf8"), '{"a":1}\n');
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): void {
  const mode = options.mode ?? 0o600;
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: options.dirMode ?? 0o700 });
  const temp = join(
    dir,
    `${tempPrefix(path)}${randomBytes(8).toString("hex")}.tmp`,
  );
  const bytes = typeof data === "string"
    ? new TextEncoder().encode(data)
    : data;
  const fd = openSync(temp, "wx", mode);
  try {
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(fd, bytes, written, bytes.length - written);
    }
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
  closeSync(fd);
  try {
    chmodSync(temp, mode);
    options.beforeRename?.(temp);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
