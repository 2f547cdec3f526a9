// File-system checks shared by the project stage.

import { statSync } from "node:fs";

/** Whether `path` names a regular file (after following symlinks). */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
