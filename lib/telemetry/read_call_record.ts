/**
 * Reading the call record: every line, oldest first across the rotated
 * files, and following the record as lines are appended (across a
 * rotation too). A line that is not a record is skipped and told, never
 * thrown; a last line without its line feed is still being written and
 * is read once it is whole.
 *
 * @module
 */

import {
  closeSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from "node:fs";
import { Buffer } from "node:buffer";
import { isPlainObject } from "../common/mod.ts";
import { CALL_RECORD_FILE, callRecordPath } from "./call_record.ts";
import type { CallRecordLine } from "./call_record.ts";

/** A line of the record that could not be read. */
export interface SkippedLine {
  /** The file holding it. */
  file: string;
  /** Its 1-based line number in that file (counted from where reading began). */
  line: number;
}

/** What a reader is told: each record line, and each line skipped. */
export interface RecordSink {
  /** Receives one record. */
  line(record: CallRecordLine): void;
  /** Receives a line that is not a record. */
  skipped(where: SkippedLine): void;
}

/** The record's files in the state folder `dir`, oldest first; empty when there is none. */
export function callRecordFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const rotated = names
    .map((name) => /^calls\.([1-9][0-9]*)\.jsonl$/.exec(name)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => b - a);
  const files = rotated.map((n) => callRecordPath(dir, n));
  if (names.includes(CALL_RECORD_FILE)) files.push(callRecordPath(dir));
  return files;
}

function isRecord(value: unknown): value is CallRecordLine {
  return isPlainObject(value) && typeof value.time === "string" &&
    typeof value.tool === "string" && typeof value.outcome === "string";
}

/** Reads the whole lines of `text` into `sink`; returns the bytes of the whole lines read. */
function takeLines(
  text: Buffer,
  file: string,
  lineNo: { n: number },
  sink: RecordSink,
): number {
  let start = 0;
  for (;;) {
    const end = text.indexOf(10, start);
    if (end === -1) return start;
    const raw = text.subarray(start, end).toString("utf8");
    start = end + 1;
    lineNo.n++;
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = undefined;
    }
    if (isRecord(value)) sink.line(value);
    else sink.skipped({ file, line: lineNo.n });
  }
}

/** The bytes of the open file `fd` from `offset` to its end. */
function bytesFrom(fd: number, offset: number): Buffer {
  const size = fstatSync(fd).size;
  if (size <= offset) return Buffer.alloc(0);
  const buffer = Buffer.alloc(size - offset);
  let read = 0;
  while (read < buffer.length) {
    const n = readSync(fd, buffer, read, buffer.length - read, offset + read);
    if (n === 0) break;
    read += n;
  }
  return buffer.subarray(0, read);
}

/** A file's bytes from `offset` to its end, or nothing when it is gone. */
function readFrom(file: string, offset: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    return bytesFrom(fd, offset);
  } finally {
    closeSync(fd);
  }
}

/** Reads every whole line of `file` into `sink`. */
function readWhole(file: string, sink: RecordSink): void {
  const text = readFrom(file, 0);
  if (text) takeLines(text, file, { n: 0 }, sink);
}

/**
 * Reads every line of the record in the state folder `dir` into `sink`,
 * oldest first.
 *
 * @returns Whether the record has any file.
 */
export function readCallRecord(dir: string, sink: RecordSink): boolean {
  const files = callRecordFiles(dir);
  for (const file of files) readWhole(file, sink);
  return files.length > 0;
}

/** Options of {@linkcode followCallRecord}. */
export interface FollowOptions {
  /** Stops following. */
  signal: AbortSignal;
  /** How often the file is looked at, in milliseconds; default 200. */
  intervalMs?: number;
}

/** A record file open for reading, and how far it has been read. */
interface OpenFile {
  path: string;
  fd: number;
  ino: number;
  dev: number;
  mtimeMs: number;
  offset: number;
  lineNo: { n: number };
}

