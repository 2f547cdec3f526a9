/**
 * `@beeuni/tools/secrets`: the project's local secret store, one file per
 * project outside any checkout (mode 0600, written atomically under a
 * lock). Tools read the secrets their agent is granted as `context.env`;
 * `beeuni secrets set|ls|rm` manage them from a shell.
 *
 * @example Store, read and remove a secret
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSecrets, removeSecret, setSecret } from "@beeuni/tools/secrets";
 *
 * const dir = await Deno.makeTempDir();
 * const env = { BEEUNI_SECRETS_FILE: `${dir}/secrets.json` };
 * setSecret("/work/project", "WEATHER_API_KEY", "abc123", env);
 * assert.deepEqual(readSecrets("/work/project", env), { WEATHER_API_KEY: "abc123" });
 * assert.equal(removeSecret("/work/project", "WEATHER_API_KEY", env), true);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */

export {
  isSecretName,
  readSecrets,
  removeSecret,
  SECRET_NAME_PATTERN,
  secretNames,
  type SecretsEnv,
  secretsFile,
  SecretStoreError,
  setSecret,
} from "./lib/secrets/mod.ts";
