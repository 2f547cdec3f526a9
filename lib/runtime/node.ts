/**
 * The Node.js adapter: `node:http` serving web `Request`/`Response`
 * handlers behind the connection guard, `node:fs` watching and `process`
 * signals. Needs Node.js 22.18 or later (type stripping).
 *
 * @module
 */

import process from "node:process";
import type { Runtime } from "./types.ts";
import { args, exit, onTerminate, processIo, watchDirs } from "./_node_io.ts";
import { serve } from "./_serve.ts";

/** The toolkit's view of Node.js. */
export const nodeRuntime: Runtime = {
  name: "node",
  version: process.versions.node,
  args,
  io: processIo,
  exit,
  serve,
  onTerminate,
  watchDirs,
  execPath: () => process.execPath,
};
