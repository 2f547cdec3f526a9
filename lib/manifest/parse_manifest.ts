/**
 * Parses a project's `beeuni.yaml` and every file it imports into a
 * {@linkcode Manifest}, keeping the file, line and column of every node.
 * Pure over a `read` callback: problems become positioned diagnostics, never
 * exceptions.
 *
 * @module
 */

import { posix } from "node:path";
import {
  MANIFEST_LIMITS,
  type ManifestLimits,
  manifestLimits,
} from "./limits.ts";
import type { Manifest } from "./types.ts";
import { ImportWalk, type ReadFile } from "./_import_walk.ts";

export type { ReadFile } from "./_import_walk.ts";

/** Options of {@linkcode parseManifest}. */
export interface ParseManifestOptions {
  /** Bounds over the defaults of {@linkcode MANIFEST_LIMITS}. */
  limits?: Partial<ManifestLimits>;
}

/** How many alias expansions a manifest file may cause before it counts as an alias bomb (V12). */
export const MAX_ALIAS_COUNT: number = MANIFEST_LIMITS.maxAliasCount;

/**
 * Parses the root manifest at `manifestPath` (repo-relative) and every file
 * it imports, recursively, through `read`. Never rejects: malformed
 * YAML, wrong types, alias bombs, import cycles, missing imports, import
 * paths that leave the repository and input past {@linkcode MANIFEST_LIMITS}
 * (file size, entries, nesting, imports) are positioned errors in
 * {@linkcode Manifest.diagnostics}. Time and memory grow with the input
 * read, which the limits bound. Asynchronous only because the `yaml`
 * library is loaded on the first file that needs it: plain manifests
 * (block mappings and lists, one-line values and `[…]`/`{…}`) are read
 * without it.
 *
 * @returns The manifest: its files, their entries with positions, and the
 * parser's diagnostics.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseManifest } from "@beeuni/tools/manifest";
 *
 * const files: Record<string, string> = {
 *   "beeuni.yaml": "tools:\n  web_search: beeuni:web_search\n",
 * };
 * const manifest = await parseManifest(
 *   "/repo",
 *   "beeuni.yaml",
 *   (path) => files[path],
 * );
 * assert.equal(manifest.files[0].tools[0].name, "web_search");
 * ```
 */
export function parseManifest(
  root: string,
  manifestPath: string,
  read: ReadFile,
  options: ParseManifestOptions = {},
): Promise<Manifest> {
  return parseManifestWith(root, manifestPath, read, options, true);
}

/**
 * {@linkcode parseManifest}, with the reader of plain manifests (`plain`)
 * or with the `yaml` library alone: what tests/manifest_reader_test.ts
 * compares.
 */
export function parseManifestWith(
  root: string,
  manifestPath: string,
  read: ReadFile,
  options: ParseManifestOptions,
  plain: boolean,
): Promise<Manifest> {
  const rootPath = posix.normalize(manifestPath.replaceAll("\\", "/"));
  return new ImportWalk(root, rootPath, read, {
    limits: manifestLimits(options.limits),
    plain,
  }).run();
}
