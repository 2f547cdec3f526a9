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

/** A file's bytes from `offset` to its end, or nothing when it is gone. */
function readFrom(file: string, offset: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
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

/**
 * Reads the record in `dir` as {@linkcode readCallRecord} does, then every
 * line appended after, until `options.signal` aborts. When the file is
 * rotated, the rest of the old one is read first, then the new one from
 * its start. Looks at the file on a timer.
 *
 * @returns A promise that resolves once `signal` aborts.
 */
export async function followCallRecord(
  dir: string,
  sink: RecordSink,
  options: FollowOptions,
): Promise<void> {
  const current = callRecordPath(dir);
  // The rotated files, then the current one from its start, on its own
  // offset: no line appended meanwhile is missed.
  for (const file of callRecordFiles(dir)) {
    if (file !== current) readWhole(file, sink);
  }
  const identity = (file: string) => {
    try {
      const stats = statSync(file);
      return { ino: stats.ino, dev: stats.dev, size: stats.size };
    } catch {
      return undefined;
    }
  };
  let seen = identity(current);
  let offset = 0;
  const lineNo = { n: 0 };
  const readOn = (file: string) => {
    const text = readFrom(file, offset);
    if (text) offset += takeLines(text, file, lineNo, sink);
  };
  if (seen !== undefined) readOn(current);
  const { signal } = options;
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
    const now = identity(current);
    if (
      seen !== undefined &&
      (now === undefined || now.ino !== seen.ino || now.dev !== seen.dev)
    ) {
      // Rotated: the file followed is calls.1.jsonl now.
      const moved = identity(callRecordPath(dir, 1));
      if (moved?.ino === seen.ino && moved.dev === seen.dev) {
        readOn(callRecordPath(dir, 1));
      }
      offset = 0;
      lineNo.n = 0;
    }
    seen = now;
    if (now !== undefined) readOn(current);
  }
}
