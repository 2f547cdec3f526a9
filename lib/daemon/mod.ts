/**
 * The daemon stage: a project's tools served over HTTP on loopback, with a
 * bearer token (D7), hot reload (D5) and the opencode files (D3).
 *
 * @module
 */

export {
  type DaemonOptions,
  type DaemonRuntime,
  type RunningDaemon,
  startDaemon,
} from "./start_daemon.ts";
export {
  DAEMON_OPTIONS,
  DAEMON_USAGE,
  DAEMON_USAGE_SPEC,
  parseDaemonArgs,
} from "./options.ts";
export { locateDaemon, type LocatedDaemon } from "./locate_daemon.ts";
export { type ProgramRuntime, runDaemon } from "./run_daemon.ts";
export {
  type Reloader,
  type ReloaderOptions,
  startReloader,
} from "./_reloader.ts";
export {
  logManifestDiagnostics,
  reloadLogger,
  type ReloadLogOptions,
} from "./_reload_log.ts";
