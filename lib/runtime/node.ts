/**
 * The Node.js adapter: `node:http` serving web `Request`/`Response`
 * handlers behind the connection guard, `node:fs` watching and `process`
 * signals. Needs Node.js 22.18 or later (type stripping).
 *
 * @module
 */

import process from "node:process";
import type { Runtime } from "./types.ts";
import { processRuntime } from "./_process_runtime.ts";

/** The toolkit's view of Node.js. */
export const nodeRuntime: Runtime = {
  ...processRuntime("node", process.versions.node),
  lockDebugger,
};

/** Starts this process again in place with `--disable-sigusr1`, unless it has it. */
function lockDebugger(): void {
  if (process.execArgv.includes("--disable-sigusr1")) return;
  const execve = (process as { execve?: typeof process.execve }).execve;
  if (typeof execve !== "function") return;
  execve(process.execPath, [
    process.execPath,
    "--disable-sigusr1",
    ...process.execArgv,
    ...process.argv.slice(1),
  ], process.env as Record<string, string>);
}
