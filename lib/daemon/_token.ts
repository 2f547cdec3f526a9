/**
 * The daemon's bearer token: where it comes from, where it is written,
 * and who still uses the file.
 *
 * The token is `BEEUNI_DAEMON_TOKEN` when set (nothing is written then), or
 * 32 random bytes, hex, written atomically with file mode 0600 to
 * `--token-file PATH` or, by default,
 * `$XDG_STATE_HOME/beeuni/daemon/<sha256 of the project root>.token`
 * (`~/.local/state` when `XDG_STATE_HOME` is unset): one file per project.
 *
 * Several daemons of one project share that file: a daemon that finds it
 * held by a running daemon uses the token in it, and each daemon marks its
 * use with a file `.<token file name>.<pid>-<random>.holder` beside it. The
 * last daemon to stop removes the token file; holders whose process is gone
 * (killed) no longer count. All of this happens under the token file's lock
 * (`<token file>.lock`), so a daemon that fails to start, or one that stops,
 * never removes a file another daemon still answers with.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import process from "node:process";
import {
  type Env,
  isProcessRunning,
  projectKey,
  removeTempsOf,
  stateDir,
  withFileLock,
  withFileLockNow,
  writeFileAtomic,
} from "../common/mod.ts";

/** A fresh token: 32 bytes from the system's secure random source, as hex. */
export function generateToken(): string {
  return randomBytes(32).toString("hex");
}

/** The default token file of the project at `root`. */
export function defaultTokenFile(root: string, env: Env): string {
  return join(stateDir(env), "daemon", `${projectKey(root)}.token`);
}

/** Where the daemon's token came from and, when written, where it is. */
export interface DaemonToken {
  /** The token itself. */
  token: string;
  /** The file it was written to; absent when it came from `BEEUNI_DAEMON_TOKEN`. */
  file?: string;
  /** Gives up this daemon's use of the file; the last user removes it. Runs once. */
  release(): Promise<void>;
  /**
   * {@linkcode release} for an exit that cannot wait: done only when the
   * file's lock is free at once (otherwise the next daemon finds this one
   * gone).
   */
  releaseNow(): void;
}

const TOKEN = /^[0-9a-f]{64}$/;

/** The token in the file at `path`; `undefined` when it cannot be read or holds none. */
export function readToken(path: string): string | undefined {
  try {
    const text = readFileSync(path, "utf8").trim();
    return TOKEN.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** How many daemons still use `path`; the files of those that are gone are removed. */
function countHolders(path: string): number {
  const dir = dirname(path);
  const prefix = `.${basename(path)}.`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let live = 0;
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = /^(\d+)-[0-9a-f]{16}\.holder$/.exec(
      name.slice(prefix.length),
    )?.[1];
    if (pid === undefined) continue;
    if (isProcessRunning(Number(pid))) live++;
    else rmSync(join(dir, name), { force: true });
  }
  return live;
}

/**
 * The daemon's token: `BEEUNI_DAEMON_TOKEN` when set and non-empty;
 * otherwise the token in `file` (default {@linkcode defaultTokenFile})
 * when a running daemon uses it, or a generated one written there with
 * mode 0600.
 */
export async function acquireToken(
  root: string,
  env: Env,
  file?: string,
): Promise<DaemonToken> {
  const given = env.BEEUNI_DAEMON_TOKEN;
  if (given !== undefined && given !== "") {
    if (/\s/.test(given) || given.length < 16) {
      throw new Error(
        "BEEUNI_DAEMON_TOKEN must be at least 16 characters with no spaces: use a long random string",
      );
    }
    return {
      token: given,
      release: () => Promise.resolve(),
      releaseNow() {},
    };
  }
  const path = file === undefined ? defaultTokenFile(root, env) : resolve(file);
  const holder = join(
    dirname(path),
    `.${basename(path)}.${process.pid}-${
      randomBytes(8).toString("hex")
    }.holder`,
  );
  const token = await withFileLock(path, () => {
    // Every writer of the file holds its lock: any temporary file is a leftover.
    removeTempsOf(path);
    const current = readToken(path);
    const token = countHolders(path) > 0 && current ? current : generateToken();
    if (token !== current) writeFileAtomic(path, token + "\n");
    writeFileSync(holder, "", { mode: 0o600 });
    return token;
  });
  const giveUp = () => {
    rmSync(holder, { force: true });
    if (countHolders(path) === 0 && readToken(path) === token) {
      rmSync(path, { force: true });
    }
  };
  let released = false;
  const once = () => !released && (released = true);
  return {
    token,
    file: path,
    async release(): Promise<void> {
      if (once()) await withFileLock(path, giveUp);
    },
    releaseNow(): void {
      if (once()) withFileLockNow(path, giveUp);
    },
  };
}
