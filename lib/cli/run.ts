/**
 * Runs the `beeuni` command line as a program on whichever runtime runs
 * it: the entry of `cli.ts`, of the npm package's `beeuni` bin and of the
 * single-file bundle. A Node.js too old for the toolkit is refused first,
 * and a checkout missing the toolkit's own packages before a command runs.
 *
 * @module
 */

import {
  dependencyProblem,
  loadRuntime,
  runtimeProblem,
} from "../runtime/mod.ts";

/** Whether `args` only asks for help or the version: no package is needed. */
function asksHelpOnly(args: string[]): boolean {
  return args.length === 0 ||
    args.some((arg) =>
      ["--help", "-h", "help", "--version", "-V"].includes(arg)
    );
}

/**
 * Refuses an unsupported runtime (message on stderr, exit code 1), then
 * runs {@linkcode main} on the process's arguments and exits with its code.
 * Started with the runner marker first, runs a tool runner instead (a
 * one-file build starts its runners as itself).
 */
export async function runCli(): Promise<void> {
  const problem = runtimeProblem();
  if (problem !== undefined) {
    // Only an old Node.js gets here, where node:process costs nothing.
    const node = (await import("node:process")).default;
    node.stderr.write(`${problem}\n`);
    node.exit(1);
  }
  const runtime = await loadRuntime();
  const args = runtime.args();
  const { hostsTools, main, isCommandWord } = await import("./mod.ts");
  if (runtime.lockDebugger && hostsTools(args)) runtime.lockDebugger();
  // The marker is no command word; the common stage (and the node:*
  // modules it loads) is needed to tell only for a word that is none.
  if (!isCommandWord(args[0])) {
    const { RUNNER_MARKER } = await import("../common/mod.ts");
    if (args[0] === RUNNER_MARKER) {
      (await import("../host/mod.ts")).runRunner();
      return;
    }
  }
  if (!asksHelpOnly(args)) {
    const missing = await dependencyProblem();
    if (missing !== undefined) {
      runtime.io().stderr(`${missing}\n`);
      runtime.exit(1);
    }
  }
  runtime.exit(await main(args, runtime.io()));
}
