/**
 * `beeuni tools migrate`, one file: rewrites an opencode tool file's text
 * into a project tool module from its syntax tree. Each `tool({ ... })` and
 * plain `{ description, args, execute }` export becomes a plain object
 * whose `parameters` is JSON Schema; `execute` gets the project tool's
 * context (see `_context.ts`); the plugin and zod imports (and aliases of
 * zod only `args` used) go when nothing uses them any more; imports are
 * handed to the caller to place, and the module is made to load under every
 * runtime (see `_specifiers.ts`). Everything else keeps its bytes. Pure.
 *
 * @module
 */

import {
  accessAt,
  type ContextPass,
  isFunction,
  rewriteResults,
  visitContext,
} from "./_context.ts";
import { type Note, Rewrite } from "./_edits.ts";
import { isZod, sourceParameters } from "./_schema.ts";
import {
  type Relocate,
  rewriteSpecifiers,
  shimCommonJs,
} from "./_specifiers.ts";
import {
  findTools,
  isPluginSource,
  isZodSource,
  keyName,
  type Node,
  opencodeToolName,
  type ParsedSource,
  property,
  type ToolExport,
  type ToolSource,
  unwrap,
  walk,
} from "../project/mod.ts";

/** What importing the original gave for one export: its schema, or why not. */
export type ExportSchema = { schema: Record<string, unknown> } | {
  error: string;
};

/** What importing the original gave: per export, or why the import failed. */
export type ImportedSchemas = { exports: Record<string, ExportSchema> } | {
  error: string;
};

/** One tool of a converted file. */
export interface ConvertedTool {
  /** Its name by opencode's rules. */
  name: string;
  /** `default` or the export's name. */
  exportName: string;
  /** Its `parameters`, as written into the module. */
  parameters: Record<string, unknown>;
}

/** The result of converting one file. */
export interface Converted {
  /** The new module's text. */
  source: string;
  /** The file's tools in source order. */
  tools: ConvertedTool[];
  /** What needs a look by hand. */
  notes: Note[];
}

/** What {@linkcode convertSource} needs. */
export interface ConvertInput {
  /** The file's repo-relative path (named in the header line). */
  path: string;
  /** Its text. */
  src: string;
  /** Its syntax tree. */
  parsed: ParsedSource;
  /** The schemas importing it gave, if it was imported. */
  schemas?: ImportedSchemas;
  /**
   * The specifier an import should have in the new module (called with
   * the specifier and its line); the same one when it stays.
   */
  relocate: Relocate;
  /** The new module's repo-relative path. */
  target: string;
}

/** The local names bound by the plugin and zod imports, split by kind. */
interface HarnessImports {
  declarations: Node[];
  /** Value names: `tool`, `z`, namespaces. */
  values: Set<string>;
  /** Names usable as zod in a chain: `z`, `tool.schema`. */
  zod: Set<string>;
  /** Type-only names. */
  types: Set<string>;
}

function harnessImports(program: Node): HarnessImports {
  const out: HarnessImports = {
    declarations: [],
    values: new Set(),
    zod: new Set(),
    types: new Set(),
  };
  for (const statement of program.body as Node[]) {
    if (statement.type !== "ImportDeclaration") continue;
    const source = statement.source.value as string;
    const plugin = isPluginSource(source);
    if (!plugin && !isZodSource(source)) continue;
    out.declarations.push(statement);
    for (const spec of statement.specifiers as Node[]) {
      const local = spec.local.name as string;
      const typeOnly = statement.importKind === "type" ||
        spec.importKind === "type";
      if (typeOnly) {
        out.types.add(local);
        continue;
      }
      if (
        plugin && spec.type === "ImportSpecifier" &&
        keyName(spec.imported) !== "tool"
      ) {
        // The plugin's only value export is `tool`; the rest are types.
        out.types.add(local);
        continue;
      }
      out.values.add(local);
      if (!plugin) out.zod.add(local);
      else if (spec.type === "ImportSpecifier") out.zod.add(`${local}.schema`);
    }
  }
  addZodAliases(program, out.zod);
  // An alias of zod is a harness value too: a declaration using it goes with args.
  for (const name of out.zod) if (!name.includes(".")) out.values.add(name);
  return out;
}

