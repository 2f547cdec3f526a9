/**
 * Small helpers every stage shares: error text, where JSON text breaks,
 * atomic file writes, a
 * file lock, the cleanup of stale temporary files, the toolkit's folders,
 * loopback names, running git safely, comparing secrets, and the bounds on
 * what a caller may make a server hold (the length of its names, the event
 * streams it keeps open), the trace context a caller sends, and npm
 * packages loaded on first need.
 *
 * @module
 */

export { errorMessage } from "./errors.ts";
export { importPackage } from "./import_package.ts";
export {
  type CallerTraceContext,
  callerTraceContext,
  type TraceparentParts,
  traceparentParts,
} from "./trace_context.ts";
export { escapeControl, type EscapeControlOptions } from "./escape_control.ts";
export { type JsonSyntaxError, jsonSyntaxError } from "./json_syntax_error.ts";
export {
  type OptionDef,
  type OptionDefs,
  type OptionValue,
  type OptionValues,
  type ParsedArgs,
  parseOptions,
  type ParseOptionsOptions,
  UsageError,
} from "./parse_options.ts";
export { formatUsage, type UsageSpec } from "./format_usage.ts";
export {
  type AtomicWriteOptions,
  tempPrefix,
  writeFileAtomic,
  writeFileAtomicAsync,
} from "./atomic_write.ts";
export {
  cacheDir,
  canonicalRoot,
  configHome,
  type Env,
  projectKey,
  stateDir,
} from "./dirs.ts";
export { findProgram } from "./find_program.ts";
export { shellQuote } from "./shell_quote.ts";
export {
  type FileLockOptions,
  withFileLock,
  withFileLockNow,
} from "./file_lock.ts";
export { git, type GitOptions, type GitReadCommand, gitSync } from "./git.ts";
export { isProcessRunning } from "./process_running.ts";
export { isWithin } from "./is_within.ts";
export { isPlainObject } from "./is_plain_object.ts";
export { utf8Length } from "./utf8_length.ts";
export { toolEnv } from "./tool_env.ts";
export { BodyTextError, readBodyText } from "./read_body_text.ts";
export {
  removeStaleTemps,
  removeTempsOf,
  STALE_TEMP_MS,
  type StaleTempOptions,
  tempTarget,
} from "./stale_temps.ts";
export {
  isLoopbackHostHeader,
  isLoopbackHostname,
  listenProblem,
} from "./loopback.ts";
export { RUNNER_MARKER } from "./runner_marker.ts";
export { secretEqual } from "./secret_equal.ts";
export { callerStringProblem, MAX_CALLER_STRING } from "./caller_string.ts";
export { type PooledStream, StreamPool } from "./stream_pool.ts";
