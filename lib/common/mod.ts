/**
 * Small helpers every stage shares: error text, atomic file writes, the
 * toolkit's folders and loopback names.
 *
 * @module
 */

export { errorMessage } from "./errors.ts";
export {
  type OptionSpec,
  type ParsedArgs,
  parseOptions,
  UsageError,
} from "./parse_options.ts";
export {
  type AtomicWriteOptions,
  tempPrefix,
  writeFileAtomic,
} from "./atomic_write.ts";
export {
  cacheDir,
  canonicalRoot,
  configHome,
  type Env,
  projectKey,
  stateDir,
} from "./dirs.ts";
export { isLoopbackHostHeader, isLoopbackHostname } from "./loopback.ts";
export { RUNNER_MARKER } from "./runner_marker.ts";
