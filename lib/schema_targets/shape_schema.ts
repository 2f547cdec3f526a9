/**
 * Checks a tool's `parameters` against one provider's rules and builds the
 * schema the daemon serves for that provider: every rewrite is one that
 * keeps the arguments a tool receives valid under its own schema (what is
 * dropped only narrows the valid values, and the host checks the
 * arguments against the tool's schema on such calls), and
 * `restore` maps the provider's arguments back (OpenAI strict mode's
 * `null` for a left-out property becomes absent again).
 *
 * @module
 */

import {
  SCHEMA_RULES,
  type SchemaRuleId,
  type Target,
  TARGET_NAMES,
} from "./rules.ts";

/** One thing a provider refuses in a tool's parameters. */
export interface SchemaFinding {
  /** The provider. */
  target: Target;
  /** The rule of {@linkcode SCHEMA_RULES} it breaks. */
  rule: SchemaRuleId;
  /** Where in `parameters`, as a JSON pointer (`""` is the whole schema). */
  pointer: string;
  /** What the provider refuses, naming the provider. */
  problem: string;
  /** What to change. */
  fix: string;
  /** Whether the schema the daemon serves for the provider has it rewritten away. */
  rewritten: boolean;
}

/** A tool's parameters as one provider accepts them. */
export interface ShapedSchema {
  /** The provider. */
  target: Target;
  /** The schema to give the provider (the tool's own when nothing changed). */
  parameters: Record<string, unknown>;
  /** Everything the provider refuses in the tool's schema, rewritten or not. */
  findings: SchemaFinding[];
  /** Turns arguments the provider's model sent for `parameters` into the tool's. */
  restore(args: Record<string, unknown>): Record<string, unknown>;
}

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Keywords that say something about a value only to a reader. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "examples",
  "example",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$schema",
  "$id",
  "default",
]);

/** The keywords that narrow values which OpenAI's strict mode supports. */
const STRICT_ASSERTIONS = [
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
];

/**
 * Keywords that only narrow which values are valid: a schema without them
 * accepts more, and the host still checks them against the tool's schema.
 */
const ASSERTIONS = new Set([
  "minLength",
  "maxLength",
  ...STRICT_ASSERTIONS,
  "uniqueItems",
  "contains",
  "minContains",
  "maxContains",
  "minProperties",
  "maxProperties",
  "propertyNames",
  "patternProperties",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "not",
  "if",
  "then",
  "else",
  "const",
  "enum",
  "required",
  "unevaluatedProperties",
  "unevaluatedItems",
  "additionalItems",
  "additionalProperties",
]);

const COMBINATORS = ["anyOf", "oneOf", "allOf"] as const;

/** The keywords of Gemini's `Schema` object. */
const GEMINI_KEYWORDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);

const GEMINI_FORMATS: Record<string, readonly string[]> = {
  string: ["enum", "date-time"],
  number: ["float", "double"],
  integer: ["int32", "int64"],
};

const GEMINI_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * The keywords OpenAI's strict mode supports, and the annotations it is
 * not documented to refuse (`default` is: it answers "'default' is not
 * permitted").
 */
const STRICT_KEYWORDS = new Set([
  ...[...ANNOTATIONS].filter((keyword) => keyword !== "default"),
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "const",
  "anyOf",
  "$ref",
  "$defs",
  "definitions",
  ...STRICT_ASSERTIONS,
]);

const STRICT_FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

const STRICT_MAX_DEPTH = 10;
const STRICT_MAX_ENUM = 1000;

/** Whether `schema` holds only annotations and keywords that narrow values. */
function narrowsOnly(schema: unknown): boolean {
  if (typeof schema === "boolean") return true;
  if (!isObject(schema)) return false;
  return Object.keys(schema).every((key) =>
    ANNOTATIONS.has(key) || ASSERTIONS.has(key)
  );
}

/** Whether a combinator's branches only narrow values (e.g. `anyOf: [{ required: ["a"] }, ...]`). */
function branchesNarrowOnly(value: unknown): boolean {
  return Array.isArray(value) && value.every(narrowsOnly);
}

function types(schema: Schema): string[] {
  const type = schema.type;
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t) => typeof t === "string");
  return [];
}

