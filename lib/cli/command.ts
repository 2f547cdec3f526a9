/**
 * The shape of a `beeuni` subcommand, runtime-neutral: plain data, its
 * options declared once (the parser and the `--help` text both read
 * them), and a `run` that gets the parsed command line and an
 * {@linkcode CommandIo}, writes through it, and returns its exit code.
 * Its words and summary live in the registry (`COMMANDS`), which loads the
 * command only when it runs. `cli.ts` supplies the real I/O; tests may
 * supply their own.
 *
 * @module
 */

import { dirname } from "node:path";
import { locateManifest } from "../project/mod.ts";
import type { Io } from "../runtime/mod.ts";
import type { OptionDefs, ParsedArgs, UsageSpec } from "../common/mod.ts";

export {
  type OptionDef,
  type OptionDefs,
  type ParsedArgs,
  UsageError,
} from "../common/mod.ts";

/** What a command may touch of the outside world: the process's streams, environment and folder. */
export type CommandIo = Io;

/** One `beeuni` subcommand: its usage text's parts, its options, and what it does. */
export interface Command<O extends OptionDefs = OptionDefs>
  extends UsageSpec<O> {
  /** The most positional arguments it takes; one more is a usage error. Default 0. */
  positionals?: number;
  /** Runs it on its parsed command line; resolves to the exit code (0 ok, 1 failure, 2 usage error). */
  run(parsed: ParsedArgs<O>, io: CommandIo): Promise<number>;
}

/**
 * Returns `command` as it is: gives its `run` the types of the values its
 * options read as.
 */
export function defineCommand<const O extends OptionDefs>(
  command: Command<O>,
): Command<O> {
  return command;
}

/**
 * The project root for a command: the folder holding `--manifest` (a file,
 * or a folder holding `beeuni.yaml`) when given, else the folder of the
 * nearest `beeuni.yaml` from `cwd` upwards.
 */
export function projectRootFor(cwd: string, manifest?: string): string {
  return dirname(locateManifest(cwd, manifest));
}
