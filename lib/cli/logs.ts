/**
 * `beeuni logs`: the project's call record, oldest first, one line per
 * call; with `--follow`, new calls as they are recorded.
 *
 * @module
 */

import { type Command, defineCommand } from "./command.ts";
import { MANIFEST_OPTION } from "./_options.ts";
import { sessionsStateDir } from "./_sessions_dir.ts";
import { escapeControl } from "../common/mod.ts";
import { loadRuntime } from "../runtime/mod.ts";
import {
  callRecordFiles,
  type CallRecordLine,
  followCallRecord,
  readCallRecord,
  type RecordSink,
} from "../telemetry/mod.ts";

const LOGS_OPTIONS = {
  follow: {
    type: "boolean",
    help: "keep printing calls as they are recorded, until Ctrl-C",
  },
  tool: { type: "string", value: "T", help: "only the calls of tool T" },
  agent: { type: "string", value: "A", help: "only the calls of agent A" },
  session: {
    type: "string",
    value: "S",
    help: "only the calls of session S",
  },
  json: { type: "boolean", help: "print each call's record as a JSON line" },
  manifest: MANIFEST_OPTION,
} as const;

/** One call as a person reads it: time, tool, agent, session, transport, outcome, duration. */
function humanLine(record: CallRecordLine): string {
  // A record's values are what callers sent: no control character passes.
  const text = (value: unknown) => escapeControl(String(value));
  const cut = record.truncated ? " (cut)" : "";
  return [
    text(record.time),
    text(record.tool),
    `agent=${text(record.agent)}`,
    `session=${text(record.session)}`,
    text(record.transport),
    `${text(record.outcome)}${cut}`,
    `${text(record.durationMs)}ms`,
  ].join("  ");
}

/** `beeuni logs [--follow] [--tool T] [--agent A] [--session S] [--json]`. */
export const logsCommand: Command<typeof LOGS_OPTIONS> = defineCommand({
  synopsis:
    "[--follow] [--tool T] [--agent A] [--session S] [--json] [--manifest PATH]",
  description: `Prints the project's call record, oldest first (rotated files
included): one line per call with its start time, tool, agent,
session, transport (http, mcp, session, cli, api), outcome (ok,
error, timeout, aborted, forbidden, not_found) and duration. The
filters combine. With --json, each call's record as one JSON line.
With --follow, keeps printing calls as the daemon records them.
A line of the record that is not a call is skipped with a note.`,
  options: LOGS_OPTIONS,
  async run({ values }, io) {
    const dir = sessionsStateDir(values.manifest, io);
    const wanted = (record: CallRecordLine) =>
      (values.tool === undefined || record.tool === values.tool) &&
      (values.agent === undefined || record.agent === values.agent) &&
      (values.session === undefined || record.session === values.session);
    let printed = 0;
    const sink: RecordSink = {
      line(record) {
        if (!wanted(record)) return;
        printed++;
        io.stdout(
          values.json
            ? `${JSON.stringify(record)}\n`
            : `${humanLine(record)}\n`,
        );
      },
      skipped({ file, line }) {
        io.stderr(
          `beeuni logs: skipped line ${line} of "${file}": not a call record\n`,
        );
      },
    };
    if (!values.follow) {
      const any = readCallRecord(dir, sink);
      if (!any) {
        io.stderr(
          "No calls recorded yet: the daemon and `beeuni mcp` record each call they run\n",
        );
      } else if (printed === 0 && !values.json) {
        io.stderr("No recorded call matches\n");
      }
      return 0;
    }
    if (callRecordFiles(dir).length === 0) {
      io.stderr(
        "No calls recorded yet: waiting for the first (Ctrl-C to stop)\n",
      );
    }
    const runtime = await loadRuntime();
    const stop = new AbortController();
    const unhook = runtime.onTerminate(() => stop.abort());
    try {
      await followCallRecord(dir, sink, { signal: stop.signal });
    } finally {
      unhook();
    }
    return 0;
  },
});
