/**
 * `@beeuni/tools`: one tool system for every agent harness. Parse and
 * validate a project's `beeuni.yaml`, resolve the tools its sessions and
 * agents get, and host those tools. Runs under Deno, Node.js 22.18+ and
 * Bun.
 *
 * @example Which tools does a session get?
 * ```ts ignore
 * import { loadProject } from "@beeuni/tools";
 *
 * const project = await loadProject({ cwd: "." });
 * for (const tool of project.toolSet.tools) console.log(tool.name, tool.kind);
 * ```
 *
 * @example A typed tool module
 * ```ts ignore
 * import type { Tool } from "@beeuni/tools";
 *
 * export default {
 *   description: "Says hello.",
 *   parameters: { type: "object", properties: {} },
 *   execute: (_args, context) => `hello from ${context.agent}`,
 * } satisfies Tool;
 * ```
 *
 * @module
 */

export {
  type AgentEntry,
  agentMaySee,
  agentNames,
  agentTools,
  type AgentToolsOptions,
  type AgentToolsSpec,
  type AgentView,
  BEEUNI_TOOLS,
  type BeeuniToolName,
  builtinToolUrl,
  checkModulePath,
  checkRepoRelativePath,
  classifyEntry,
  type Diagnostic,
  type DiagnosticsFormat,
  type DiagnosticsReport,
  diagnosticsReport,
  EDIT_TOOLS,
  type EntryClass,
  type EntryProblem,
  findAgent,
  formatGithub,
  formatJson,
  formatText,
  formatToolsTable,
  type Harness,
  HARNESS_TOOLS,
  type HarnessToolOrigin,
  type ImportEntry,
  isBeeuniTool,
  isHarnessTool,
  isPtyTool,
  isToolName,
  LEGACY_TOOLS_DIR,
  limitDiagnostics,
  type Manifest,
  MANIFEST_LIMITS,
  type ManifestFile,
  type ManifestLimits,
  MAX_ALIAS_COUNT,
  mayDelegate,
  MODULE_EXTENSIONS,
  moduleExtension,
  type ModuleFacts,
  modulePath,
  type NameRef,
  parseManifest,
  type ParseManifestOptions,
  type ProjectFacts,
  type ReadFile,
  type ResolvedTool,
  resolveTools,
  type Severity,
  sortDiagnostics,
  type SourcePos,
  summaryLine,
  TOOL_NAME_PATTERN,
  type ToolEntry,
  type ToolKind,
  type ToolSet,
  type ToolsJson,
  toolsJson,
  type ToolsJsonTool,
  undefinedAgentNote,
  v3Message,
  V7_MESSAGE,
  v8Message,
  validate,
} from "./lib/manifest/mod.ts";
export {
  findManifest,
  loadProject,
  type LoadProjectOptions,
  locateManifest,
  MANIFEST_NAME,
  type Project,
} from "./lib/project/mod.ts";
export {
  type CallOutcome,
  type CallRequest,
  type ContentBlock,
  createHost,
  DEFAULT_TIMEOUT_MS,
  defineTool,
  type EmbeddedResource,
  type Host,
  type HostedTool,
  type HostEvent,
  type HostOptions,
  type LoadError,
  MAX_OUTPUT_BYTES,
  MAX_OUTPUT_LINES,
  type ProgressUpdate,
  type ReloadOptions,
  type ReloadResult,
  type Tool,
  type ToolContext,
} from "./lib/host/mod.ts";
export {
  type CallBody,
  createHandler,
  type DaemonHost,
  DEFAULT_MAX_BODY_BYTES,
  type HandlerOptions,
  type HostCall,
  type HostOutcome,
  isLoopbackHostHeader,
  type ListedTool,
  type Mount,
  type Scope,
} from "./lib/http/mod.ts";
export {
  isSecretName,
  readSecrets,
  removeSecret,
  SECRET_NAME_PATTERN,
  secretNames,
  type SecretsEnv,
  secretsFile,
  setSecret,
} from "./lib/secrets/mod.ts";
export {
  type DaemonEntry,
  type DaemonRecord,
  type GitExclude,
  manifestAgents,
  OPENCODE_AGENT_MARKER,
  OPENCODE_HARNESS_TOOLS,
  OPENCODE_PLUGIN_DATA_FILE,
  OPENCODE_PLUGIN_FILE,
  type OpencodeAgentFile,
  type OpencodeAgentsResult,
  opencodeConfigDir,
  type OpencodeConfigOptions,
  type OpencodeConfigResult,
  opencodeDenies,
  type OpencodePluginFiles,
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
