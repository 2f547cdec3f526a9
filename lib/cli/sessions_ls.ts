/**
 * `beeuni sessions ls`: the project's sessions, newest first.
 *
 * @module
 */

import { type Command, type CommandIo, UsageError } from "./command.ts";
import { sessionsArgs } from "./_sessions_dir.ts";
import { escapeControl } from "../common/mod.ts";
import { listSessions } from "../sessions/mod.ts";

/** `beeuni sessions ls [--json]`. */
export const sessionsLsCommand: Command = {
  name: "sessions ls",
  summary: "List the project's sessions, newest first",
  usage: `Usage: beeuni sessions ls [--json] [--manifest PATH]

Lists the project's sessions, newest first: ID, AGENT, HARNESS, MODEL,
STARTED and STATUS (running, done, failed, or interrupted when its
process ended before the session did).

Options:
  --json           print [{ id, agent, harness, model, startedAt, status, ... }]
  --manifest PATH  the project's beeuni.yaml (default: found from the
                   current folder upwards)
`,
  run(args: string[], io: CommandIo): Promise<number> {
    const { parsed: { positionals }, json, stateDir } = sessionsArgs(
      args,
      io,
    );
    if (positionals.length > 0) {
      throw new UsageError(`unexpected argument "${positionals[0]}"`);
    }
    const sessions = listSessions(stateDir);
    if (json) {
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
    const widths = rows[0].map((_, i) =>
      Math.max(...rows.map((row) => row[i].length))
    );
    io.stdout(
      rows.map((row) =>
        row.map((cell, i) =>
          i === row.length - 1 ? cell : cell.padEnd(widths[i])
        ).join("  ")
      ).join("\n") + "\n",
    );
    return Promise.resolve(0);
  },
};
