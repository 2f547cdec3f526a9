/**
 * A session's records as they are kept: one JSON record per line of
 * `sessions/<id>.jsonl` in the project's state folder, the first one
 * holding the session's meta. Both harnesses write them, so
 * `beeuni sessions log` reads both alike.
 *
 * @module
 */

import { mkdir, open } from "node:fs/promises";
import { join } from "node:path";

/** The harness a session ran in. */
export type SessionHarness = "experimental" | "standard";

/** How one tool call ended. */
export type ToolCallStatus =
  | "ok"
  | "error"
  | "not_found"
  | "aborted"
  | "timeout";

/** The first record: what the session is. */
export interface SessionStartRecord {
  type: "start";
  /** The session's id. */
  id: string;
  /** The agent it ran as. */
  agent: string;
  /** The harness it ran in. */
  harness: SessionHarness;
  /** `provider/model`. */
  model: string;
  /** When it started (ISO 8601). */
  startedAt: string;
  /** The user's prompt. */
  prompt: string;
}

/** Text the model wrote. */
export interface SessionTextRecord {
  type: "text";
  text: string;
}

/** A tool call the model made. */
export interface SessionToolCallRecord {
  type: "tool-call";
  /** The call's id, shared with its result. */
  callId: string;
  /** The tool's name as the model asked for it. */
  name: string;
  /** The arguments the model gave. */
  args: unknown;
}

/** How a tool call ended and what the model read. */
export interface SessionToolResultRecord {
  type: "tool-result";
  callId: string;
  name: string;
  status: ToolCallStatus;
  /** What the model read. */
  output: string;
  /** How long the call took, in milliseconds. */
  durationMs: number;
}

/** The last record: how the session ended. */
export interface SessionEndRecord {
  type: "end";
  status: "done" | "failed";
  /** Why it failed. */
  error?: string;
  /** When it ended (ISO 8601). */
  endedAt: string;
}

/** One line of a session's file. */
export type SessionRecord =
  | SessionStartRecord
  | SessionTextRecord
  | SessionToolCallRecord
  | SessionToolResultRecord
  | SessionEndRecord;

/** Appends a session's records to its file. */
export interface SessionWriter {
  /** Appends `record` as one line, in one write. */
  write(record: SessionRecord): Promise<void>;
  /** Closes the file; later writes reject. */
  close(): Promise<void>;
}

/** What the start record holds besides its type. */
export type SessionMeta = Omit<SessionStartRecord, "type">;

/**
 * Creates `<stateDir>/sessions/<meta.id>.jsonl` (refusing an existing one),
 * writes the start record and returns a writer for the others. Each
 * record is one line written with one append, so a crash leaves at most
 * a last line without its newline, which readers skip.
 *
 * @example
 * ```ts ignore (writes into a state folder)
 * const writer = await openSessionWriter(dir, {
 *   id: "s1", agent: "beeuni", harness: "standard", model: "openai/gpt-4.1",
 *   startedAt: new Date().toISOString(), prompt: "hi",
 * });
 * await writer.write({ type: "text", text: "Hello" });
 * await writer.close();
 * ```
 */
export async function openSessionWriter(
  stateDir: string,
  meta: SessionMeta,
): Promise<SessionWriter> {
  const folder = join(stateDir, "sessions");
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = await open(join(folder, `${meta.id}.jsonl`), "wx", 0o600);
  let queue: Promise<unknown> = Promise.resolve();
  const append = (record: SessionRecord): Promise<void> => {
    const next = queue.then(async () => {
      await file.appendFile(`${JSON.stringify(record)}\n`);
    });
    queue = next.catch(() => {});
    return next;
  };
  await append({ type: "start", ...meta });
  return {
    write: append,
    async close() {
      await queue;
      await file.close();
    },
  };
}
