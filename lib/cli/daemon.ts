/**
 * `beeuni daemon`: serves the project's tools over HTTP on loopback until
 * SIGINT or SIGTERM.
 *
 * @module
 */

import type { Command, CommandIo } from "./command.ts";
import { DAEMON_USAGE, runDaemon } from "../daemon/mod.ts";
import { loadRuntime } from "../runtime/mod.ts";

/** `beeuni daemon`: runs the daemon until SIGINT or SIGTERM. */
export const daemonCommand: Command = {
  name: "daemon",
  summary: "Serve the project's tools over HTTP on loopback (hot reload)",
  usage: DAEMON_USAGE,
  async run(args: string[], io: CommandIo): Promise<number> {
    return await runDaemon(args, io, await loadRuntime());
  },
};
