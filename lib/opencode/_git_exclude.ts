// Keeping the project's opencode folder out of git without touching the
// project's files: one line in the checkout's `info/exclude` (shared by
// every worktree of the repository), added once, atomically, under a lock.

import { readFile, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import {
  canonicalRoot,
  git,
  removeStaleTemps,
  withFileLock,
  writeFileAtomicAsync,
} from "../common/mod.ts";

/** What {@linkcode excludeFromGit} did. */
export interface GitExclude {
  /** The exclude file (`<git common dir>/info/exclude`). */
  file: string;
  /** The line that keeps the folder out of git, e.g. `/.opencode/`. */
  line: string;
  /** Whether this call added it (false: it was there already). */
  added: boolean;
}

/** The work tree's top folder and its exclude file, or undefined outside a checkout. */
async function checkout(
  dir: string,
): Promise<{ top: string; exclude: string } | undefined> {
  let out: string;
  try {
    out = await git(
      [
        "rev-parse",
        "--path-format=absolute",
        "--show-toplevel",
        "--git-path",
        "info/exclude",
      ],
      { cwd: dir, timeoutMs: 10_000 },
    );
  } catch {
    // No git, not a checkout (or a bare repository): nothing to keep out.
    return undefined;
  }
  const [top, exclude] = out.split("\n");
  if (!top || !exclude || !isAbsolute(top) || !isAbsolute(exclude)) {
    return undefined;
  }
  return { top, exclude };
}

/** `path` (relative, `/`-separated) as a gitignore pattern that matches it alone. */
export function excludePattern(path: string): string {
  const escaped = path.split("/").map((part) =>
    part.replace(/[\\*?[\]]/g, "\\$&").replace(/^[#!]/, "\\$&").replace(
      / $/,
      "\\ ",
    )
  ).join("/");
  return `/${escaped}/`;
}

/**
 * Adds the line that keeps `folder` out of git to the checkout's
 * `info/exclude`, unless it is there already. Returns undefined when
 * `folder`'s parent is not inside a git work tree (or its path cannot be
 * written as a pattern). Rejects when the exclude file cannot be written.
 */
export async function excludeFromGit(
  folder: string,
): Promise<GitExclude | undefined> {
  const parent = canonicalRoot(dirname(folder));
  const found = await checkout(parent);
  if (found === undefined) return undefined;
  const rel = relative(found.top, join(parent, basename(folder)));
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return undefined;
  if (/[\r\n]/.test(rel)) return undefined;
  const line = excludePattern(rel.split(sep).join("/"));
  const file = found.exclude;
  return await withFileLock(file, async () => {
    // Every writer here holds the lock: any temporary file is a leftover.
    removeStaleTemps(dirname(file), {
      names: [basename(file)],
      graceMs: 0,
    });
    let text = "";
    let mode = 0o644;
    try {
      text = await readFile(file, "utf8");
      mode = (await stat(file)).mode & 0o777;
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
    }
    if (text.split(/\r?\n/).includes(line)) {
      return { file, line, added: false };
    }
    const glue = text === "" || text.endsWith("\n") ? "" : "\n";
    await writeFileAtomicAsync(file, `${text}${glue}${line}\n`, {
      mode,
      dirMode: 0o755,
    });
    return { file, line, added: true };
  });
}
