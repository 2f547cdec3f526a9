/**
 * The shape of a `beeuni` subcommand, runtime-neutral: a command reads its
 * arguments and an {@linkcode CommandIo}, writes through it, and returns its
 * exit code. `cli.ts` supplies the real I/O; tests may supply their own.
 *
 * @module
 */

import { dirname } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { locateManifest } from "../project/mod.ts";
import type { Io } from "../runtime/mod.ts";
import { errorMessage } from "../common/mod.ts";

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

/** A mistake in how a command was called: exit code 2, message and a pointer to `--help`. */
export class UsageError extends Error {
  /** Creates a usage error with `message`. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Option definitions as `node:util` `parseArgs` takes them. */
export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

/** Parsed options and positionals of a command line. */
export interface ParsedArgs {
  /** Option values by name. */
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  /** Positional arguments. */
  positionals: string[];
}

/**
 * Parses `args` with `node:util` `parseArgs`, turning its errors into
 * {@linkcode UsageError}s with a readable message.
 */
export function parseOptions(args: string[], options: OptionSpec): ParsedArgs {
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as ParsedArgs["values"], positionals };
  } catch (error) {
    const text = errorMessage(error);
    throw new UsageError(text.replace(/\. To specify a positional.*$/s, ""));
  }
}

/**
 * The project root for a command: the folder holding `--manifest` (a file,
 * or a folder holding `beeuni.yaml`) when given, else the folder of the
 * nearest `beeuni.yaml` from `cwd` upwards (M1).
 */
export function projectRootFor(cwd: string, manifest?: string): string {
  return dirname(locateManifest(cwd, manifest));
}
