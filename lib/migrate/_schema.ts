/**
 * The fallback of `beeuni tools migrate` for `parameters`: the JSON Schema
 * of a tool's zod `args`, read from the syntax tree, shaped like zod 4's
 * `z.toJSONSchema(z.object(args), { io: "input" })`. Used only when
 * importing the original failed; what it cannot read is reported.
 *
 * @module
 */

import { keyName, type Node, property, unwrap } from "../project/mod.ts";

/** zod 4's `$schema` for `z.toJSONSchema()`. */
export const JSON_SCHEMA_DRAFT = "https://json-schema.org/draft/2020-12/schema";

const SAFE_INT = 9007199254740991;

type Schema = Record<string, unknown>;

/** Reports what cannot be read, at `node`. */
export type Report = (node: Node, message: string) => void;

/** The value of a literal expression, or `undefined` when it is not one. */
export function literalValue(
  expr: Node | undefined,
): { value: unknown } | undefined {
  const node = unwrap(expr);
  if (!node) return undefined;
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
      const inner = literalValue(node.argument);
      if (node.operator === "-" && typeof inner?.value === "number") {
        return { value: -inner.value };
      }
      return undefined;
    }
    case "ArrayExpression": {
      const items: unknown[] = [];
      for (const element of node.elements as (Node | null)[]) {
        const item = literalValue(element ?? undefined);
        if (!item) return undefined;
        items.push(item.value);
      }
      return { value: items };
    }
    case "ObjectExpression": {
      const out: Record<string, unknown> = {};
      for (const prop of node.properties as Node[]) {
        const key = prop.type === "ObjectProperty" && !prop.computed
          ? keyName(prop.key)
          : undefined;
        const value = key === undefined ? undefined : literalValue(prop.value);
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

/** `z.string().min(1)` as its links, base first; undefined when it is not a zod chain. */
function chainOf(
  expr: Node,
  zodNames: ReadonlySet<string>,
): Link[] | undefined {
  const links: Link[] = [];
  let node = unwrap(expr);
  while (node?.type === "CallExpression") {
    const callee = node.callee;
    if (callee.type !== "MemberExpression" || callee.computed) return undefined;
    const name = keyName(callee.property);
    if (!name) return undefined;
    links.unshift({ name, args: node.arguments, node });
    const object = unwrap(callee.object);
    if (isZod(object, zodNames)) return links;
    if (
      object?.type === "MemberExpression" && keyName(object.property) ===
        "coerce" &&
      isZod(object.object, zodNames)
    ) return links;
    node = object;
  }
  return undefined;
}

/** `z` (a zod import) or `tool.schema`. */
function isZod(node: Node | undefined, zodNames: ReadonlySet<string>): boolean {
  const at = unwrap(node);
  if (at?.type === "Identifier") return zodNames.has(at.name);
  return at?.type === "MemberExpression" && !at.computed &&
    keyName(at.property) === "schema" && at.object.type === "Identifier" &&
    zodNames.has(`${at.object.name}.schema`);
}

interface Converted {
  schema: Schema;
  optional: boolean;
}

function literalType(value: unknown): string | undefined {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  return undefined;
}

/** The schema of a chain's base call (`z.string()`, `z.enum([...])`, …). */
function baseSchema(
  link: Link,
  zodNames: ReadonlySet<string>,
  report: Report,
): Converted | undefined {
  const [first, second] = link.args;
  switch (link.name) {
    case "string":
    case "number":
    case "boolean":
      return { schema: { type: link.name }, optional: false };
    case "int":
      return {
        schema: { type: "integer", minimum: -SAFE_INT, maximum: SAFE_INT },
        optional: false,
      };
    case "any":
    case "unknown":
      return { schema: {}, optional: false };
    case "literal": {
      const value = literalValue(first)?.value;
      if (Array.isArray(value)) {
        return {
          schema: { type: literalType(value[0]), enum: value },
          optional: false,
        };
      }
      if (value === undefined) break;
      return {
        schema: { type: literalType(value), const: value },
        optional: false,
      };
    }
    case "enum": {
      const values = literalValue(first)?.value;
      if (!Array.isArray(values)) break;
      return { schema: { type: "string", enum: values }, optional: false };
    }
    case "array": {
      const items = first && zodSchema(first, zodNames, report);
      if (!items) return undefined;
      return {
        schema: { type: "array", items: items.schema },
        optional: false,
      };
    }
    case "object": {
      const shape = unwrap(first);
      if (shape?.type !== "ObjectExpression") break;
      const schema = objectSchema(shape, zodNames, report);
      return schema ? { schema, optional: false } : undefined;
    }
    case "record": {
      const value = second ?? first;
      const inner = value && zodSchema(value, zodNames, report);
      if (!inner) return undefined;
      const keys = second ? zodSchema(first, zodNames, report) : undefined;
      return {
        schema: {
          type: "object",
          propertyNames: keys?.schema ?? { type: "string" },
          additionalProperties: inner.schema,
        },
        optional: false,
      };
    }
    case "union": {
      const options = unwrap(first);
      if (options?.type !== "ArrayExpression") break;
      const anyOf: Schema[] = [];
      for (const option of options.elements as Node[]) {
        const converted = zodSchema(option, zodNames, report);
        if (!converted) return undefined;
        anyOf.push(converted.schema);
      }
      return { schema: { anyOf }, optional: false };
    }
  }
  report(
    link.node,
    `cannot read \`${link.name}(…)\` as a zod schema: write its JSON Schema under parameters by hand`,
  );
  return undefined;
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

/** Applies the method `link` of a chain to `current`. */
function applyMethod(
  current: Converted,
  link: Link,
  report: Report,
): Converted {
  let { schema, optional } = current;
  const value = literalValue(link.args[0])?.value;
  const number = typeof value === "number" ? value : undefined;
  const needs = (what: string) =>
    report(
      link.node,
      `.${link.name}() needs ${what} to be read: check parameters by hand`,
    );
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
      else needs("a literal text");
      return { schema, optional };
    case "default":
      if (value === undefined) needs("a literal value");
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
        needs("a number");
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
    case "lt":
    case "negative": {
      // gt(n) and lt(n) need their number; positive and negative bound at 0.
      const named = link.name === "gt" || link.name === "lt";
      if (named && number === undefined) {
        needs("a number");
        return current;
      }
      const side = link.name === "gt" || link.name === "positive"
        ? "min"
        : "max";
      return { schema: exclusive(schema, side, number ?? 0), optional };
    }
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
  report(
    link.node,
    `zod's \`.${link.name}()\` is not read from the source: check parameters by hand`,
  );
  return current;
}

/** The JSON Schema of one zod expression, or undefined (reported) when it cannot be read. */
function zodSchema(
  expr: Node,
  zodNames: ReadonlySet<string>,
  report: Report,
): Converted | undefined {
  const chain = chainOf(expr, zodNames);
  if (!chain) {
    report(
      expr,
      "this argument is not a zod chain the source shows: write its JSON Schema under parameters by hand",
    );
    return undefined;
  }
  let converted = baseSchema(chain[0], zodNames, report);
  if (!converted) return undefined;
  for (const link of chain.slice(1)) {
    converted = applyMethod(converted, link, report);
  }
  return converted;
}

/** The object schema of a `{ key: zod, … }` literal. */
function objectSchema(
  shape: Node,
  zodNames: ReadonlySet<string>,
  report: Report,
): Schema | undefined {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const prop of shape.properties as Node[]) {
    const key = prop.type === "ObjectProperty" && !prop.computed
      ? keyName(prop.key)
      : undefined;
    if (key === undefined) {
      report(prop, "cannot read this entry of args: write parameters by hand");
      continue;
    }
    const converted = zodSchema(prop.value, zodNames, report);
    if (!converted) continue;
    properties[key] = converted.schema;
    if (!converted.optional) required.push(key);
  }
  const schema: Schema = { type: "object", properties };
  if (required.length > 0) schema.required = required;
  return schema;
}

/**
 * The `parameters` of a tool whose `args` is the expression `args` (or
 * absent), read from the source: a zod shape gives zod's input schema, a
 * shape of plain JSON Schema objects gives opencode's reading of those (every
 * key required). `zodNames` are the local names of zod (`z`) and the plugin
 * (`tool`, as `tool.schema`).
 */
export function sourceParameters(
  args: Node | undefined,
  resolve: (name: string) => Node | undefined,
  zodNames: ReadonlySet<string>,
  report: Report,
): Schema {
  let shape = unwrap(args);
  if (shape?.type === "Identifier") shape = unwrap(resolve(shape.name));
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
  const raw = literalValue(shape)?.value as Record<string, unknown> | undefined;
  if (
    raw && Object.keys(raw).length > 0 &&
    Object.values(raw).every((v) => v && typeof v === "object")
  ) {
    return { type: "object", properties: raw, required: Object.keys(raw) };
  }
  const schema = objectSchema(shape, zodNames, report)!;
  return { $schema: JSON_SCHEMA_DRAFT, ...schema };
}

/** The value node of the property `name` of the tool object, if any. */
export function propertyValue(object: Node, name: string): Node | undefined {
  const prop = property(object, name);
  if (!prop || prop.type !== "ObjectProperty") return undefined;
  return prop.value;
}