/**
 * Adds the top-level aliases of zod to `zod`: `const z = tool.schema`,
 * `const s = z`, `const { schema } = tool` (and `{ schema: z }`).
 */
function addZodAliases(program: Node, zod: Set<string>): void {
  for (let grew = true; grew;) {
    grew = false;
    const add = (name: string) => {
      if (!zod.has(name)) {
        zod.add(name);
        grew = true;
      }
    };
    for (const statement of program.body as Node[]) {
      const decl = statement.type === "ExportNamedDeclaration"
        ? statement.declaration
        : statement;
      if (decl?.type !== "VariableDeclaration") continue;
      for (const d of decl.declarations as Node[]) {
        const init = unwrap(d.init);
        if (d.id.type === "Identifier" && isZod(init, zod)) add(d.id.name);
        if (d.id.type !== "ObjectPattern" || init?.type !== "Identifier") {
          continue;
        }
        for (const prop of d.id.properties as Node[]) {
          if (
            prop.type === "ObjectProperty" && !prop.computed &&
            keyName(prop.key) === "schema" &&
            prop.value.type === "Identifier" &&
            zod.has(`${init.name}.schema`)
          ) add(prop.value.name);
        }
      }
    }
  }
}

/** Every identifier that reads a binding, with whether it sits in a type. */
function references(program: Node): { node: Node; type: boolean }[] {
  const out: { node: Node; type: boolean }[] = [];
  walk(program, (node, ancestors) => {
    if (node.type === "ImportDeclaration") return false;
    if (node.type !== "Identifier") return;
    const parent = ancestors[ancestors.length - 1];
    if (!parent) return;
    const isKey = (parent.type === "ObjectProperty" ||
      parent.type === "ObjectMethod" || parent.type === "ClassMethod" ||
      parent.type === "ClassProperty" ||
      parent.type === "TSPropertySignature" ||
      parent.type === "TSMethodSignature") &&
      parent.key === node && !parent.computed;
    const isMember = (parent.type === "MemberExpression" ||
      parent.type === "OptionalMemberExpression") &&
      parent.property === node && !parent.computed;
    const isBinding = (parent.type === "VariableDeclarator" &&
      parent.id === node) ||
      (isFunction(parent) && parent.id === node) ||
      parent.type === "ExportSpecifier" && parent.exported === node ||
      parent.type === "TSQualifiedName" && parent.right === node ||
      parent.type === "LabeledStatement" ||
      parent.type === "BreakStatement" || parent.type === "ContinueStatement" ||
      (parent.type === "ObjectProperty" && parent.value === node &&
        ancestors[ancestors.length - 2]?.type === "ObjectPattern") ||
      parent.type === "ArrayPattern" || parent.type === "RestElement" ||
      (parent.type === "AssignmentPattern" && parent.left === node);
    if (isKey || isMember || isBinding) return;
    const type = ancestors.some((a) =>
      a.type.startsWith("TS") && a.type !== "TSAsExpression" &&
      a.type !== "TSSatisfiesExpression" && a.type !== "TSNonNullExpression"
    );
    out.push({ node, type });
  });
  return out;
}

/**
 * A JSON value as TypeScript source: two-space indents, identifier keys
 * unquoted, arrays of plain values on one line, continued lines indented
 * by `indent`.
 */
function schemaText(value: unknown, indent: string): string {
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object")) {
      return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
    }
    const inner = indent + "  ";
    return `[\n${
      value.map((item) => inner + schemaText(item, inner)).join(",\n")
    },\n${indent}]`;
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const inner = indent + "  ";
    const lines = entries.map(([key, item]) =>
      `${inner}${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${
        schemaText(item, inner)
      }`
    );
    return `{\n${lines.join(",\n")},\n${indent}}`;
  }
  return JSON.stringify(value);
}

