/**
 * Telling a plain object (a JSON object, a parsed YAML mapping) from every
 * other value.
 *
 * @module
 */

/**
 * Whether `value` is a plain object: made by `{}`, `JSON.parse` or
 * `Object.create(null)`; not `null`, an array, or an instance of a class.
 *
 * @example
 * ```ts
 * import { isPlainObject } from "./is_plain_object.ts";
 *
 * isPlainObject(JSON.parse('{"a": 1}')); // true
 * isPlainObject([1]); // false
 * isPlainObject(new Date()); // false
 * ```
 */
export function isPlainObject(
  value: unknown,
): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
