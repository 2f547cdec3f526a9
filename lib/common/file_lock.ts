/**
 * A lock shared by every process that writes one file, under Deno, Node.js
 * and Bun alike: an exclusively created file `<path>.lock` holding the
 * holder's process id.
 *
 * Waiting for it never blocks the event loop: a waiter looks again on a
 * timer, and gives up after `timeoutMs` (or when its `signal` aborts).
 *
 * A lock whose holder is gone (killed, crashed) is taken over: when its
 * process no longer runs, when it holds no process id after 5 seconds (the
 * holder died while creating it), or when it is older than `staleMs`
 * (default 20 seconds: every holder keeps it for milliseconds; this covers
 * a process id used again by another program). A takeover renames the lock
 * aside and checks it is still the one judged stale, so two waiters never
 * both take it.
 *
 * @module
 */

import { isProcessRunning } from "./process_running.ts";
import { randomBytes } from "node:crypto";
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import process from "node:process";

/** Options of {@linkcode withFileLock}. */
export interface FileLockOptions {
  /** How long to wait for the lock before failing, in milliseconds; default 30 000. */
  timeoutMs?: number;
  /** A lock older than this is taken over whatever its holder, in milliseconds; default 20 000. */
  staleMs?: number;
  /** Stops the wait: the call then fails without running `fn`. */
  signal?: AbortSignal;
}

/** How long a lock may stay empty while its holder writes its process id. */
const EMPTY_LOCK_MS = 5_000;

interface SeenLock {
  text: string;
  pid?: number;
  ageMs: number;
}

function readLock(lock: string): SeenLock | undefined {
  try {
    const text = readFileSync(lock, "utf8");
    const ageMs = Date.now() - statSync(lock).mtimeMs;
    const pid = /^(\d+) [0-9a-f]+\n$/.exec(text)?.[1];
    return { text, pid: pid === undefined ? undefined : Number(pid), ageMs };
  } catch {
    return undefined;
  }
}

function isStale(seen: SeenLock, staleMs: number): boolean {
  if (seen.ageMs > staleMs) return true;
  if (seen.pid === undefined) return seen.ageMs > EMPTY_LOCK_MS;
  return seen.pid !== process.pid && !isProcessRunning(seen.pid);
}

/** Removes `lock` if it still holds `seenText`; puts back a lock taken meanwhile. */
function breakLock(lock: string, seenText: string): void {
  const aside = `${lock}.${randomBytes(8).toString("hex")}.stale`;
  try {
    renameSync(lock, aside);
  } catch {
    return; // Taken over or released by someone else.
  }
  let text: string | undefined;
  try {
    text = readFileSync(aside, "utf8");
  } catch {
    text = undefined;
  }
  if (text !== seenText) {
    try {
      linkSync(aside, lock);
    } catch {
      // A new lock is there already.
    }
  }
  rmSync(aside, { force: true });
}

function tryCreate(lock: string, text: string): boolean {
  let fd: number;
  try {
    fd = openSync(lock, "wx", 0o600);
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** One attempt at the lock, without waiting. */
interface Attempt {
  /** The lock file. */
  lock: string;
  /** What this holder writes into it. */
  mine: string;
  /** The holder that keeps it, when it could not be taken. */
  held?: SeenLock;
}

/**
 * Takes the lock of `path` if no live holder keeps it (a stale one is
 * taken over), creating its folder; never waits.
 */
function attempt(path: string, staleMs: number, mine?: string): Attempt {
  const lock = `${path}.lock`;
  mine ??= `${process.pid} ${randomBytes(8).toString("hex")}\n`;
  mkdirSync(dirname(lock), { recursive: true, mode: 0o700 });
  while (!tryCreate(lock, mine)) {
    const seen = readLock(lock);
    if (seen === undefined) continue; // Released meanwhile.
    if (!isStale(seen, staleMs)) return { lock, mine, held: seen };
    breakLock(lock, seen.text);
  }
  return { lock, mine };
}

/** Gives the lock up, unless it was taken over meanwhile. */
function release({ lock, mine }: Attempt): void {
  try {
    if (readFileSync(lock, "utf8") === mine) rmSync(lock);
  } catch {
    // Taken over as stale: it is someone else's now.
  }
}

function timedOut(path: string, lock: string, held: SeenLock): Error {
  return new Error(
    `cannot lock "${path}": process ${
      held.pid ?? "(unknown)"
    } has held "${lock}" for ${
      Math.round(held.ageMs / 1000)
    } s; remove that file if no beeuni command is running`,
  );
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Runs `fn` while holding the lock of `path` (the file `<path>.lock`, its
 * folder created with mode 0700), waiting on a timer for another holder to
 * finish. Rejects when the lock stays held past the timeout, naming the
 * lock file, or when `signal` aborts first (with its reason); `fn` does
 * not run then.
 *
 * @example
 * ```ts ignore
 * await withFileLock("/tmp/store.json", () => {
 *   // read, change and write /tmp/store.json
 * });
 * ```
 */
export async function withFileLock<T>(
  path: string,
  fn: () => T | Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const staleMs = options.staleMs ?? 20_000;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const { signal } = options;
  let taken = attempt(path, staleMs);
  while (taken.held !== undefined) {
    signal?.throwIfAborted();
    if (Date.now() > deadline) throw timedOut(path, taken.lock, taken.held);
    await pause(5 + Math.floor(Math.random() * 20), signal);
    signal?.throwIfAborted();
    taken = attempt(path, staleMs, taken.mine);
  }
  try {
    return await fn();
  } finally {
    release(taken);
  }
}

/**
 * Runs `fn` holding the lock of `path` when it can be had at once (a stale
 * lock is taken over); returns `undefined` without running `fn` when a
 * live holder keeps it. Never waits: for an exit that cannot.
 */
export function withFileLockNow<T>(
  path: string,
  fn: () => T,
  options: Pick<FileLockOptions, "staleMs"> = {},
): T | undefined {
  const taken = attempt(path, options.staleMs ?? 20_000);
  if (taken.held !== undefined) return undefined;
  try {
    return fn();
  } finally {
    release(taken);
  }
}
