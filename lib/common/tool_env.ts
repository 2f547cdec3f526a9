/**
 * The environment tools get: the process's, less what they must not see.
 *
 * @module
 */

/** Environment variables tool modules never see. */
const HIDDEN_ENV = ["BEEUNI_DAEMON_TOKEN"];

/**
 * `env` without unset values and without the variables tools must never
 * see (the daemon's token, with which a tool could call the daemon as any
 * agent).
 */
export function toolEnv(
  env: Record<string, string | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && !HIDDEN_ENV.includes(key)) out[key] = value;
  }
  return out;
}
