// Importing a tool module where it runs and checking its default export,
// with the reasons a person can act on.

import { existsSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { stripAnsi, thrownMessage } from "./_outcome.ts";
import type { SourceAt } from "./_protocol.ts";
import { daemonCommand } from "./_runner_entry.ts";

/** A loaded tool module's default export. */
export interface ToolModule {
  description: string;
  parameters: Record<string, unknown>;
  execute: (args: unknown, context: unknown) => unknown;
}

/** The runtime this code runs on, as people call it. */
function runtimeLabel(): string {
  const global = globalThis as Record<string, unknown>;
  if (typeof global.Deno === "object") return "Deno";
  if (typeof global.Bun === "object") return "Bun";
  return "Node.js";
}

function bunHint(): string {
  const command = daemonCommand("bun", process.cwd());
  return `Bun APIs exist only when the daemon runs under Bun, and this one runs under ${runtimeLabel()}: start it with Bun instead, \`${command}\`, or use node:* modules in the tool`;
}

/** Whether an error says that the `Bun` global, the `bun` module or a `bun:` module is missing. */
function missesBun(text: string): boolean {
  return /\bBun is not defined\b/.test(text) ||
    /Cannot find (package|module) 'bun'/.test(text) ||
    /Received protocol 'bun:'/.test(text) ||
    /Import "bun" not a dependency/.test(text) ||
    /Unsupported scheme "bun"/.test(text) ||
    missingPackage(text) === "bun";
}

/** What touched Bun, in words: the `bun:` module or the global, from the runtime's error. */
function bunWhat(text: string): string {
  const module = /["'](bun:[\w/.-]+)["']/.exec(text)?.[1] ??
    /["'](bun)["']/.exec(text)?.[1];
  if (module) return `the module imports "${module}"`;
  if (/protocol 'bun:'/.test(text)) return "the module imports a bun: module";
  return firstLine(text).replace(/\s*Supported schemes:.*$/, "");
}

/**
 * Whether a specifier that did not resolve is a path alias rather than a
 * package: `@/x`, `~/x`, `#x` (an npm scope has a name after its `@`).
 */
function isPathAlias(name: string): boolean {
  return /^(?:@\/|~\/|#)/.test(name) || /^@[^/]*$/.test(name);
}

function firstLine(text: string): string {
  return stripAnsi(text).split("\n")[0].trim();
}

/** The package a resolution error names, when it is one. */
function missingPackage(text: string): string | undefined {
  const patterns = [
    /Cannot find package '([^']+)'/,
    /Import "([^"./][^"]*)" not a dependency/,
    /Could not find a matching package for '(?:npm:)?([^'@][^'@]*|@[^'@/]+\/[^'@]+)(?:@[^']*)?'/,
    /Could not resolve "([^"./][^"]*)"/,
    /Cannot find module '([^'./][^']*)'/,
    /Relative import path "([^"./][^"]*)" not prefixed/,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (!match) continue;
    const name = match[1].replace(/^npm:/, "").replace(/(?<=.)@[^/]*$/, "");
    if (!name.includes(":")) return name;
  }
  return undefined;
}

