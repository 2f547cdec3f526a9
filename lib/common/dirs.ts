/**
 * Where the toolkit keeps its own files, following the XDG base directory
 * rules, and the stable key of a project root.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/** An environment to read `XDG_*` and `HOME` from. */
export type Env = Record<string, string | undefined>;

function xdgDir(env: Env, variable: string, fallback: string[]): string {
  const xdg = env[variable];
  if (xdg && isAbsolute(xdg)) return xdg;
  const home = env.HOME || env.USERPROFILE || homedir();
  return join(home, ...fallback);
}

/**
 * The folder where beeuni keeps local state (tokens, secrets):
 * `$XDG_STATE_HOME/beeuni`, or `~/.local/state/beeuni` when
 * `XDG_STATE_HOME` is unset or not absolute.
 */
export function stateDir(env: Env): string {
  return join(xdgDir(env, "XDG_STATE_HOME", [".local", "state"]), "beeuni");
}

/**
 * The folder where beeuni keeps what it can download again:
 * `$XDG_CACHE_HOME/beeuni`, or `~/.cache/beeuni`.
 */
export function cacheDir(env: Env): string {
  return join(xdgDir(env, "XDG_CACHE_HOME", [".cache"]), "beeuni");
}

/**
 * The user's config folder: `$XDG_CONFIG_HOME`, or `~/.config`, where
 * other programs (opencode) keep theirs.
 */
export function configHome(env: Env): string {
  return xdgDir(env, "XDG_CONFIG_HOME", [".config"]);
}

/** The canonical absolute path of a project root (symlinks resolved when it exists). */
export function canonicalRoot(root: string): string {
  const absolute = resolve(root);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** A short stable key for a project root: the hex SHA-256 of its canonical path. */
export function projectKey(root: string): string {
  return createHash("sha256").update(canonicalRoot(root)).digest("hex");
}
