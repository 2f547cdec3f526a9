/**
 * `@beeuni/tools`: one tool system for every agent harness. Write a tool
 * module, load a project's `beeuni.yaml`, and host its tools. Runs under
 * Deno, Node.js 22.18+ and Bun.
 *
 * This face holds what tool authors and embedders use; the rest is in the
 * package's other entry points:
 *
 * | entry point | for |
 * | --- | --- |
 * | `@beeuni/tools/manifest` | parsing, validating and resolving `beeuni.yaml` without a daemon |
 * | `@beeuni/tools/host` | the tool host and its limits |
 * | `@beeuni/tools/http` | the daemon's routes as one `Request → Response` handler |
 * | `@beeuni/tools/mcp` | MCP over Streamable HTTP and over standard input and output |
 * | `@beeuni/tools/web` | the web UI's routes |
 * | `@beeuni/tools/opencode` | the opencode plugin and agent files |
 * | `@beeuni/tools/secrets` | the project's local secret store |
 * | `@beeuni/tools/runtime` | the runtime adapters (Deno, Node.js, Bun) |
 * | `@beeuni/tools/daemon` | the daemon |
 * | `@beeuni/tools/cli` | the `beeuni` command line |
 *
 * @example A typed tool module
 * ```ts
 * import { defineTool } from "@beeuni/tools";
 *
 * export default defineTool({
 *   description: "Says hello.",
 *   parameters: { type: "object", properties: {} },
 *   execute: (_args, context) => `hello from ${context.agent}`,
 * });
 * ```
 *
 * @example Which tools does a session get?
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { loadProject } from "@beeuni/tools";
 *
 * const project = await loadProject({ cwd: "." });
 * for (const tool of project.toolSet.tools) console.log(tool.name, tool.kind);
 * ```
 *
 * @example Host a project's tools and call one
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { createHost } from "@beeuni/tools";
 *
 * await using host = await createHost({ directory: "/workspace" });
 * const outcome = await host.call({
 *   name: "word_count",
 *   args: { text: "one two" },
 *   sessionId: "s1",
 *   agent: "build",
 * });
 * console.log(outcome.ok ? outcome.output : outcome.error);
 * ```
 *
 * @module
 */

export {
  type ContentBlock,
  defineTool,
  type EmbeddedResource,
  type Tool,
  type ToolContext,
} from "./lib/host/mod.ts";
export {
  loadProject,
  type LoadProjectOptions,
  ManifestNotFoundError,
  type Project,
} from "./lib/project/mod.ts";
export {
  type Diagnostic,
  formatText,
  type Manifest,
  type ResolvedTool,
  type Severity,
  type ToolKind,
  type ToolSet,
} from "./lib/manifest/mod.ts";
export {
  type CallFailure,
  type CallOutcome,
  type CallRequest,
  type CallStatus,
  type CallSuccess,
  createHost,
  type Host,
  type HostedTool,
  type HostEvent,
  type HostOptions,
  type LoadError,
  type ProgressUpdate,
  type ReloadOptions,
  type ReloadResult,
} from "./lib/host/mod.ts";
