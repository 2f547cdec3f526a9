/**
 * `beeuni sessions ls`: the project's sessions, newest first.
 *
 * @module
 */

import { type Command, defineCommand } from "./command.ts";
import { SESSIONS_OPTIONS, sessionsStateDir } from "./_sessions_dir.ts";
import { escapeControl } from "../common/mod.ts";
import { formatColumns } from "./_table.ts";
import { listSessions } from "../sessions/mod.ts";

/** `beeuni sessions ls [--json]`. */
export const sessionsLsCommand: Command<typeof SESSIONS_OPTIONS> =
  defineCommand({
    synopsis: "[--json] [--manifest PATH]",
    description:
      `Lists the project's sessions, newest first: ID, AGENT, HARNESS, MODEL,
STARTED and STATUS (running, done, failed, or interrupted when its
process ended before the session did). With --json,
[{ id, agent, harness, model, startedAt, status, ... }].`,
    options: SESSIONS_OPTIONS,
    run({ values }, io) {
      const stateDir = sessionsStateDir(values.manifest, io);
      const sessions = listSessions(stateDir);
      if (values.json) {
        io.stdout(`${JSON.stringify(sessions, null, 2)}\n`);
        return Promise.resolve(0);
      }
      if (sessions.length === 0) {
        io.stdout(
          "No sessions yet: `beeuni sessions new --prompt TEXT` starts one\n",
        );
        return Promise.resolve(0);
      }
      const rows = [
        ["ID", "AGENT", "HARNESS", "MODEL", "STARTED", "STATUS"],
        ...sessions.map((s) => [
          s.id,
          escapeControl(s.agent),
          s.harness,
          escapeControl(s.model),
          s.startedAt,
          s.status,
        ]),
      ];
      io.stdout(formatColumns(rows));
      return Promise.resolve(0);
    },
  });
