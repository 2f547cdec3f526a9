// Texts over T6's limits: the whole text saved to a private file, the model
// given the head, the size and the path. Applies to outputs and to error
// messages alike (H4). Saved files are kept for a while, within a size cap:
// each save first removes those past their retention time, then the oldest
// until the new one fits (DEFAULT_TMP_RETENTION_MS, DEFAULT_TMP_MAX_BYTES).
//
// A runner cuts a long text where the tool ran and writes it whole to a
// temporary file in the folder (`writeWhole`): the host receives the cut
// and moves the file into place (`Spill.shape` with a `CutText`), so that a
// huge output never crosses to the host. The host cuts what a runner sent
// whole.

import {
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  rename,
  rm,
} from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { removeStaleTemps, tempPrefix, tempTarget } from "../common/mod.ts";
import type { CutText } from "./_protocol.ts";
import { overLimits, truncatedText, utf8Chunks } from "./_truncate.ts";

/** How long a saved output is kept by default: 24 hours. */
export const DEFAULT_TMP_RETENTION_MS = 86_400_000;
/** The most bytes of saved outputs kept in the folder by default: 100 MiB. */
export const DEFAULT_TMP_MAX_BYTES = 104_857_600;

/** The names of saved outputs: `<tool>-<time>-<random>.txt`. */
const SAVED = /^.+-\d+-[0-9a-f]{8}\.txt$/;

/** A new name for a saved output of `tool`: `<tool>-<time>-<random>.txt`. */
export function savedName(tool: string): string {
  return `${tool}-${Date.now()}-${randomBytes(4).toString("hex")}.txt`;
}

/** A new name for the temporary file a save of `name` writes first: `.<name>.<random>.tmp`. */
export function tempName(name: string): string {
  return `${tempPrefix(name)}${randomBytes(8).toString("hex")}.tmp`;
}

/**
 * Writes `text` as UTF-8 to a new file at `path` (mode 0600; fails when it
 * exists), a chunk at a time: the text is never encoded whole. A failed
 * write removes the file.
 */
export async function writeWhole(path: string, text: string): Promise<void> {
  const file = await open(path, "wx", 0o600);
  try {
    for (const chunk of utf8Chunks(text)) {
      for (let done = 0; done < chunk.length;) {
        done += (await file.write(chunk, done, chunk.length - done))
          .bytesWritten;
      }
    }
    await file.close();
  } catch (error) {
    await file.close().catch(() => {});
    // Removing needs no read access, which a confined runner lacks.
    await rm(path, { force: true }).catch(() => {});
    throw error;
  }
}

/** Whether `name` is a saved output of `tool` (`<tool>-<time>-<random>.txt`). */
function savedBy(tool: string, name: string): boolean {
  return name.startsWith(`${tool}-`) &&
    /^\d+-[0-9a-f]{8}\.txt$/.test(name.slice(tool.length + 1));
}

/** Whether `saved` names a saved output and its own temporary file, nothing else. */
function wellNamed(saved: { name: string; temp: string }): boolean {
  return typeof saved.name === "string" && typeof saved.temp === "string" &&
    SAVED.test(saved.name) && !saved.name.includes("/") &&
    tempTarget(saved.temp) === saved.name;
}

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
  #made?: Promise<string>;
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

  /** The cap on saved texts, in bytes. */
  get maxBytes(): number {
    return this.#maxBytes;
  }

  /**
   * The folder, made (or, for the user's shared folder, checked) on first
   * use. Rejects when it cannot be made; a later call tries again.
   */
  folder(): Promise<string> {
    this.#made ??= this.#makeFolder().catch((error) => {
      this.#made = undefined;
      throw error;
    });
    return this.#made;
  }

  async #makeFolder(): Promise<string> {
    if (this.#dir === undefined) {
      this.#dir = await sharedFolder() ??
        await mkdtemp(join(tmpdir(), "beeuni-tools-"));
    } else await mkdir(this.#dir, { recursive: true, mode: 0o700 });
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

  /** Runs `save` after the saves before it. */
  #queued(save: () => Promise<string>): Promise<string> {
    const saving = this.#queue.then(save);
    this.#queue = saving.catch(() => {});
    return saving;
  }

  async #save(tool: string, text: string, bytes: number): Promise<string> {
    const dir = await this.folder();
    await this.#sweep(dir, bytes);
    const name = savedName(tool);
    const temp = join(dir, tempName(name));
    await writeWhole(temp, text);
    try {
      await rename(temp, join(dir, name));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return join(dir, name);
  }

  /**
   * Moves the file a runner wrote for a cut text of `tool` into place, once
   * the sweep made room for it: the temporary file must be a plain file of
   * the text's size in this folder, named as this folder's saves are.
   */
  async #adopt(
    tool: string,
    saved: { name: string; temp: string },
    size: number,
  ): Promise<string> {
    const dir = await this.folder();
    if (!wellNamed(saved) || !savedBy(tool, saved.name)) {
      throw new Error(
        `the runner of tool "${tool}" reported a saved output that is not its own`,
      );
    }
    const temp = join(dir, saved.temp);
    try {
      const info = await lstat(temp);
      if (!info.isFile() || info.size !== size) {
        throw new Error(
          `the runner of tool "${tool}" reported a saved output of ${size} bytes, and its file has ${info.size}`,
        );
      }
      await this.#sweep(dir, size);
      await rename(temp, join(dir, saved.name));
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return join(dir, saved.name);
  }

  /** Removes the temporary file of a cut text no call will report. */
  async discard(cut: CutText): Promise<void> {
    if (!cut.saved || !wellNamed(cut.saved) || this.#dir === undefined) return;
    await rm(join(this.#dir, cut.saved.temp), { force: true }).catch(() => {});
  }

  /**
   * `text` as the model reads it (T6): whole when within both limits, else
   * cut and saved. With `cut`, `text` is a runner's cut of a longer text:
   * its file, if it was saved, is moved into place.
   */
  async shape(tool: string, text: string, cut?: CutText): Promise<Shaped> {
    const size = overLimits(text);
    if (cut && size === undefined && Number.isSafeInteger(cut.size)) {
      if (!cut.saved) return { text, truncated: true, size: cut.size };
      const saved = cut.saved;
      const path = await this.#queued(() => this.#adopt(tool, saved, cut.size));
      return { text, truncated: true, size: cut.size, path };
    }
    // Not a runner's cut after all (no runner sends a cut over the limits).
    if (cut) void this.discard(cut);
    if (size === undefined) return { text };
    if (size.bytes > this.#maxBytes) {
      const cut = truncatedText(text, { notSaved: this.#maxBytes }, size);
      return { text: cut.text, truncated: true, size: cut.size };
    }
    const path = await this.#queued(() => this.#save(tool, text, size.bytes));
    const shaped = truncatedText(text, { path }, size);
    return { text: shaped.text, truncated: true, size: shaped.size, path };
  }
}
