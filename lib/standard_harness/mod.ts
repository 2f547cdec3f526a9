/**
 * The standard harness: a session run in opencode (`opencode run`), with
 * the plugin a daemon of the project writes, its records kept as the
 * experimental harness keeps them.
 *
 * @module
 */

export {
  MODEL_KEY_NAMES,
  runStandardSession,
  type StandardSessionOptions,
  type StandardSessionResult,
} from "./run_standard_session.ts";
