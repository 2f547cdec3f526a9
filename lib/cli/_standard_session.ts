/**
 * `beeuni sessions new --harness standard --wait`: one session run by
 * opencode in the project, printed as it comes and kept in the project's
 * session store.
 *
 * @module
 */

import type { CommandIo } from "./command.ts";
import { sessionExit, toolLine } from "./_session_lines.ts";
import { escapeControl } from "../common/mod.ts";
import { openSessionWriter } from "../sessions/mod.ts";
import { runStandardSession } from "../standard_harness/mod.ts";

/** What `sessions new` has settled before the session runs. */
export interface StandardSessionCommandOptions {
  /** The project root. */
  root: string;
  /** The project's state folder (the session store's `dir`). */
  stateDir: string;
  /** The session's id. */
  id: string;
  /** The agent asked for with `--agent`, if any. */
  agent?: string;
  /** The agent recorded when none was asked for. */
  defaultAgent: string;
  /** `--model`, else `BEEUNI_MODEL`, if any. */
  model?: string;
  /** The prompt. */
  prompt: string;
  /** The process running the session, recorded so a crash shows as interrupted. */
  pid?: number;
  /** Print the daemon's log lines, if it starts one. */
  verbose?: boolean;
}

/**
 * Runs the session in opencode: prints `session <id>`, then the model's
 * text and one line per tool call as they come.
 *
 * @returns 0 when the session ended done, 1 when it failed.
 */
export async function standardSessionCommand(
  options: StandardSessionCommandOptions,
  io: CommandIo,
): Promise<number> {
  const writer = await openSessionWriter(options.stateDir, {
    id: options.id,
    agent: options.agent ?? options.defaultAgent,
    harness: "standard",
    model: options.model ?? "opencode's configured model",
    startedAt: new Date().toISOString(),
    prompt: options.prompt,
    ...(options.pid === undefined ? {} : { pid: options.pid }),
  });
  io.stdout(`session ${options.id}\n`);
  try {
    const result = await runStandardSession({
      dir: options.root,
      agent: options.agent,
      model: options.model,
      prompt: options.prompt,
      writer,
      env: io.env,
      log: (line) => {
        if (options.verbose) io.stderr(`${escapeControl(line)}\n`);
      },
      onRecord(record) {
        if (record.type === "text") {
          const text = escapeControl(record.text, { keepNewlines: true });
          io.stdout(text.endsWith("\n") ? text : `${text}\n`);
        } else if (record.type === "tool-result") io.stdout(toolLine(record));
      },
    });
    return sessionExit(io, options.id, result);
  } finally {
    await writer.close();
  }
}
