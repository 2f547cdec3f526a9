/**
 * What `beeuni tools migrate` changes so a moved file loads under every
 * runtime, not only under Bun: the specifiers of its imports (and
 * `require()` calls) as the caller places them, node built-ins with their
 * `node:` prefix, JSON imports with their `type` attribute, and
 * CommonJS's `require`, `__dirname` and `__filename` (which Bun also
 * gives ES modules) through `createRequire(import.meta.url)` and
 * `import.meta`. Bun's own modules are reported.
 *
 * @module
 */

import { builtinModules } from "node:module";
import { Rewrite } from "./_edits.ts";
import { keyName, type Node, walk } from "../project/mod.ts";
import type { Note } from "./_edits.ts";

/**
 * The specifier an import should have in the moved file (called with the
 * specifier and its line); the same one when it stays.
 */
export type Relocate = (specifier: string, line: number) => string;

/** What to say about an import of one of Bun's own modules. */
function bunModuleNote(specifier: string): string {
  const instead = specifier === "bun:sqlite"
    ? "use node:sqlite (or a package) to run it anywhere"
    : specifier === "bun"
    ? "prefer node:* modules (node:child_process for $)"
    : "prefer node:* modules";
  return `"${specifier}" is a Bun module: it exists only when the daemon runs under Bun; ${instead}`;
}

/** The string literal naming the module a node imports or requires, if any. */
function moduleLiteral(node: Node): Node | undefined {
  let literal: Node | undefined;
  if (
    node.type === "ImportDeclaration" ||
    node.type === "ExportAllDeclaration" ||
    (node.type === "ExportNamedDeclaration" && node.source) ||
    node.type === "ImportExpression"
  ) literal = node.source;
  else if (node.type === "CallExpression") {
    const callee = node.callee;
    const isRequire = callee.type === "Identifier" &&
      callee.name === "require";
    const isResolve = callee.type === "MemberExpression" &&
      !callee.computed && callee.object.type === "Identifier" &&
      callee.object.name === "require" &&
      keyName(callee.property) === "resolve";
    if (callee.type === "Import" || isRequire || isResolve) {
      literal = node.arguments[0];
    }
  }
  return literal?.type === "StringLiteral" ? literal : undefined;
}

/** Rewrites a module specifier's string, keeping its quotes. */
function setSource(rewrite: Rewrite, literal: Node, value: string): void {
  const quote = rewrite.src[literal.start];
  rewrite.replaceNode(literal, `${quote}${value}${quote}`);
}

/**
 * Prefixes node built-ins with `node:`, reports Bun's modules, hands every
 * other specifier to `relocate`, and gives a JSON import its `type`
 * attribute.
 */
export function rewriteSpecifiers(
  program: Node,
  relocate: Relocate,
  rewrite: Rewrite,
): void {
  walk(program, (node) => {
    const literal = moduleLiteral(node);
    if (!literal) return;
    const spec = literal.value as string;
    if (spec === "bun" || spec.startsWith("bun:")) {
      rewrite.note(literal, bunModuleNote(spec));
      return;
    }
    if (!spec.startsWith("node:") && builtinModules.includes(spec)) {
      setSource(rewrite, literal, `node:${spec}`);
      return;
    }
    const moved = relocate(spec, literal.loc.start.line);
    if (moved !== spec) setSource(rewrite, literal, moved);
    if (
      moved.endsWith(".json") && node.type === "ImportDeclaration" &&
      (node.attributes ?? []).length === 0 && !node.importKind?.includes("type")
    ) rewrite.insert(literal.end, ' with { type: "json" }');
  });
}

/** How {@linkcode shimCommonJs} treats a file. */
export interface ShimOptions {
  /** A CommonJS file (`.cjs`, `.cts`): left alone. */
  commonjs: boolean;
  /** Where the file moves to, named in the note about its folder. */
  moved?: string;
  /** The file stays where it is: what it would change is reported instead. */
  stays?: boolean;
}

/** CommonJS names Bun gives every module, and what stands for them here. */
const COMMONJS: Record<string, string> = {
  __dirname: "import.meta.dirname",
  __filename: "import.meta.filename",
};

/**
 * Where each of `names` is read without being declared anywhere in the
 * file (a free global), by name.
 */
