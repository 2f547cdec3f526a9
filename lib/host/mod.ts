/**
 * The host stage: loads a project's tools (T1, T8, D1), lists what each
 * agent sees (D4, A2), runs calls (T2-T6, D2, D6) in runner processes it
 * can stop, confine and bound (H1-H4), and reloads in place (D5).
 *
 * @module
 */

export { defineTool, type Tool, type ToolContext } from "./tool.ts";
export {
  type CallFailure,
  type CallOutcome,
  type CallRequest,
  type CallStatus,
  type CallSuccess,
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
} from "./types.ts";
export { createHost, DEFAULT_TIMEOUT_MS } from "./create_host.ts";
export { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./_truncate.ts";
export { runRunner } from "./_runner_main.ts";