function closeFile(file: OpenFile): void {
  try {
    closeSync(file.fd);
  } catch {
    // Already gone.
  }
}

/**
 * The record's files, oldest first, each open: the paths are listed until
 * two listings agree, and each file opened is checked to be the one
 * listed, so a rotation meanwhile never mixes two moments up.
 */
function openRecordFiles(dir: string): OpenFile[] {
  const listing = () =>
    callRecordFiles(dir).map((path) => {
      try {
        const { ino, dev } = statSync(path);
        return `${path}\0${ino}\0${dev}`;
      } catch {
        return `${path}\0gone`;
      }
    }).join("\n");
  for (let attempt = 0;; attempt++) {
    let before = listing();
    for (let n = 0; n < 10; n++) {
      const again = listing();
      if (again === before) break;
      before = again;
    }
    const files: OpenFile[] = [];
    let same = true;
    for (const entry of before === "" ? [] : before.split("\n")) {
      const [path, ino, dev] = entry.split("\0");
      let fd: number;
      try {
        fd = openSync(path, "r");
      } catch {
        same = false;
        break;
      }
      const stats = fstatSync(fd);
      files.push({
        path,
        fd,
        ino: stats.ino,
        dev: stats.dev,
        mtimeMs: stats.mtimeMs,
        offset: 0,
        lineNo: { n: 0 },
      });
      if (String(stats.ino) !== ino || String(stats.dev) !== dev) {
        same = false;
        break;
      }
    }
    // Still rotating after a few tries: read what was listed last.
    if (same || attempt >= 10) return files;
    files.forEach(closeFile);
  }
}

/** Reads the whole lines `file` holds past its offset into `sink`. */
function readOn(file: OpenFile, sink: RecordSink): void {
  const text = bytesFrom(file.fd, file.offset);
  file.offset += takeLines(text, file.path, file.lineNo, sink);
}

/**
 * Reads the record in `dir` as {@linkcode readCallRecord} does, then every
 * line appended after, until `options.signal` aborts. Looks at the record
 * on a timer. The file followed stays open, so its last lines are read
 * wherever rotation moved it (or after it was removed); then the files
 * made after it, oldest first, however many rotations came between two
 * looks (as long as the newest of them has not been rotated out).
 *
 * @returns A promise that resolves once `signal` aborts.
 */
export async function followCallRecord(
  dir: string,
  sink: RecordSink,
  options: FollowOptions,
): Promise<void> {
  const current = callRecordPath(dir);
  let followed: OpenFile | undefined;
  const look = () => {
    if (followed !== undefined) {
      readOn(followed, sink);
      try {
        const now = statSync(current);
        if (now.ino === followed.ino && now.dev === followed.dev) return;
      } catch {
        // Rotated away, or removed: the files now present say which.
      }
    }
    const files = openRecordFiles(dir);
    let newer = files;
    const was = followed;
    if (was !== undefined) {
      // The followed file's last lines, written before it moved.
      readOn(was, sink);
      const at = files.findIndex((file) =>
        file.ino === was.ino && file.dev === was.dev
      );
      // Rotated out of the kept files: those made after it are the ones
      // written since it last was.
      const lastWritten = fstatSync(was.fd).mtimeMs;
      newer = at >= 0
        ? files.slice(at + 1)
        : files.filter((file) => file.mtimeMs >= lastWritten);
    }
    for (const file of newer) readOn(file, sink);
    // The newest file read is followed on; until a newer one appears, the
    // one followed so far.
    followed = newer.at(-1) ?? was;
    for (const file of files) if (file !== followed) closeFile(file);
    if (was !== undefined && was !== followed) closeFile(was);
  };
  const { signal } = options;
  try {
    look();
    while (!signal.aborted) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, options.intervalMs ?? 200);
        function done() {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          resolve();
        }
        signal.addEventListener("abort", done, { once: true });
      });
      if (signal.aborted) break;
      look();
    }
  } finally {
    if (followed !== undefined) closeFile(followed);
  }
}
