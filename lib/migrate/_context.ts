/**
 * What `beeuni tools migrate` changes inside `execute` and the helpers it
 * hands its context to: opencode's context fields become the project tool's
 * ones, `process.env` becomes `context.env`, and opencode's
 * `{ title, output, metadata }` results become their `output`. What has no
 * counterpart is reported with its line.
 *
 * @module
 */

import type { Rewrite } from "./_edits.ts";
import {
  keyName,
  type Node,
  type ToolSource,
  unwrap,
  walk,
} from "../project/mod.ts";

/** opencode's context fields that have another name here. */
const RENAMED: Record<string, string> = {
  sessionID: "sessionId",
  abort: "signal",
  worktree: "directory",
};

const CONTEXT_SHAPE =
  "a project tool's context is { sessionId, agent, directory, env, signal }";

/** opencode's context fields with no counterpart, and what to say about them. */
const MISSING: Record<string, string> = {
  messageID:
    `context.messageID does not exist for project tools (${CONTEXT_SHAPE}): it reads undefined here`,
  callID:
    `context.callID does not exist for project tools (${CONTEXT_SHAPE}): it reads undefined here`,
  metadata:
    `context.metadata() sets what opencode shows about a call; project tools have no such thing (${CONTEXT_SHAPE})`,
  ask:
    "context.ask() asks opencode for a permission; project tools cannot ask (it throws here): decide which agents get the tool under agents: in beeuni.yaml and remove the call",
};

const FUNCTION_TYPES = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
  "ObjectMethod",
  "ClassMethod",
  "ClassPrivateMethod",
]);

/** Whether the node is a function of any kind. */
export function isFunction(node: Node | undefined): boolean {
  return node !== undefined && FUNCTION_TYPES.has(node.type);
}

/** How code inside a function reaches the context's `env`. */
interface ContextAccess {
  /** The expression for `context.env`, adding what it needs on first use. */
  env(): string | undefined;
}

/** Everything the context pass shares across the functions it visits. */
export interface ContextPass {
  rewrite: Rewrite;
  source: ToolSource;
  /** Functions that see the context, and how they reach its `env`. */
  access: Map<Node, ContextAccess>;
  /** Member expressions already handled. */
  handled: Set<Node>;
  /** Functions already visited with a context parameter, as `node:index`. */
  visited: Set<string>;
  /** Type names whose imports go away. */
  removedTypes: ReadonlySet<string>;
}

/** Names used anywhere inside `node` (not member names after a dot). */
function namesIn(node: Node): Set<string> {
  const names = new Set<string>();
  walk(node, (n, ancestors) => {
    const parent = ancestors[ancestors.length - 1];
    const isMember = parent && !parent.computed && parent.property === n;
    if (n.type === "Identifier" && !isMember) names.add(n.name);
  });
  return names;
}

function freeName(node: Node, wanted: string, other: string): string {
  const names = namesIn(node);
  if (!names.has(wanted)) return wanted;
  let name = other;
  for (let i = 2; names.has(name); i++) name = `${other}${i}`;
  return name;
}

/** The member's property name when it is `a.b` or `a["b"]`. */
function memberName(node: Node): string | undefined {
  if (node.computed) {
    return node.property.type === "StringLiteral"
      ? node.property.value
      : undefined;
  }
  return keyName(node.property);
}

/** Renames a member's property (`ctx.sessionID` → `ctx.sessionId`). */
function renameMember(rewrite: Rewrite, node: Node, to: string): void {
  const prop = node.property;
  if (node.computed) {
    const quote = rewrite.src[prop.start];
    rewrite.replaceNode(prop, `${quote}${to}${quote}`);
  } else rewrite.replaceNode(prop, to);
}

/**
 * Rewrites the destructuring `pattern` of a context: renamed fields keep
 * their local names (`{ sessionID }` → `{ sessionId: sessionID }`); fields
 * with no counterpart are reported. Returns the local name of a `...rest`.
 */
function rewritePattern(pass: ContextPass, pattern: Node): string | undefined {
  let rest: string | undefined;
  for (const prop of pattern.properties as Node[]) {
    if (prop.type === "RestElement") {
      if (prop.argument.type === "Identifier") rest = prop.argument.name;
      continue;
    }
    const key = prop.computed ? undefined : keyName(prop.key);
    if (key === undefined) continue;
    const to = RENAMED[key];
    if (to) {
      if (prop.shorthand) {
        const value = pass.rewrite.src.slice(prop.value.start, prop.value.end);
        pass.rewrite.replaceNode(prop, `${to}: ${value}`);
      } else pass.rewrite.replaceNode(prop.key, to);
    } else if (MISSING[key]) pass.rewrite.note(prop, MISSING[key]);
  }
  return rest;
}

