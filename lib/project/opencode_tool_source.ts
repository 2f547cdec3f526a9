/**
 * Reading an opencode custom tool file with a real parser (`@babel/parser`,
 * loaded on first use only): which of its exports are tools and what
 * opencode names them (the file name for the default export,
 * `<file>_<export>` for each other one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { opencodeToolNames } from "./opencode_tool_source.ts";
 *
 * const src = `import { tool } from "@opencode-ai/plugin";
 * export const search = tool({ description: "d", args: {}, execute: () => "" });`;
 * assert.deepEqual(await opencodeToolNames("image.ts", src), ["image_search"]);
 * ```
 *
 * @module
 */

/** A node of the syntax tree, as `@babel/parser` gives it. */
export type Node =
  & { type: string; start: number; end: number; loc: Loc }
  // deno-lint-ignore no-explicit-any
  & Record<string, any>;

/** A node's place: 1-based line, 0-based column. */
export interface Loc {
  /** Where the node starts. */
  start: { line: number; column: number };
  /** Where it ends. */
  end: { line: number; column: number };
}

/** A file read into a syntax tree. */
export interface ParsedSource {
  /** The `Program` node. */
  program: Node;
  /** Every comment of the file. */
  comments: Node[];
}

/** Why a file could not be read: where and what. */
export interface ParseFailure {
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  col: number;
  /** The parser's message, without the position. */
  message: string;
}

/** Reads `src` (the text of the file `fileName`) into a syntax tree. */
export type SourceParser = (
  fileName: string,
  src: string,
) => ParsedSource | ParseFailure;

/** The largest file read (a tool file is a few KB). */
export const MAX_SOURCE_BYTES = 1_000_000;

let parser: Promise<SourceParser> | undefined;

/** Loads `@babel/parser` (once) and returns a {@linkcode SourceParser}. */
export function loadSourceParser(): Promise<SourceParser> {
  parser ??= import("@babel/parser").then(
    (babel) => (fileName: string, src: string) => {
      if (src.length > MAX_SOURCE_BYTES) {
        return {
          line: 1,
          col: 1,
          message: `the file is over ${MAX_SOURCE_BYTES} bytes`,
        };
      }
      const typescript = !/\.(c|m)?js$/.test(fileName);
      try {
        const file = babel.parse(src, {
          sourceType: "module",
          plugins: typescript ? ["typescript"] : [],
          attachComment: false,
        }) as unknown as { program: Node; comments?: Node[] };
        return { program: file.program, comments: file.comments ?? [] };
      } catch (error) {
        return parseFailure(error);
      }
    },
  );
  return parser;
}

function parseFailure(error: unknown): ParseFailure {
  if (error instanceof RangeError) {
    return {
      line: 1,
      col: 1,
      message: "the code is nested too deeply to read",
    };
  }
  const loc = (error as { loc?: { line: number; column: number } }).loc;
  const text = error instanceof Error ? error.message : String(error);
  return {
    line: loc?.line ?? 1,
    col: (loc?.column ?? 0) + 1,
    message: text.replace(/ \(\d+:\d+\)$/, ""),
  };
}

/** Whether `value` is a {@linkcode ParseFailure}. */
export function isParseFailure(
  value: ParsedSource | ParseFailure,
): value is ParseFailure {
  return !("program" in value);
}

const SKIP = new Set(["loc", "extra", "type", "start", "end", "range"]);

/** The child nodes of `node`, in source order. */
export function children(node: Node): Node[] {
  const out: Node[] = [];
  for (const key in node) {
    if (SKIP.has(key)) continue;
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) {
        if (item && typeof item.type === "string") out.push(item);
      }
    } else if (value && typeof value.type === "string") out.push(value);
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Visits `root` and every node below it, depth first in source order,
 * without recursion (so a deep tree cannot overflow the stack). `visit`
 * gets the node and its ancestors (outermost first); returning `false`
 * skips the node's children.
 */
export function walk(
  root: Node,
  visit: (node: Node, ancestors: readonly Node[]) => boolean | void,
): void {
  const stack: [Node, number][] = [[root, 0]];
  const path: Node[] = [];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    path.length = depth;
    if (visit(node, path) === false) continue;
    path.push(node);
    const kids = children(node);
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], depth + 1]);
  }
}

/** `node` without TypeScript's `as`, `satisfies`, `!` and `<T>` around it. */
export function unwrap(node: Node | undefined | null): Node | undefined {
  let at = node ?? undefined;
  while (
    at &&
    (at.type === "TSAsExpression" || at.type === "TSSatisfiesExpression" ||
      at.type === "TSNonNullExpression" || at.type === "TSTypeAssertion" ||
      at.type === "ParenthesizedExpression")
  ) at = at.expression;
  return at;
}

/** The name of a property key or export name: identifier or string. */
export function keyName(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === "Identifier") return node.name;
  if (node.type === "StringLiteral") return node.value;
  return undefined;
}

/** The property `name` of an object literal (not computed). */
export function property(object: Node, name: string): Node | undefined {
  return object.properties.find((prop: Node) =>
    (prop.type === "ObjectProperty" || prop.type === "ObjectMethod") &&
    !prop.computed && keyName(prop.key) === name
  );
}

/** Whether `source` names opencode's plugin package (or a file of it). */
export function isPluginSource(source: string): boolean {
  return source === "@opencode-ai/plugin" ||
    source.startsWith("@opencode-ai/plugin/");
}

