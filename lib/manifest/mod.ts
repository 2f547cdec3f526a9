/**
 * The manifest stage: `beeuni.yaml` text to a parsed manifest with
 * positions, its diagnostics (V1-V12), the tool set a session gets
 * and the tools each agent sees. Pure: no file system.
 *
 * @module
 */

export {
  type AgentEntry,
  type AgentToolsSpec,
  type Diagnostic,
  type Harness,
  type ImportEntry,
  type Manifest,
  type ManifestFile,
  type NameRef,
  type RecordSettings,
  type ResolvedTool,
  type Severity,
  type SourcePos,
  type ToolEntry,
  type ToolKind,
  type ToolSet,
} from "./types.ts";
export {
  BEEUNI_TOOLS,
  type BeeuniToolName,
  builtinToolSourceUrl,
  builtinToolUrl,
  isBeeuniTool,
  setBuiltinToolLocator,
} from "./beeuni_tools.ts";
export {
  HARNESS_TOOLS,
  type HarnessToolOrigin,
  isHarnessTool,
  isPtyTool,
} from "./harness_tools.ts";
export {
  checkModulePath,
  checkRepoRelativePath,
  classifyEntry,
  type EntryClass,
  type EntryProblem,
  isToolName,
  MODULE_EXTENSIONS,
  moduleExtension,
  modulePath,
  TOOL_NAME_PATTERN,
  v3Message,
} from "./rules.ts";
export {
  MAX_ALIAS_COUNT,
  parseManifest,
  type ParseManifestOptions,
  type ReadFile,
} from "./parse_manifest.ts";
export {
  formatBytes,
  limitDiagnostics,
  MANIFEST_LIMITS,
  type ManifestLimits,
  manifestLimits,
} from "./limits.ts";
export {
  LEGACY_TOOLS_DIR,
  type ModuleFacts,
  type ProjectFacts,
  sortDiagnostics,
  V7_MESSAGE,
  v8Message,
  validate,
} from "./validate.ts";
export {
  agentNames,
  DEFAULT_AGENT,
  findAgent,
  resolveTools,
  undefinedAgentNote,
} from "./resolve_tools.ts";
export {
  agentMaySee,
  agentTools,
  type AgentToolsOptions,
  EDIT_TOOLS,
  mayDelegate,
} from "./agent_tools.ts";
export {
  type DiagnosticsFormat,
  type DiagnosticsReport,
  diagnosticsReport,
  formatGithub,
  formatJson,
  formatText,
  summaryLine,
} from "./format_diagnostics.ts";
export {
  type AgentView,
  formatToolsTable,
  type ToolsJson,
  toolsJson,
  type ToolsJsonTool,
} from "./tools_table.ts";
export { nearestName } from "./nearest_name.ts";
export {
  editManifestTools,
  type ManifestEditOptions,
  type ToolsEntry,
} from "./edit_manifest.ts";
export { manifestErrorsNote } from "./errors_note.ts";
