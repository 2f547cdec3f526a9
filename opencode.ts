/**
 * `@beeuni/tools/opencode`: the files that give opencode (the standard
 * harness) a project's tools: a plugin that forwards each call to the
 * project's daemon, and one agent file per agent of the manifest. The
 * daemon writes them itself; these functions write them for a daemon run
 * some other way.
 *
 * @example Write the plugin and agent files for a project's tools
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { createHost } from "@beeuni/tools";
 * import { writeOpencodeConfig } from "@beeuni/tools/opencode";
 *
 * await using host = await createHost({ directory: "/workspace" });
 * const written = writeOpencodeConfig({
 *   projectDir: host.directory,
 *   recordFile: "/workspace/.beeuni-daemons.json",
 *   tools: host.list("beeuni"),
 *   manifest: host.manifest(),
 * });
 * console.log(written.plugin);
 * ```
 *
 * @module
 */

export {
  type DaemonEntry,
  type DaemonRecord,
  type GitExclude,
  manifestAgents,
  OPENCODE_AGENT_MARKER,
  OPENCODE_HARNESS_TOOLS,
  OPENCODE_PLUGIN_FILE,
  type OpencodeAgentFile,
  type OpencodeAgentsResult,
  opencodeConfigDir,
  type OpencodeConfigOptions,
  type OpencodeConfigResult,
  opencodeDenies,
  type OpencodePluginOptions,
  type OpencodePluginTool,
  renderOpencodeAgent,
  renderOpencodePlugin,
  syncOpencodeConfig,
  type SyncOpencodeOptions,
  writeOpencodeAgents,
  writeOpencodeConfig,
  writeOpencodePlugin,
  type WriteOpencodePluginOptions,
} from "./lib/opencode/mod.ts";
