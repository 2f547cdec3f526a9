/**
 * Runs the `beeuni` command line as a program on whichever runtime runs
 * it: the entry of `cli.ts`, of the npm package's `beeuni` bin and of the
 * single-file bundle. A Node.js too old for the toolkit is refused first.
 *
 * @module
 */

import process from "node:process";
import { RUNNER_MARKER } from "../common/mod.ts";
import { loadRuntime, runtimeProblem } from "../runtime/mod.ts";

/**
 * Refuses an unsupported runtime (message on stderr, exit code 1), then
 * runs {@linkcode main} on the process's arguments and exits with its code.
 * Started with the runner marker first, runs a tool runner instead (a
 * one-file build starts its runners as itself).
 */
export async function runCli(): Promise<void> {
  const problem = runtimeProblem();
  if (problem !== undefined) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
  const runtime = await loadRuntime();
  const args = runtime.args();
  if (args[0] === RUNNER_MARKER) {
    (await import("../host/mod.ts")).runRunner();
    return;
  }
  const { main } = await import("./mod.ts");
  runtime.exit(await main(args, runtime.io()));
}