function indentAt(src: string, at: number): string {
  const start = src.lastIndexOf("\n", at - 1) + 1;
  const lead = src.slice(start, at);
  return /^\s*$/.test(lead) ? lead : "";
}

/** The function node of the tool's `execute`, following a top-level function. */
function executeOf(object: Node, source: ToolSource): Node | undefined {
  const prop = property(object, "execute");
  if (!prop) return undefined;
  if (prop.type === "ObjectMethod") return prop;
  const value = unwrap(prop.value);
  if (isFunction(value)) return value;
  if (value?.type === "Identifier") {
    const decl = source.topLevel.get(value.name);
    if (decl?.type === "FunctionDeclaration") return decl;
    const init = unwrap(decl?.init);
    if (isFunction(init)) return init;
  }
  return undefined;
}

/** The parameters for one tool: from the import when it worked, else from the source. */
function parametersFor(
  tool: ToolExport,
  exports: readonly string[],
  input: ConvertInput,
  ctx: { rewrite: Rewrite; source: ToolSource; imports: HarnessImports },
): Record<string, unknown> {
  const imported = input.schemas;
  if (imported && "exports" in imported) {
    for (const name of exports) {
      const got = imported.exports[name];
      if (got && "schema" in got) return got.schema;
    }
  }
  const why = !imported
    ? "it was not imported"
    : "error" in imported
    ? `importing it failed: ${imported.error}`
    : `reading its schema failed: ${
      exports.map((name) => imported.exports[name])
        .map((got) => got && "error" in got ? got.error : "not found")[0]
    }`;
  const argsProp = property(tool.object, "args");
  ctx.rewrite.note(
    argsProp ?? tool.object,
    `parameters were read from the source, not computed by zod, because ${why}: compare them with args`,
  );
  const value = argsProp?.type === "ObjectProperty"
    ? argsProp.value
    : undefined;
  return sourceParameters(
    value,
    (name) => ctx.source.topLevel.get(name)?.init,
    ctx.imports.zod,
    (node, message) => ctx.rewrite.note(node, message),
  );
}

/** Replaces `tool({ … })` by the object, and `args` by `parameters`; returns them. */
function convertTool(
  tool: ToolExport,
  exports: readonly string[],
  input: ConvertInput,
  ctx: { rewrite: Rewrite; source: ToolSource; imports: HarnessImports },
): Record<string, unknown> {
  const { rewrite } = ctx;
  const { object, call } = tool;
  if (call) {
    rewrite.remove(call.start, object.start);
    rewrite.remove(object.end, call.end);
  }
  const parameters = parametersFor(tool, exports, input, ctx);
  const argsProp = property(object, "args");
  for (const prop of object.properties as Node[]) {
    if (prop.type === "SpreadElement") {
      rewrite.note(
        prop,
        "the tool object spreads another object: check that it brings no args (parameters come from args only)",
      );
    }
  }
  if (argsProp) {
    const indent = indentAt(input.src, argsProp.start);
    rewrite.replaceNode(
      argsProp,
      `parameters: ${schemaText(parameters, indent)}`,
    );
    rewrite.markRemoved(argsProp.start, argsProp.end);
  } else {
    rewrite.note(
      object,
      "this tool has no args: opencode 1.18.33 does not offer it to the model at all; the migrated tool takes no arguments",
    );
    const first = (object.properties as Node[])[0];
    const indent = indentAt(input.src, first.start);
    rewrite.insert(
      first.start,
      `parameters: ${schemaText(parameters, indent)},${
        indent ? `\n${indent}` : " "
      }`,
    );
  }
  return parameters;
}

/** The names a `const` binds: `x`, or `{ a, b: c }` (a and c); undefined for other patterns. */
function boundNames(id: Node): string[] | undefined {
  if (id.type === "Identifier") return [id.name];
  if (id.type !== "ObjectPattern") return undefined;
  const names: string[] = [];
  for (const prop of id.properties as Node[]) {
    if (prop.type !== "ObjectProperty" || prop.value.type !== "Identifier") {
      return undefined;
    }
    names.push(prop.value.name);
  }
  return names;
}