/** `path` relative to the project (the working folder) when it is inside it. */
function shownPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** A module's syntax error, as each runtime reports it: what is wrong and where. */
function syntaxError(
  thrown: unknown,
): { message: string; at?: SourceAt } | undefined {
  if (!(thrown instanceof Error)) return undefined;
  const error = thrown as Error & {
    position?: { file?: string; line?: number; column?: number };
  };
  const message = stripAnsi(String(error.message ?? ""));
  // Deno: a TypeError whose message starts "SyntaxError: …", ending "at <url>:<line>:<col>".
  if (message.startsWith("SyntaxError: ")) {
    const where = /\bat (file:\/\/\S+?):(\d+):(\d+)\s*$/.exec(message);
    return {
      message: message.slice("SyntaxError: ".length).split("\n")[0].trim(),
      at: where
        ? {
          file: fileURLToPath(where[1]),
          line: Number(where[2]),
          col: Number(where[3]),
        }
        : undefined,
    };
  }
  // Bun: an AggregateError of BuildMessages when a file has several.
  const first = (error as { errors?: unknown[] }).errors?.[0];
  if (error.name === "AggregateError" && first instanceof Error) {
    return syntaxError(first);
  }
  // Bun: a BuildMessage with its position.
  if (error.name === "BuildMessage") {
    const { file, line, column } = error.position ?? {};
    return {
      message: message.split("\n")[0].trim(),
      at: file && line ? { file, line, col: column ?? 1 } : undefined,
    };
  }
  // Node.js: a SyntaxError whose stack starts "<path>:<line>", the source
  // line and a caret under the column.
  if (error.name === "SyntaxError") {
    const lines = String(error.stack ?? "").split("\n");
    const where = /^(\/.+):(\d+)$/.exec(lines[0] ?? "");
    // The source lines shown before the caret vary (TypeScript shows two).
    const caretLine = lines.find((line, i) =>
      i > 0 && /^\s*\^+\s*$/.test(line)
    );
    const caret = caretLine?.indexOf("^") ?? -1;
    return {
      message: message.split("\n")[0].trim(),
      at: where
        ? { file: where[1], line: Number(where[2]), col: caret + 1 || 1 }
        : undefined,
    };
  }
  return undefined;
}

/**
 * A thrown value as the text the model or the log reads, reworded where an
 * import failed (a package, a file, zod, a Bun API). The runtime's own advice (`deno install`, Deno's flags)
 * is left out: what to do is said once, for every runtime.
 */
export function describeFailure(thrown: unknown): string {
  const text = thrownMessage(thrown);
  if (missesBun(text)) return `${bunHint()} (${bunWhat(text)})`;
  const name = missingPackage(text);
  if (name !== undefined && isPathAlias(name)) {
    return `cannot resolve "${name}": it looks like a path alias (tsconfig.json "paths", deno.json "imports"), which tool modules do not read under every runtime: import the file by its relative path`;
  }
  if (name !== undefined) {
    return `Cannot find package '${name}': install it with npm in the project (npm install ${name}), so that a node_modules folder beside or above the module holds it`;
  }
  return text;
}

/** Extensions a relative import may leave out where Bun resolves it, in the order tried. */
const EXTENSIONS = [
  ".ts",
  ".tsx",
  ".mts",
  ".js",
  ".jsx",
  ".mjs",
  ".cts",
  ".cjs",
];

/** The module a resolution error says is missing, and who imported it, as Deno and Node.js say it. */
function missingModule(
  text: string,
): { path: string; from?: string } | undefined {
  const plain = stripAnsi(text);
  const deno = /Module not found "(file:\/\/[^"]+)"/.exec(plain);
  if (deno) {
    const from = /\n\s+at (file:\/\/\S+?):\d+:\d+/.exec(plain)?.[1];
    return {
      path: fileURLToPath(deno[1]),
      from: from ? fileURLToPath(from) : undefined,
    };
  }
  const node = /Cannot find module '(\/[^']+)'(?: imported from (\S+))?/.exec(
    text,
  );
  if (node) {
    return {
      path: node[1],
      from: node[2]?.startsWith("file:") ? fileURLToPath(node[2]) : node[2],
    };
  }
  return undefined;
}

