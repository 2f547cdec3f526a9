/**
 * The project's local secret store (D6): set, list, read and remove\nsecrets, one file per project outside any checkout.
 *
 * @module
 */

export {
  isSecretName,
  privatePaths,
  readSecrets,
  removeSecret,
  SECRET_NAME_PATTERN,
  secretNames,
  type SecretsEnv,
  secretsFile,
  SecretStoreError,
  setSecret,
} from "./secret_store.ts";
