/**
 * Runs the `beeuni` command line as a program on whichever runtime runs
 * it: the entry of `cli.ts`, of the npm package's `beeuni` bin and of the
 * single-file bundle. A Node.js too old for the toolkit is refused first.
 *
 * @module
 */

import process from "node:process";
import { loadRuntime, runtimeProblem } from "../runtime/mod.ts";

/**
 * Refuses an unsupported runtime (message on stderr, exit code 1), then
 * runs {@linkcode main} on the process's arguments and exits with its code.
 */
export async function runCli(): Promise<void> {
  const problem = runtimeProblem();
  if (problem !== undefined) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
  const runtime = await loadRuntime();
  const { main } = await import("./mod.ts");
  runtime.exit(await main(runtime.args(), runtime.io()));
}
