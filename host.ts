/**
 * `@beeuni/tools/host`: the tool host. {@linkcode createHost} loads a
 * project's tools and runs each tool's calls in a runner process of its
 * own, which it can stop, confine and bound; the daemon, MCP and
 * `beeuni tools call` are thin layers over it. Besides what the package's
 * root exports of it, this entry point holds its limits.
 *
 * @example Host a project's tools and call one
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { createHost, DEFAULT_TIMEOUT_MS } from "@beeuni/tools/host";
 *
 * await using host = await createHost({
 *   directory: "/workspace",
 *   timeoutMs: DEFAULT_TIMEOUT_MS / 10,
 * });
 * console.log(host.list("build").map((tool) => tool.name));
 * ```
 *
 * @module
 */

export {
  type CallOutcome,
  type CallRequest,
  type CallTransport,
  type ContentBlock,
  createHost,
  DEFAULT_TIMEOUT_MS,
  defineTool,
  type EmbeddedResource,
  type FromObject,
  type FromSchema,
  type FromType,
  type Host,
  type HostedTool,
  type HostEvent,
  type HostOptions,
  type JsonSchema,
  type LoadError,
  MAX_OUTPUT_BYTES,
  MAX_OUTPUT_LINES,
  type ObjectSchema,
  type PresentProperties,
  type ProgressUpdate,
  type ReloadOptions,
  type ReloadResult,
  type StandardIssue,
  type StandardOutput,
  type StandardResult,
  type StandardSchema,
  type Tool,
  type ToolContext,
  type ToolResult,
  type TraceContext,
} from "./lib/host/mod.ts";
