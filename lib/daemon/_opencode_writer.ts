// The opencode files describe the daemon the plugin calls: the newest
// daemon of the project whose process runs. A daemon writes them on start
// and after each reload only while no daemon of the project started after
// it runs; it looks once a second, so when the newer one stops (or is
// killed) it writes them again, and when a newer one starts it leaves
// them to it. Each look-and-write runs under the record's lock.
//
// Nothing here holds up a call: a write after a reload runs in the
// background (the reload is done, and answered, before it starts), waits
// for the record's lock on a timer, and runs one at a time; reloads that
// come while one waits make one more write, not one each.

import { errorMessage } from "../common/mod.ts";
import type { DaemonEntry } from "../opencode/mod.ts";
import { newerDaemon, underRecordLock } from "./_record.ts";

/** How often a daemon looks for a newer or a gone daemon of its project, in milliseconds. */
export const OPENCODE_CHECK_MS = 1_000;

/** What {@linkcode startOpencodeWriter} needs. */
export interface OpencodeWriterOptions {
  /** The project's daemon record. */
  recordFile: string;
  /** This daemon's entry in the record; undefined when it could not be written. */
  self: DaemonEntry | undefined;
  /**
   * Writes the files as the daemon now serves; with `announce`, says
   * where they are even when nothing changed. Never rejects.
   */
  write(announce: boolean): Promise<unknown>;
  /** Where the lines go. */
  log(line: string): void;
}

/** A daemon's writer of the opencode files. */
export interface OpencodeWriter {
  /**
   * Writes the files after a reload, unless a newer daemon runs: in the
   * background; the promise settles once written (it never rejects).
   */
  sync(): Promise<void>;
  /** Stops looking, drops a write that waits for the lock, and waits for one under way. */
  close(): Promise<void>;
}

/**
 * Writes the files, unless a newer daemon runs, and resolves once they are
 * written; then keeps looking.
 */
export async function startOpencodeWriter(
  options: OpencodeWriterOptions,
): Promise<OpencodeWriter> {
  const { recordFile, self, log } = options;
  /** The newer daemon the files are left to, while there is one. */
  let leftTo: DaemonEntry | undefined;
  const stop = new AbortController();

  const check = (write: boolean, announce: boolean) =>
    underRecordLock(recordFile, async () => {
      if (stop.signal.aborted) return;
      const newer = newerDaemon(recordFile, self);
      if (newer !== undefined) {
        if (leftTo === undefined) {
          log(
            `[opencode] left the opencode files to the daemon at ${newer.url} (pid ${newer.pid}), started after this one: the plugin calls that one while it runs`,
          );
        }
        leftTo = newer;
        return;
      }
      if (leftTo !== undefined) {
        log(
          `[opencode] the daemon at ${leftTo.url} (pid ${leftTo.pid}) is gone: the plugin calls this one again, and the opencode files describe it`,
        );
        leftTo = undefined;
        write = true;
      }
      if (write) await options.write(announce);
    }, stop.signal);

  /** The look (and write) under way or waiting for the lock, if any. */
  let running: Promise<void> = Promise.resolve();
  /** Whether a look is queued behind it, and whether that one writes. */
  let queued: { write: boolean } | undefined;
  const schedule = (write: boolean): Promise<void> => {
    if (queued !== undefined) {
      queued.write ||= write;
      return running;
    }
    const next = { write };
    queued = next;
    running = running.then(async () => {
      queued = undefined;
      try {
        await check(next.write, false);
      } catch (error) {
        if (!stop.signal.aborted) {
          log(
            `[opencode] cannot write the opencode files: ${
              errorMessage(error)
            }`,
          );
        }
      }
    });
    return running;
  };

  await check(true, true);
  const timer = setInterval(() => {
    // The lock only when something changed: most looks find nothing.
    const newer = newerDaemon(recordFile, self);
    if ((newer === undefined) !== (leftTo === undefined)) schedule(false);
    else if (newer !== undefined) leftTo = newer;
  }, OPENCODE_CHECK_MS);
  return {
    sync: () => schedule(true),
    async close(): Promise<void> {
      clearInterval(timer);
      stop.abort();
      await running;
    },
  };
}
