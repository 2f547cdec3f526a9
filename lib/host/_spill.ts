// Texts over the output limits: the whole text saved to a private file, the model
// given the head, the size and the path. Applies to outputs and to error
// messages alike. The folder is the project's own, and runners may
// write there (not read or list it): before each save and at close a sweep
// removes whatever is in it past its retention time, then the oldest until
// the new text fits (DEFAULT_TMP_RETENTION_MS, DEFAULT_TMP_MAX_BYTES),
// whatever their names, and anything not a file at once; it looks at
// SWEEP_ENTRIES entries at most.
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
  rename,
  rm,
  rmdir,
  unlink,
} from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import {
  projectKey,
  STALE_TEMP_MS,
  tempPrefix,
  tempTarget,
} from "../common/mod.ts";
import { firstEntries } from "../runtime/mod.ts";
import type { CutText } from "./_protocol.ts";
import { overLimits, truncatedText, utf8Chunks } from "./_truncate.ts";

/** How long a saved output is kept by default: 24 hours. */
export const DEFAULT_TMP_RETENTION_MS = 86_400_000;
/** The most bytes of saved outputs kept in the folder by default: 100 MiB. */
export const DEFAULT_TMP_MAX_BYTES = 104_857_600;

/**
 * The most entries one sweep looks at, in the folder and in the folders a
 * runner made there, so that a folder a runner filled with millions of
 * entries costs a save no more than this many.
 */
export const SWEEP_ENTRIES = 2_000;

/**
 * The most folders one sweep removes: removing a folder can cost a
 * millisecond or more (a file, a few microseconds).
 */
export const SWEEP_FOLDERS = 50;

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
  /** The folder; default: the project's own under the user's, see {@linkcode projectFolder}. */
  dir?: string;
  /** The project root, whose folder is the default. */
  project?: string;
  /** The most bytes of saved texts kept in the folder. */
  maxBytes?: number;
  /** Saved texts older than this are removed, in milliseconds. */
  retentionMs?: number;
}

/**
 * Makes `dir` (mode 0700) unless it exists, and says whether it can be
 * trusted: a folder, not a symlink, owned by `uid`, with no permission
 * for anyone else.
 */
