/**
 * The daemon's bearer token (D7): where it comes from, where it is written,
 * and how a request's `Authorization` header is checked in constant time.
 *
 * The token is `BEEUNI_DAEMON_TOKEN` when set (nothing is written then), or
 * 32 random bytes, hex, written atomically with file mode 0600 to
 * `--token-file PATH` or, by default,
 * `$XDG_STATE_HOME/beeuni/daemon/<sha256 of the project root>.token`
 * (`~/.local/state` when `XDG_STATE_HOME` is unset).
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  type Env,
  projectKey,
  stateDir,
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
}

/**
 * The daemon's token: `BEEUNI_DAEMON_TOKEN` when set and non-empty,
 * otherwise a generated one written to `file` (default
 * {@linkcode defaultTokenFile}) with mode 0600.
 */
export function prepareToken(
  root: string,
  env: Env,
  file?: string,
): DaemonToken {
  const given = env.BEEUNI_DAEMON_TOKEN;
  if (given !== undefined && given !== "") {
    if (/\s/.test(given) || given.length < 16) {
      throw new Error(
        "BEEUNI_DAEMON_TOKEN must be at least 16 characters with no spaces: use a long random string",
      );
    }
    return { token: given };
  }
  const token = generateToken();
  const path = file === undefined ? defaultTokenFile(root, env) : resolve(file);
  writeFileAtomic(path, token + "\n");
  return { token, file: path };
}

/** Removes the token file at `path` if it still holds `token` (another daemon may have replaced it). */
export function removeTokenFile(path: string, token: string): void {
  try {
    if (readFileSync(path, "utf8").trim() === token) rmSync(path);
  } catch {
    // Already gone or unreadable: nothing to clean up.
  }
}
