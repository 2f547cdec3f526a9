// What `sessions new --wait` prints for a session, in either harness.

import type { CommandIo } from "./command.ts";
import { escapeControl } from "../common/mod.ts";
import type { SessionRecord } from "../sessions/mod.ts";

/** The line printed for a finished tool call: name, status, duration. */
export function toolLine(
  record: SessionRecord & { type: "tool-result" },
): string {
  return `[tool] ${
    escapeControl(record.name)
  } ${record.status} ${record.durationMs} ms\n`;
}

/** Says on standard error why session `id` failed, if it did; returns the exit code. */
export function sessionExit(
  io: CommandIo,
  id: string,
  result: { status: "done" | "failed"; error?: string },
): number {
  if (result.status !== "failed") return 0;
  io.stderr(
    `beeuni sessions new: session ${id} failed: ${
      escapeControl(result.error ?? "")
    }\n`,
  );
  return 1;
}
