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

export * from "./lib/manifest/mod.ts";
export * from "./lib/manifest/mod.ts";
export * from "./lib/manifest/mod.ts";
export * from "./lib/manifest/mod.ts";
export * from "./lib/manifest/mod.ts";
export * from "./lib/manifest/mod.ts";
export * from "./lib/manifest/mod.ts";
export * from "./lib/manifest/mod.ts";
export * from "./lib/project/mod.ts";
export * from "./lib/manifest/mod.ts";
export * from "./lib/host/mod.ts";
export {
  createHandler,
  type DaemonHost,
  DEFAULT_MAX_BODY_BYTES,
  type HandlerOptions,
  type HostCall,
  type HostOutcome,
  isLoopbackHostHeader,
  type ListedTool,
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
export * from "./lib/opencode/mod.ts";
export * from "./lib/opencode/mod.ts";
export {
  addManifestEntries,
  type ManifestEntry,
  type MigratedTool,
  type MigrateNote,
  type MigrateResult,
  migrateSource,
  reexportSource,
} from "./lib/migrate/mod.ts";
