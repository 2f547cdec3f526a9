/**
 * `beeuni sessions log <id>`: a session's messages in order, with each
 * tool call's arguments, status and the output the model read.
 *
 * @module
 */

import { type Command, defineCommand, UsageError } from "./command.ts";
import { SESSIONS_OPTIONS, sessionsStateDir } from "./_sessions_dir.ts";
import { formatSessionLog, readSession } from "../sessions/mod.ts";

/** `beeuni sessions log <id> [--json]`. */
export const sessionsLogCommand: Command<typeof SESSIONS_OPTIONS> =
  defineCommand({
    synopsis: "<id> [--json] [--manifest PATH]",
    description:
      `Prints the session's messages in order: the prompt, the model's text, and
each tool call with its arguments, its status (ok, error, not_found,
aborted, timeout), how long it took and the output the model read; last,
how the session ended. A session still running shows what it has done.
With --json, the session's records as a JSON array.`,
    options: SESSIONS_OPTIONS,
    positionals: 1,
    run({ values, positionals }, io) {
      if (positionals.length === 0) {
        throw new UsageError(
          "missing the session's id (`beeuni sessions ls` lists them)",
        );
      }
      const stateDir = sessionsStateDir(values.manifest, io);
      const records = readSession(stateDir, positionals[0]);
      io.stdout(
        values.json
          ? `${JSON.stringify(records, null, 2)}\n`
          : formatSessionLog(records),
      );
      return Promise.resolve(0);
    },
  });
