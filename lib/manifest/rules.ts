/**
 * The manifest's rules for one `tools:` entry, in one place: tool names (V1,
 * V2), `beeuni:` values (V3) and module paths (V4). The validator reports
 * what {@linkcode classifyEntry} finds; the resolver keeps the entries it
 * accepts. Pure: no file system.
 *
 * @module
 */

import { posix } from "node:path";
import { BEEUNI_TOOLS, isBeeuniTool } from "./beeuni_tools.ts";
import { isHarnessTool } from "./harness_tools.ts";
import type { ResolvedTool, SourcePos, ToolEntry } from "./types.ts";

/** What a tool name must look like (V1). */
export const TOOL_NAME_PATTERN: RegExp = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Whether `name` is a valid tool name (V1): {@linkcode TOOL_NAME_PATTERN}.
 *
 * @returns `true` for a lowercase name of at most 64 letters, digits and `_`, starting with a letter.
 */
export function isToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/** The file extensions a module path may end in (V4). */
export const MODULE_EXTENSIONS: readonly string[] = [
  ".ts",
  ".js",
  ".mts",
  ".mjs",
  ".cts",
  ".cjs",
];

/** The extension of `name` when it is a module file name (V4), else `undefined`. */
export function moduleExtension(name: string): string | undefined {
  return MODULE_EXTENSIONS.find((ext) =>
    name.endsWith(ext) && name !== ext && !name.endsWith(`/${ext}`)
  );
}

/**
 * Checks an import path or module path written in a manifest for being
 * repo-relative. Returns the normalized path (`/` separators, no `./`), or
 * an error message saying what is wrong with it.
 */
export function checkRepoRelativePath(
  path: string,
): { path: string } | { error: string } {
  if (path.trim() === "") return { error: "the path is empty" };
  if (
    path.startsWith("/") || path.startsWith("\\") ||
    /^[A-Za-z]:[\\/]/.test(path)
  ) {
    return {
      error: "the path is absolute; write it relative to the repository root",
    };
  }
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(path)) {
    return {
      error: "the path is a URL; write a path relative to the repository root",
    };
  }
  const normalized = posix.normalize(path.replaceAll("\\", "/"));
  if (normalized === ".." || normalized.startsWith("../")) {
    return { error: "the path leads outside the repository with `..`" };
  }
  return { path: normalized };
}

/**
 * Checks a `tools:` value that is not `beeuni:` against V4's syntax: the
 * normalized repo-relative module path, or what to change.
 */
export function checkModulePath(
  value: string,
): { path: string } | { error: string } {
  if (value.trim() !== value) {
    return { error: "remove the spaces around the path" };
  }
  const checked = checkRepoRelativePath(value);
  if ("error" in checked) return checked;
  if (value.split(/[\\/]/).includes("..")) {
    return { error: "write the path without `..` segments" };
  }
  if (!moduleExtension(checked.path)) {
    return {
      error: `a module path must end in ${MODULE_EXTENSIONS.join(", ")}`,
    };
  }
  return checked;
}

/**
 * The module path a `tools:` value names: `undefined` for a `beeuni:` value
 * or a value that breaks V4's syntax (absolute, `..`, wrong extension);
 * otherwise the normalized repo-relative path (`/` separators, no `./`).
 */
export function modulePath(value: unknown): string | undefined {
  if (typeof value !== "string" || value.startsWith("beeuni:")) {
    return undefined;
  }
  const checked = checkModulePath(value);
  return "error" in checked ? undefined : checked.path;
}

/**
 * The text of V3 for a tool named `name` mapped to the wrong `beeuni:<x>`,
 * byte for byte as seed 000 gives it.
 */
export function v3Message(name: string): string {
  return `must be \`beeuni:${name}\` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. \`tools/${name}.ts\`) that replaces it.`;
}

/** One rule an entry breaks, and where. */
export interface EntryProblem {
  /** The rule id (`V1` … `V4`). */
  rule: string;
  /** Where: the entry's key or its value. */
  at: SourcePos;
  /** What to change. */
  message: string;
}

/** What {@linkcode classifyEntry} makes of one `tools:` entry. */
export interface EntryClass {
  /** The tool it contributes, when it breaks no rule. */
  tool?: ResolvedTool;
  /** The rules it breaks (none when `tool` is set). */
  problems: EntryProblem[];
  /** The normalized module path when the value is a well-formed one (V4 syntax). */
  modulePath?: string;
}

function nameProblem(entry: ToolEntry): EntryProblem | undefined {
  const { name } = entry;
  if (!isToolName(name)) {
    return {
      rule: "V1",
      at: entry.namePos,
      message:
        `invalid tool name "${name}": a name starts with a lowercase letter followed by up to 63 lowercase letters, digits or underscores (^[a-z][a-z0-9_]{0,63}$)`,
    };
  }
  if (isHarnessTool(name)) {
    return {
      rule: "V2",
      at: entry.namePos,
      message:
        `"${name}" is a harness tool: the harness implements it, so it cannot be declared under \`tools:\`; give the tool another name`,
    };
  }
  return undefined;
}

function beeuniProblem(
  entry: ToolEntry,
  value: string,
): EntryProblem | undefined {
  const { name } = entry;
  if (isBeeuniTool(name)) {
    return value === `beeuni:${name}`
      ? undefined
      : { rule: "V3", at: entry.valuePos, message: v3Message(name) };
  }
  return {
    rule: "V3",
    at: entry.valuePos,
    message:
      `"${value}" names a Beeuni tool, but "${name}" is not one (the Beeuni tools are ${
        BEEUNI_TOOLS.join(", ")
      }): a project tool takes a repo-relative module path (e.g. \`tools/${name}.ts\`)`,
  };
}

/**
 * Classifies one `tools:` entry by the rules that need no file system: V1
 * and V2 on its name, V3 on a `beeuni:` value, V4's syntax on a module path.
 * A value that is not a string is the parser's V12 error and contributes
 * nothing. Whether the module exists (V5), stays inside the repository
 * (V4) or is tracked (V10) is the validator's business.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyEntry } from "./rules.ts";
 *
 * const at = { file: "beeuni.yaml", line: 2, col: 3 };
 * const { tool, problems } = classifyEntry({
 *   name: "lookup_order",
 *   value: "tools/lookup_order.ts",
 *   namePos: at,
 *   valuePos: at,
 * });
 * assert.equal(tool?.kind, "project");
 * assert.deepEqual(problems, []);
 * ```
 */
export function classifyEntry(entry: ToolEntry): EntryClass {
  const { name, value } = entry;
  const problems: EntryProblem[] = [];
  const named = nameProblem(entry);
  if (named) problems.push(named);
  if (typeof value !== "string") return { problems };
  if (value.startsWith("beeuni:")) {
    const problem = beeuniProblem(entry, value);
    if (problem) problems.push(problem);
    if (problems.length > 0) return { problems };
    return {
      problems,
      tool: { name, kind: "beeuni", source: value, declaredAt: entry.namePos },
    };
  }
  const checked = checkModulePath(value);
  if ("error" in checked) {
    problems.push({
      rule: "V4",
      at: entry.valuePos,
      message:
        `invalid module path "${value}" for tool "${name}": ${checked.error}`,
    });
    return { problems };
  }
  if (problems.length > 0) return { problems, modulePath: checked.path };
  return {
    problems,
    modulePath: checked.path,
    tool: {
      name,
      kind: isBeeuniTool(name) ? "beeuni (overridden)" : "project",
      source: checked.path,
      declaredAt: entry.namePos,
    },
  };
}
