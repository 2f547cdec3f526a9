/**
 * `@beeuni/tools`: one tool system for every agent harness. Parse and
 * validate a project's `beeuni.yaml`, resolve the tools its sessions and
 * agents get, and host those tools.
 *
 * @example Which tools does a session get?
 * ```ts ignore
 * import { loadProject } from "@beeuni/tools";
 *
 * const project = await loadProject({ cwd: "." });
 * for (const tool of project.toolSet.tools) console.log(tool.name, tool.kind);
 * ```
 *
 * @module
 */

export * from "./lib/manifest/types.ts";
export * from "./lib/manifest/beeuni_tools.ts";
export * from "./lib/manifest/harness_tools.ts";
export * from "./lib/manifest/resolve_tools.ts";
export * from "./lib/manifest/agent_tools.ts";
export * from "./lib/manifest/tools_table.ts";
export * from "./lib/manifest/parse_manifest.ts";
export * from "./lib/manifest/validate.ts";
export * from "./lib/project/load_project.ts";
export * from "./lib/manifest/format_diagnostics.ts";
export * from "./lib/host/create_host.ts";
export {
  createHandler,
  type DaemonHost,
  DEFAULT_MAX_BODY_BYTES,
  type HandlerOptions,
  type HostCall,
  type HostOutcome,
  isLoopbackHostHeader,
  type ListedTool,
} from "./lib/http/create_handler.ts";
export {
  isSecretName,
  readSecrets,
  removeSecret,
  SECRET_NAME_PATTERN,
  secretNames,
  type SecretsEnv,
  secretsFile,
  setSecret,
} from "./lib/secrets/secret_store.ts";
export * from "./lib/opencode/plugin.ts";
export * from "./lib/opencode/agent_files.ts";
export {
  addManifestEntries,
  type ManifestEntry,
  type MigratedTool,
  type MigrateNote,
  type MigrateResult,
  migrateSource,
  reexportSource,
} from "./lib/migrate/migrate_source.ts";