/** Whether `schema` lets `null` through. */
function acceptsNull(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isObject(schema)) return false;
  if (types(schema).includes("null") || schema.nullable === true) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  if ("const" in schema) return schema.const === null;
  for (const key of ["anyOf", "oneOf"]) {
    const branches = schema[key];
    if (Array.isArray(branches)) return branches.some(acceptsNull);
  }
  return schema.type === undefined && schema.$ref === undefined &&
    schema.allOf === undefined && schema.not === undefined;
}

/** Whether `schema` describes objects. */
function isObjectSchema(schema: Schema): boolean {
  return types(schema).includes("object") || isObject(schema.properties);
}

/** Whether an object schema takes keys it does not list (a map, a free-form object). */
function isOpenObject(schema: Schema): boolean {
  const extra = schema.additionalProperties;
  if (isObject(extra) || extra === true) return true;
  return !isObject(schema.properties) && extra !== false;
}

/** `schema` that also accepts `null`. */
function withNull(schema: Schema): Schema {
  const list = types(schema);
  if (Array.isArray(schema.anyOf)) {
    return { ...schema, anyOf: [...schema.anyOf, { type: "null" }] };
  }
  if (list.length > 0 && schema.$ref === undefined) {
    const out: Schema = { ...schema, type: [...list, "null"] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    if ("const" in schema) {
      out.enum = [schema.const, null];
      delete out.const;
    }
    return out;
  }
  return { anyOf: [schema, { type: "null" }] };
}

function pointerTo(pointer: string, key: string): string {
  return `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}

/** How to turn the provider's arguments for one object back into the tool's. */
interface Restorer {
  /** Properties made required and nullable: `null` means left out. */
  nullMeansAbsent: Set<string>;
  /** What to do inside each property's value. */
  properties: Map<string, Restorer>;
  /** What to do inside each element of an array. */
  items?: Restorer;
}

function restoreWith(restorer: Restorer | undefined, value: unknown): unknown {
  if (!restorer) return value;
  if (Array.isArray(value)) {
    return restorer.items
      ? value.map((element) => restoreWith(restorer.items, element))
      : value;
  }
  if (!isObject(value)) return value;
  const out: Schema = {};
  for (const [key, inner] of Object.entries(value)) {
    if (inner === null && restorer.nullMeansAbsent.has(key)) continue;
    out[key] = restoreWith(restorer.properties.get(key), inner);
  }
  return out;
}

/** Where a schema sits, as the rules care. */
interface Place {
  /** Its JSON pointer. */
  pointer: string;
  /** How many objects enclose it. */
  depth: number;
  /** Inside a combinator, a definition or a conditional: arguments cannot be mapped back there. */
  branch: boolean;
}

class Shaper {
  readonly findings: SchemaFinding[] = [];
  #deep = false;

  readonly target: Target;

  constructor(target: Target) {
    this.target = target;
  }

  find(
    rule: SchemaRuleId,
    pointer: string,
    rewritten: boolean,
    fill: Record<string, string> = {},
  ): void {
    const { refuses, fix } = SCHEMA_RULES[rule];
    const what = refuses.replace(/\{(\w+)\}/g, (_, key) => fill[key] ?? key);
    this.findings.push({
      target: this.target,
      rule,
      pointer,
      problem: `${TARGET_NAMES[this.target]} refuses ${what}`,
      fix,
      rewritten,
    });
  }

  /** The root: the rules on the top level, then the whole schema. */
  root(schema: Schema): { schema: Schema; restorer?: Restorer } {
    let top: Schema = { ...schema };
    const typeList = types(top);
    if (top.type === undefined && isObject(top.properties)) {
      // Arguments are always an object: saying so changes nothing.
      this.find("root_object", "", true);
      top.type = "object";
    } else if (typeList.length !== 1 || typeList[0] !== "object") {
      this.find("root_object", "", false);
    }
    if (this.target !== "gemini") {
      for (const keyword of COMBINATORS) {
        if (top[keyword] === undefined) continue;
        const safe = branchesNarrowOnly(top[keyword]);
        this.find("root_combinator", pointerTo("", keyword), safe, {
          keyword,
        });
        if (safe) {
          const { [keyword]: _dropped, ...rest } = top;
          top = rest;
        }
      }
    }
    if (this.target === "openai" || this.target === "anthropic") {
      // Their own subset is JSON Schema: only arrays need a look further down.
      if (this.target === "openai") this.#arrays(top, "");
      return { schema: top };
    }
    const restorer: Restorer = this.#emptyRestorer();
    const out = this.node(
      top,
      { pointer: "", depth: 0, branch: false },
      restorer,
    );
    return { schema: out as Schema, restorer };
  }

  #emptyRestorer(): Restorer {
    return { nullMeansAbsent: new Set(), properties: new Map() };
  }

  /** Non-strict OpenAI: every array says what its elements are. */
  #arrays(schema: unknown, pointer: string): void {
    if (!isObject(schema)) return;
    if (types(schema).includes("array") && schema.items === undefined) {
      this.find("array_items", pointer, false);
    }
    for (const [key, value] of Object.entries(schema)) {
      if (
        isObject(value) && ["properties", "$defs", "definitions"].includes(key)
      ) {
        for (const [name, inner] of Object.entries(value)) {
          this.#arrays(inner, pointerTo(pointerTo(pointer, key), name));
        }
      } else if (
        Array.isArray(value) && (COMBINATORS as readonly string[]).includes(key)
      ) {
        value.forEach((inner, i) =>
          this.#arrays(inner, pointerTo(pointerTo(pointer, key), String(i)))
        );
      } else if (key === "items" || key === "additionalProperties") {
        this.#arrays(value, pointerTo(pointer, key));
      }
    }
  }

  /**
   * One schema, rewritten for Gemini or OpenAI's strict mode; `restorer`
   * (the enclosing object's, or undefined where arguments cannot be
   * mapped back) learns about what the rewrite makes nullable.
   */
  node(schema: unknown, place: Place, restorer?: Restorer): unknown {
    if (!isObject(schema)) return schema;
    return this.target === "gemini"
      ? this.#gemini(schema, place)
      : this.#strict(schema, place, restorer);
  }

  #children(
    schema: Schema,
    out: Schema,
    place: Place,
    restorer: Restorer | undefined,
  ): void {
    const { pointer } = place;
    const isObjectNode = isObject(schema.properties);
    const depth = place.depth + (isObjectNode ? 1 : 0);
    // A value's arguments map back when a rewrite inside it needs it.
    const child = (inner: unknown, at: string): [unknown, Restorer?] => {
      const own = restorer ? this.#emptyRestorer() : undefined;
      const shaped = this.node(inner, {
        pointer: at,
        depth,
        branch: place.branch,
      }, own);
      const needed = own &&
        (own.nullMeansAbsent.size > 0 || own.properties.size > 0 || own.items);
      return [shaped, needed ? own : undefined];
    };
    if (isObject(schema.properties)) {
      const properties: Schema = {};
      for (const [name, inner] of Object.entries(schema.properties)) {
        const [shaped, own] = child(
          inner,
          pointerTo(pointerTo(pointer, "properties"), name),
        );
        properties[name] = shaped;
        if (own) restorer!.properties.set(name, own);
      }
      out.properties = properties;
    }
    if (isObject(schema.items)) {
      const [shaped, own] = child(schema.items, pointerTo(pointer, "items"));
      out.items = shaped;
      if (own) restorer!.items = own;
    }
    for (const keyword of COMBINATORS) {
      const branches = out[keyword];
      if (!Array.isArray(branches)) continue;
      // With one object branch among others, an object value is that
      // branch's: its arguments map back as the enclosing value's.
      const objects = branches.filter((b) => isObject(b) && isObjectSchema(b));
      const sole = keyword === "anyOf" && objects.length === 1 &&
        !isObject(schema.properties);
      out[keyword] = branches.map((inner, i) => {
        const own = sole && inner === objects[0];
        return this.node(inner, {
          pointer: pointerTo(pointerTo(pointer, keyword), String(i)),
          depth,
          branch: own ? place.branch : true,
        }, own ? restorer : undefined);
      });
    }
    for (const keyword of ["$defs", "definitions"]) {
      const definitions = out[keyword];
      if (!isObject(definitions)) continue;
      out[keyword] = Object.fromEntries(
        Object.entries(definitions).map(([name, inner]) => [
          name,
          this.node(inner, {
            pointer: pointerTo(pointerTo(pointer, keyword), name),
            depth: 0,
            branch: true,
          }),
        ]),
      );
    }
  }

  /** Drops `keyword` from `out` when only narrowing, else reports it kept. */
  #dropOrKeep(
    out: Schema,
    keyword: string,
    rule: SchemaRuleId,
    pointer: string,
  ): void {
    const value = out[keyword];
    const safe = ANNOTATIONS.has(keyword) || ASSERTIONS.has(keyword) ||
      ((COMBINATORS as readonly string[]).includes(keyword) &&
        branchesNarrowOnly(value));
    this.find(rule, pointerTo(pointer, keyword), safe, { keyword });
    if (safe) delete out[keyword];
  }

  #strict(schema: Schema, place: Place, restorer?: Restorer): Schema {
    const { pointer } = place;
    const out: Schema = { ...schema };
    if (out.oneOf !== undefined && out.anyOf === undefined) {
      // The host still checks that exactly one branch matches.
      this.find("strict_keyword", pointerTo(pointer, "oneOf"), true, {
        keyword: "oneOf",
      });
      out.anyOf = out.oneOf;
      delete out.oneOf;
    }
    for (const keyword of Object.keys(out)) {
      if (!STRICT_KEYWORDS.has(keyword)) {
        this.#dropOrKeep(out, keyword, "strict_keyword", pointer);
      }
    }
    if (typeof out.format === "string" && !STRICT_FORMATS.has(out.format)) {
      this.find("strict_format", pointerTo(pointer, "format"), true, {
        value: JSON.stringify(out.format),
      });
      delete out.format;
    }
    if (Array.isArray(out.enum) && out.enum.length > STRICT_MAX_ENUM) {
      this.find("strict_enum_size", pointerTo(pointer, "enum"), false);
    }
    const isObjectNode = isObjectSchema(out);
    if (types(out).includes("array") && out.items === undefined) {
      this.find("array_items", pointer, false);
    }
    if (isObjectNode) {
      if (place.depth >= STRICT_MAX_DEPTH && !this.#deep) {
        this.#deep = true;
        this.find("strict_depth", pointer, false);
      }
      if (isOpenObject(out)) {
        this.find("strict_open_object", pointer, false);
      } else if (out.additionalProperties !== false) {
        // Closing the object only refuses keys the tool never declared.
        this.find("strict_closed_object", pointer, true);
        out.additionalProperties = false;
      }
    }
    if (Array.isArray(out.anyOf)) {
      const branches = out.anyOf as unknown[];
      const open = branches.map((branch) =>
        isObject(branch) && isObjectSchema(branch) && isOpenObject(branch)
      );
      if (open.includes(true) && open.includes(false)) {
        // Fewer alternatives only narrow the value; the model keeps the others.
        open.forEach((isOpen, i) => {
          if (isOpen) {
            this.find(
              "strict_open_object",
              pointerTo(pointerTo(pointer, "anyOf"), String(i)),
              true,
            );
          }
        });
        out.anyOf = branches.filter((_, i) => !open[i]);
      }
    }
    this.#children(schema, out, place, restorer);
    if (isObject(out.properties) && isObject(schema.properties)) {
      const required = new Set(
        Array.isArray(schema.required) ? schema.required : [],
      );
      const properties = out.properties;
      for (const [name, inner] of Object.entries(schema.properties)) {
        if (required.has(name)) continue;
        const at = pointerTo(pointerTo(pointer, "properties"), name);
        if (acceptsNull(inner)) {
          this.find("strict_nullable_optional", at, false);
        } else if (!restorer || place.branch) {
          this.find("strict_required", at, false);
        } else {
          this.find("strict_required", at, true);
          properties[name] = withNull(properties[name] as Schema);
          restorer.nullMeansAbsent.add(name);
          required.add(name);
        }
      }
      out.required = Object.keys(properties).filter((name) =>
        required.has(name)
      );
    }
    return out;
  }

  #gemini(schema: Schema, place: Place): Schema {
    const { pointer } = place;
    let out: Schema = { ...schema };
    for (const keyword of ["$ref", "$defs", "definitions", "allOf"]) {
      if (out[keyword] === undefined) continue;
      if (keyword === "allOf") {
        this.#dropOrKeep(out, keyword, "gemini_keyword", pointer);
      } else {
        this.find("gemini_ref", pointerTo(pointer, keyword), false, {
          keyword,
        });
      }
    }
    for (const keyword of ["anyOf", "oneOf"]) {
      if (out[keyword] === undefined || !branchesNarrowOnly(out[keyword])) {
        continue;
      }
      // Branches without a type that only narrow the value: the host checks them.
      this.find("gemini_type", pointerTo(pointer, keyword), true);
      delete out[keyword];
    }
    if (out.oneOf !== undefined && out.anyOf === undefined) {
      this.find("gemini_one_of", pointerTo(pointer, "oneOf"), true);
      out.anyOf = out.oneOf;
      delete out.oneOf;
    }
    if (Array.isArray(out.type)) {
      const list = types(out);
      const others = list.filter((t) => t !== "null");
      const safe = others.length === 1 && list.length === 2;
      this.find("gemini_type_list", pointerTo(pointer, "type"), safe, {
        value: JSON.stringify(out.type),
      });
      if (safe) {
        out.type = others[0];
        out.nullable = true;
      }
    }
    if ("const" in out) {
      const value = out.const;
      this.find("gemini_const", pointerTo(pointer, "const"), true);
      delete out.const;
      if (typeof value === "string" && out.enum === undefined) {
        out.enum = [value];
        out.type ??= "string";
      }
    }
    const type = typeof out.type === "string" ? out.type : undefined;
    if (out.enum !== undefined) {
      const strings = Array.isArray(out.enum) &&
        out.enum.every((v) => typeof v === "string");
      if (!strings || (type !== undefined && type !== "string")) {
        this.find("gemini_enum", pointerTo(pointer, "enum"), true);
        delete out.enum;
      } else out.type ??= "string";
    }
    if (type !== undefined && type !== "object") {
      for (const keyword of ["properties", "required"]) {
        if (out[keyword] === undefined) continue;
        this.find("gemini_object_keyword", pointerTo(pointer, keyword), true, {
          keyword,
        });
        delete out[keyword];
      }
    }
    if (isObject(out.properties)) {
      for (const name of Object.keys(out.properties)) {
        if (!GEMINI_NAME.test(name)) {
          this.find(
            "gemini_property_name",
            pointerTo(pointerTo(pointer, "properties"), name),
            false,
            { name: JSON.stringify(name) },
          );
        }
      }
      if (Object.keys(out.properties).length === 0) {
        this.find(
          "gemini_empty_properties",
          pointerTo(pointer, "properties"),
          true,
        );
        const { properties: _p, required: _r, ...rest } = out;
        out = rest;
      }
    }
    if (typeof out.format === "string") {
      const allowed = GEMINI_FORMATS[type ?? ""] ?? [];
      if (!allowed.includes(out.format)) {
        this.find("gemini_format", pointerTo(pointer, "format"), true, {
          value: JSON.stringify(out.format),
        });
        delete out.format;
      }
    }
    if (type === "array" && out.items === undefined) {
      this.find("array_items", pointer, false);
    }
    if (out.type === undefined && out.anyOf === undefined) {
      this.find("gemini_type", pointer, false);
    }
    for (const keyword of Object.keys(out)) {
      if (GEMINI_KEYWORDS.has(keyword)) continue;
      if (["$ref", "$defs", "definitions", "allOf"].includes(keyword)) continue;
      this.#dropOrKeep(out, keyword, "gemini_keyword", pointer);
    }
    this.#children(out, out, place, undefined);
    return out;
  }
}

/**
 * Checks `parameters` against `target`'s documented rules and shapes it
 * for that provider.
 *
 * @returns The schema to give the provider, what it refuses in the tool's
 * schema (each finding says whether the shaped schema still has it), and
 * the mapping of the provider's arguments back to the tool's.
 *
 * @example Gemini has no "const": the served schema says "enum"
 * ```ts
 * import assert from "node:assert/strict";
 * import { shapeSchema } from "./shape_schema.ts";
 *
 * const shaped = shapeSchema({
 *   type: "object",
 *   properties: { unit: { const: "km" } },
 * }, "gemini");
 * assert.deepEqual(shaped.parameters.properties, {
 *   unit: { enum: ["km"], type: "string" },
 * });
 * assert.equal(shaped.findings[0].problem, 'Gemini refuses the keyword "const"');
 * ```
 */
export function shapeSchema(
  parameters: Record<string, unknown>,
  target: Target,
): ShapedSchema {
  const shaper = new Shaper(target);
  const { schema, restorer } = shaper.root(parameters);
  shaper.findings.sort((a, b) =>
    a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0
  );
  const changed = shaper.findings.some((finding) => finding.rewritten);
  return {
    target,
    parameters: changed ? schema : parameters,
    findings: shaper.findings,
    restore: (args) =>
      changed && restorer
        ? restoreWith(restorer, args) as Record<string, unknown>
        : args,
  };
}
