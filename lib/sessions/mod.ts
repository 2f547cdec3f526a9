/**
 * Sessions: a model given a project's tools, run in the experimental
 * harness on the AI SDK, and kept as records in the project's state
 * folder for `beeuni sessions log` and `ls`.
 *
 * @module
 */

export {
  DEFAULT_SESSIONS_KEPT,
  listSessions,
  newSessionId,
  openSessionWriter,
  parseRecords,
  projectStateDir,
  readSession,
  type SessionHarness,
  type SessionMeta,
  type SessionRecord,
  sessionSize,
  type SessionStatus,
  type SessionSummary,
  type SessionWriter,
  summarize,
  type ToolCallStatus,
} from "./record.ts";
export {
  languageModel,
  type ModelSettings,
  modelSettings,
  type Provider,
  toolSchemaFor,
} from "./model.ts";
export {
  DEFAULT_MAX_STEPS,
  runSession,
  type RunSessionOptions,
  type SessionResult,
} from "./run_session.ts";
export { formatSessionLog } from "./format_log.ts";
export {
  type OpencodeEventRecords,
  opencodeEventRecords,
} from "./opencode_events.ts";
