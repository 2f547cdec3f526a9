/**
 * The fallback of `beeuni tools migrate` for `parameters`: the JSON Schema
 * of a tool's zod `args`, read from the syntax tree, shaped like zod 4's
 * `z.toJSONSchema(z.object(args), { io: "input" })`. Used only when
 * importing the original failed; what it cannot read is reported.
 *
 * @module
 */

import { keyName, type Node, unwrap } from "../project/mod.ts";

/** zod 4's `$schema` for `z.toJSONSchema()`. */
export const JSON_SCHEMA_DRAFT = "https://json-schema.org/draft/2020-12/schema";

const SAFE_INT = 9007199254740991;

type Schema = Record<string, unknown>;

/** Reports what cannot be read, at `node`. */
export type Report = (node: Node, message: string) => void;

/** The declaration's value of a top-level name, for following constants. */
export type Resolve = (name: string) => Node | undefined;

const NO_NAMES: Resolve = () => undefined;

/**
 * The value of a constant expression, or `undefined` when it is not one:
 * literals, arrays and objects of them (with spreads), and, through
 * `resolve`, top-level constants and `Object.keys`/`Object.values` of them.
 */
export function literalValue(
  expr: Node | undefined,
  resolve: Resolve = NO_NAMES,
  seen: ReadonlySet<string> = new Set(),
): { value: unknown } | undefined {
  const node = unwrap(expr);
  if (!node) return undefined;
  const inner = (n: Node | undefined) => literalValue(n, resolve, seen);
  switch (node.type) {
    case "StringLiteral":
    case "NumericLiteral":
    case "BooleanLiteral":
      return { value: node.value };
    case "NullLiteral":
      return { value: null };
    case "TemplateLiteral":
      return node.expressions.length === 0
        ? { value: node.quasis[0].value.cooked }
        : undefined;
    case "UnaryExpression": {
      const value = inner(node.argument);
      if (node.operator === "-" && typeof value?.value === "number") {
        return { value: -value.value };
      }
      return undefined;
    }
    case "Identifier": {
      if (seen.has(node.name)) return undefined;
      const init = resolve(node.name);
      return init
        ? literalValue(init, resolve, new Set([...seen, node.name]))
        : undefined;
    }
    case "CallExpression": {
      const callee = node.callee;
      const method = callee.type === "MemberExpression" && !callee.computed &&
          callee.object.type === "Identifier" &&
          callee.object.name === "Object"
        ? keyName(callee.property)
        : undefined;
      if (method !== "keys" && method !== "values") return undefined;
      const object = inner(node.arguments[0])?.value;
      if (!object || typeof object !== "object" || Array.isArray(object)) {
        return undefined;
      }
      return {
        value: method === "keys" ? Object.keys(object) : Object.values(object),
      };
    }
    case "ArrayExpression": {
      const items: unknown[] = [];
      for (const element of node.elements as (Node | null)[]) {
        if (element?.type === "SpreadElement") {
          const spread = inner(element.argument)?.value;
          if (!Array.isArray(spread)) return undefined;
          items.push(...spread);
          continue;
        }
        const item = inner(element ?? undefined);
        if (!item) return undefined;
        items.push(item.value);
      }
      return { value: items };
    }
    case "ObjectExpression": {
      const out: Record<string, unknown> = {};
      for (const prop of node.properties as Node[]) {
        if (prop.type === "SpreadElement") {
          const spread = inner(prop.argument)?.value;
          if (!spread || typeof spread !== "object") return undefined;
          Object.assign(out, spread);
          continue;
        }
        const key = prop.type === "ObjectProperty" && !prop.computed
          ? keyName(prop.key) ??
            (prop.key.type === "NumericLiteral"
              ? String(prop.key.value)
              : undefined)
          : undefined;
        const value = key === undefined ? undefined : inner(prop.value);
        if (key === undefined || !value) return undefined;
        out[key] = value.value;
      }
      return { value: out };
    }
  }
  return undefined;
}

/** One call of a zod chain: `string()` or `.describe("x")`. */
interface Link {
  name: string;
  args: Node[];
  node: Node;
}

/** What reading the source needs: zod's local names, top-level constants, where to report. */
interface Reader {
  /** Local names of zod (`z`, aliases) and of the plugin (as `tool.schema`). */
  zod: ReadonlySet<string>;
  resolve: Resolve;
  report: Report;
}