/** Handles `ctx.<field>` for a known context `ctx`. */
function contextMember(
  pass: ContextPass,
  node: Node,
  ancestors: readonly Node[],
): void {
  pass.handled.add(node);
  const name = memberName(node);
  if (name === undefined) return;
  if (RENAMED[name]) {
    renameMember(pass.rewrite, node, RENAMED[name]);
    return;
  }
  if (name === "metadata") {
    const call = ancestors[ancestors.length - 1];
    const stmt = [...ancestors].reverse().find((a) =>
      a.type === "ExpressionStatement"
    );
    const expr = unwrap(stmt?.expression);
    if (
      call?.type === "CallExpression" && call.callee === node && stmt &&
      (expr === call ||
        (expr?.type === "AwaitExpression" && unwrap(expr.argument) === call))
    ) {
      pass.rewrite.removeStatement(stmt);
      pass.rewrite.note(node, `${MISSING.metadata}: the call is removed`);
      return;
    }
  }
  if (MISSING[name]) pass.rewrite.note(node, MISSING[name]);
}

/** The top-level function a callee names, if any. */
function topFunction(source: ToolSource, callee: Node): Node | undefined {
  if (callee.type !== "Identifier") return undefined;
  const decl = source.topLevel.get(callee.name);
  if (decl?.type === "FunctionDeclaration") return decl;
  const init = unwrap(decl?.init);
  return isFunction(init) ? init : undefined;
}

/** Drops a `: ToolContext`-style annotation whose type's import goes away. */
function dropRemovedType(pass: ContextPass, param: Node): void {
  const annotation = param.typeAnnotation;
  if (!annotation) return;
  let removed = false;
  walk(annotation, (n) => {
    if (n.type === "Identifier" && pass.removedTypes.has(n.name)) {
      removed = true;
    }
  });
  if (removed) pass.rewrite.remove(annotation.start, annotation.end);
}

/**
 * Visits `fn` knowing that its parameter `index` is opencode's context
 * (adding one, named `context`, when `addParam` and it is missing): renames
 * fields, follows aliases and helpers the context is handed to, and records
 * how `fn` reaches `context.env`.
 */
export function visitContext(
  pass: ContextPass,
  fn: Node,
  index: number,
  addParam: boolean,
): void {
  const key = `${fn.start}:${index}`;
  if (pass.visited.has(key)) return;
  pass.visited.add(key);
  let param = fn.params[index] as Node | undefined;
  if (param?.type === "AssignmentPattern") param = param.left;
  const aliases = new Set<string>();
  let access: ContextAccess;
  if (param?.type === "Identifier") {
    aliases.add(param.name);
    dropRemovedType(pass, param);
    const name = param.name;
    access = { env: () => `${name}.env` };
  } else if (param?.type === "ObjectPattern") {
    dropRemovedType(pass, param);
    const rest = rewritePattern(pass, param);
    if (rest) aliases.add(rest);
    access = patternAccess(pass, fn, param);
  } else if (!param && addParam) {
    access = addedParamAccess(pass, fn, index);
  } else {
    access = { env: () => undefined };
  }
  pass.access.set(fn, access);
  const body = fn.body;
  walk(body, (node, ancestors) => {
    if (node.type === "VariableDeclarator") {
      const init = unwrap(node.init);
      if (init?.type === "Identifier" && aliases.has(init.name)) {
        if (node.id.type === "Identifier") aliases.add(node.id.name);
        else if (node.id.type === "ObjectPattern") {
          const rest = rewritePattern(pass, node.id);
          if (rest) aliases.add(rest);
        }
      }
    } else if (
      (node.type === "MemberExpression" ||
        node.type === "OptionalMemberExpression") &&
      node.object.type === "Identifier" && aliases.has(node.object.name)
    ) {
      contextMember(pass, node, ancestors);
    } else if (node.type === "CallExpression") {
      const helper = topFunction(pass.source, node.callee);
      if (!helper) return;
      (node.arguments as Node[]).forEach((arg, i) => {
        if (arg.type === "Identifier" && aliases.has(arg.name)) {
          visitContext(pass, helper, i, false);
        }
      });
    }
  });
}

