/**
 * The project's local secret store: one JSON file per project, outside
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
 * @module
 */

import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  canonicalRoot,
  type Env,
  isPlainObject,
  projectKey,
  removeTempsOf,
  stateDir,
  withFileLock,
  writeFileAtomic,
} from "../common/mod.ts";

/** The environment variables the store reads. */
export type SecretsEnv = Env;

/** What a secret name must look like: an environment variable name. */
export const SECRET_NAME_PATTERN: RegExp = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Whether `name` is a valid secret name ({@linkcode SECRET_NAME_PATTERN}).
 *
 * @returns `true` for a name made of letters, digits and `_`, not starting
 * with a digit.
 */
export function isSecretName(name: string): boolean {
  return SECRET_NAME_PATTERN.test(name);
}

/**
 * The secret store file of the project at `root`: `BEEUNI_SECRETS_FILE`
 * when set, else `<stateDir>/secrets/<projectKey(root)>.json`.
 *
 * @returns The absolute path of the store file, which may not exist yet.
 */
export function secretsFile(root: string, env: SecretsEnv): string {
  const override = env.BEEUNI_SECRETS_FILE;
  if (override) return resolve(override);
  return join(stateDir(env), "secrets", `${projectKey(root)}.json`);
}

/**
 * The secret store file cannot be read: it is not readable (`cause` is the
 * file system's error), not JSON, or has no `secrets` object. Never
 * carries the file's text, which may hold secret values. The message says
 * what to do: fix or delete the file.
 */
export class SecretStoreError extends Error {
  /** Always `"SecretStoreError"`. */
  override name = "SecretStoreError";
  /** The store file. */
  readonly path: string;

  /** A store at `path` that cannot be read, with the message a person reads. */
  constructor(message: string, path: string, options?: ErrorOptions) {
    super(message, options);
    this.path = path;
  }
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
    throw new SecretStoreError(
      `cannot read secret store "${path}": ${reason}`,
      path,
      { cause: error },
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // The parser's message may quote the file's text: never echo it, nor
    // keep it as the cause.
    throw new SecretStoreError(
      `cannot read secret store "${path}": not valid JSON (fix or delete the file)`,
      path,
    );
  }
  const secrets = (data as Partial<StoreFile> | null)?.secrets;
  if (!isPlainObject(secrets)) {
    throw new SecretStoreError(
      `cannot read secret store "${path}": no "secrets" object (fix or delete the file)`,
      path,
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
): Promise<{ path: string; changed: boolean }> {
  const path = secretsFile(root, env);
  return withFileLock(path, () => {
    removeTempsOf(path);
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
    throw new RangeError(
      `invalid secret name "${name}": use letters, digits and "_", not starting with a digit`,
    );
  }
}

/**
 * Every secret stored for the project at `root`, by name, at its current
 * value. A missing store is empty. Read from disk on every call, so a
 * changed secret is seen at once.
 *
 * @returns The secrets by name; `{}` when the store does not exist.
 * @throws {SecretStoreError} When the store cannot be read or is not a
 * store.
 */
export function readSecrets(
  root: string,
  env: SecretsEnv,
): Record<string, string> {
  return readStore(secretsFile(root, env));
}

/**
 * The names of the secrets stored for the project at `root`, sorted.
 *
 * @returns The names, sorted.
 * @throws {SecretStoreError} When the store cannot be read.
 */
export function secretNames(root: string, env: SecretsEnv): string[] {
  return Object.keys(readSecrets(root, env)).sort();
}

/**
 * Stores `value` under `name` for the project at `root`.
 *
 * @returns A promise of the store file's path.
 * @throws {RangeError} When `name` is not a valid secret name.
 * @throws {SecretStoreError} When the store cannot be read.
 * @throws {Error} When the store's lock stays held by another process past
 * its timeout.
 */
export async function setSecret(
  root: string,
  name: string,
  value: string,
  env: SecretsEnv,
): Promise<string> {
  checkName(name);
  const { path } = await updateStore(root, env, (secrets) => {
    secrets[name] = value;
    return true;
  });
  return path;
}

/**
 * Removes the secret `name` of the project at `root`.
 *
 * @returns A promise of `true` when it was stored and is now removed.
 * @throws {RangeError} When `name` is not a valid secret name.
 * @throws {SecretStoreError} When the store cannot be read.
 * @throws {Error} When the store's lock stays held by another process past
 * its timeout.
 */
export async function removeSecret(
  root: string,
  name: string,
  env: SecretsEnv,
): Promise<boolean> {
  checkName(name);
  const { changed } = await updateStore(root, env, (secrets) => {
    if (!Object.hasOwn(secrets, name)) return false;
    delete secrets[name];
    return true;
  });
  return changed;
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