/** The declaration's value of a top-level name that holds a call (a zod schema kept in a constant). */
function constantCall(
  node: Node | undefined,
  reader: Reader,
): Node | undefined {
  const at = unwrap(node);
  if (at?.type !== "Identifier" || reader.zod.has(at.name)) return undefined;
  const init = unwrap(reader.resolve(at.name));
  return init?.type === "CallExpression" || init?.type === "Identifier"
    ? init
    : undefined;
}

/**
 * `z.string().min(1)` as its links, base first, following constants that
 * hold part of the chain (`const name = z.string()`; `name.optional()`);
 * undefined when it is not a zod chain.
 */
function chainOf(expr: Node, reader: Reader): Link[] | undefined {
  const links: Link[] = [];
  let node = unwrap(expr);
  for (let hops = 0; node && hops < 64; hops++) {
    if (node.type === "Identifier") {
      node = constantCall(node, reader);
      continue;
    }
    if (node.type !== "CallExpression") return undefined;
    const callee = node.callee;
    if (callee.type !== "MemberExpression" || callee.computed) return undefined;
    const name = keyName(callee.property);
    if (!name) return undefined;
    links.unshift({ name, args: node.arguments, node });
    const object = unwrap(callee.object);
    if (isZod(object, reader.zod)) return links;
    if (
      object?.type === "MemberExpression" && keyName(object.property) ===
        "coerce" &&
      isZod(object.object, reader.zod)
    ) return links;
    node = object;
  }
  return undefined;
}

/** Whether `node` is `z` (a zod import or alias) or `tool.schema`, by `zodNames`. */
export function isZod(
  node: Node | undefined,
  zodNames: ReadonlySet<string>,
): boolean {
  const at = unwrap(node);
  if (at?.type === "Identifier") return zodNames.has(at.name);
  return at?.type === "MemberExpression" && !at.computed &&
    keyName(at.property) === "schema" && at.object.type === "Identifier" &&
    zodNames.has(`${at.object.name}.schema`);
}

/** A schema read from the source, or where reading it stopped. */
type Read =
  | { schema: Schema; optional: boolean }
  | { failed: { node: Node; what: string }; optional: boolean };

function literalType(value: unknown): string | undefined {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  return undefined;
}

/** A read that stopped at `node`, saying what could not be read. */
function failed(node: Node, what: string): Read {
  return { failed: { node, what }, optional: false };
}

/** The enum schema of the values `values` (an array, or an object's values). */
function enumSchema(values: unknown): Schema | undefined {
  const list = Array.isArray(values)
    ? values
    : values && typeof values === "object"
    ? Object.values(values)
    : undefined;
  if (!list) return undefined;
  const types = new Set(list.map(literalType));
  const type = types.size === 1 ? [...types][0] : undefined;
  return type ? { type, enum: list } : { enum: list };
}

/** The schema of a chain's base call (`z.string()`, `z.enum([...])`, …). */
function baseSchema(link: Link, reader: Reader, path: string): Read {
  const [first, second] = link.args;
  const constant = (node: Node | undefined) =>
    literalValue(node, reader.resolve)?.value;
  const ok = (schema: Schema): Read => ({ schema, optional: false });
  switch (link.name) {
    case "string":
    case "number":
    case "boolean":
      return ok({ type: link.name });
    case "int":
      return ok({ type: "integer", minimum: -SAFE_INT, maximum: SAFE_INT });
    case "any":
    case "unknown":
      return ok({});
    case "literal": {
      const value = constant(first);
      if (Array.isArray(value)) {
        return ok({ type: literalType(value[0]), enum: value });
      }
      if (value === undefined) break;
      return ok({ type: literalType(value), const: value });
    }
    case "enum":
    case "nativeEnum": {
      const schema = enumSchema(constant(first));
      if (!schema) {
        return failed(
          link.node,
          `\`${link.name}(…)\` takes values computed at run time`,
        );
      }
      return ok(schema);
    }
    case "array": {
      if (!first) break;
      const items = zodSchema(first, reader, `${path}[]`);
      if ("failed" in items) return { ...items, optional: false };
      return ok({ type: "array", items: items.schema });
    }
    case "object": {
      const shape = unwrap(first);
      if (shape?.type !== "ObjectExpression") break;
      return ok(objectSchema(shape, reader, `${path}.`));
    }
    case "record": {
      const value = second ?? first;
      if (!value) break;
      const inner = zodSchema(value, reader, `${path}{}`);
      if ("failed" in inner) return { ...inner, optional: false };
      const keys = second ? zodSchema(first, reader, `${path}{}`) : undefined;
      return ok({
        type: "object",
        propertyNames: keys && "schema" in keys
          ? keys.schema
          : { type: "string" },
        additionalProperties: inner.schema,
      });
    }
    case "union": {
      const options = unwrap(first);
      if (options?.type !== "ArrayExpression") break;
      const anyOf: Schema[] = [];
      for (const option of options.elements as Node[]) {
        const read = zodSchema(option, reader, path);
        if ("failed" in read) return { ...read, optional: false };
        anyOf.push(read.schema);
      }
      return ok({ anyOf });
    }
  }
  return failed(link.node, `\`${link.name}(…)\` is not read from the source`);
}

