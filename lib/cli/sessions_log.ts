/**
 * `beeuni sessions log <id>`: a session's messages in order, with each
 * tool call's arguments, status and the output the model read.
 *
 * @module
 */

import { type Command, type CommandIo, UsageError } from "./command.ts";
import { sessionsArgs } from "./_sessions_dir.ts";
import { formatSessionLog, readSession } from "../sessions/mod.ts";

/** `beeuni sessions log <id> [--json]`. */
export const sessionsLogCommand: Command = {
  name: "sessions log",
  summary: "Print a session's messages and tool calls",
  usage: `Usage: beeuni sessions log <id> [--json] [--manifest PATH]

Prints the session's messages in order: the prompt, the model's text, and
each tool call with its arguments, its status (ok, error, not_found,
aborted, timeout), how long it took and the output the model read; last,
how the session ended. A session still running shows what it has done.

Options:
  --json           print the session's records as a JSON array
  --manifest PATH  the project's beeuni.yaml (default: found from the
                   current folder upwards)
`,
  run(args: string[], io: CommandIo): Promise<number> {
    const { parsed: { positionals }, json, stateDir } = sessionsArgs(
      args,
      io,
    );
    if (positionals.length !== 1) {
      throw new UsageError(
        positionals.length === 0
          ? "missing the session's id (`beeuni sessions ls` lists them)"
          : `expected one session id, got ${positionals.length}`,
      );
    }
    const records = readSession(stateDir, positionals[0]);
    io.stdout(
      json
        ? `${JSON.stringify(records, null, 2)}\n`
        : formatSessionLog(records),
    );
    return Promise.resolve(0);
  },
};
