/**
 * The daemon stage: a project's tools served over HTTP on loopback, with a
 * bearer token, hot reload and the opencode files.
 *
 * @module
 */

export {
  type DaemonOptions,
  type DaemonRuntime,
  type RunningDaemon,
  startDaemon,
} from "./start_daemon.ts";
export { DAEMON_USAGE, parseDaemonArgs } from "./options.ts";
export {
  DaemonNotRunningError,
  locateDaemon,
  type LocatedDaemon,
} from "./locate_daemon.ts";
export { ListenError, PortInUseError } from "./listen_error.ts";
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
