/**
 * The Node.js adapter: `node:http` serving web `Request`/`Response`
 * handlers, `node:fs` watching and `process` signals. Needs Node.js 22.18
 * or later (type stripping).
 *
 * @module
 */

import process from "node:process";
import type { Handler, Runtime, ServeOptions, Server } from "./types.ts";
import { args, exit, onTerminate, processIo, watchDirs } from "./_node_io.ts";

// `node:http` loads with the first server: a command that serves nothing
// (`beeuni --help`, `validate`) does not wait for it.
async function serve(options: ServeOptions, handler: Handler): Promise<Server> {
  return (await import("./_node_serve.ts")).serve(options, handler);
}

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
