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

import { isMainModule } from "./lib/runtime/mod.ts";
import { runCli } from "./lib/cli/mod.ts";

export {
  type Command,
  type CommandEntry,
  type CommandIo,
  COMMANDS,
  main,
  type OptionDef,
  type OptionDefs,
  type OptionValue,
  type OptionValues,
  type ParsedArgs,
  type UsageSpec,
  VERSION,
} from "./lib/cli/mod.ts";
export type { Io } from "./lib/runtime/mod.ts";

if (isMainModule(import.meta)) await runCli();