/** Removes top-level declarations only the removed `args` used, until none is left. */
function removeArgsOnlyDeclarations(
  program: Node,
  rewrite: Rewrite,
  imports: HarnessImports,
): void {
  const refs = references(program);
  const usedOutside = (name: string) =>
    refs.some((ref) =>
      ref.node.name === name && !rewrite.isRemoved(ref.node.start)
    );
  for (let changed = true; changed;) {
    changed = false;
    for (const statement of program.body as Node[]) {
      if (
        statement.type !== "VariableDeclaration" ||
        statement.declarations.length !== 1 ||
        rewrite.isRemoved(statement.start)
      ) continue;
      const [decl] = statement.declarations as Node[];
      const names = boundNames(decl.id);
      if (!names || !decl.init) continue;
      let usesHarness = false;
      walk(decl.init, (n) => {
        if (n.type === "Identifier" && imports.values.has(n.name)) {
          usesHarness = true;
        }
      });
      if (usesHarness && !names.some(usedOutside)) {
        rewrite.removeStatement(statement);
        changed = true;
      }
    }
  }
}

/** Removes the plugin and zod imports nothing uses any more; reports the others. */
function removeHarnessImports(
  program: Node,
  rewrite: Rewrite,
  imports: HarnessImports,
): void {
  const refs = references(program).filter((ref) =>
    !rewrite.isRemoved(ref.node.start)
  );
  for (const declaration of imports.declarations) {
    const names = (declaration.specifiers as Node[]).map((spec) =>
      spec.local.name as string
    );
    const left = refs.filter((ref) => names.includes(ref.node.name));
    const values = left.filter((ref) => !ref.type);
    const source = declaration.source.value as string;
    if (values.length > 0) {
      const first = values[0].node;
      rewrite.note(
        first,
        isZodSource(source)
          ? `zod is still used here (outside args), so the module keeps importing it and loads only where "zod" resolves from the checkout's node_modules: rewrite this without zod`
          : `"${first.name}" from ${source} is still used here (outside args): a project tool cannot import opencode's plugin package; rewrite this without it`,
      );
      continue;
    }
    rewrite.removeStatement(declaration);
    for (const ref of left) {
      rewrite.note(
        ref.node,
        `the type "${ref.node.name}" came from ${source}, whose import is gone: drop or replace the annotation`,
      );
    }
  }
}

/** Reports `Bun` APIs, stray opencode context fields and `process.env` nobody rewrote. */
function scanRest(pass: ContextPass, program: Node): void {
  const { rewrite } = pass;
  walk(program, (node, ancestors) => {
    if (rewrite.isRemovedNode(node)) return false;
    if (
      node.type !== "MemberExpression" &&
      node.type !== "OptionalMemberExpression"
    ) {
      if (
        node.type === "StringLiteral" &&
        /(^|\/)\.?opencode\/tools?\//.test(node.value)
      ) {
        rewrite.note(
          node,
          "this path points into opencode's tools folder: check that it still leads where it should from the new module",
        );
      }
      return;
    }
    const object = node.object;
    const name = node.computed
      ? node.property.type === "StringLiteral" ? node.property.value : undefined
      : keyName(node.property);
    const isEnv = name === "env" && object.type === "Identifier" &&
      (object.name === "process" || object.name === "Bun");
    if (isEnv) {
      const env = accessAt(pass, ancestors)?.env();
      if (env) rewrite.replaceNode(node, env);
      else {
        rewrite.note(
          node,
          `${object.name}.env is read outside execute: the daemon passes the agent's secrets in context.env, not in process.env; read them in execute from context.env`,
        );
      }
      return;
    }
    if (object.type === "Identifier" && object.name === "Bun") {
      rewrite.note(
        node,
        name === "$"
          ? "Bun.$ runs only when the daemon runs under Bun: use node:child_process (execFile) to run it anywhere"
          : "Bun APIs run only when the daemon runs under Bun: prefer node:* modules",
      );
      return;
    }
    if (
      !pass.handled.has(node) && name &&
      ["sessionID", "messageID", "callID", "worktree"].includes(name)
    ) {
      rewrite.note(
        node,
        `".${name}" looks like opencode's context, which migrate could not follow here: a project tool's context is { sessionId, agent, directory, env, signal }`,
      );
    }
  });
}

