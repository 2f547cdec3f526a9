/**
 * Compiling tools' `parameters` with Ajv: the load check and the
 * opt-in argument validation. Schemas that differ only in annotations
 * (`description`, `title`, …) validate alike, so they share one compiled
 * validator: most of a project's schemas then compile once.
 *
 * @module
 */

import { Ajv } from "ajv";

/** A compiled validator: `errors` holds Ajv's errors after a failed call. */
export type Validator = ((data: unknown) => boolean) & { errors?: unknown };

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

/**
 * A compiler with a cache keyed by the schema without its annotations. A
 * top-level `$schema` is set aside: the check is that the schema compiles
 * under Ajv's default draft.
 */
export function schemaCompiler(): (
  schema: Record<string, unknown>,
) => Validator {
  const ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateFormats: false,
    validateSchema: false,
    addUsedSchema: false,
  });
  const cache = new Map<string, Validator>();
  return (schema) => {
    const { $schema: _draft, ...rest } = schema;
    const key = JSON.stringify(withoutAnnotations(rest));
    let validator = cache.get(key);
    if (!validator) {
      validator = ajv.compile(JSON.parse(key)) as Validator;
      cache.set(key, validator);
    }
    return validator;
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
