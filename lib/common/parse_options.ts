/**
 * Command-line options, parsed with `node:util` `parseArgs`, and the error
 * for a command called the wrong way.
 *
 * @module
 */

import { parseArgs, type ParseArgsConfig } from "node:util";
import { errorMessage } from "./errors.ts";

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
