/**
 * A command's usage text, its option lines written from the same
 * definitions `parseOptions` parses a command line by.
 *
 * @module
 */

import type { OptionDefs } from "./parse_options.ts";

/** What a command's `--help` prints besides its name. */
export interface UsageSpec<O extends OptionDefs = OptionDefs> {
  /** What follows the command's name on the `Usage:` line (it may go on over more lines). */
  synopsis: string;
  /** The paragraphs between the `Usage:` line and the options, without a final line break. */
  description: string;
  /** The options, listed in this order under their headings. */
  options: O;
  /** The column where each option's help starts; default: two after the longest option. */
  helpColumn?: number;
  /** Text after the options (a paragraph, another list), ending in a line break. */
  epilogue?: string;
}

/** `--name VALUE`, as an option's line starts. */
function label(name: string, value: string | undefined): string {
  return value === undefined ? `--${name}` : `--${name} ${value}`;
}

/**
 * The option lines of a usage text: each option's name and value
 * placeholder, then its help from `column` (on the next line when the name
 * leaves no room), grouped under its heading; a blank line between groups.
 */
function formatOptions(options: OptionDefs, column?: number): string {
  const entries = Object.entries(options);
  const at = column ??
    2 +
      Math.max(...entries.map(([name, def]) => label(name, def.value).length)) +
      2;
  const indent = " ".repeat(at);
  const lines: string[] = [];
  let heading: string | undefined;
  for (const [name, def] of entries) {
    const under = def.heading ?? "Options:";
    if (under !== heading) {
      if (heading !== undefined) lines.push("");
      lines.push(under);
      heading = under;
    }
    const start = `  ${label(name, def.value)}`;
    const [first, ...rest] = def.help.split("\n");
    if (start.length < at) lines.push(start.padEnd(at) + first);
    else lines.push(start, indent + first);
    for (const line of rest) lines.push(indent + line);
  }
  return lines.join("\n") + "\n";
}

/**
 * The usage text of the command `program` (e.g. `beeuni tools ls`), as its
 * `--help` prints it: the `Usage:` line, the description, the options
 * written from their definitions, then the epilogue.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatUsage } from "./format_usage.ts";
 *
 * const text = formatUsage("beeuni web", {
 *   synopsis: "[--manifest PATH]",
 *   description: "Prints the web UI's address.",
 *   options: {
 *     manifest: { type: "string", value: "PATH", help: "the project's beeuni.yaml" },
 *   },
 * });
 * assert.equal(text.split("\n")[5], "  --manifest PATH  the project's beeuni.yaml");
 * ```
 */
export function formatUsage(program: string, spec: UsageSpec): string {
  return `Usage: ${program} ${spec.synopsis}\n\n${spec.description}\n\n${
    formatOptions(spec.options, spec.helpColumn)
  }${spec.epilogue === undefined ? "" : `\n${spec.epilogue}`}`;
}
