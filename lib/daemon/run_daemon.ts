/**
 * `runDaemon()`: the daemon as a program: parse its options, start it,
 * serve until SIGINT or SIGTERM, stop cleanly. `beeuni daemon` and
 * `daemon.ts` both run it.
 *
 * @module
 */

import type { Io, Runtime } from "../runtime/mod.ts";
import { parseDaemonArgs } from "./options.ts";
import { startDaemon } from "./start_daemon.ts";

/** The part of a runtime adapter a running daemon uses. */
export type ProgramRuntime = Pick<
  Runtime,
  "serve" | "watchDirs" | "onTerminate" | "exit"
>;

/**
 * Runs the daemon with the command line `args` until SIGINT or SIGTERM;
 * resolves to the exit code (0 after a clean stop). A second signal while
 * it stops ends the process at once (exit code 130). Throws a `UsageError`
 * for a bad command line.
 */
export async function runDaemon(
  args: string[],
  io: Io,
  runtime: ProgramRuntime,
): Promise<number> {
  const options = parseDaemonArgs(args, io.cwd);
  const daemon = await startDaemon({ ...options, runtime }, io);
  const signal = await new Promise<string>((resolve) => {
    const stop = runtime.onTerminate((name) => {
      stop();
      resolve(name);
    });
  });
  io.stderr(`[daemon] ${signal}: stopping\n`);
  const force = runtime.onTerminate(() => runtime.exit(130));
  await daemon.close();
  force();
  return 0;
}
