// Where the runner program is: the file beside this one (the sources, or
// the npm package's JavaScript), or, in a one-file build, that file itself
// started with the runner marker.

import { existsSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { RUNNER_MARKER } from "../common/mod.ts";

/** The file that starts a runner and the arguments after it. */
export interface RunnerEntry {
  /** The file (or, under Deno, a URL) to run. */
  file: string;
  /** The arguments after it. */
  args: string[];
  /** The folder holding the runner's own code, which Node.js must be allowed to read. */
  dir?: string;
}

/** The runner program for this copy of the toolkit. */
export function runnerEntry(): RunnerEntry {
  const ext = /\.[mc]?[jt]s$/.exec(new URL(import.meta.url).pathname)?.[0] ??
    ".ts";
  const url = new URL(`./_runner_main${ext}`, import.meta.url);
  if (url.protocol !== "file:") return { file: url.href, args: [] };
  const file = fileURLToPath(url);
  if (existsSync(file)) {
    return { file, args: [], dir: fileURLToPath(new URL(".", url)) };
  }
  // A one-file build: the program's own file holds the runner.
  const main = process.argv[1];
  const self = main === undefined ? fileURLToPath(import.meta.url) : main;
  let real = self;
  try {
    real = realpathSync(self);
  } catch {
    // Use the path as given.
  }
  return { file: real, args: [RUNNER_MARKER], dir: real };
}
