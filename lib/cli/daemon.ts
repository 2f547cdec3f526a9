/**
 * `beeuni daemon`: serves the project's tools over HTTP on loopback until
 * SIGINT or SIGTERM.
 *
 * @module
 */

import type { Command } from "./command.ts";
import { DAEMON_USAGE_SPEC, runDaemon } from "../daemon/mod.ts";
import { loadRuntime } from "../runtime/mod.ts";

/** `beeuni daemon`: runs the daemon until SIGINT or SIGTERM. */
export const daemonCommand: Command<typeof DAEMON_USAGE_SPEC.options> = {
  ...DAEMON_USAGE_SPEC,
  // The daemon reads its command line as `daemon.ts` does.
  async run({ args }, io) {
    return await runDaemon(args, io, await loadRuntime());
  },
};
