/**
 * The beeuni daemon: loads a project's tools (its `beeuni.yaml`) and serves
 * calls over HTTP on loopback, with a bearer token, hot reload of the
 * manifest and the tool modules, and per-call secrets. Runs under Deno,
 * Node.js 22.18+ and Bun.
 *
 * Prints `token file: <path>` (or `token: from BEEUNI_DAEMON_TOKEN`), the
 * web UI's address (`web ui: http://127.0.0.1:<port>/#code=<code>`, a code
 * that opens the page once, within a minute; never the token), then
 * `listening on http://127.0.0.1:<port>` once ready. SIGINT or SIGTERM
 * stops it (exit code 0).
 *
 * @example Start the daemon on a project and call a tool with curl
 * ```sh
 * deno run -A daemon.ts --dir examples/starter --port 8787
 * # token file: /home/me/.local/state/beeuni/daemon/<hash>.token
 * # web ui: http://127.0.0.1:8787/#code=<one-time code>
 * # listening on http://127.0.0.1:8787
 * curl -s -H "Authorization: Bearer $(cat /home/me/.local/state/beeuni/daemon/<hash>.token)" \
 *   -d '{"args":{"query":"deno"},"sessionId":"s1","agent":"beeuni"}' \
 *   http://127.0.0.1:8787/beeuni/tools/web_search
 * ```
 *
 * @module
 */

import process from "node:process";
import {
  dependencyProblem,
  isMainModule,
  loadRuntime,
  runtimeProblem,
} from "./lib/runtime/mod.ts";
import { errorMessage, UsageError } from "./lib/common/mod.ts";
import { DAEMON_USAGE, runDaemon } from "./lib/daemon/mod.ts";

export {
  DAEMON_USAGE,
  DaemonNotRunningError,
  type DaemonOptions,
  type DaemonRuntime,
  ListenError,
  locateDaemon,
  type LocatedDaemon,
  parseDaemonArgs,
  PortInUseError,
  type ProgramRuntime,
  runDaemon,
  type RunningDaemon,
  startDaemon,
} from "./lib/daemon/mod.ts";
export { UsageError } from "./lib/common/mod.ts";

if (isMainModule(import.meta)) {
  const problem = runtimeProblem();
  if (problem !== undefined) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
  const runtime = await loadRuntime();
  runtime.lockDebugger?.();
  const io = runtime.io();
  const argv = runtime.args();
  const self = runtime.name === "deno"
    ? "deno run -A daemon.ts"
    : `${runtime.name} daemon.ts`;
  let code: number;
  const help = argv.includes("--help") || argv.includes("-h");
  const missing = help ? undefined : await dependencyProblem();
  if (help) {
    io.stdout(DAEMON_USAGE.replace("beeuni daemon", self));
    code = 0;
  } else if (missing !== undefined) {
    io.stderr(`${missing}\n`);
    code = 1;
  } else {
    try {
      code = await runDaemon(argv, io, runtime);
    } catch (error) {
      io.stderr(`beeuni daemon: ${errorMessage(error)}\n`);
      if (error instanceof UsageError) {
        io.stderr(`Run \`${self} --help\` for usage.\n`);
      }
      code = error instanceof UsageError ? 2 : 1;
    }
  }
  runtime.exit(code);
}
