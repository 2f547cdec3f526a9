// What decides a project's tool list, as one string: the size and change
// time of the manifest files, the tool modules and what they import. A
// session compares it between turns to pick up a change.

import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { Host } from "../host/mod.ts";

/** The files whose change may change `host`'s tool list, absolute. */
function toolListFiles(host: Host): string[] {
  const manifest = host.manifest();
  const root = host.directory;
  const files = new Set<string>([resolve(root, manifest.manifestPath)]);
  for (const file of manifest.files) {
    files.add(resolve(root, file.path));
    for (const entry of file.imports) files.add(resolve(root, entry.path));
    for (const tool of file.tools) {
      if (typeof tool.value === "string" && !tool.value.startsWith("beeuni:")) {
        files.add(resolve(root, tool.value));
      }
    }
  }
  for (const source of host.sources()) files.add(source);
  return [...files].sort();
}

/** A fingerprint of the files behind `host`'s tool list; it differs once one changed. */
export function toolListFingerprint(host: Host): string {
  return toolListFiles(host).map((path) => {
    try {
      const stat = statSync(path);
      return `${path}:${stat.size}:${stat.mtimeMs}`;
    } catch {
      return `${path}:-`;
    }
  }).join("\n");
}
