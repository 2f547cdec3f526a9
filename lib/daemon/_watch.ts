/**
 * What the daemon watches for hot reload: the folders holding the root
 * manifest, every imported manifest file, every declared tool module and
 * every local file a module imports.
 * Derived again from the manifest each reload read, so a newly imported
 * file or a newly declared module is watched from then on. Nothing here
 * parses YAML: the reload reads the manifest off the event loop.
 *
 * @module
 */

import { realpathSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";
import { isWithin } from "../common/mod.ts";
import { type Manifest, MODULE_EXTENSIONS } from "../manifest/mod.ts";

/**
 * Extensions of files whose change in a watched folder triggers a reload:
 * the module extensions (V4) and the `.tsx`/`.jsx` helpers a tool may
 * import.
 */
const SOURCE_EXTENSIONS: ReadonlySet<string> = new Set([
  ...MODULE_EXTENSIONS,
  ".tsx",
  ".jsx",
]);

/** What to watch: folders, and the manifest files among their entries. */
export interface WatchTargets {
  /** Absolute folders to watch (not recursively), sorted. */
  dirs: string[];
  /** Absolute paths of the root manifest and every import named, read or not. */
  manifests: string[];
}

/**
 * Whether a change to the absolute `path` may change the tool set: one of
 * the `manifests`, or a module file (`.ts`, `.js`, …) that is not hidden.
 * Data files that tools write (`.json`, logs, …) never trigger a reload.
 */
export function isReloadTrigger(
  path: string,
  manifests: ReadonlySet<string>,
): boolean {
  if (manifests.has(path)) return true;
  const name = path.split(/[\\/]/).pop() ?? "";
  if (name.startsWith(".")) return false;
  return SOURCE_EXTENSIONS.has(extname(name).toLowerCase());
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * What to watch for the project at `root`, whose root manifest read as
 * `manifest`: the folders of every manifest file read, every import named,
 * every tool module declared and every local file `sources` names (the
 * files the modules import, at any depth), inside the project only, and
 * the manifest files themselves. A broken manifest yields what it could
 * read.
 */
export function watchTargets(
  root: string,
  manifest: Manifest,
  sources: readonly string[] = [],
): WatchTargets {
  // Folders are watched by their real path, so the paths of the events
  // match on systems that report real paths.
  const absoluteRoot = realPath(resolve(root));
  const manifestPath = manifest.manifestPath;
  const rootManifest = resolve(absoluteRoot, manifestPath);
  const dirs = new Set<string>([absoluteRoot, dirname(rootManifest)]);
  const manifests = new Set<string>([rootManifest]);
  const add = (repoRelative: string, isManifest: boolean) => {
    const full = resolve(absoluteRoot, repoRelative);
    if (!isWithin(full, absoluteRoot)) return;
    dirs.add(dirname(full));
    if (isManifest) manifests.add(full);
  };
  for (const file of manifest.files) {
    add(file.path, true);
    for (const entry of file.imports) add(entry.path, true);
    for (const tool of file.tools) {
      if (typeof tool.value === "string" && !tool.value.startsWith("beeuni:")) {
        add(tool.value, false);
      }
    }
  }
  for (const file of sources) add(file, false);
  return { dirs: [...dirs].sort(), manifests: [...manifests].sort() };
}
