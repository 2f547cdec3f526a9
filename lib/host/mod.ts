/**
 * The host stage: loads a project's tools (T1, T8, D1), lists what each
 * agent sees (D4, A2), runs calls (T2-T6, D2, D6) where a tool cannot take
 * the others down, and reloads in place (D5).
 *
 * @module
 */

export { defineTool, type Tool, type ToolContext } from "./tool.ts";
export {
  type CallOutcome,
  type CallRequest,
  createHost,
  DEFAULT_TIMEOUT_MS,
  type Host,
  type HostedTool,
  type HostOptions,
  type ReloadResult,
} from "./create_host.ts";
export { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "./_output.ts";
