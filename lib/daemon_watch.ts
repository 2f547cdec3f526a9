/**
 * What the daemon watches for hot reload (D5): the folders holding the root
 * manifest, every imported manifest file and every declared tool module.
 * Derived again after each reload, so a newly imported file or a newly
 * declared module is watched from then on.
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { parseManifest } from "./manifest.ts";

/** File extensions whose change triggers a reload. */
export const RELOAD_EXTENSIONS: ReadonlySet<string> = new Set([
  ".yaml",
  ".yml",
  ".json",
  ".ts",
  ".tsx",
  ".mts",
  ".cts",
  ".js",
  ".jsx",
  ".mjs",
  ".cjs",
]);

/** Whether a change to `path` may change the tool set: a manifest, module or data file. */
export function isReloadTrigger(path: string): boolean {
  const name = path.split(/[\\/]/).pop() ?? "";
  if (name.startsWith(".")) return false;
  return RELOAD_EXTENSIONS.has(extname(name).toLowerCase());
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !rel.startsWith(sep));
}

/**
 * The absolute folders to watch for the project at `root` whose root
 * manifest is `manifestPath` (repo-relative): the folders of every manifest
 * file read, every import named and every tool module declared, inside the
 * project only. Never throws: a broken manifest still yields the folders of
 * the files it could read.
 */
export function watchedDirs(root: string, manifestPath: string): string[] {
  const absoluteRoot = resolve(root);
  const manifest = parseManifest(absoluteRoot, manifestPath, (path) => {
    try {
      return readFileSync(join(absoluteRoot, path), "utf8");
    } catch {
      return undefined;
    }
  });
  const dirs = new Set<string>([
    absoluteRoot,
    dirname(join(absoluteRoot, manifestPath)),
  ]);
  const add = (repoRelative: string) => {
    const full = resolve(absoluteRoot, repoRelative);
    if (inside(absoluteRoot, full)) dirs.add(dirname(full));
  };
  for (const file of manifest.files) {
    add(file.path);
    for (const entry of file.imports) add(entry.path);
    for (const tool of file.tools) {
      if (typeof tool.value === "string" && !tool.value.startsWith("beeuni:")) {
        add(tool.value);
      }
    }
  }
  return [...dirs].sort();
}
