/**
 * Where a project's root manifest is (M1): `beeuni.yaml` in the current
 * folder or the nearest folder above it, or the path the user gave.
 *
 * @module
 */

import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isFile } from "./_fs.ts";

/** The root manifest's file name (M1). */
export const MANIFEST_NAME = "beeuni.yaml";

/**
 * Finds the root manifest for `cwd` (M1): `beeuni.yaml` in `cwd` or the
 * nearest folder above it, like git finds its repository. Returns its
 * absolute path, or `undefined` when there is none.
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
 * `beeuni.yaml` from `cwd` upwards (M1). Throws an `Error` that says where
 * it looked when there is none.
 */
export function locateManifest(cwd: string, manifest?: string): string {
  if (manifest === undefined) {
    const found = findManifest(cwd);
    if (!found) {
      throw new Error(
        `no ${MANIFEST_NAME} found in "${
          resolve(cwd)
        }" or any folder above it: run beeuni inside a project, or pass --manifest PATH`,
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
    throw new Error(
      `cannot read manifest "${manifest}": file not found (looked at ${file})`,
    );
  }
  return file;
}
