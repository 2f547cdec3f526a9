// What a tool may read and write: the project, the
// node_modules folders and package.json files above it (packages resolve
// the Node way from there), the Beeuni tools, and a temporary folder of its
// grant's own; never the daemon's token or the secret store, nor what
// governs the tools (see _governed.ts). The runner may also write, but not
// read or list, the host's folder of saved outputs, where it saves a long
// output for the host. Symbolic links already in the project do not
// widen this: a link that leads past a grant, or to a folder through which
// such a link is reached, is denied by its own path. Pure: the caller
// reads the file system.

import { dirname, join, resolve } from "node:path";
import { isWithin } from "../common/mod.ts";
import type { ProjectLink } from "./_symlinks.ts";

/** The paths a runner is given. */
export interface Confinement {
  /** Readable paths. */
  read: string[];
  /** Writable paths. */
  write: string[];
  /** Paths never readable, even inside a readable one. */
  denyRead: string[];
  /** Paths never writable, even inside a writable one. */
  denyWrite: string[];
}

/** What confinement starts from. */
export interface ConfinementInput {
  /** The project root. */
  directory: string;
  /** The folder of the Beeuni tools' modules. */
  builtinDir: string;
  /** The runner program's own folder or file, when the runtime must be allowed to read it. */
  runnerDir?: string;
  /** The temporary folder of the runner's grant. */
  tmpDir: string;
  /** The host's folder of saved outputs: writable, not readable. */
  outputDir?: string;
  /** More readable paths. */
  allowRead?: string[];
  /** More writable paths. */
  allowWrite?: string[];
  /** Paths never readable. */
  denyRead?: string[];
  /** Paths never writable (what governs the tools). */
  denyWrite?: string[];
}

/** Every folder from `start` up to the file system's root, `start` first. */
function ancestors(start: string): string[] {
  const out: string[] = [];
  let dir = resolve(start);
  while (true) {
    out.push(dir);
    const parent = dirname(dir);
    if (parent === dir) return out;
    dir = parent;
  }
}

const unique = (paths: string[]): string[] => [...new Set(paths)];

/** The paths a tool of the project at `input.directory` may touch. */
export function confinement(input: ConfinementInput): Confinement {
  const above = ancestors(input.directory).slice(1);
  const read = [
    input.directory,
    input.builtinDir,
    input.tmpDir,
    ...above.flatMap((dir) => [
      join(dir, "node_modules"),
      join(dir, "package.json"),
    ]),
    ...(input.runnerDir ? [input.runnerDir] : []),
    ...(input.allowRead ?? []).map((path) => resolve(path)),
  ];
  const write = [
    input.directory,
    input.tmpDir,
    ...(input.outputDir ? [resolve(input.outputDir)] : []),
    ...(input.allowWrite ?? []).map((path) => resolve(path)),
  ];
  const denyRead = (input.denyRead ?? []).map((path) => resolve(path));
  return {
    read: unique(read),
    write: unique(write),
    denyRead: unique(denyRead),
    // What may not be read may not be written either.
    denyWrite: unique([
      ...(input.denyWrite ?? []).map((path) => resolve(path)),
      ...denyRead,
    ]),
  };
}

/** A grant in real paths: where a link's target may lie, and what it may not reach. */
export interface RealGrant {
  /** Paths the access is allowed under. */
  allowed: string[];
  /** Paths the access is denied under. */
  denied: string[];
}

/** Whether `target` and some path of `paths` lie one within the other. */
function meets(target: string, paths: Iterable<string>): boolean {
  for (const path of paths) {
    if (isWithin(target, path) || isWithin(path, target)) return true;
  }
  return false;
}

/**
 * The links of `links` to deny for an access whose grant is `grant`: each
 * link that leads nowhere, outside the allowed paths, or to or around a
 * denied path; then each folder link that leads to a folder holding one of
 * those (a second way to reach it), until no more are found.
 */
export function linksToDeny(
  links: readonly ProjectLink[],
  grant: RealGrant,
): ProjectLink[] {
  const allowed = (target: string) =>
    grant.allowed.some((path) => isWithin(target, path));
  const denied = new Set(grant.denied);
  const out: ProjectLink[] = [];
  let left = [...links];
  for (let found = true; found;) {
    found = false;
    const next: ProjectLink[] = [];
    for (const link of left) {
      const target = link.target;
      if (target === undefined || !allowed(target) || meets(target, denied)) {
        out.push(link);
        denied.add(link.path);
        found = true;
      } else next.push(link);
    }
    left = next;
  }
  return out;
}
