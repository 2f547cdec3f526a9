// A host's folder of runner temporary folders (one per grant, see
// _launcher.ts), `beeuni-runner-<pid>-XXXXXX` under the system's
// temporary folder: removed when the host closes, and, when its host was
// killed before it could, by the next host to start.

import { lstatSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { isProcessRunning } from "../common/mod.ts";

/** A host's runner folder. */
export interface RunnerFolder {
  /** Its path. */
  path: string;
  /** Removes it with what it holds. */
  remove(): Promise<void>;
}

/** Names of runner folders, with the id of the host process that made them. */
const NAME = /^beeuni-runner-(\d+)-[A-Za-z0-9]{6}$/;

/** The most leftover folders removed at one start. */
const MAX_SWEPT = 64;

/**
 * Removes the runner folders in `dir` that hosts now gone left behind:
 * named as runner folders, this user's, real folders (not links), and
 * made by a process that no longer runs.
 */
export async function sweepRunnerFolders(
  dir: string = tmpdir(),
): Promise<number> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  const uid = process.getuid?.();
  let swept = 0;
  for (const name of names) {
    const owner = NAME.exec(name)?.[1];
    if (owner === undefined || Number(owner) === process.pid) continue;
    if (isProcessRunning(Number(owner))) continue;
    const path = join(dir, name);
    try {
      const stat = lstatSync(path);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) {
        continue;
      }
      await rm(path, { recursive: true, force: true });
      if (++swept >= MAX_SWEPT) break;
    } catch {
      // Removed meanwhile, or not ours to remove.
    }
  }
  return swept;
}

/** Makes this host's runner folder, after sweeping those of hosts gone. */
export async function runnerFolder(): Promise<RunnerFolder> {
  await sweepRunnerFolders();
  const path = await mkdtemp(join(tmpdir(), `beeuni-runner-${process.pid}-`));
  return {
    path,
    remove: () => rm(path, { recursive: true, force: true }).catch(() => {}),
  };
}
