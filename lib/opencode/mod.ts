/**
 * The standard harness: the opencode plugin that forwards calls to
 * the daemon, and one agent file per agent of the manifest.
 *
 * @module
 */

export {
  OPENCODE_PLUGIN_FILE,
  opencodeConfigDir,
  type OpencodePluginOptions,
  type OpencodePluginTool,
  PROJECT_OPENCODE_DIR,
  renderOpencodePlugin,
  writeOpencodePlugin,
  type WriteOpencodePluginOptions,
} from "./plugin.ts";
export type { DaemonEntry, DaemonRecord } from "./_plugin_source.ts";
export { excludeFromGit, type GitExclude } from "./_git_exclude.ts";
export {
  manifestAgents,
  OPENCODE_AGENT_MARKER,
  OPENCODE_AGENT_PROJECT,
  OPENCODE_HARNESS_TOOLS,
  type OpencodeAgentFile,
  type OpencodeAgentsResult,
  type OpencodeConfigOptions,
  type OpencodeConfigResult,
  opencodeDenies,
  opencodeTarget,
  renderOpencodeAgent,
  syncOpencodeConfig,
  type SyncOpencodeOptions,
  writeOpencodeAgents,
  writeOpencodeConfig,
} from "./agent_files.ts";
