// Writing the files of a benchmark's project.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Writes `text` to `path`, making its folder first. */
export function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