/** Sets a bound (`min`/`max`) in the keyword that fits the schema's type. */
function bound(schema: Schema, which: "min" | "max", value: number): void {
  const key = schema.type === "string"
    ? (which === "min" ? "minLength" : "maxLength")
    : schema.type === "array"
    ? (which === "min" ? "minItems" : "maxItems")
    : (which === "min" ? "minimum" : "maximum");
  schema[key] = value;
}

/** Sets an exclusive bound, in place of an int's default bound. */
function exclusive(
  schema: Schema,
  which: "min" | "max",
  value: number,
): Schema {
  const out = { ...schema };
  if (which === "min") {
    if (out.minimum === -SAFE_INT) delete out.minimum;
    out.exclusiveMinimum = value;
  } else {
    if (out.maximum === SAFE_INT) delete out.maximum;
    out.exclusiveMaximum = value;
  }
  return out;
}

/** Applies the method `link` of a chain to `current`; `say` reports what it cannot read. */
function applyMethod(
  current: { schema: Schema; optional: boolean },
  link: Link,
  reader: Reader,
  say: (message: string) => void,
): { schema: Schema; optional: boolean } {
  let { schema, optional } = current;
  const value = literalValue(link.args[0], reader.resolve)?.value;
  const number = typeof value === "number" ? value : undefined;
  const needs = (what: string) =>
    say(`.${link.name}() needs ${what} to be read: check parameters by hand`);
  switch (link.name) {
    case "optional":
      return { schema, optional: true };
    case "nullable":
    case "nullish":
      return {
        schema: { anyOf: [schema, { type: "null" }] },
        optional: optional || link.name === "nullish",
      };
    case "describe":
      if (typeof value === "string") schema = { description: value, ...schema };
      else needs("a constant text");
      return { schema, optional };
    case "default":
      if (value === undefined) needs("a constant value");
      else schema = { default: value, ...schema };
      return { schema, optional: true };
    case "int": {
      // zod bounds an int to the safe integers unless a bound is tighter.
      const out: Schema = { ...schema, type: "integer" };
      if (out.minimum === undefined && out.exclusiveMinimum === undefined) {
        out.minimum = -SAFE_INT;
      }
      if (out.maximum === undefined && out.exclusiveMaximum === undefined) {
        out.maximum = SAFE_INT;
      }
      return { schema: out, optional };
    }
    case "min":
    case "gte":
    case "max":
    case "lte":
    case "length":
      if (number === undefined) {
        needs("a constant number");
        return current;
      }
      schema = { ...schema };
      if (link.name !== "max" && link.name !== "lte") {
        bound(schema, "min", number);
      }
      if (link.name !== "min" && link.name !== "gte") {
        bound(schema, "max", number);
      }
      return { schema, optional };
    case "gt":
    case "positive":
      if (link.name === "gt" && number === undefined) {
        needs("a constant number");
        return current;
      }
      return { schema: exclusive(schema, "min", number ?? 0), optional };
    case "lt":
    case "negative":
      if (link.name === "lt" && number === undefined) {
        needs("a constant number");
        return current;
      }
      return { schema: exclusive(schema, "max", number ?? 0), optional };
    case "nonnegative":
      return { schema: { ...schema, minimum: 0 }, optional };
    case "nonpositive":
      return { schema: { ...schema, maximum: 0 }, optional };
    case "url":
      return { schema: { ...schema, format: "uri" }, optional };
    case "regex": {
      const regex = unwrap(link.args[0]);
      if (regex?.type === "RegExpLiteral") {
        return { schema: { ...schema, pattern: regex.pattern }, optional };
      }
      needs("a regular expression literal");
      return current;
    }
    case "trim":
    case "toLowerCase":
    case "toUpperCase":
      return current;
  }
  say(
    `zod's \`.${link.name}()\` is not read from the source: check parameters by hand`,
  );
  return current;
}

