/**
 * Prints diagnostics the three ways `beeuni validate` can: like a compiler
 * (`path:line:col: error: message` and a summary line), as a JSON document
 * for machines, and as GitHub Actions workflow commands.
 *
 * @module
 */

import { escapeControl } from "../common/mod.ts";
import type { Diagnostic } from "./types.ts";

/** The output formats of `beeuni validate`. */
export type DiagnosticsFormat = "text" | "json" | "github";

/** The JSON document `beeuni validate --json` prints. */
export interface DiagnosticsReport {
  /** Repo-relative path of the root manifest. */
  manifest: string;
  /** Whether there is no error (warnings allowed). */
  valid: boolean;
  /** How many errors. */
  errors: number;
  /** How many warnings. */
  warnings: number;
  /** Every diagnostic, in the order printed. */
  diagnostics: Diagnostic[];
}

/**
 * Builds the `--json` document for `diagnostics` of the manifest `manifest`.
 *
 * @returns The document `beeuni validate --json` prints.
 */
export function diagnosticsReport(
  manifest: string,
  diagnostics: readonly Diagnostic[],
): DiagnosticsReport {
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  return {
    manifest,
    valid: errors === 0,
    errors,
    warnings: diagnostics.length - errors,
    diagnostics: diagnostics.map((d) => ({
      file: d.file,
      line: d.line,
      col: d.col,
      severity: d.severity,
      rule: d.rule,
      message: d.message,
    })),
  };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** The last line of the text format: `2 errors, 1 warning`, or `<manifest> is valid`. */
export function summaryLine(
  manifest: string,
  diagnostics: readonly Diagnostic[],
): string {
  const report = diagnosticsReport(manifest, diagnostics);
  if (diagnostics.length === 0) return `${manifest} is valid`;
  return `${plural(report.errors, "error")}, ${
    plural(report.warnings, "warning")
  }`;
}

const RED = "\x1b[31m";
const YELLOW = "\x1b[33m";
const BOLD = "\x1b[1m";
const RESET = "\x1b[0m";

/**
 * Formats `diagnostics` like a compiler, one per line
 * (`path:line:col: error|warning: message`), then a summary line. Colours
 * only when `color` is true. Control characters in paths and messages are
 * escaped (`\n`, `\x1b`, …).
 *
 * @returns The text, ending with a newline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatText } from "@beeuni/tools";
 *
 * const text = formatText("beeuni.yaml", [
 *   { file: "beeuni.yaml", line: 2, col: 3, severity: "error", rule: "V1", message: "bad name" },
 * ]);
 * assert.equal(text, "beeuni.yaml:2:3: error: bad name\n\n1 error, 0 warnings\n");
 * ```
 */
export function formatText(
  manifest: string,
  diagnostics: readonly Diagnostic[],
  color = false,
): string {
  const paint = (code: string, text: string) =>
    color ? `${code}${text}${RESET}` : text;
  // Names in messages come from the manifest: control characters in them
  // must neither drive the terminal nor start a line of their own.
  const lines = diagnostics.map((d) => {
    const where = paint(BOLD, `${escapeControl(d.file)}:${d.line}:${d.col}:`);
    const severity = d.severity === "error"
      ? paint(RED + BOLD, "error:")
      : paint(YELLOW + BOLD, "warning:");
    return `${where} ${severity} ${escapeControl(d.message)}`;
  });
  const summary = escapeControl(summaryLine(manifest, diagnostics));
  if (lines.length > 0) lines.push("");
  lines.push(summary);
  return `${lines.join("\n")}\n`;
}

/**
 * Formats the `--json` document of `diagnostics`, indented.
 *
 * @returns The JSON text, with a final newline.
 */
export function formatJson(
  manifest: string,
  diagnostics: readonly Diagnostic[],
): string {
  return `${
    JSON.stringify(diagnosticsReport(manifest, diagnostics), null, 2)
  }\n`;
}

function escapeData(text: string): string {
  return escapeControl(text.replaceAll("%", "%25"));
}

function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/**
 * Formats `diagnostics` as GitHub Actions workflow commands
 * (`::error file=…,line=…,col=…,title=…::message`), so CI shows them as
 * annotations on the lines they concern. Control characters are escaped
 * (`\n`, `\x1b`, …), so no value can end the command or start another.
 */
export function formatGithub(diagnostics: readonly Diagnostic[]): string {
  return diagnostics.map((d) =>
    `::${d.severity} file=${
      escapeProperty(d.file)
    },line=${d.line},col=${d.col},title=${
      escapeProperty(`beeuni ${d.rule}`)
    }::${escapeData(d.message)}\n`
  ).join("");
}
