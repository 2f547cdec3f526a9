/**
 * `locateDaemon()`: a project's running daemon and its token, found from
 * another process (`beeuni web`) through the project's daemon record and
 * token file.
 *
 * @module
 */

import { daemonRecordFile, liveDaemons } from "./_record.ts";
import { readToken } from "./_token.ts";

/** A running daemon: where it listens and the token it answers. */
export interface LocatedDaemon {
  /** Its base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** Its bearer token. */
  token: string;
}

/**
 * No daemon of the project runs: {@linkcode locateDaemon} found none in
 * the project's daemon record. Start one (`beeuni daemon`, `startDaemon()`)
 * and look again.
 */
export class DaemonNotRunningError extends Error {
  /** Always `"DaemonNotRunningError"`. */
  override name = "DaemonNotRunningError";
  /** The project root whose daemon was looked for. */
  readonly root: string;

  /** No daemon of the project at `root`, with the message a person reads. */
  constructor(message: string, root: string, options?: ErrorOptions) {
    super(message, options);
    this.root = root;
  }
}

/**
 * The newest running daemon of the project at `root`, with its token: from
 * its token file, or `BEEUNI_DAEMON_TOKEN` in `env` for a daemon started
 * with that.
 *
 * @returns Where the daemon listens and its token.
 * @throws {DaemonNotRunningError} When no daemon of the project runs.
 * @throws {Error} When one runs but its token is out of reach: the message
 * says what to do.
 *
 * @example Ask the project's daemon for its health
 * ```ts ignore (needs a running daemon)
 * import process from "node:process";
 * import { locateDaemon } from "@beeuni/tools/daemon";
 *
 * const { url, token } = locateDaemon("/home/me/project", process.env);
 * await fetch(`${url}/beeuni/health`, { headers: { authorization: `Bearer ${token}` } });
 * ```
 */
export function locateDaemon(
  root: string,
  env: Record<string, string | undefined>,
): LocatedDaemon {
  const record = daemonRecordFile(root, env);
  const entry = liveDaemons(record).at(-1);
  if (entry === undefined) {
    throw new DaemonNotRunningError(
      `no daemon of the project "${root}" is running: start one with \`beeuni daemon\` in the project`,
      root,
    );
  }
  const url = entry.url.replace(/\/+$/, "");
  if (entry.tokenFile === null) {
    const token = env.BEEUNI_DAEMON_TOKEN?.trim();
    if (!token) {
      throw new Error(
        `the daemon at ${url} takes its token from BEEUNI_DAEMON_TOKEN: set BEEUNI_DAEMON_TOKEN to the same value here`,
      );
    }
    return { url, token };
  }
  const token = readToken(entry.tokenFile);
  if (token === undefined) {
    throw new Error(
      `cannot read the token of the daemon at ${url} from "${entry.tokenFile}": run this as the user who started the daemon`,
    );
  }
  return { url, token };
}
