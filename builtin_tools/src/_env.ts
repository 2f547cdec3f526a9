/**
 * Reading a tool's settings from `context.env`: an empty value counts as
 * unset, and a bad number is an error that names the variable.
 *
 * @module
 */

import type { Env } from "./_tool.ts";

/** The trimmed value of `name`, or undefined when it is unset or blank. */
export function setting(env: Env, name: string): string | undefined {
  const value = env[name];
  return typeof value === "string" && value.trim() !== ""
    ? value.trim()
    : undefined;
}

/**
 * The whole number above 0 that `name` holds, or `fallback` when it is unset.
 * Throws when it holds anything else.
 */
export function positiveSetting(
  env: Env,
  name: string,
  fallback: number,
): number {
  const raw = setting(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(
      `invalid ${name}: expected a positive whole number, got "${raw}"; fix or unset it`,
    );
  }
  return value;
}
