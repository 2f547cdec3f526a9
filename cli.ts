/**
 * The `beeuni` command line: validate a project's `beeuni.yaml`, list the
 * tools its sessions get, run the daemon, and more. Acts on the project
 * found from the current directory upwards, or on `--manifest PATH`. Runs
 * under Deno, Node.js 22.18+ and Bun; only the named command is loaded.
 *
 * @example Validate and list the bundled starter project
 * ```sh
 * deno run -A cli.ts validate --manifest examples/starter/beeuni.yaml
 * node cli.ts tools ls --manifest examples/starter/beeuni.yaml
 * bun cli.ts tools ls --manifest examples/starter/beeuni.yaml
 * ```
 *
 * @module
 */

import { isMainModule, loadRuntime } from "./lib/runtime/mod.ts";
import { main } from "./lib/cli/mod.ts";
import { RUNNER_MARKER } from "./lib/common/mod.ts";

export {
  type Command,
  type CommandEntry,
  type CommandIo,
  COMMANDS,
  main,
  VERSION,
} from "./lib/cli/mod.ts";
export type { Io } from "./lib/runtime/mod.ts";

if (isMainModule(import.meta)) {
  const runtime = await loadRuntime();
  const args = runtime.args();
  // A one-file build starts its tool runners as itself, marked.
  if (args[0] === RUNNER_MARKER) {
    (await import("./lib/host/mod.ts")).runRunner();
  } else runtime.exit(await main(args, runtime.io()));
}
