/**
 * Where a project's daemons are: a small record the opencode plugin reads
 * at each call, so it needs no port or token baked in.
 *
 * The record is `<sha256 of the project root>.daemon.json` beside the
 * default token file (`$XDG_STATE_HOME/beeuni/daemon/`), mode 0600:
 * `{ "daemons": [{ "url", "pid", "tokenFile" }] }`, oldest first. Each
 * daemon adds itself once it listens and takes itself out when it stops;
 * entries of daemons that are gone (killed) are dropped whenever a daemon
 * changes the record; the last daemon removes it. Every change happens
 * under the record's lock (`<record>.lock`) and is written atomically.
 * The plugin calls the newest daemon whose process still runs.
 *
 * @module
 */

import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
  type Env,
  isProcessRunning,
  projectKey,
  removeTempsOf,
  stateDir,
  withFileLock,
  withFileLockNow,
  writeFileAtomic,
} from "../common/mod.ts";
import type { DaemonEntry, DaemonRecord } from "../opencode/mod.ts";

/** The daemon record of the project at `root`. */
export function daemonRecordFile(root: string, env: Env): string {
  return join(stateDir(env), "daemon", `${projectKey(root)}.daemon.json`);
}

function readEntries(path: string): DaemonEntry[] {
  try {
    const record = JSON.parse(readFileSync(path, "utf8")) as DaemonRecord;
    return Array.isArray(record?.daemons)
      ? record.daemons.filter((entry) =>
        typeof entry?.url === "string" && Number.isInteger(entry.pid)
      )
      : [];
  } catch {
    return [];
  }
}

/** The daemons of the record at `path` whose process still runs, oldest first. */
export function liveDaemons(path: string): DaemonEntry[] {
  return readEntries(path).filter((entry) => isProcessRunning(entry.pid));
}

/**
 * Rewrites the record as `change` of its live entries says; its caller
 * holds the record's lock.
 */
function rewrite(
  path: string,
  change: (entries: DaemonEntry[]) => DaemonEntry[],
): void {
  // Every writer of the record holds its lock: any temporary file is a leftover.
  removeTempsOf(path);
  const entries = change(liveDaemons(path));
  if (entries.length === 0) rmSync(path, { force: true });
  else {
    const record: DaemonRecord = { daemons: entries };
    writeFileAtomic(path, `${JSON.stringify(record, null, 2)}\n`);
  }
}

/** Whether `a` and `b` are the same daemon: one process, one address. */
function sameDaemon(a: DaemonEntry, b: DaemonEntry): boolean {
  return a.pid === b.pid && a.url === b.url;
}

/**
 * The newest daemon of the record at `path` whose process still runs and
 * that started after `self` (any, when `self` is not in the record), or
 * undefined: the plugin then calls `self`.
 */
export function newerDaemon(
  path: string,
  self: DaemonEntry | undefined,
): DaemonEntry | undefined {
  const entries = liveDaemons(path);
  const at = self === undefined
    ? -1
    : entries.findIndex((entry) => sameDaemon(entry, self));
  return entries.slice(at + 1).at(-1);
}

/**
 * Runs `fn` under the record's lock, so no daemon joins or leaves the
 * record meanwhile; when the lock cannot be had (the state folder cannot
 * be written), runs it all the same, unless `signal` aborted the wait.
 */
export async function underRecordLock<T>(
  path: string,
  fn: () => T | Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  let ran = false;
  try {
    return await withFileLock(path, () => {
      ran = true;
      return fn();
    }, { signal });
  } catch (error) {
    if (ran || signal?.aborted) throw error;
    return await fn();
  }
}

/** A daemon's place in the record; {@linkcode release} takes it out. */
export interface DaemonPlace {
  /** The record file. */
  file: string;
  /** Takes this daemon out of the record (the last one removes the file). Runs once; never rejects. */
  release(): Promise<void>;
  /**
   * {@linkcode release} for an exit that cannot wait: done only when the
   * record's lock is free at once (otherwise the next daemon drops this
   * one, gone by then).
   */
  releaseNow(): void;
}

/** Adds `entry` (this process's daemon) to the record at `path`, newest last. */
export async function publishDaemon(
  path: string,
  entry: DaemonEntry,
): Promise<DaemonPlace> {
  const others = (entries: DaemonEntry[]) =>
    entries.filter((other) => !sameDaemon(other, entry));
  await withFileLock(path, () => rewrite(path, (e) => [...others(e), entry]));
  const leave = () => rewrite(path, others);
  let released = false;
  const once = () => !released && (released = true);
  // A record left behind names a daemon that is gone: the plugin says so,
  // and the next daemon drops it.
  return {
    file: path,
    async release(): Promise<void> {
      if (once()) await withFileLock(path, leave).catch(() => {});
    },
    releaseNow(): void {
      try {
        if (once()) withFileLockNow(path, leave);
      } catch {
        // As above.
      }
    },
  };
}