function freeReads(
  program: Node,
  names: readonly string[],
): Map<string, Node[]> {
  const reads = new Map<string, Node[]>();
  const bound = new Set<string>();
  walk(program, (node, ancestors) => {
    if (node.type !== "Identifier" || !names.includes(node.name)) return;
    const parent = ancestors[ancestors.length - 1];
    if (!parent) return;
    const isMember = (parent.type === "MemberExpression" ||
      parent.type === "OptionalMemberExpression") &&
      parent.property === node && !parent.computed;
    const isKey = (parent.type === "ObjectProperty" ||
      parent.type === "ObjectMethod" || parent.type === "ClassMethod" ||
      parent.type === "ClassProperty") &&
      parent.key === node &&
      !parent.computed && !parent.shorthand;
    if (isMember || isKey) return;
    const isBinding = (parent.type === "VariableDeclarator" &&
      parent.id === node) ||
      ((parent.type === "FunctionDeclaration" ||
        parent.type === "FunctionExpression" ||
        parent.type === "ArrowFunctionExpression" ||
        parent.type === "ObjectMethod") &&
        (parent.id === node || parent.params.includes(node))) ||
      parent.type === "ImportSpecifier" ||
      parent.type === "ImportDefaultSpecifier" ||
      parent.type === "ImportNamespaceSpecifier" ||
      (parent.type === "ObjectProperty" && parent.shorthand &&
        ancestors.some((a) => a.type === "VariableDeclarator"));
    if (isBinding) bound.add(node.name);
    else reads.set(node.name, [...reads.get(node.name) ?? [], node]);
  });
  for (const name of bound) reads.delete(name);
  return reads;
}

/** Names used anywhere in the file. */
function usedNames(program: Node): Set<string> {
  const names = new Set<string>();
  walk(program, (node) => {
    if (node.type === "Identifier") names.add(node.name);
  });
  return names;
}

/** The local name `createRequire` is imported as from node:module, if it is. */
function importedCreateRequire(program: Node): string | undefined {
  for (const statement of program.body as Node[]) {
    if (
      statement.type !== "ImportDeclaration" ||
      !["module", "node:module"].includes(statement.source.value)
    ) continue;
    for (const spec of statement.specifiers as Node[]) {
      if (
        spec.type === "ImportSpecifier" &&
        keyName(spec.imported) === "createRequire"
      ) return spec.local.name;
    }
  }
  return undefined;
}

/**
 * Gives a module that reads CommonJS's `require` (Bun lets ES modules do
 * so) one made by `createRequire(import.meta.url)`, which every runtime
 * has, and turns `__dirname`/`__filename` into `import.meta.dirname`/
 * `import.meta.filename`. `moved` names where the module now lives, for
 * the note about paths built from its folder. A CommonJS file (`.cjs`,
 * `.cts`) is left alone.
 */
export function shimCommonJs(
  program: Node,
  rewrite: Rewrite,
  options: ShimOptions,
): void {
  if (options.commonjs) return;
  const reads = freeReads(program, ["require", ...Object.keys(COMMONJS)]);
  if (options.stays) {
    for (const [name, nodes] of reads) {
      rewrite.note(
        nodes[0],
        name === "require"
          ? 'require() exists here only under Bun (this ES module stays where it is, and the migrated tool imports it): add `import { createRequire } from "node:module"` and `const require = createRequire(import.meta.url)` at its top'
          : `${name} exists here only under Bun (this ES module stays where it is, and the migrated tool imports it): use ${
            COMMONJS[name]
          }`,
      );
    }
    return;
  }
  for (const [name, replacement] of Object.entries(COMMONJS)) {
    const nodes = reads.get(name) ?? [];
    for (const node of nodes) rewrite.replaceNode(node, replacement);
    if (nodes.length > 0 && options.moved) {
      rewrite.note(
        nodes[0],
        `${name} is now ${replacement}, the folder of ${options.moved}, not of the original: check the paths built from it`,
      );
    }
  }
  const first = (program.body as Node[])[0];
  if (!reads.has("require") || !first) return;
  let create = importedCreateRequire(program);
  let text = "";
  if (!create) {
    const used = usedNames(program);
    create = used.has("createRequire") ? "nodeCreateRequire" : "createRequire";
    text = `import { createRequire${
      create === "createRequire" ? "" : ` as ${create}`
    } } from "node:module";\n`;
  }
  text += `const require = ${create}(import.meta.url);\n`;
  // At the start of the first statement's line, so no edit there covers it.
  const at = rewrite.src.lastIndexOf("\n", first.start - 1) + 1;
  rewrite.insert(at, text);
}

/**
 * The text `src` (whose tree is `program`) with its specifiers placed by
 * `relocate` and made to load under every runtime (see
 * {@linkcode rewriteSpecifiers} and {@linkcode shimCommonJs}), with what
 * needs a look by hand. Pure.
 */
export function relocateSpecifiers(
  src: string,
  program: Node,
  relocate: Relocate,
  options: ShimOptions = { commonjs: false },
): { text: string; notes: Note[] } {
  const rewrite = new Rewrite(src);
  rewriteSpecifiers(program, relocate, rewrite);
  shimCommonJs(program, rewrite, options);
  return { text: rewrite.apply(), notes: rewrite.notes };
}
