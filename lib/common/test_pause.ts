/**
 * A test seam: lets a test kill a process at an exact point of a write
 * (between two renames, or with a temporary file written and not yet
 * renamed), a moment too short to hit by timing alone.
 *
 * It is inert unless the environment the command was given holds
 * `BEEUNI_TEST_PAUSE=<point>`: then, on reaching `<point>`, the process
 * prints `beeuni: paused at <point>` to standard error and blocks until it
 * is killed. The points are `secrets-write` (the secret store's temporary
 * file written, lock held) and `eject-between-renames` (the manifest
 * renamed into place, the tool file not yet).
 *
 * @module
 */

import { writeSync } from "node:fs";
import type { Env } from "./dirs.ts";

/** Blocks forever at `point` when `env.BEEUNI_TEST_PAUSE` names it; does nothing otherwise. */
export function testPause(env: Env, point: string): void {
  if (env.BEEUNI_TEST_PAUSE !== point) return;
  writeSync(2, `beeuni: paused at ${point}\n`);
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (true) Atomics.wait(cell, 0, 0);
}
