// What a change to some files needs reloaded: the whole project when a
// manifest file changed (or the manifest had errors, or a tool module went
// away, which the manifest's checks must see), else the tools whose modules
// reach a changed file. Files no tool is seen to import reload every
// project tool: a dynamic import with a computed path is not seen.

import { existsSync } from "node:fs";
import { resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { LEGACY_TOOLS_DIR } from "../manifest/mod.ts";
import type { Generation } from "./_generation.ts";
import { localImports, realPath } from "./_module_graph.ts";

/** The manifest files `generation` read or named, by real path. */
function manifestFiles(root: string, generation: Generation): Set<string> {
  const manifest = generation.manifest;
  const files = new Set<string>([
    realPath(resolve(root, manifest.manifestPath)),
  ]);
  for (const file of manifest.files) {
    files.add(realPath(resolve(root, file.path)));
    for (const entry of file.imports) {
      files.add(realPath(resolve(root, entry.path)));
    }
  }
  return files;
}

/**
 * The names of the tools to import anew after `changed` (absolute paths)
 * changed, or undefined when the whole project must be read again.
 */
export function reloadScope(
  generation: Generation,
  changed: readonly string[],
): Set<string> | undefined {
  const root = generation.root;
  if (changed.length === 0) return undefined;
  if (generation.diagnostics.some((d) => d.severity === "error")) {
    return undefined;
  }
  const files = changed.map((path) => realPath(path));
  const manifests = manifestFiles(root, generation);
  // The legacy tool folder's files are checked by the manifest's rules.
  const legacy = realPath(resolve(root, LEGACY_TOOLS_DIR)) + sep;
  if (files.some((file) => manifests.has(file) || file.startsWith(legacy))) {
    return undefined;
  }
  const entries = new Map<string, string>();
  for (const tool of generation.toolSet.tools) {
    if (tool.kind === "beeuni") continue;
    const url = generation.modules.get(tool.name)?.url;
    if (url) entries.set(tool.name, realPath(fileURLToPath(url)));
  }
  const modules = new Set(entries.values());
  // A tool module gone is a manifest error (V4): the project is read again.
  if (files.some((file) => modules.has(file) && !existsSync(file))) {
    return undefined;
  }
  const everyTool = new Set(entries.keys());
  const reach = localImports(entries);
  if (!reach) return everyTool;
  const names = new Set<string>();
  for (const file of files) {
    let seen = false;
    for (const [name, reached] of reach) {
      if (!reached.has(file)) continue;
      names.add(name);
      seen = true;
    }
    if (!seen) return everyTool;
  }
  return names;
}