/** The file `path` names once an extension or `/index` is added, when there is one. */
function withExtension(path: string): string | undefined {
  for (
    const candidate of [
      ...EXTENSIONS.map((ext) => path + ext),
      ...EXTENSIONS.map((ext) => join(path, `index${ext}`)),
    ]
  ) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Why the module at `module` (a path) did not load when a module it
 * imports is missing: the tool's own file, or an import written without
 * its file's extension (Bun finds those, Deno and Node.js do not).
 */
function missingReason(module: string, text: string): string | undefined {
  const missing = missingModule(text);
  if (!missing) return undefined;
  if (missing.path === module) return `file not found (${shownPath(module)})`;
  const importer = missing.from
    ? `, imported by ${shownPath(missing.from)}`
    : "";
  const found = withExtension(missing.path);
  return found
    ? `cannot find "${
      shownPath(missing.path)
    }"${importer}: write the import with the file's extension, "${
      shownPath(found)
    }", which every runtime resolves`
    : `cannot find "${shownPath(missing.path)}"${importer}: no such file`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const SHAPE = "export default { description, parameters, execute }";

/** Why `tool` is not a tool module's default export, or `undefined`. */
function shapeProblem(tool: unknown): string | undefined {
  if (!isPlainObject(tool)) {
    return `the default export is not a plain object: ${SHAPE}`;
  }
  if (typeof tool.description !== "string" || tool.description.trim() === "") {
    return "description must be a non-empty string";
  }
  if (!isPlainObject(tool.parameters) || tool.parameters.type !== "object") {
    return `parameters must be a JSON Schema object with type: "object"`;
  }
  if (typeof tool.execute !== "function") return "execute must be a function";
  return undefined;
}

/** The default export of a CommonJS module is `module.exports`. */
function defaultExport(ns: Record<string, unknown>): unknown {
  const value = ns.default;
  // Some runtimes wrap `module.exports` once more for ESM importers.
  if (
    isPlainObject(value) && !("execute" in value) &&
    isPlainObject(value.default)
  ) {
    return value.default;
  }
  return value;
}

/**
 * Imports a module by its absolute URL: a project's module (`file:`), or a
 * Beeuni tool where the package itself was loaded from (`https:` from JSR).
 * Each import is written with a fixed scheme, which tells `deno publish`
 * that it needs no rewriting (it warns about imports it cannot read).
 */
function importUrl(url: string): Promise<Record<string, unknown>> {
  if (url.startsWith("file:///")) {
    return import(`file:///${url.slice("file:///".length)}`);
  }
  if (url.startsWith("https://")) {
    return import(`https://${url.slice("https://".length)}`);
  }
  return Promise.reject(
    new Error(`a tool module must be a file: or https: URL, got "${url}"`),
  );
}

/** The module's tool, or the reason it is not one. */
export async function importTool(
  url: string,
): Promise<{ tool: ToolModule } | { reason: string; at?: SourceAt }> {
  let ns: Record<string, unknown>;
  try {
    ns = await importUrl(url);
  } catch (error) {
    const syntax = syntaxError(error);
    if (syntax) {
      return {
        reason: `the module has a syntax error: ${syntax.message}${
          syntax.at
            ? ` (${
              shownPath(syntax.at.file)
            }:${syntax.at.line}:${syntax.at.col})`
            : ""
        }`,
        at: syntax.at,
      };
    }
    const text = describeFailure(error);
    const missing = url.startsWith("file:")
      ? missingReason(fileURLToPath(url), text)
      : undefined;
    if (missing !== undefined) return { reason: missing };
    return { reason: `the module threw while loading: ${text}` };
  }
  if (!("default" in ns) || ns.default === undefined) {
    return { reason: `the module has no default export: ${SHAPE}` };
  }
  const tool = defaultExport(ns);
  const problem = shapeProblem(tool);
  if (problem !== undefined) return { reason: problem };
  return { tool: tool as ToolModule };
}

/** The metadata the host lists, as plain JSON. */
export function toolMetadata(
  tool: ToolModule,
): { description: string; parameters: Record<string, unknown> } | {
  reason: string;
} {
  try {
    const parameters = JSON.parse(JSON.stringify(tool.parameters));
    return { description: tool.description, parameters };
  } catch (error) {
    return {
      reason: `parameters must be plain JSON data: ${describeFailure(error)}`,
    };
  }
}
