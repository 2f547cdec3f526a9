/**
 * The host stage: loads a project's tools, lists what each
 * agent sees, runs calls in runner processes it
 * can stop, confine and bound, and reloads in place.
 *
 * @module
 */

export {
  defineTool,
  type FromObject,
  type FromSchema,
  type FromType,
  type JsonSchema,
  type ObjectSchema,
  type PresentProperties,
  type StandardIssue,
  type StandardOutput,
  type StandardResult,
  type StandardSchema,
  type Tool,
  type ToolContext,
  type ToolResult,
} from "./tool.ts";
export {
  type CallFailure,
  type CallOutcome,
  type CallRequest,
  type CallStatus,
  type CallSuccess,
  type CallTransport,
  type ContentBlock,
  type EmbeddedResource,
  type Host,
  type HostedTool,
  type HostEvent,
  type HostOptions,
  type LoadError,
  type ProgressUpdate,
  type ReloadOptions,
  type ReloadResult,
  type TraceContext,
} from "./types.ts";
export { createHost, DEFAULT_TIMEOUT_MS } from "./create_host.ts";
export { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./_truncate.ts";
export { runRunner } from "./_runner_main.ts";
