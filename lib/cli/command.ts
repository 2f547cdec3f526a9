/**
 * The shape of a `beeuni` subcommand, runtime-neutral: a command reads its
 * arguments and an {@linkcode CommandIo}, writes through it, and returns its
 * exit code. `cli.ts` supplies the real I/O; tests may supply their own.
 *
 * @module
 */

import { dirname } from "node:path";
import { locateManifest } from "../project/mod.ts";
import type { Io } from "../runtime/mod.ts";

export {
  type OptionSpec,
  type ParsedArgs,
  parseOptions,
  UsageError,
} from "../common/mod.ts";

/** What a command may touch of the outside world: the process's streams, environment and folder. */
export type CommandIo = Io;

/** One `beeuni` subcommand. */
export interface Command {
  /** Its words after `beeuni`, e.g. `"tools ls"`. */
  name: string;
  /** One line for `beeuni --help`. */
  summary: string;
  /** The full text printed by `--help`. */
  usage: string;
  /** Runs it; resolves to the exit code (0 ok, 1 failure, 2 usage error). */
  run(args: string[], io: CommandIo): Promise<number>;
}

/**
 * The project root for a command: the folder holding `--manifest` (a file,
 * or a folder holding `beeuni.yaml`) when given, else the folder of the
 * nearest `beeuni.yaml` from `cwd` upwards.
 */
export function projectRootFor(cwd: string, manifest?: string): string {
  return dirname(locateManifest(cwd, manifest));
}