/** Access to `env` through a destructured context: adds `env` to the pattern. */
function patternAccess(
  pass: ContextPass,
  fn: Node,
  pattern: Node,
): ContextAccess {
  const existing = (pattern.properties as Node[]).find((prop) =>
    prop.type === "ObjectProperty" && !prop.computed &&
    keyName(prop.key) === "env" && prop.value.type === "Identifier"
  );
  if (existing) {
    const name = existing.value.name as string;
    return { env: () => name };
  }
  let name: string | undefined;
  return {
    env: () => {
      if (name) return name;
      name = freeName(fn, "env", "contextEnv");
      const props = pattern.properties as Node[];
      const rest = props.find((prop) => prop.type === "RestElement");
      const text = name === "env" ? "env" : `env: ${name}`;
      if (rest) pass.rewrite.insert(rest.start, `${text}, `);
      else if (props.length === 0) {
        pass.rewrite.replaceNode(pattern, `{ ${text} }`);
      } else pass.rewrite.insert(props[props.length - 1].end, `, ${text}`);
      return name;
    },
  };
}

/** Access to `env` when `fn` takes no context: adds the parameter on first use. */
function addedParamAccess(
  pass: ContextPass,
  fn: Node,
  index: number,
): ContextAccess {
  let name: string | undefined;
  return {
    env: () => {
      if (name) return `${name}.env`;
      name = freeName(fn, "context", "toolContext");
      addParam(pass.rewrite, fn, index, name);
      return `${name}.env`;
    },
  };
}

/** Adds the parameter `name` at `index` (after `_args` when there are none). */
function addParam(
  rewrite: Rewrite,
  fn: Node,
  index: number,
  name: string,
): void {
  const params = fn.params as Node[];
  const src = rewrite.src;
  const fill = Array.from(
    { length: index - params.length },
    (_, i) => i === 0 && params.length === 0 ? "_args" : `_${i}`,
  );
  const added = [...fill, name].join(", ");
  if (params.length === 0) {
    const from = fn.typeParameters?.end ?? fn.key?.end ?? fn.start;
    const open = src.indexOf("(", from);
    rewrite.insert(open + 1, added);
    return;
  }
  const last = params[params.length - 1];
  const first = params[0];
  const bare = fn.type === "ArrowFunctionExpression" && params.length === 1 &&
    !src.slice(fn.start, first.start).includes("(");
  if (bare) {
    rewrite.replaceNode(
      first,
      `(${src.slice(first.start, first.end)}, ${added})`,
    );
  } else rewrite.insert(last.end, `, ${added}`);
}

/** The context access of the innermost function around a node that has one. */
export function accessAt(
  pass: ContextPass,
  ancestors: readonly Node[],
): ContextAccess | undefined {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const access = pass.access.get(ancestors[i]);
    if (access) return access;
  }
  return undefined;
}

const RESULT_KEYS = new Set(["title", "output", "metadata", "attachments"]);

/** Whether the object literal is opencode's `{ title?, output, metadata? }`. */
function isResultObject(node: Node | undefined): boolean {
  if (node?.type !== "ObjectExpression" || node.properties.length === 0) {
    return false;
  }
  const keys = (node.properties as Node[]).map((prop) =>
    prop.type === "ObjectProperty" && !prop.computed
      ? keyName(prop.key)
      : undefined
  );
  return keys.includes("output") &&
    keys.every((key) => key !== undefined && RESULT_KEYS.has(key));
}

/**
 * Turns `return { title, output, metadata }` of `fn` into `return output`
 * (what opencode shows the model) and reports what is dropped, or such an
 * object built elsewhere in `fn`.
 */
export function rewriteResults(rewrite: Rewrite, fn: Node): void {
  const returned = new Set<Node>();
  const visit = (value: Node | undefined) => {
    const object = unwrap(value);
    if (!object || !isResultObject(object)) return;
    returned.add(object);
    const props = object.properties as Node[];
    const output = props.find((prop) => keyName(prop.key) === "output")!;
    // Cut around the output's value, so edits inside it stay.
    rewrite.remove(object.start, output.value.start);
    rewrite.remove(output.value.end, object.end);
    if (props.length > 1) {
      rewrite.note(
        object,
        "opencode's { title, output, metadata } result: the tool now returns its output, what the model read; title and metadata are dropped",
      );
    }
  };
  if (fn.body.type !== "BlockStatement") visit(fn.body);
  walk(fn.body, (node) => {
    if (node !== fn.body && isFunction(node)) return false;
    if (node.type === "ReturnStatement") visit(node.argument);
  });
  walk(fn.body, (node) => {
    if (isResultObject(node) && !returned.has(node)) {
      rewrite.note(
        node,
        "builds opencode's { title, output, metadata } result: a project tool's result goes to the model as it is (objects as JSON), so return its output",
      );
    }
  });
}
