/**
 * The project's local secret store: set, list, read and remove secrets,
 * one file per project outside any checkout; and the agent tokens a daemon
 * accepts beside its own, stored as hashes under the same lock.
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
export {
  AGENT_TOKEN_PREFIX,
  type AgentTokenHolder,
  agentTokenLabelProblem,
  type AgentTokenRecord,
  AgentTokensError,
  agentTokensFile,
  AgentTokenVerifier,
  type AgentTokenVerifierOptions,
  createAgentToken,
  hashAgentToken,
  listAgentTokens,
  type NewAgentToken,
  parseDuration,
  removeAgentToken,
} from "./agent_tokens.ts";
