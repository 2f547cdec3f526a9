/**
 * `@beeuni/tools/manifest`: a project's `beeuni.yaml` without a daemon.
 * Find and load it from disk, or parse, validate and resolve its text
 * yourself; decide which tools each agent sees; print diagnostics as
 * `beeuni validate` does.
 *
 * @example Load a project and print its diagnostics
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { formatText, loadProject } from "@beeuni/tools/manifest";
 *
 * const project = await loadProject({ cwd: "." });
 * console.log(formatText(project.manifest.manifestPath, project.diagnostics));
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
  type Diagnostic,
  type DiagnosticsReport,
  diagnosticsReport,
  findAgent,
  formatJson,
  formatText,
  type Harness,
  HARNESS_TOOLS,
  type HarnessToolOrigin,
  type ImportEntry,
  isBeeuniTool,
  isHarnessTool,
  isPtyTool,
  isToolName,
  type Manifest,
  MANIFEST_LIMITS,
  type ManifestFile,
  type ManifestLimits,
  mayDelegate,
  MODULE_EXTENSIONS,
  type ModuleFacts,
  type NameRef,
  parseManifest,
  type ParseManifestOptions,
  type ProjectFacts,
  type ReadFile,
  type RecordSettings,
  type ResolvedTool,
  resolveTools,
  type Severity,
  sortDiagnostics,
  type SourcePos,
  TOOL_NAME_PATTERN,
  type ToolEntry,
  type ToolKind,
  type ToolSet,
  type ToolsJson,
  toolsJson,
  type ToolsJsonTool,
  validate,
} from "./lib/manifest/mod.ts";
export {
  findManifest,
  loadProject,
  type LoadProjectOptions,
  locateManifest,
  MANIFEST_NAME,
  ManifestNotFoundError,
  type Project,
} from "./lib/project/mod.ts";
