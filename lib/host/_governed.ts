// What governs a project's tools, which no tool may write: the
// manifest and the files it imports, the tool modules and the local files
// they import, the folders that hold them (renaming a folder would replace
// what it holds), git's folder, the harnesses' folders, the packages and
// what decides how they resolve.

import { readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { isWithin } from "../common/mod.ts";
import { realPath } from "./_module_graph.ts";

/** Files at the project's root that decide how modules and packages resolve. */
const PACKAGE_FILES = [
  "node_modules",
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  "bun.lock",
  "bun.lockb",
  "bunfig.toml",
  "deno.json",
  "deno.jsonc",
  "deno.lock",
  "tsconfig.json",
  "jsconfig.json",
  ".npmrc",
];

/** Folders at the project's root that govern its tools and harnesses. */
const GOVERNING_FOLDERS = [".git", ".opencode", "harnesses"];

/** What governs a project's tools. */
export interface GovernedInput {
  /** The project folder tools may write in, as given. */
  directory: string;
  /** The manifest files: the root manifest and every file it imports (absolute). */
  manifestFiles: string[];
  /** The project tool modules (absolute). */
  modules: string[];
  /** The local files the modules import, at any depth, when known (absolute). */
  imports?: string[];
  /** More paths no tool may write (absolute). */
  more?: string[];
}

/** `path` under each of the project's two names: as given and through its real path. */
function bothNames(path: string, directory: string, real: string): string[] {
  for (const [from, to] of [[directory, real], [real, directory]]) {
    if (from === to || !isWithin(path, from)) continue;
    return [path, join(to, relative(from, path))];
  }
  return [path];
}

/** The folders from `path`'s own up to, not including, `directory`. */
function foldersBelow(path: string, directory: string): string[] {
  const out: string[] = [];
  for (
    let dir = dirname(path);
    isWithin(dir, directory) && dir !== directory;
  ) {
    out.push(dir);
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return out;
}

/** The folder git keeps a linked worktree's state in, when `.git` is a file naming it. */
function worktreeGitDir(directory: string): string | undefined {
  try {
    const text = readFileSync(join(directory, ".git"), "utf8");
    const match = /^gitdir: (.+)$/m.exec(text);
    if (!match) return undefined;
    const dir = match[1].trim();
    return isAbsolute(dir) ? dir : resolve(directory, dir);
  } catch {
    return undefined;
  }
}

/**
 * Every path no tool of the project may write, each also under the
 * project's real path when it is reached through a link. When the local
 * files the modules import are not known (a graph too large to read), the
 * modules' folders still cover the files beside them.
 */
export function governedPaths(input: GovernedInput): string[] {
  const directory = resolve(input.directory);
  const real = realPath(directory);
  const files = new Set<string>([
    ...input.manifestFiles,
    ...input.modules,
    ...input.imports ?? [],
  ]);
  const paths = new Set<string>();
  const add = (path: string) => {
    for (const name of bothNames(path, directory, real)) paths.add(name);
  };
  for (const file of files) {
    for (const path of new Set([file, realPath(file)])) {
      add(path);
      for (
        const folder of foldersBelow(
          path,
          isWithin(path, real) ? real : directory,
        )
      ) {
        add(folder);
      }
    }
  }
  for (const name of [...GOVERNING_FOLDERS, ...PACKAGE_FILES]) {
    add(join(directory, name));
  }
  const gitDir = worktreeGitDir(directory);
  if (gitDir) add(gitDir);
  for (const path of input.more ?? []) add(resolve(path));
  return [...paths];
}
