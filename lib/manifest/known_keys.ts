/**
 * The keys a manifest's author writes: the top-level keys Beeuni reads and
 * the settings an `agents.<name>` entry may hold, with where each
 * comes from. Keys that are in neither list are kept and never an error;
 * the parser only warns about one that is a likely slip of a known key.
 *
 * @module
 */

/** The top-level keys of a manifest file Beeuni reads. */
export const TOP_LEVEL_KEYS: readonly string[] = [
  "tools",
  "agents",
  "imports",
  "record",
];

/** Where an agent setting comes from. */
export type AgentSettingOrigin = "beeuni" | "opencode 1.18.33";

/**
 * Every setting an `agents.<name>` entry may hold, with where it comes
 * from: the keys Beeuni reads (`tools`, `secrets`, `connectors`) and
 * the agent keys of opencode's configuration, which pass through to it
 * untouched (`prompt` becomes the agent file's body).
 */
export const AGENT_SETTINGS: Readonly<Record<string, AgentSettingOrigin>> = {
  tools: "beeuni",
  secrets: "beeuni",
  connectors: "beeuni",
  permission: "opencode 1.18.33",
  model: "opencode 1.18.33",
  prompt: "opencode 1.18.33",
  description: "opencode 1.18.33",
  mode: "opencode 1.18.33",
  temperature: "opencode 1.18.33",
  top_p: "opencode 1.18.33",
  steps: "opencode 1.18.33",
  maxSteps: "opencode 1.18.33",
  color: "opencode 1.18.33",
  disable: "opencode 1.18.33",
  hidden: "opencode 1.18.33",
  options: "opencode 1.18.33",
  variant: "opencode 1.18.33",
};

/** Whether `key` is a setting an agent may hold (see {@linkcode AGENT_SETTINGS}). */
export function isAgentSetting(key: string): boolean {
  return Object.hasOwn(AGENT_SETTINGS, key);
}