/** Whether `source` names zod (or one of its entry points). */
export function isZodSource(source: string): boolean {
  return source === "zod" || source.startsWith("zod/");
}

/** One tool a file exports. */
export interface ToolExport {
  /** `default` or the export's name. */
  exportName: string;
  /** The tool's object literal. */
  object: Node;
  /** The `tool({ ... })` call around it, when there is one. */
  call?: Node;
}

/** What a tool file holds. */
export interface ToolSource {
  /** The tools it exports, in source order. */
  tools: ToolExport[];
  /** Top-level `const`/`let`/`var`/`function` bindings: name to the declaring node. */
  topLevel: Map<string, Node>;
  /** Local names bound to the plugin's `tool` (and namespaces holding it). */
  toolNames: Set<string>;
}

/** The top-level bindings of `program`: name to its declarator or function declaration. */
function topLevelBindings(program: Node): Map<string, Node> {
  const out = new Map<string, Node>();
  for (const statement of program.body as Node[]) {
    const decl = statement.type === "ExportNamedDeclaration" ||
        statement.type === "ExportDefaultDeclaration"
      ? statement.declaration
      : statement;
    if (!decl) continue;
    if (decl.type === "VariableDeclaration") {
      for (const d of decl.declarations as Node[]) {
        if (d.id.type === "Identifier") out.set(d.id.name, d);
      }
    } else if (
      (decl.type === "FunctionDeclaration" ||
        decl.type === "ClassDeclaration") &&
      decl.id
    ) out.set(decl.id.name, decl);
  }
  return out;
}

/** Local names the plugin's `tool` is imported as (`tool`, or `ns` of `import * as ns`). */
function toolImports(program: Node): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body as Node[]) {
    if (statement.type !== "ImportDeclaration") continue;
    if (!isPluginSource(statement.source.value)) continue;
    for (const spec of statement.specifiers as Node[]) {
      if (spec.type === "ImportNamespaceSpecifier") {
        names.add(`${spec.local.name}.tool`);
      } else if (
        spec.type === "ImportSpecifier" && keyName(spec.imported) === "tool"
      ) names.add(spec.local.name);
    }
  }
  return names;
}

/** The tool `expr` stands for, following one level of top-level `const`. */
function toolOf(
  expr: Node | undefined,
  info: Omit<ToolSource, "tools">,
  seen = new Set<string>(),
): Omit<ToolExport, "exportName"> | undefined {
  const node = unwrap(expr);
  if (!node) return undefined;
  if (node.type === "CallExpression") {
    const callee = node.callee;
    const name = callee.type === "Identifier"
      ? callee.name
      : callee.type === "MemberExpression" && !callee.computed &&
          callee.object.type === "Identifier"
      ? `${callee.object.name}.${keyName(callee.property)}`
      : undefined;
    const object = unwrap(node.arguments[0]);
    if (
      name && info.toolNames.has(name) && object?.type === "ObjectExpression"
    ) return { object, call: node };
    return undefined;
  }
  if (node.type === "ObjectExpression") {
    const looksLikeTool = property(node, "execute") &&
      (property(node, "args") || property(node, "description"));
    return looksLikeTool ? { object: node } : undefined;
  }
  if (node.type === "Identifier" && !seen.has(node.name)) {
    seen.add(node.name);
    const decl = info.topLevel.get(node.name);
    if (decl?.type === "VariableDeclarator") {
      return toolOf(decl.init, info, seen);
    }
  }
  return undefined;
}

/** Every tool `program` exports, with what migrate needs to rewrite them. */
export function findTools(program: Node): ToolSource {
  const info = {
    topLevel: topLevelBindings(program),
    toolNames: toolImports(program),
  };
  const tools: ToolExport[] = [];
  const add = (exportName: string, expr: Node | undefined) => {
    const found = toolOf(expr, info);
    if (found) tools.push({ exportName, ...found });
  };
  for (const statement of program.body as Node[]) {
    if (statement.type === "ExportDefaultDeclaration") {
      add("default", statement.declaration);
    } else if (statement.type === "ExportNamedDeclaration") {
      const decl = statement.declaration;
      if (decl?.type === "VariableDeclaration") {
        for (const d of decl.declarations as Node[]) {
          if (d.id.type === "Identifier") add(d.id.name, d.init);
        }
      } else if (!decl && !statement.source) {
        for (const spec of statement.specifiers as Node[]) {
          const exported = keyName(spec.exported);
          if (exported) add(exported, spec.local);
        }
      }
    }
  }
  return { tools, ...info };
}

/** opencode's name for the export `exportName` of the file `fileName`. */
export function opencodeToolName(fileName: string, exportName: string): string {
  const base = fileName.replace(/^.*\//, "").replace(/\.[^.]+$/, "");
  return exportName === "default" ? base : `${base}_${exportName}`;
}

/**
 * The names opencode gives the tools of the file `fileName` whose text is
 * `src`; empty when the file cannot be read.
 */
export async function opencodeToolNames(
  fileName: string,
  src: string,
): Promise<string[]> {
  const parsed = (await loadSourceParser())(fileName, src);
  if (isParseFailure(parsed)) return [];
  return findTools(parsed.program).tools.map((tool) =>
    opencodeToolName(fileName, tool.exportName)
  );
}
