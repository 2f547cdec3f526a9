/**
 * The project's local secret store: set, list, read and remove secrets,
 * one file per project outside any checkout.
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
