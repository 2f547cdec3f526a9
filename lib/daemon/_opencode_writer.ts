// The opencode files describe the daemon the plugin calls: the newest
// daemon of the project whose process runs. A daemon writes them on start
// and after each reload only while no daemon of the project started after
// it runs; it looks once a second, so when the newer one stops (or is
// killed) it writes them again, and when a newer one starts it leaves
// them to it. Each look-and-write runs under the record's lock.

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
   * where they are even when nothing changed.
   */
  write(announce: boolean): void;
  /** Where the lines go. */
  log(line: string): void;
}

/** A daemon's writer of the opencode files. */
export interface OpencodeWriter {
  /** Writes the files after a reload, unless a newer daemon runs. */
  sync(): void;
  /** Stops looking. */
  close(): void;
}

/** Writes the files now, unless a newer daemon runs, and keeps looking. */
export function startOpencodeWriter(
  options: OpencodeWriterOptions,
): OpencodeWriter {
  const { recordFile, self, log } = options;
  /** The newer daemon the files are left to, while there is one. */
  let leftTo: DaemonEntry | undefined;
  let closed = false;

  const check = (write: boolean, announce: boolean) => {
    if (closed) return;
    underRecordLock(recordFile, () => {
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
      if (write) options.write(announce);
    });
  };

  check(true, true);
  const timer = setInterval(() => {
    // The lock only when something changed: most looks find nothing.
    const newer = newerDaemon(recordFile, self);
    if ((newer === undefined) !== (leftTo === undefined)) check(false, false);
    else if (newer !== undefined) leftTo = newer;
  }, OPENCODE_CHECK_MS);
  return {
    sync(): void {
      check(true, false);
    },
    close(): void {
      closed = true;
      clearInterval(timer);
    },
  };
}
