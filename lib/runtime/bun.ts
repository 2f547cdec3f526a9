/**
 * The Bun adapter: Bun's `node:http` behind the connection guard, and the
 * `node:*` process pieces Bun shares with Node.js. (`Bun.serve` has no hold
 * on a connection before its request: with 2,500 idle connections held
 * against it, a call waited 21 s.)
 *
 * @module
 */

import type { Runtime } from "./types.ts";
import { processRuntime } from "./_process_runtime.ts";

/** The part of Bun's global API this adapter uses. */
interface BunApi {
  version: string;
}

function bun(): BunApi {
  return (globalThis as unknown as { Bun: BunApi }).Bun;
}

/** The toolkit's view of Bun. */
export const bunRuntime: Runtime = processRuntime("bun", bun().version);
