/**
 * `runDaemon()`: the daemon as a program: parse its options, start it,
 * serve until SIGINT or SIGTERM, stop cleanly. `beeuni daemon` and
 * `daemon.ts` both run it.
 *
 * @module
 */

import type { Io, Runtime } from "../runtime/mod.ts";
import { parseDaemonArgs } from "./options.ts";
import { type RunningDaemon, startDaemon } from "./start_daemon.ts";

/** The part of a runtime adapter a running daemon uses. */
export type ProgramRuntime = Pick<
  Runtime,
  "serve" | "watchDirs" | "onTerminate" | "exit"
>;

/**
 * Signals this soon after the first are the same request to stop: one
 * Ctrl-C reaches the daemon twice when a wrapper (`deno task`, `npm start`)
 * forwards the SIGINT the terminal already sent to the whole process group.
 */
export const REPEAT_SIGNAL_MS = 2_000;

/**
 * Runs the daemon with the command line `args` until SIGINT or SIGTERM. A
 * signal during the start stops the daemon as soon as it has started.
 * Another signal at least {@linkcode REPEAT_SIGNAL_MS} after the first ends
 * the process at once (exit code 130), still removing the token file.
 *
 * @returns The exit code: 0 after a clean stop, 130 after a second signal.
 * @throws {UsageError} For a bad command line.
 * @throws {ManifestNotFoundError} When there is no project to serve.
 * @throws {PortInUseError} When the port is in use (a `ListenError` for
 * another failure to listen).
 */
export async function runDaemon(
  args: string[],
  io: Io,
  runtime: ProgramRuntime,
): Promise<number> {
  const options = parseDaemonArgs(args, io.cwd);
  let first: { signal: string; at: number } | undefined;
  let daemon: RunningDaemon | undefined;
  let stopRequested = () => {};
  const requested = new Promise<void>((resolve) => stopRequested = resolve);
  // Listening from the start: a signal never kills the daemon half-started.
  const unlisten = runtime.onTerminate((signal) => {
    if (first === undefined) {
      first = { signal, at: Date.now() };
      stopRequested();
    } else if (Date.now() - first.at >= REPEAT_SIGNAL_MS) {
      daemon?.closeNow();
      runtime.exit(130);
    }
  });
  try {
    daemon = await startDaemon({ ...options, runtime }, io);
    await requested;
    io.stderr(`[daemon] ${first!.signal}: stopping\n`);
    await daemon.close();
    return 0;
  } finally {
    unlisten();
  }
}
