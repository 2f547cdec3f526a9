/**
 * Comparing a secret someone sent (a token, a session value) with the one
 * held, without the time taken telling how much of a guess was right.
 *
 * @module
 */

/**
 * Whether `given` and `expected` hold the same bytes. The time taken
 * depends on their lengths only: a wrong length returns at once (the
 * length of a generated secret is no secret), and otherwise every byte is
 * looked at.
 */
export function secretEqual(given: Uint8Array, expected: Uint8Array): boolean {
  if (given.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < given.length; i++) diff |= given[i] ^ expected[i];
  return diff === 0;
}
