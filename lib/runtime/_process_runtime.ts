// What the Node.js and Bun adapters share: every piece but their name and
// version comes from `node:*` modules.

import process from "node:process";
import type { Runtime } from "./types.ts";
import { args, exit, onTerminate, processIo, watchDirs } from "./_node_io.ts";
import { serve } from "./_serve.ts";

/** The runtime `name` at `version`, on the `node:*` process pieces. */
export function processRuntime(
  name: Runtime["name"],
  version: string,
): Runtime {
  return {
    name,
    version,
    args,
    io: processIo,
    exit,
    serve,
    onTerminate,
    watchDirs,
    execPath: () => process.execPath,
  };
}
