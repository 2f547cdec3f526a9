// The page's view of the project's sessions: `GET /ui/api/sessions` lists
// them, `GET /ui/api/sessions/<id>` streams one session's records as
// server-sent events, those written so far and then each new one as it is
// written, until its end record.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  listSessions,
  parseRecords,
  readSession,
  sessionSize,
} from "../sessions/mod.ts";
import { jsonResponse } from "./_api.ts";

/** How often a live session's file is looked at for new records, in milliseconds. */
const POLL_MS = 200;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** `GET /ui/api/sessions`: the sessions kept in `stateDir` (those of `agents` when given), newest first. */
export function sessionsAnswer(
  stateDir: string | undefined,
  agents?: readonly string[],
): Response {
  const sessions = stateDir === undefined ? [] : listSessions(stateDir);
  return jsonResponse(200, {
    sessions: agents === undefined
      ? sessions
      : sessions.filter((session) => agents.includes(session.agent)),
  });
}

/**
 * `GET /ui/api/sessions/<id>`: the session's records as events, live until
 * it ends; a session of another agent than `agents` (when given) is not
 * found.
 */
export function sessionAnswer(
  stateDir: string | undefined,
  id: string,
  signal: AbortSignal,
  agents?: readonly string[],
): Response {
  const missing = `no session "${id}" in this project`;
  if (stateDir === undefined) return jsonResponse(404, { error: missing });
  try {
    const start = readSession(stateDir, id)[0];
    if (
      agents !== undefined &&
      !(start?.type === "start" && agents.includes(start.agent))
    ) return jsonResponse(404, { error: missing });
  } catch (error) {
    return jsonResponse(404, { error: (error as Error).message });
  }
  const path = join(stateDir, "sessions", `${id}.jsonl`);
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      /** The bytes of the file already sent, up to its last whole line. */
      let sent = 0;
      const stop = () => {
        clearInterval(timer);
        try {
          controller.close();
        } catch {
          // Closed already.
        }
      };
      const look = () => {
        if (sessionSize(stateDir, id) <= sent) return;
        let bytes: Uint8Array;
        try {
          bytes = readFileSync(path);
        } catch {
          return stop();
        }
        // Only whole lines: a record being written waits for the next look.
        const whole = bytes.lastIndexOf(10) + 1;
        if (whole <= sent) return;
        const chunk = decoder.decode(bytes.subarray(sent, whole));
        sent = whole;
        for (const record of parseRecords(chunk)) {
          controller.enqueue(
            encoder.encode(`data: ${JSON.stringify(record)}\n\n`),
          );
          if (record.type === "end") return stop();
        }
      };
      controller.enqueue(encoder.encode(": beeuni session\n\n"));
      look();
      timer = setInterval(look, POLL_MS);
      signal.addEventListener("abort", stop);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
    },
  });
}
