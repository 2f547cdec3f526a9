/**
 * The standard harness (D3): the opencode plugin that forwards calls to
 * the daemon, and one agent file per agent of the manifest.
 *
 * @module
 */

export {
  OPENCODE_PLUGIN_FILE,
  opencodeConfigDir,
  type OpencodePluginOptions,
  type OpencodePluginTool,
  renderOpencodePlugin,
  writeOpencodePlugin,
  type WriteOpencodePluginOptions,
} from "./plugin.ts";
export {
  manifestAgents,
  OPENCODE_AGENT_MARKER,
  OPENCODE_HARNESS_TOOLS,
  type OpencodeAgentFile,
  type OpencodeAgentsResult,
  type OpencodeConfigOptions,
  type OpencodeConfigResult,
  opencodeDenies,
  renderOpencodeAgent,
  syncOpencodeConfig,
  writeOpencodeAgents,
  writeOpencodeConfig,
} from "./agent_files.ts";
