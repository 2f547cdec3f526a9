/**
 * The session store: each session is one file `<id>.jsonl` in the
 * project's state folder (`sessions/`), one JSON record per line, appended
 * with a single write per record. A line cut short by a crash has no
 * newline yet and is never read as a record. The oldest sessions beyond the
 * retention limit are removed when a new one starts.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import {
  type Env,
  isProcessRunning,
  projectKey,
  stateDir,
} from "../common/mod.ts";

/** Which harness ran a session. */
export type SessionHarness = "experimental" | "standard";

/** How a tool call of a session ended. */
export type ToolCallStatus =
  | "ok"
  | "error"
  | "not_found"
  | "aborted"
  | "timeout";

/** What a session is at the start: its first record without `type`. */
export interface SessionMeta {
  /** The session's id (see {@linkcode newSessionId}). */
  id: string;
  /** The agent the session runs as. */
  agent: string;
  /** The harness that runs it. */
  harness: SessionHarness;
  /** `PROVIDER/MODEL`. */
  model: string;
  /** When it started, ISO 8601. */
  startedAt: string;
  /** The user's prompt. */
  prompt: string;
  /** The process running the session, while it runs. */
  pid?: number;
}

/** One line of a session file. */
export type SessionRecord =
  | ({ type: "start" } & SessionMeta)
  | { type: "text"; text: string }
  | { type: "tool-call"; callId: string; name: string; args: unknown }
  | {
    type: "tool-result";
    callId: string;
    name: string;
    status: ToolCallStatus;
    /** What the model read. */
    output: string;
    durationMs: number;
  }
  | {
    type: "end";
    status: "done" | "failed";
    /** Why, when it failed. */
    error?: string;
    endedAt: string;
  };

/** Appends the records of one session. */
export interface SessionWriter {
  /** The file written. */
  readonly path: string;
  /** Appends one record, whole or not at all. */
  write(record: SessionRecord): Promise<void>;
  /** Stops writing. */
  close(): Promise<void>;
}

/** How many sessions a project keeps by default; the oldest beyond it are removed. */
export const DEFAULT_SESSIONS_KEPT = 200;

const ID_PATTERN = /^[A-Za-z0-9_-]{1,80}$/;

/** The folder holding the toolkit's state for the project at `root`. */
export function projectStateDir(root: string, env: Env): string {
  return join(stateDir(env), "projects", projectKey(root));
}

function sessionFile(dir: string, id: string): string {
  if (!ID_PATTERN.test(id)) {
    throw new Error(
      `invalid session id "${id}": use the id \`beeuni sessions ls\` prints`,
    );
  }
  return join(dir, "sessions", `${id}.jsonl`);
}

/** A new session id: the UTC time it starts, then random hex (sorts by time). */
export function newSessionId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "");
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

/** Removes the oldest session files of `dir` so that at most `keep` remain. */
function prune(dir: string, keep: number): void {
  const folder = join(dir, "sessions");
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith(".jsonl"));
  } catch {
    return;
  }
  if (names.length <= keep) return;
  // Ids start with the time they began: the name order is their age.
  names.sort();
  for (const name of names.slice(0, names.length - keep)) {
    rmSync(join(folder, name), { force: true });
  }
}

/**
 * Starts the file of a new session in the project state folder `dir`
 * (see {@linkcode projectStateDir}) with its `start` record, after removing
 * the oldest sessions beyond `keep`.
 */
export function openSessionWriter(
  dir: string,
  meta: SessionMeta,
  keep: number = DEFAULT_SESSIONS_KEPT,
): Promise<SessionWriter> {
  const path = sessionFile(dir, meta.id);
  mkdirSync(join(dir, "sessions"), { recursive: true, mode: 0o700 });
  prune(dir, Math.max(keep - 1, 0));
  let closed = false;
  const append = (record: SessionRecord) => {
    if (closed) throw new Error(`session "${meta.id}" is closed`);
    // One write of a whole line: readers skip a line with no newline.
    appendFileSync(path, JSON.stringify(record) + "\n", { mode: 0o600 });
  };
  append({ type: "start", ...meta });
  return Promise.resolve({
    path,
    write: (record) => Promise.resolve(append(record)),
    close: () => {
      closed = true;
      return Promise.resolve();
    },
  });
}

/** The records of session `id` in the project state folder `dir`, in order; throws when there is no such session. */
export function readSession(dir: string, id: string): SessionRecord[] {
  let text: string;
  try {
    text = readFileSync(sessionFile(dir, id), "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") {
      throw new Error(
        `no session "${id}" in this project: \`beeuni sessions ls\` lists them`,
      );
    }
    throw error;
  }
  return parseRecords(text);
}

/** The whole records of a session file's text: a last line with no newline is not one yet. */
export function parseRecords(text: string): SessionRecord[] {
  const lines = text.split("\n");
  lines.pop();
  const records: SessionRecord[] = [];
  for (const line of lines) {
    try {
      const record = JSON.parse(line);
      if (record && typeof record.type === "string") records.push(record);
    } catch {
      // A torn line is not a record.
    }
  }
  return records;
}

/** How a session stands. */
export type SessionStatus = "running" | "done" | "failed" | "interrupted";

/** One session in a listing. */
export interface SessionSummary extends SessionMeta {
  /** How it stands: `interrupted` when its process ended without an end record. */
  status: SessionStatus;
  /** Why it failed. */
  error?: string;
  /** When it ended, ISO 8601. */
  endedAt?: string;
}

/** How a session stands, from its records. */
export function summarize(
  records: SessionRecord[],
): SessionSummary | undefined {
  const start = records[0];
  if (start?.type !== "start") return undefined;
  const { type: _type, ...meta } = start;
  const end = records.findLast((record) => record.type === "end");
  if (end?.type === "end") {
    return {
      ...meta,
      status: end.status,
      error: end.error,
      endedAt: end.endedAt,
    };
  }
  const alive = start.pid === undefined || isProcessRunning(start.pid);
  return { ...meta, status: alive ? "running" : "interrupted" };
}

/** The sessions of the project state folder `dir`, newest first. */
export function listSessions(dir: string): SessionSummary[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, "sessions"));
  } catch {
    return [];
  }
  const summaries: SessionSummary[] = [];
  for (
    const name of names.filter((n) => n.endsWith(".jsonl")).sort().reverse()
  ) {
    try {
      const summary = summarize(readSession(dir, name.slice(0, -6)));
      if (summary) summaries.push(summary);
    } catch {
      // Removed meanwhile.
    }
  }
  return summaries;
}

/** The size of a session's file in bytes (0 when absent): what a live reader polls. */
export function sessionSize(dir: string, id: string): number {
  try {
    return statSync(sessionFile(dir, id)).size;
  } catch {
    return 0;
  }
}
