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

export * from "./lib/types.ts";
export * from "./lib/beeuni_tools.ts";
export * from "./lib/harness_tools.ts";
export * from "./lib/resolve.ts";
export * from "./lib/agents.ts";
export * from "./lib/tools_table.ts";
export * from "./lib/manifest.ts";
export * from "./lib/validate.ts";
export * from "./lib/project.ts";
export * from "./lib/diagnostics_format.ts";
export * from "./lib/host.ts";
export {
  createHandler,
  type DaemonHost,
  DEFAULT_MAX_BODY_BYTES,
  type HandlerOptions,
  type HostCall,
  type HostOutcome,
  isLoopbackHostHeader,
  type ListedTool,
} from "./lib/daemon_http.ts";
export {
  isSecretName,
  readSecrets,
  removeSecret,
  SECRET_NAME_PATTERN,
  secretNames,
  type SecretsEnv,
  secretsFile,
  setSecret,
} from "./lib/secrets.ts";
export * from "./lib/opencode_plugin.ts";
export * from "./lib/opencode_agents.ts";
