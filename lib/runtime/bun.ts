/**
 * The Bun adapter: Bun's `node:http` behind the connection guard, and the
 * `node:*` process pieces Bun shares with Node.js. (`Bun.serve` has no hold
 * on a connection before its request: with 2,500 idle connections held
 * against it, a call waited 21 s.)
 *
 * @module
 */

import process from "node:process";
import type { Runtime } from "./types.ts";
import { args, exit, onTerminate, processIo, watchDirs } from "./_node_io.ts";
import { serve } from "./_serve.ts";

/** The part of Bun's global API this adapter uses. */
interface BunApi {
  version: string;
}

function bun(): BunApi {
  return (globalThis as unknown as { Bun: BunApi }).Bun;
}

/** The toolkit's view of Bun. */
export const bunRuntime: Runtime = {
  name: "bun",
  version: bun().version,
  args,
  io: processIo,
  exit,
  serve,
  onTerminate,
  watchDirs,
  execPath: () => process.execPath,
};
