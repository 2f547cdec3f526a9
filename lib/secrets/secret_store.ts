/**
 * The project's local secret store (D6): one JSON file per project, outside
 * any git checkout, file mode 0600, always written atomically (a temporary
 * file in the same folder, then a rename). Every change reads, changes and
 * writes the file while holding its lock (`<file>.lock`), so concurrent
 * `secrets set` runs, under any runtime, lose no update; the temporary
 * files a killed run left (which may hold secret values) are removed by
 * the next change.
 *
 * The file for a project is
 * `$XDG_STATE_HOME/beeuni/secrets/<sha256 of the project root>.json`
 * (`~/.local/state` when `XDG_STATE_HOME` is unset), or the path in
 * `BEEUNI_SECRETS_FILE` when that variable is set.
 *
 * @example Store, read and remove a secret
 * ```ts ignore
 * import { readSecrets, removeSecret, setSecret } from "@beeuni/tools";
 * const env = { BEEUNI_SECRETS_FILE: "/tmp/example_secrets.json" };
 * setSecret("/work/project", "WEATHER_API_KEY", "abc123", env);
 * readSecrets("/work/project", env); // { WEATHER_API_KEY: "abc123" }
 * removeSecret("/work/project", "WEATHER_API_KEY", env); // true
 * ```
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import {
  canonicalRoot,
  type Env,
  isPlainObject,
  projectKey,
  removeStaleTemps,
  stateDir,
  withFileLock,
  writeFileAtomic,
} from "../common/mod.ts";

/** The environment variables the store reads. */
export type SecretsEnv = Env;

/** What a secret name must look like: an environment variable name. */
export const SECRET_NAME_PATTERN: RegExp = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `name` is a valid secret name ({@linkcode SECRET_NAME_PATTERN}). */
export function isSecretName(name: string): boolean {
  return SECRET_NAME_PATTERN.test(name);
}

/**
 * The secret store file of the project at `root`: `BEEUNI_SECRETS_FILE`
 * when set, else `<stateDir>/secrets/<projectKey(root)>.json`.
 */
export function secretsFile(root: string, env: SecretsEnv): string {
  const override = env.BEEUNI_SECRETS_FILE;
  if (override) return resolve(override);
  return join(stateDir(env), "secrets", `${projectKey(root)}.json`);
}

interface StoreFile {
  root: string;
  secrets: Record<string, string>;
}

function readStore(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return {};
    const reason = (error as { code?: string }).code ?? "unreadable";
    throw new Error(`cannot read secret store "${path}": ${reason}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // The parser's message may quote the file's text: never echo it.
    throw new Error(
      `cannot read secret store "${path}": not valid JSON (fix or delete the file)`,
    );
  }
  const secrets = (data as Partial<StoreFile> | null)?.secrets;
  if (!isPlainObject(secrets)) {
    throw new Error(
      `cannot read secret store "${path}": no "secrets" object (fix or delete the file)`,
    );
  }
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(secrets)) {
    if (isSecretName(name) && typeof value === "string") result[name] = value;
  }
  return result;
}

/**
 * Reads the store, lets `change` edit it, and writes it back when `change`
 * returns true, all under the store's lock. Temporary files of the store
 * are removed first whatever their age: every writer holds the lock while
 * its own exists, so any there now was left by a killed run.
 */
function updateStore(
  root: string,
  env: SecretsEnv,
  change: (secrets: Record<string, string>) => boolean,
): { path: string; changed: boolean } {
  const path = secretsFile(root, env);
  return withFileLock(path, () => {
    removeStaleTemps(dirname(path), { names: [basename(path)], graceMs: 0 });
    const secrets = readStore(path);
    if (!change(secrets)) return { path, changed: false };
    const sorted: Record<string, string> = {};
    for (const name of Object.keys(secrets).sort()) {
      sorted[name] = secrets[name];
    }
    const data: StoreFile = { root: canonicalRoot(root), secrets: sorted };
    writeFileAtomic(path, JSON.stringify(data, null, 2) + "\n");
    return { path, changed: true };
  });
}

function checkName(name: string): void {
  if (!isSecretName(name)) {
    throw new Error(
      `invalid secret name "${name}": use letters, digits and "_", not starting with a digit`,
    );
  }
}

/**
 * Every secret stored for the project at `root`, by name, at its current
 * value. A missing store is empty. Read from disk on every call, so a
 * changed secret is seen at once.
 */
export function readSecrets(
  root: string,
  env: SecretsEnv,
): Record<string, string> {
  return readStore(secretsFile(root, env));
}

/** The names of the secrets stored for the project at `root`, sorted. */
export function secretNames(root: string, env: SecretsEnv): string[] {
  return Object.keys(readSecrets(root, env)).sort();
}

/** Stores `value` under `name` for the project at `root`; returns the store's path. */
export function setSecret(
  root: string,
  name: string,
  value: string,
  env: SecretsEnv,
): string {
  checkName(name);
  return updateStore(root, env, (secrets) => {
    secrets[name] = value;
    return true;
  }).path;
}

/** Removes the secret `name` of the project at `root`; false when it was not stored. */
export function removeSecret(
  root: string,
  name: string,
  env: SecretsEnv,
): boolean {
  checkName(name);
  return updateStore(root, env, (secrets) => {
    if (!Object.hasOwn(secrets, name)) return false;
    delete secrets[name];
    return true;
  }).changed;
}

/**
 * What no tool of the project at `root` may read or write: the toolkit's
 * state folder (daemon tokens and records, the secret stores) and this
 * project's secret store wherever `BEEUNI_SECRETS_FILE` puts it.
 *
 * @example
 * ```ts
 * import { privatePaths } from "./secret_store.ts";
 * privatePaths("/work/app", { HOME: "/home/me" });
 * // ["/home/me/.local/state/beeuni", "/home/me/.local/state/beeuni/secrets/<key>.json"]
 * ```
 */
export function privatePaths(root: string, env: SecretsEnv): string[] {
  return [stateDir(env), secretsFile(root, env)];
}