/** Whether the chain's links after the base make the value optional, and its description. */
function afterBase(
  links: readonly Link[],
  reader: Reader,
): { optional: boolean; description?: string } {
  let optional = false;
  let description: string | undefined;
  for (const link of links) {
    if (["optional", "default", "nullish"].includes(link.name)) optional = true;
    if (link.name === "describe") {
      const value = literalValue(link.args[0], reader.resolve)?.value;
      if (typeof value === "string") description = value;
    }
  }
  return { optional, description };
}

/**
 * The JSON Schema of the zod expression of the argument `path`, or where
 * reading it stopped (with whether the chain makes it optional).
 */
function zodSchema(expr: Node, reader: Reader, path: string): Read & {
  description?: string;
} {
  const chain = chainOf(expr, reader);
  if (!chain) return failed(expr, "it is not a zod chain the source shows");
  const base = baseSchema(chain[0], reader, path);
  if ("failed" in base) {
    // A method that could not be read inside stays reported there.
    return { ...base, ...afterBase(chain.slice(1), reader) };
  }
  let read: { schema: Schema; optional: boolean } = base;
  for (const link of chain.slice(1)) {
    read = applyMethod(
      read,
      link,
      reader,
      (message) =>
        reader.report(link.node, `the argument "${path}": ${message}`),
    );
  }
  return read;
}

/**
 * The object schema of a `{ key: zod, … }` literal. An argument that
 * cannot be read keeps its place as any value (`{}`, with its description
 * when the chain has one) and stays required unless the chain makes it
 * optional, so a call without it is still refused; a note names it.
 */
function objectSchema(shape: Node, reader: Reader, prefix: string): Schema {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const prop of shape.properties as Node[]) {
    const key = prop.type === "ObjectProperty" && !prop.computed
      ? keyName(prop.key)
      : undefined;
    if (key === undefined) {
      reader.report(
        prop,
        `cannot read this entry of ${
          prefix ? `the argument "${prefix.slice(0, -1)}"` : "args"
        } (a spread or computed key): its arguments are missing from parameters; write them by hand`,
      );
      continue;
    }
    const path = `${prefix}${key}`;
    const read = zodSchema(prop.value, reader, path);
    if ("failed" in read) {
      properties[key] = read.description
        ? { description: read.description }
        : {};
      reader.report(
        read.failed.node,
        `the argument "${path}" cannot be read from the source (${read.failed.what}): parameters take any value for it${
          read.optional ? "" : " and keep it required"
        }, where zod checks it; write its JSON Schema by hand`,
      );
    } else properties[key] = read.schema;
    if (!read.optional) required.push(key);
  }
  const schema: Schema = { type: "object", properties };
  if (required.length > 0) schema.required = required;
  return schema;
}

/**
 * The `parameters` of a tool whose `args` is the expression `args` (or
 * absent), read from the source: a zod shape gives zod's input schema, a
 * shape of plain JSON Schema objects gives opencode's reading of those (every
 * key required). `zodNames` are the local names of zod (`z` and its
 * aliases) and of the plugin (`tool`, as `tool.schema`); `resolve` gives
 * the value of a top-level constant.
 */
export function sourceParameters(
  args: Node | undefined,
  resolve: Resolve,
  zodNames: ReadonlySet<string>,
  report: Report,
): Schema {
  let shape = unwrap(args);
  for (let hops = 0; shape?.type === "Identifier" && hops < 16; hops++) {
    shape = unwrap(resolve(shape.name));
  }
  if (!shape) {
    return { $schema: JSON_SCHEMA_DRAFT, type: "object", properties: {} };
  }
  if (shape.type !== "ObjectExpression") {
    report(
      args!,
      "args is not an object literal: write parameters as JSON Schema by hand",
    );
    return { type: "object", properties: {} };
  }
  const raw = literalValue(shape, resolve)?.value as
    | Record<string, unknown>
    | undefined;
  if (
    raw && Object.keys(raw).length > 0 &&
    Object.values(raw).every((v) => v && typeof v === "object")
  ) {
    return { type: "object", properties: raw, required: Object.keys(raw) };
  }
  const schema = objectSchema(shape, { zod: zodNames, resolve, report }, "");
  return { $schema: JSON_SCHEMA_DRAFT, ...schema };
}
