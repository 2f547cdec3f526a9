// The connection guard every adapter's server runs: a cap on open
// connections and deadlines for connections that are not in a request, so
// that idle or slow clients can neither exhaust the process's file
// descriptors nor hold the server's slots.
//
// A connection is either WAITING (no request in progress: just opened, or
// between keep-alive requests) or BUSY (a request whose header arrived and
// whose response has not ended). Only waiting connections are ever closed
// by the guard: a new connection that would exceed the cap closes the one
// that has waited longest, and a waiting connection is closed once it has
// waited past its deadline (the header timeout for a new connection, the
// idle timeout after a response). A caller that opens a connection and
// sends its request at once is therefore never the one closed, however many
// idle or slow connections press on the server; only when every connection
// is busy is a new one refused.

import { readFileSync } from "node:fs";
import { clearInterval, setInterval } from "node:timers";
import type { ConnectionLimits } from "./types.ts";
import { DEFAULT_CONNECTION_LIMITS } from "./_conn_defaults.ts";

export { DEFAULT_CONNECTION_LIMITS };

/** A connection as the guard sees it: something it can close. */
export interface GuardedSocket {
  /** Closes the connection at once. */
  destroy(): void;
}

interface Entry {
  /** Requests in progress on the connection (more than one when pipelined). */
  busy: number;
  /** When it started waiting (ms, monotonic). */
  since: number;
}

/** The guard's hooks, called by the server that owns the connections. */
export interface ConnectionGuard {
  /** The limits in force (the cap lowered to fit the open-file limit). */
  readonly limits: Readonly<Required<ConnectionLimits>>;
  /** A connection was accepted; false when it was refused and closed. */
  opened(socket: GuardedSocket): boolean;
  /** The connection closed, whoever closed it. */
  closed(socket: GuardedSocket): void;
  /** A complete request header arrived on the connection. */
  requestStarted(socket: GuardedSocket): void;
  /** The response to one of its requests ended (or was abandoned). */
  requestEnded(socket: GuardedSocket): void;
  /**
   * Closes every waiting connection, and from now on each connection as
   * soon as its requests end; refuses new ones.
   */
  close(): void;
}

/**
 * The soft limit on open files of this process, from `/proc/self/limits`
 * (Linux); `undefined` where that file does not exist.
 */
export function openFileLimit(): number | undefined {
  try {
    const text = readFileSync("/proc/self/limits", "utf8");
    const soft = /^Max open files\s+(\d+|unlimited)/m.exec(text)?.[1];
    return soft === undefined || soft === "unlimited"
      ? undefined
      : Number(soft);
  } catch {
    return undefined;
  }
}

/**
 * `limits` with the defaults filled in, the cap lowered to half of
 * `fileLimit` (the other half stays for the process's files, pipes and
 * child processes).
 */
export function resolveLimits(
  limits: ConnectionLimits = {},
  fileLimit: number | undefined = openFileLimit(),
): Required<ConnectionLimits> {
  const resolved = { ...DEFAULT_CONNECTION_LIMITS };
  for (const key of Object.keys(resolved) as (keyof ConnectionLimits)[]) {
    const value = limits[key];
    if (value !== undefined) resolved[key] = value;
  }
  if (fileLimit !== undefined) {
    resolved.maxConnections = Math.max(
      1,
      Math.min(resolved.maxConnections, Math.floor(fileLimit / 2)),
    );
  }
  return resolved;
}

/** The oldest entry of an insertion-ordered map, if any. */
function head(
  map: Map<GuardedSocket, Entry>,
): [GuardedSocket, Entry] | undefined {
  const first = map.entries().next();
  return first.done ? undefined : first.value;
}

/** A guard over the connections of one server, with `limits` in force. */
export function connectionGuard(
  limits: Required<ConnectionLimits>,
): ConnectionGuard {
  // Waiting connections, each map in the order they started waiting.
  const fresh = new Map<GuardedSocket, Entry>();
  const idle = new Map<GuardedSocket, Entry>();
  const busy = new Map<GuardedSocket, Entry>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let closing = false;
  const period = Math.min(
    1000,
    Math.max(25, Math.min(limits.headerTimeoutMs, limits.idleTimeoutMs) / 4),
  );

  const open = () => fresh.size + idle.size + busy.size;
  const forget = (socket: GuardedSocket) =>
    fresh.delete(socket) || idle.delete(socket) || busy.delete(socket);
  const drop = (socket: GuardedSocket) => {
    forget(socket);
    socket.destroy();
  };
  const expire = (map: Map<GuardedSocket, Entry>, timeout: number) => {
    const now = performance.now();
    for (const [socket, entry] of map) {
      if (now - entry.since < timeout) break;
      drop(socket);
    }
  };
  const sweep = () => {
    expire(fresh, limits.headerTimeoutMs);
    expire(idle, limits.idleTimeoutMs);
    if (fresh.size + idle.size === 0) stopTimer();
  };
  const startTimer = () => {
    if (timer !== undefined) return;
    timer = setInterval(sweep, period);
    // The guard never keeps a process alive on its own.
    timer.unref?.();
  };
  const stopTimer = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  /** Closes the connection that has waited longest; false when none waits. */
  const evictOldest = (): boolean => {
    const a = head(fresh);
    const b = head(idle);
    const victim = a && (!b || a[1].since <= b[1].since) ? a : b;
    if (!victim) return false;
    drop(victim[0]);
    return true;
  };
  const wait = (
    map: Map<GuardedSocket, Entry>,
    socket: GuardedSocket,
    entry: Entry,
  ) => {
    entry.since = performance.now();
    map.set(socket, entry);
    startTimer();
  };

  return {
    limits,
    opened(socket) {
      if (closing || (open() >= limits.maxConnections && !evictOldest())) {
        socket.destroy();
        return false;
      }
      wait(fresh, socket, { busy: 0, since: 0 });
      return true;
    },
    closed: (socket) => void forget(socket),
    requestStarted(socket) {
      const entry = fresh.get(socket) ?? idle.get(socket) ?? busy.get(socket);
      if (!entry) return;
      fresh.delete(socket);
      idle.delete(socket);
      entry.busy++;
      busy.set(socket, entry);
    },
    requestEnded(socket) {
      const entry = busy.get(socket);
      if (!entry || --entry.busy > 0) return;
      busy.delete(socket);
      if (closing) socket.destroy();
      else wait(idle, socket, entry);
    },
    close() {
      closing = true;
      stopTimer();
      for (const socket of [...fresh.keys(), ...idle.keys()]) drop(socket);
    },
  };
}
