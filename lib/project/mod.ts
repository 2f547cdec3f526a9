/**
 * The project stage: finds a project's root manifest, reads it and
 * its imports from disk, gathers what the validator needs to know about the
 * files (existence, symlinks, git, the legacy opencode folder), and
 * validates and resolves it.
 *
 * @module
 */

export {
  findManifest,
  locateManifest,
  MANIFEST_NAME,
  ManifestNotFoundError,
} from "./locate_manifest.ts";
export {
  loadProject,
  type LoadProjectOptions,
  type Project,
} from "./load_project.ts";
export {
  children,
  findTools,
  isParseFailure,
  isPluginSource,
  isZodSource,
  keyName,
  loadSourceParser,
  type Loc,
  MAX_SOURCE_BYTES,
  type Node,
  opencodeToolName,
  opencodeToolNames,
  type ParsedSource,
  type ParseFailure,
  property,
  type SourceParser,
  type ToolExport,
  type ToolSource,
  unwrap,
  walk,
} from "./opencode_tool_source.ts";
export {
  ISOLATED_LOAD_HEAP_MB,
  ISOLATED_LOAD_TIMEOUT_MS,
  type IsolatedLoader,
  isolatedLoader,
  type IsolatedLoadOptions,
  type IsolationOptions,
  loadProjectIsolated,
} from "./load_project_isolated.ts";
