/**
 * Command-line options declared once: each option's type, value
 * placeholder, help and default, from which {@linkcode parseOptions} reads a
 * command line into typed values and `formatUsage` writes the usage text's
 * option lines. Parsing is `node:util` `parseArgs`'s, strict.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { errorMessage } from "./errors.ts";

/** A mistake in how a command was called: exit code 2, message and a pointer to `--help`. */
export class UsageError extends Error {
  /** Creates a usage error with `message`. */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** One option of a command, as its usage lists it and as it is parsed. */
export interface OptionDef {
  /**
   * `boolean`: a flag, `false` when absent; `string`: takes a value;
   * `integer`: takes a whole number.
   */
  readonly type: "boolean" | "string" | "integer";
  /** The placeholder of its value in the usage text, e.g. `PATH`. */
  readonly value?: string;
  /** Its help as the usage text prints it: each line break starts a line at the help column. */
  readonly help: string;
  /** The heading it is listed under in the usage text; default `Options:`. */
  readonly heading?: string;
  /** Its value when absent (a `string` or `integer` option). */
  readonly default?: string | number;
  /** A `string` option given more than once keeps every value (an empty list when absent). */
  readonly multiple?: boolean;
  /** The only values a `string` option takes. */
  readonly choices?: readonly string[];
  /** The smallest value of an `integer` option; default 1. */
  readonly min?: number;
  /** The largest value of an `integer` option. */
  readonly max?: number;
}

/** A command's options by name (without the leading `--`), in the order its usage lists them. */
export type OptionDefs = Readonly<Record<string, OptionDef>>;

/** The value an option reads as, by its definition. */
export type OptionValue<D extends OptionDef> = D extends { type: "boolean" }
  ? boolean
  : D extends { multiple: true } ? string[]
  : D extends { type: "integer" }
    ? D extends { default: number } ? number : number | undefined
  : D extends { choices: readonly (infer C)[] }
    ? D extends { default: string } ? C : C | undefined
  : D extends { default: string } ? string
  : string | undefined;

/** Every option's value, by name. */
export type OptionValues<O extends OptionDefs> = {
  -readonly [K in keyof O]: OptionValue<O[K]>;
};

/** Parsed options and positionals of a command line. */
export interface ParsedArgs<O extends OptionDefs = OptionDefs> {
  /** Option values by name. */
  values: OptionValues<O>;
  /** Positional arguments. */
  positionals: string[];
  /** The command line as given. */
  args: string[];
}

/** Options of {@linkcode parseOptions}. */
export interface ParseOptionsOptions {
  /** The most positional arguments taken; one more is a usage error. Default: any number. */
  positionals?: number;
}

function integerValue(name: string, def: OptionDef, text: string): number {
  const min = def.min ?? 1;
  if (!/^\d+$/.test(text) || Number(text) < min) {
    throw new UsageError(
      `--${name} must be a whole number${
        min > 0 ? ` of at least ${min}` : ""
      }, got "${text}"`,
    );
  }
  if (def.max !== undefined && Number(text) > def.max) {
    throw new UsageError(`--${name} must be at most ${def.max}, got "${text}"`);
  }
  return Number(text);
}

function choiceValue(name: string, choices: readonly string[], text: string) {
  if (choices.includes(text)) return text;
  const quoted = choices.map((choice) => `"${choice}"`);
  throw new UsageError(
    `unknown ${name} "${text}": use ${quoted.slice(0, -1).join(", ")} or ${
      quoted.at(-1)
    }`,
  );
}

/** The value of option `name` from what `parseArgs` read, checked and typed. */
function optionValue(name: string, def: OptionDef, raw: unknown): unknown {
  if (def.type === "boolean") return raw === true;
  if (def.multiple) return Array.isArray(raw) ? raw.map(String) : [];
  if (typeof raw !== "string") return def.default;
  if (def.type === "integer") return integerValue(name, def, raw);
  return def.choices ? choiceValue(name, def.choices, raw) : raw;
}

/**
 * Parses `args` by `options`: every option's value typed by its
 * definition, and the positionals. Throws a {@linkcode UsageError} with a
 * readable message for an unknown option, a missing or wrong value, or a
 * positional past `positionals`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseOptions } from "./parse_options.ts";
 *
 * const { values } = parseOptions(["--json", "--port", "80"], {
 *   json: { type: "boolean", help: "print JSON" },
 *   port: { type: "integer", value: "N", help: "the port", default: 0 },
 * });
 * assert.equal(values.json, true);
 * assert.equal(values.port + 1, 81);
 * ```
 */
export function parseOptions<const O extends OptionDefs>(
  args: string[],
  options: O,
  parse: ParseOptionsOptions = {},
): ParsedArgs<O> {
  const spec: Record<string, { type: "string" | "boolean"; multiple?: true }> =
    {};
  for (const [name, def] of Object.entries(options)) {
    spec[name] = {
      type: def.type === "boolean" ? "boolean" : "string",
      ...(def.multiple ? { multiple: true } : {}),
    };
  }
  let read: { values: Record<string, unknown>; positionals: string[] };
  try {
    read = parseArgs({
      args,
      options: spec,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const text = errorMessage(error);
    throw new UsageError(text.replace(/\. To specify a positional.*$/s, ""));
  }
  const { positionals } = read;
  const most = parse.positionals ?? Infinity;
  if (positionals.length > most) {
    throw new UsageError(`unexpected argument "${positionals[most]}"`);
  }
  const values: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(options)) {
    values[name] = optionValue(name, def, read.values[name]);
  }
  return { values: values as OptionValues<O>, positionals, args };
}
