// The symbolic links inside a project: the runtimes check a path as it
// is written and the system then follows the links in it, so a link that
// is already there (git checks committed links out) could carry a runner
// past its grants. Found here; what to deny is decided in _confinement.ts.

import { opendir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";

/** A symbolic link found in the project. */
export interface ProjectLink {
  /** Where the link is: its path, through real folders only. */
  path: string;
  /** What it leads to, every link resolved; undefined when it leads nowhere. */
  target?: string;
  /** Whether the target is a folder. */
  folder: boolean;
}

/** What a look for links found. */
export interface LinkScan {
  /** The links, in the order found. */
  links: ProjectLink[];
  /** How many entries were looked at. */
  entries: number;
  /** False when the project had more entries than were looked at. */
  complete: boolean;
}

/**
 * Folders not looked into: the package manager's (links there are its
 * own, and tools may not write there) and git's.
 */
const SKIPPED = new Set(["node_modules", ".git"]);

/** The most entries looked at in one scan. */
export const MAX_SCANNED_ENTRIES = 200_000;

async function describe(path: string): Promise<ProjectLink> {
  try {
    const target = await realpath(path);
    const folder = (await stat(target)).isDirectory();
    return { path, target, folder };
  } catch {
    return { path, folder: false };
  }
}

/**
 * Every symbolic link under `root` (a real path), not following links and
 * not looking into `node_modules` and `.git` folders; at most
 * `maxEntries` entries are looked at.
 */
export async function findLinks(
  root: string,
  maxEntries: number = MAX_SCANNED_ENTRIES,
): Promise<LinkScan> {
  const links: ProjectLink[] = [];
  const folders = [root];
  let entries = 0;
  while (folders.length > 0) {
    const folder = folders.pop()!;
    let dir;
    try {
      dir = await opendir(folder);
    } catch {
      continue;
    }
    for await (const entry of dir) {
      if (++entries > maxEntries) {
        await dir.close().catch(() => {});
        return { links, entries: maxEntries, complete: false };
      }
      const path = join(folder, entry.name);
      if (entry.isSymbolicLink()) links.push(await describe(path));
      else if (entry.isDirectory() && !SKIPPED.has(entry.name)) {
        folders.push(path);
      }
    }
  }
  return { links, entries, complete: true };
}