async function trustedFolder(dir: string, uid: number): Promise<boolean> {
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST") return false;
  }
  try {
    const info = await lstat(dir);
    return info.isDirectory() && info.uid === uid && (info.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/**
 * The project's own folder for saved outputs, in the user's:
 * `<tmp>/beeuni-tools-<uid>/<16 hex digits of the project's key>`, each
 * mode 0700, so that a project's sweep never touches another's outputs.
 * Undefined when either level cannot be trusted (another owner, a symlink,
 * open permissions) or there are no user ids.
 */
async function projectFolder(project: string): Promise<string | undefined> {
  let uid: number | undefined;
  try {
    uid = process.getuid?.();
  } catch {
    uid = undefined;
  }
  if (uid === undefined) return undefined;
  const user = join(tmpdir(), `beeuni-tools-${uid}`);
  const dir = join(user, projectKey(project).slice(0, 16));
  if (!await trustedFolder(user, uid) || !await trustedFolder(dir, uid)) {
    return undefined;
  }
  return dir;
}

/** What a sweep may still do: entries to look at, folders to remove. */
interface Budget {
  entries: number;
  folders: number;
}

/** Runs `act` on each of `items`, 32 at a time (one at a time is several times slower under Deno). */
async function inBatches<T>(
  items: T[],
  act: (item: T) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += 32) {
    await Promise.all(items.slice(i, i + 32).map(act));
  }
}

/** An entry to remove, and whether it is a folder. */
interface Entry {
  path: string;
  folder: boolean;
}

/** `paths` as {@linkcode Entry}s, those that still exist. */
async function entriesAt(paths: string[]): Promise<Entry[]> {
  const found: Entry[] = [];
  await inBatches(paths, async (path) => {
    try {
      found.push({ path, folder: (await lstat(path)).isDirectory() });
    } catch {
      // Gone already.
    }
  });
  return found;
}

/**
 * Removes each of `entries` (folders, symlinks, pipes: anything a runner
 * may make), never following a symlink, within `budget`: a folder is
 * emptied first, one at a time; one it could not remove stays for the
 * next sweep.
 */
async function removeEntries(entries: Entry[], budget: Budget): Promise<void> {
  const full: string[] = [];
  await inBatches(entries, async ({ path, folder }) => {
    try {
      if (!folder) return await unlink(path);
      if (budget.folders <= 0) return;
      budget.folders--;
      await rmdir(path);
    } catch (error) {
      if ((error as { code?: string }).code === "ENOTEMPTY") full.push(path);
    }
  });
  for (const path of full) {
    if (budget.entries <= 0 || budget.folders <= 0) return;
    try {
      const { names } = await firstEntries(path, budget.entries);
      budget.entries -= names.length;
      const inside = await entriesAt(names.map((name) => join(path, name)));
      await removeEntries(inside, budget);
      budget.folders--;
      await rmdir(path);
    } catch {
      // Gone already, or not empty yet: the next sweep goes on.
    }
  }
}

/** Removes the file at `path`, unless it is gone already. */
async function removeFile(path: string): Promise<void> {
  await unlink(path).catch(() => {});
}

/** A file the size sweep may remove. */
interface Kept {
  path: string;
  size: number;
  mtime: number;
}

/** Where cut texts go, and their cleanup. */
export class Spill {
  #dir?: string;
  readonly #project?: string;
  #made?: Promise<string>;
  readonly #maxBytes: number;
  readonly #retentionMs: number;
  /** Saves run one at a time, so each sweep sees the one before it. */
  #queue: Promise<unknown> = Promise.resolve();

  /** Saves into `options.dir`, or into the project's folder under the system's temporary folder. */
  constructor(options: SpillOptions = {}) {
    this.#dir = options.dir;
    this.#project = options.project;
    this.#maxBytes = options.maxBytes ?? DEFAULT_TMP_MAX_BYTES;
    this.#retentionMs = options.retentionMs ?? DEFAULT_TMP_RETENTION_MS;
  }

  /** The cap on saved texts, in bytes. */
  get maxBytes(): number {
    return this.#maxBytes;
  }

  /**
   * The folder, made (or, for the project's folder, checked) on first
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
      const own = this.#project === undefined
        ? undefined
        : await projectFolder(this.#project);
      this.#dir = own ?? await mkdtemp(join(tmpdir(), "beeuni-tools-"));
    } else await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    return this.#dir;
  }

  /**
   * Sweeps the folder, looking at {@linkcode SWEEP_ENTRIES} entries at
   * most: removes anything not a plain file (a runner may make folders,
   * symlinks, pipes), every file past its retention time and every
   * temporary file a killed writer left (60 seconds old), then the oldest
   * files until `incoming` more bytes fit within the cap. Temporary files
   * being written (younger than 60 seconds) and `keep` stay and do not
   * count. A folder holding more entries than a sweep looks at is
   * flooded: of those it looked at, the older half goes too.
   */
  async #sweep(dir: string, incoming: number, keep?: string): Promise<void> {
    const budget = { entries: SWEEP_ENTRIES, folders: SWEEP_FOLDERS };
    const { names, more } = await firstEntries(dir, budget.entries);
    budget.entries -= names.length;
    const now = Date.now();
    const kept: Kept[] = [];
    const notFiles: Entry[] = [];
    await inBatches(names, async (name) => {
      if (name === keep) return;
      const path = join(dir, name);
      try {
        const info = await lstat(path);
        const age = now - info.mtimeMs;
        const temp = tempTarget(name) !== undefined;
        if (!info.isFile()) {
          notFiles.push({ path, folder: info.isDirectory() });
        } else if (temp && age < STALE_TEMP_MS) return;
        else if (temp || age > this.#retentionMs) await unlink(path);
        else kept.push({ path, size: info.size, mtime: info.mtimeMs });
      } catch {
        // Removed meanwhile.
      }
    });
    await removeEntries(notFiles, budget);
    kept.sort((a, b) => a.mtime - b.mtime);
    const most = more ? Math.floor(kept.length / 2) : kept.length;
    let total = kept.reduce((sum, file) => sum + file.size, 0);
    let cut = 0;
    while (
      cut < kept.length &&
      (total + incoming > this.#maxBytes || kept.length - cut > most)
    ) total -= kept[cut++].size;
    await inBatches(kept.slice(0, cut), (file) => removeFile(file.path));
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
      await this.#sweep(dir, size, saved.temp);
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
   * `text` as the model reads it: whole when within both limits, else
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
