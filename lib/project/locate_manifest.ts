/**
 * Where a project's root manifest is: `beeuni.yaml` in the current
 * folder or the nearest folder above it, or the path the user gave.
 *
 * @module
 */

import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isFile } from "./_fs.ts";

/** The root manifest's file name. */
export const MANIFEST_NAME = "beeuni.yaml";

/**
 * No root manifest where one was looked for: no `beeuni.yaml` in a folder
 * or any folder above it, or no file at the path given. Thrown by
 * {@linkcode locateManifest}, and so by `loadProject()`, `createHost()` and
 * `startDaemon()`.
 *
 * @example Tell a folder without a project from other failures
 * ```ts
 * import { locateManifest, ManifestNotFoundError } from "./locate_manifest.ts";
 *
 * try {
 *   locateManifest("/");
 * } catch (error) {
 *   if (!(error instanceof ManifestNotFoundError)) throw error;
 *   console.log(`no project at ${error.path}`);
 * }
 * ```
 */
export class ManifestNotFoundError extends Error {
  /** Always `"ManifestNotFoundError"`. */
  override name = "ManifestNotFoundError";
  /**
   * Where it looked: the absolute folder the search started from, or the
   * absolute path of the file looked at when a path was given.
   */
  readonly path: string;

  /** A manifest not found at `path`, with the message a person reads. */
  constructor(message: string, path: string, options?: ErrorOptions) {
    super(message, options);
    this.path = path;
  }
}

/**
 * Finds the root manifest for `cwd`: `beeuni.yaml` in `cwd` or the nearest
 * folder above it, like git finds its repository.
 *
 * @returns Its absolute path, or `undefined` when there is none.
 */
export function findManifest(cwd: string): string | undefined {
  let dir = resolve(cwd);
  while (true) {
    const candidate = join(dir, MANIFEST_NAME);
    if (isFile(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The absolute path of the root manifest: `manifest` (a file, or a folder
 * holding `beeuni.yaml`) resolved from `cwd` when given, else the nearest
 * `beeuni.yaml` from `cwd` upwards.
 *
 * @returns The absolute path of the root manifest file.
 * @throws {ManifestNotFoundError} When there is none, with a message that
 * says where it looked.
 */
export function locateManifest(cwd: string, manifest?: string): string {
  if (manifest === undefined) {
    const found = findManifest(cwd);
    if (!found) {
      const from = resolve(cwd);
      throw new ManifestNotFoundError(
        `no ${MANIFEST_NAME} found in "${from}" or any folder above it: run beeuni inside a project, or pass --manifest PATH`,
        from,
      );
    }
    return found;
  }
  let file = resolve(cwd, manifest);
  try {
    if (statSync(file).isDirectory()) file = join(file, MANIFEST_NAME);
  } catch {
    // Reported below.
  }
  if (!isFile(file)) {
    throw new ManifestNotFoundError(
      `cannot read manifest "${manifest}": file not found (looked at ${file})`,
      file,
    );
  }
  return file;
}