/**
 * Converts one opencode tool file into a project tool module. The
 * `schemas` of the input, when given, are the exact `parameters`; without
 * them (or for an export they lack) `parameters` are read from the source,
 * and a note says so.
 */
export function convertSource(input: ConvertInput): Converted {
  const { program } = input.parsed;
  const rewrite = new Rewrite(input.src);
  const source = findTools(program);
  const imports = harnessImports(program);
  const ctx = { rewrite, source, imports };
  const byObject = new Map<Node, ToolExport[]>();
  for (const tool of source.tools) {
    byObject.set(tool.object, [...byObject.get(tool.object) ?? [], tool]);
  }
  const pass: ContextPass = {
    rewrite,
    source,
    access: new Map(),
    handled: new Set(),
    visited: new Set(),
    removedTypes: imports.types,
  };
  const parameters = new Map<Node, Record<string, unknown>>();
  for (const [object, tools] of byObject) {
    parameters.set(
      object,
      convertTool(tools[0], tools.map((t) => t.exportName), input, ctx),
    );
    const execute = executeOf(object, source);
    if (!execute) {
      rewrite.note(
        object,
        "cannot find this tool's execute function: make it execute(args, context)",
      );
      continue;
    }
    visitContext(pass, execute, 1, true);
    rewriteResults(rewrite, execute);
  }
  scanRest(pass, program);
  removeArgsOnlyDeclarations(program, rewrite, imports);
  removeHarnessImports(program, rewrite, imports);
  rewriteSpecifiers(program, input.relocate, rewrite);
  shimCommonJs(program, rewrite, { commonjs: false, moved: input.target });
  for (const statement of program.body as Node[]) {
    if (
      (statement.type === "ExportNamedDeclaration" ||
        statement.type === "ExportAllDeclaration") &&
      statement.source &&
      !isPluginSource(statement.source.value)
    ) {
      rewrite.note(
        statement,
        "re-exports from another file: opencode would load its tools under this file's name; migrate that file and declare its tools",
      );
    }
  }
  const body = rewrite.apply();
  const shebang = /^#![^\n]*\n/.exec(body)?.[0] ?? "";
  const rest = body.slice(shebang.length);
  const header =
    `// Migrated from ${input.path} by \`beeuni tools migrate\`.\n${
      /^\r?\n/.test(rest) ? "" : "\n"
    }`;
  const fileName = input.path.replace(/^.*\//, "");
  return {
    source: shebang + header + rest,
    tools: source.tools.map((tool) => ({
      exportName: tool.exportName,
      name: opencodeToolName(fileName, tool.exportName),
      parameters: parameters.get(tool.object)!,
    })),
    notes: [...rewrite.notes].sort((a, b) => a.line - b.line),
  };
}

/**
 * What needs a look in a helper file copied beside a migrated tool:
 * `process.env` and `Bun` uses, and imports of the plugin or zod. Pure.
 */
export function helperNotes(src: string, program: Node): Note[] {
  const rewrite = new Rewrite(src);
  scanRest({
    rewrite,
    source: findTools(program),
    access: new Map(),
    handled: new Set(),
    visited: new Set(),
    removedTypes: new Set(),
  }, program);
  for (const declaration of harnessImports(program).declarations) {
    rewrite.note(
      declaration,
      `imports ${declaration.source.value}: a project tool and its helpers cannot rely on opencode's packages; rewrite this without it`,
    );
  }
  return [...rewrite.notes].sort((a, b) => a.line - b.line);
}
