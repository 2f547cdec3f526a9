/**
 * Compiling tools' `parameters` with Ajv, under the JSON Schema draft the
 * schema declares: the load check, the defaults filled in before a call and
 * the opt-in argument validation. Schemas that differ only in annotations
 * (`description`, `title`, …) validate alike, so they share one compiled
 * validator: most of a project's schemas then compile once.
 *
 * @module
 */

import { Ajv } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";

/** A compiled validator: `errors` holds Ajv's errors after a failed call. */
type Validator = ((data: unknown) => boolean) & { errors?: unknown };

/**
 * What a tool's arguments go through before `execute`: the schema's
 * defaults filled in (on a copy), and the check when validation is on.
 */
export type PrepareArgs = (
  args: unknown,
  validate: boolean,
) => { ok: true; args: unknown } | { ok: false; error: string };

/** The drafts the host validates, and the `$schema` that names each. */
const DRAFTS = {
  "draft-07": "http://json-schema.org/draft-07/schema#",
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
} as const;

type Draft = keyof typeof DRAFTS;

/** `uri` without its scheme's `s` and an empty fragment, as it is compared. */
function uriKey(uri: string): string {
  return uri.replace(/^https:/, "http:").replace(/#$/, "");
}

const BY_URI = new Map<string, Draft>(
  Object.entries(DRAFTS).map(([draft, uri]) => [uriKey(uri), draft as Draft]),
);

/** A `$schema` naming a draft the host does not validate. */
export class UnknownDraftError extends Error {}

/**
 * The draft `schema` declares by `$schema` (draft-07 without one); throws
 * an {@linkcode UnknownDraftError} saying what to change for a draft the
 * host does not validate.
 */
function draftOf(schema: Record<string, unknown>): Draft {
  const declared = schema.$schema;
  if (declared === undefined) return "draft-07";
  const draft = typeof declared === "string"
    ? BY_URI.get(uriKey(declared))
    : undefined;
  if (draft) return draft;
  const known = Object.values(DRAFTS).map((uri) => `"${uri}"`);
  throw new UnknownDraftError(
    `parameters declares "$schema": ${
      JSON.stringify(declared)
    }, a JSON Schema draft the host does not validate: declare ${
      known.slice(0, -1).join(", ")
    } or ${known.at(-1)}, or leave "$schema" out for draft-07`,
  );
}

const ANNOTATIONS = new Set([
  "description",
  "title",
  "examples",
  "$comment",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** Keywords whose value is a map of names to schemas. */
const SCHEMA_MAPS = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);

/** Keywords whose value is a schema or a list of schemas. */
const SCHEMA_VALUES = new Set([
  "items",
  "prefixItems",
  "additionalItems",
  "additionalProperties",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "allOf",
  "anyOf",
  "oneOf",
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `schema` without annotation keywords, at schema positions only. */
function withoutAnnotations(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutAnnotations);
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, withoutAnnotations(v)]),
      );
    } else if (SCHEMA_VALUES.has(key)) {
      out[key] = withoutAnnotations(value);
    } else out[key] = value;
  }
  return out;
}

/** Whether `schema` has a `default` keyword at a schema position. */
function hasDefaults(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(hasDefaults);
  if (!isObject(schema)) return false;
  if ("default" in schema) return true;
  return Object.entries(schema).some(([key, value]) =>
    SCHEMA_MAPS.has(key) && isObject(value)
      ? Object.values(value).some(hasDefaults)
      : SCHEMA_VALUES.has(key) && hasDefaults(value)
  );
}

/** How deep {@linkcode copyOf} copies: below, a cycle's parts are shared. */
const COPY_DEPTH = 100;

/**
 * A copy of `value`'s arrays and plain objects, for filling in defaults:
 * strings and other values are shared, so a long text costs nothing.
 */
function copyOf(value: unknown, depth = 0): unknown {
  if (typeof value !== "object" || value === null || depth > COPY_DEPTH) {
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => copyOf(v, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = { ...value };
  for (const key of Object.keys(out)) {
    const item = out[key];
    if (typeof item === "object" && item !== null) {
      out[key] = copyOf(item, depth + 1);
    }
  }
  return out;
}

function newAjv(draft: Draft): Ajv | Ajv2019 | Ajv2020 {
  const options = {
    strict: false,
    allErrors: true,
    useDefaults: true,
    validateFormats: false,
    validateSchema: false,
    addUsedSchema: false,
  };
  if (draft === "2020-12") return new Ajv2020(options);
  if (draft === "2019-09") return new Ajv2019(options);
  return new Ajv(options);
}

/**
 * A compiler with a cache keyed by the draft and the schema without its
 * annotations. It throws when the schema does not compile or declares a
 * draft the host does not validate. What it gives returns the arguments
 * as they came when there is nothing to do (no defaults, validation off).
 */
export function schemaCompiler(): (
  schema: Record<string, unknown>,
) => PrepareArgs {
  const ajvs = new Map<Draft, Ajv | Ajv2019 | Ajv2020>();
  const cache = new Map<string, { check: Validator; defaults: boolean }>();
  return (schema) => {
    const draft = draftOf(schema);
    const { $schema: _draft, ...rest } = schema;
    const key = `${draft} ${JSON.stringify(withoutAnnotations(rest))}`;
    let compiled = cache.get(key);
    if (!compiled) {
      let ajv = ajvs.get(draft);
      if (!ajv) ajvs.set(draft, ajv = newAjv(draft));
      const bare = JSON.parse(key.slice(key.indexOf(" ") + 1));
      compiled = {
        check: ajv.compile(bare) as Validator,
        defaults: hasDefaults(bare),
      };
      cache.set(key, compiled);
    }
    const { check, defaults } = compiled;
    return (args, validate) => {
      if (!defaults && !validate) return { ok: true, args };
      const filled = defaults ? copyOf(args) : args;
      if (check(filled) || !validate) return { ok: true, args: filled };
      return { ok: false, error: argumentErrors(check.errors) };
    };
  };
}

/** Ajv's errors as one message naming each field. */
export function argumentErrors(errors: unknown): string {
  const list = Array.isArray(errors) ? errors : [];
  const parts = list.map((e: Record<string, unknown>) => {
    const params = (e.params ?? {}) as Record<string, unknown>;
    const path = String(e.instancePath ?? "").replace(/^\//, "").replaceAll(
      "/",
      ".",
    );
    if (e.keyword === "required") {
      const field = path
        ? `${path}.${params.missingProperty}`
        : String(params.missingProperty);
      return `missing required field "${field}"`;
    }
    if (e.keyword === "additionalProperties") {
      const field = path
        ? `${path}.${params.additionalProperty}`
        : String(params.additionalProperty);
      return `unknown field "${field}"`;
    }
    if (e.keyword === "enum" && Array.isArray(params.allowedValues)) {
      const allowed = params.allowedValues.map((v) => JSON.stringify(v))
        .join(", ");
      return path
        ? `field "${path}" must be one of ${allowed}`
        : `the arguments must be one of ${allowed}`;
    }
    if (e.keyword === "const") {
      const value = JSON.stringify(params.allowedValue);
      return path
        ? `field "${path}" must be ${value}`
        : `the arguments must be ${value}`;
    }
    return path ? `field "${path}" ${e.message}` : `the arguments ${e.message}`;
  });
  return parts.join("; ");
}
