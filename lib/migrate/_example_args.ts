/**
 * Arguments for a first `beeuni tools call` of a migrated tool: a value
 * for each required argument of its `parameters` that the schema accepts
 * (its `const`, first `enum` value or default, else a plain value of its
 * type within its bounds). Optional arguments are left out.
 *
 * @module
 */

type Schema = Record<string, unknown>;

/** A value `schema` accepts, as far as its simple keywords tell. */
function exampleValue(schema: unknown, depth: number): unknown {
  if (!schema || typeof schema !== "object" || depth > 8) return "example";
  const s = schema as Schema;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ("default" in s) return s.default;
  for (const key of ["anyOf", "oneOf"]) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0) {
      return exampleValue(options[0], depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case "string": {
      const min = typeof s.minLength === "number" ? s.minLength : 0;
      const max = typeof s.maxLength === "number" ? s.maxLength : Infinity;
      const text = "example".padEnd(min, "x");
      return text.slice(0, Math.max(min, Math.min(text.length, max)));
    }
    case "integer":
    case "number": {
      let value = 1;
      if (typeof s.minimum === "number") value = Math.max(value, s.minimum);
      if (typeof s.exclusiveMinimum === "number") {
        value = Math.max(value, s.exclusiveMinimum + 1);
      }
      if (typeof s.maximum === "number") value = Math.min(value, s.maximum);
      if (typeof s.exclusiveMaximum === "number") {
        value = Math.min(value, s.exclusiveMaximum - 1);
      }
      return type === "integer" ? Math.ceil(value) : value;
    }
    case "boolean":
      return true;
    case "null":
      return null;
    case "array": {
      const min = typeof s.minItems === "number" ? s.minItems : 0;
      return Array.from(
        { length: Math.min(min, 3) },
        () => exampleValue(s.items, depth + 1),
      );
    }
    case "object":
      return exampleArgs(s, depth + 1);
  }
  return "example";
}

/** The arguments of a call that gives each required argument of `parameters` a value. */
export function exampleArgs(
  parameters: Record<string, unknown>,
  depth = 0,
): Record<string, unknown> {
  const properties = (parameters.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(parameters.required)
    ? parameters.required.filter((key) => typeof key === "string")
    : [];
  const out: Record<string, unknown> = {};
  for (const key of required) {
    out[key] = exampleValue(properties[key], depth);
  }
  return out;
}
