// Texts over T6's limits: the whole text saved to a private file, the model
// given the head, the size and the path. Applies to outputs and to error
// messages alike (H4). Saved files are kept for a while, within a size cap:
// each save first removes those past their retention time, then the oldest
// until the new one fits (DEFAULT_TMP_RETENTION_MS, DEFAULT_TMP_MAX_BYTES).

import {
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  rename,
  rm,
  writeFile,
} from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { removeStaleTemps, tempPrefix } from "../common/mod.ts";
import {
  countLines,
  MAX_OUTPUT_BYTES,
  MAX_OUTPUT_LINES,
  overLimits,
  truncatedText,
} from "./_truncate.ts";

/** How long a saved output is kept by default: 24 hours. */
export const DEFAULT_TMP_RETENTION_MS = 86_400_000;
/** The most bytes of saved outputs kept in the folder by default: 100 MiB. */
export const DEFAULT_TMP_MAX_BYTES = 104_857_600;

/** The names of saved outputs: `<tool>-<time>-<random>.txt`. */
const SAVED = /^.+-\d+-[0-9a-f]{8}\.txt$/;

/** A text as the model reads it. */
export interface Shaped {
  /** The text, or its head and a notice naming the file. */
  text: string;
  /** Set when the text was cut. */
  truncated?: true;
  /** The whole text's size in bytes, when cut. */
  size?: number;
  /** The file holding the whole text, when cut and saved. */
  path?: string;
}

/** Where and how long cut texts are kept. */
export interface SpillOptions {
  /** The folder; default: `beeuni-tools-<uid>` under the system's temporary folder. */
  dir?: string;
  /** The most bytes of saved texts kept in the folder. */
  maxBytes?: number;
  /** Saved texts older than this are removed, in milliseconds. */
  retentionMs?: number;
}

/**
 * The user's own folder for saved outputs, shared by their hosts so that
 * each cleans what the others left: `<tmp>/beeuni-tools-<uid>`, mode 0700.
 * Undefined when it cannot be trusted (another owner, a symlink, open
 * permissions) or there are no user ids.
 */
async function sharedFolder(): Promise<string | undefined> {
  let uid: number | undefined;
  try {
    uid = process.getuid?.();
  } catch {
    uid = undefined;
  }
  if (uid === undefined) return undefined;
  const dir = join(tmpdir(), `beeuni-tools-${uid}`);
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST") return undefined;
  }
  try {
    const info = await lstat(dir);
    if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o077) !== 0) {
      return undefined;
    }
  } catch {
    return undefined;
  }
  return dir;
}

/** Where cut texts go, and their cleanup. */
export class Spill {
  #dir?: string;
  #made = false;
  readonly #maxBytes: number;
  readonly #retentionMs: number;
  /** Saves run one at a time, so each sweep sees the one before it. */
  #queue: Promise<unknown> = Promise.resolve();

  /** Saves into `options.dir`, or into the user's folder under the system's temporary folder. */
  constructor(options: SpillOptions = {}) {
    this.#dir = options.dir;
    this.#maxBytes = options.maxBytes ?? DEFAULT_TMP_MAX_BYTES;
    this.#retentionMs = options.retentionMs ?? DEFAULT_TMP_RETENTION_MS;
  }

  async #folder(): Promise<string> {
    if (this.#dir === undefined) {
      this.#dir = await sharedFolder() ??
        await mkdtemp(join(tmpdir(), "beeuni-tools-"));
      this.#made = true;
    } else if (!this.#made) {
      await mkdir(this.#dir, { recursive: true, mode: 0o700 });
      this.#made = true;
    }
    return this.#dir;
  }

  /**
   * Removes saved texts past their retention time, then the oldest until
   * `incoming` more bytes fit within the cap, and temporary files a killed
   * save left.
   */
  async #sweep(dir: string, incoming: number): Promise<void> {
    removeStaleTemps(dir);
    const now = Date.now();
    const kept: { path: string; size: number; mtime: number }[] = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isFile() || !SAVED.test(entry.name)) continue;
      const path = join(dir, entry.name);
      try {
        const info = await lstat(path);
        if (now - info.mtimeMs > this.#retentionMs) {
          await rm(path, { force: true });
        } else kept.push({ path, size: info.size, mtime: info.mtimeMs });
      } catch {
        // Removed meanwhile by another host sharing the folder.
      }
    }
    kept.sort((a, b) => a.mtime - b.mtime);
    let total = kept.reduce((sum, file) => sum + file.size, 0);
    for (const file of kept) {
      if (total + incoming <= this.#maxBytes) break;
      await rm(file.path, { force: true });
      total -= file.size;
    }
  }

  /** Applies the retention rule to the folder, when one was used or given. */
  async cleanup(): Promise<void> {
    if (this.#dir === undefined) return;
    const dir = this.#dir;
    await (this.#queue = this.#queue.then(() => this.#sweep(dir, 0)))
      .catch(() => {});
  }

  async #save(tool: string, text: string, bytes: number): Promise<string> {
    const dir = await this.#folder();
    await this.#sweep(dir, bytes);
    const base = `${tool}-${Date.now()}-${randomBytes(4).toString("hex")}.txt`;
    const path = join(dir, base);
    const temp = join(
      dir,
      `${tempPrefix(path)}${randomBytes(8).toString("hex")}.tmp`,
    );
    try {
      await writeFile(temp, text, { mode: 0o600, flag: "wx" });
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return path;
  }

  /** `text` as the model reads it (T6): whole when within both limits, else cut and saved. */
  async shape(tool: string, text: string): Promise<Shaped> {
    // UTF-8 takes at most 3 bytes per UTF-16 unit, and a text has at most
    // one line per unit: short texts skip the byte count.
    if (
      text.length <= MAX_OUTPUT_LINES ||
      (text.length * 3 <= MAX_OUTPUT_BYTES &&
        countLines(text) <= MAX_OUTPUT_LINES)
    ) return { text };
    const bytes = new TextEncoder().encode(text).length;
    if (!overLimits(text, bytes)) return { text };
    if (bytes > this.#maxBytes) {
      const cut = truncatedText(text, { notSaved: this.#maxBytes });
      return { text: cut.text, truncated: true, size: cut.size };
    }
    const saving = this.#queue.then(() => this.#save(tool, text, bytes));
    this.#queue = saving.catch(() => {});
    const path = await saving;
    const cut = truncatedText(text, { path });
    return { text: cut.text, truncated: true, size: cut.size, path };
  }
}
