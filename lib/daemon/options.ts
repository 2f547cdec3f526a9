/**
 * The daemon's command line: its options, declared once, from which its
 * usage text is written and its command line parsed into
 * {@linkcode DaemonOptions}.
 *
 * @module
 */

import { resolve } from "node:path";
import {
  formatUsage,
  listenProblem,
  type OptionDefs,
  parseOptions,
  UsageError,
  type UsageSpec,
} from "../common/mod.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../http/mod.ts";
import { DEFAULT_CONNECTION_LIMITS } from "../runtime/mod.ts";
import type { DaemonOptions } from "./start_daemon.ts";

const CONNECTIONS =
  `Connections (see docs/daemon.md; one with a request in progress is never
closed by these):`;
const RUNNERS =
  "Tool runners (each tool runs in a process of its own, see docs/host.md):";
const SAVED = "Saved outputs (outputs over 50 KB or 2,000 lines):";

/** The daemon's options, as `beeuni daemon --help` lists them and as they are parsed. */
export const DAEMON_OPTIONS = {
  dir: {
    type: "string",
    value: "PATH",
    default: ".",
    help: `the project (default: the current folder); its
beeuni.yaml is found from there upwards`,
  },
  manifest: {
    type: "string",
    value: "PATH",
    help: "the root manifest instead",
  },
  port: {
    type: "integer",
    value: "N",
    min: 0,
    max: 65535,
    default: 0,
    help: "the port (default 0: pick a free one)",
  },
  hostname: {
    type: "string",
    value: "ADDR",
    default: "127.0.0.1",
    help: "the address (default 127.0.0.1; loopback only)",
  },
  "allow-remote": {
    type: "boolean",
    help: `allow a non-loopback --hostname and any Host header
(the token is still required)`,
  },
  "token-file": {
    type: "string",
    value: "PATH",
    help: `where to write the generated token (default:
$XDG_STATE_HOME/beeuni/daemon/<sha256 of root>.token)`,
  },
  "max-body-bytes": {
    type: "integer",
    value: "N",
    help: `the largest request body (default ${DEFAULT_MAX_BODY_BYTES})`,
  },
  "timeout-ms": {
    type: "integer",
    value: "N",
    help: "the per-call timeout in milliseconds",
  },
  validate: {
    type: "boolean",
    help: "validate arguments against each tool's schema",
  },
  "no-watch": { type: "boolean", help: "do not reload on changes" },
  "opencode-config-dir": {
    type: "string",
    value: "DIR",
    help: `where to write the opencode plugin (plugins/beeuni.ts)
and agent files (default: the project's .opencode/,
kept out of git through .git/info/exclude)`,
  },
  "opencode-global": {
    type: "boolean",
    help: `write them into opencode's global folder
($XDG_CONFIG_HOME/opencode) instead, so opencode run
anywhere gets this project's tools`,
  },
  "no-opencode": {
    type: "boolean",
    help: "do not write the opencode plugin and agent files",
  },
  "max-connections": {
    type: "integer",
    value: "N",
    heading: CONNECTIONS,
    help:
      `open connections at most (default ${DEFAULT_CONNECTION_LIMITS.maxConnections}, and at most
half the open-file limit); one more closes the
connection that has waited longest for a request`,
  },
  "header-timeout-ms": {
    type: "integer",
    value: "N",
    heading: CONNECTIONS,
    help: `time a new connection has to send a complete
request header (default ${DEFAULT_CONNECTION_LIMITS.headerTimeoutMs})`,
  },
  "idle-timeout-ms": {
    type: "integer",
    value: "N",
    heading: CONNECTIONS,
    help: `time a connection stays open after a response
without a new request header (default ${DEFAULT_CONNECTION_LIMITS.idleTimeoutMs})`,
  },
  runner: {
    type: "string",
    value: "RUNTIME",
    heading: RUNNERS,
    help: `the runtime tools run on: deno, node or bun (found
on the PATH), or the path of one (default: the
daemon's own); deno confines tools, node and bun
only contain them`,
  },
  "allow-run": {
    type: "boolean",
    heading: RUNNERS,
    help: `let tools start processes (Deno: --allow-run,
Node.js: --allow-child-process)`,
  },
  "allow-remote-listen": {
    type: "boolean",
    heading: RUNNERS,
    help: `let tools listen on addresses other than loopback
(Deno runners; Node.js and Bun do not limit it)`,
  },
  "allow-read": {
    type: "string",
    value: "PATH",
    multiple: true,
    heading: RUNNERS,
    help: "one more path tools may read (repeatable)",
  },
  "allow-write": {
    type: "string",
    value: "PATH",
    multiple: true,
    heading: RUNNERS,
    help: "one more path tools may write (repeatable)",
  },
  "max-runners": {
    type: "integer",
    value: "N",
    heading: RUNNERS,
    help: "runner processes kept while idle (default 8)",
  },
  "runner-memory-mb": {
    type: "integer",
    value: "N",
    heading: RUNNERS,
    help: `memory of all runners above which idle ones stop
(default 512)`,
  },
  "runner-heap-mb": {
    type: "integer",
    value: "N",
    min: 16,
    heading: RUNNERS,
    help: "heap limit of each runner (default 256)",
  },
  "runner-idle-ms": {
    type: "integer",
    value: "N",
    heading: RUNNERS,
    help: "stop a runner idle this long (default 60000)",
  },
  "tmp-max-bytes": {
    type: "integer",
    value: "N",
    heading: SAVED,
    help: `the most bytes of saved outputs kept; the oldest go
first, and a larger output is not saved (default
104857600)`,
  },
  "tmp-retention-ms": {
    type: "integer",
    value: "N",
    heading: SAVED,
    help: `remove files in the folder of saved outputs older
than this (default 86400000, 24 hours)`,
  },
} as const satisfies OptionDefs;

/** The parts of `beeuni daemon --help`: the usage line, the description, the options. */
export const DAEMON_USAGE_SPEC: UsageSpec<typeof DAEMON_OPTIONS> = {
  synopsis: "[--dir PATH] [--port N] [--hostname 127.0.0.1] [options]",
  description:
    `Loads the project's tools and serves calls over HTTP on loopback:
  GET  /beeuni/tools?agent=NAME        the tools an agent sees
  POST /beeuni/tools/<name>            run a tool: {"args":{},"sessionId":"s","agent":"a"}
  POST /beeuni/sessions/<id>/stop      abort every running call of a session
  GET  /beeuni/health                  liveness
  GET  /                               the web UI (open the "web ui" address)
  /mcp, /mcp/<agent>                   MCP (Streamable HTTP) for agent beeuni,
                                       or another agent
Every request needs "Authorization: Bearer <token>". The token is
BEEUNI_DAEMON_TOKEN when set, otherwise generated and written (mode 0600) to
the token file the daemon prints. The web UI's address carries a one-time
code instead (valid once, within a minute); \`beeuni web\` prints a fresh
one. Edits to beeuni.yaml, its imports and the tool modules are picked up
without a restart.`,
  options: DAEMON_OPTIONS,
  helpColumn: 24,
};

/** The daemon's usage text, as `beeuni daemon --help` prints it. */
export const DAEMON_USAGE: string = formatUsage(
  "beeuni daemon",
  DAEMON_USAGE_SPEC,
);

/**
 * Parses the daemon's command line into {@linkcode DaemonOptions}.
 *
 * @returns The options, relative paths resolved against `cwd`.
 * @throws {UsageError} For an unknown option, a missing or bad value, or an
 * argument where none belongs.
 */
export function parseDaemonArgs(args: string[], cwd: string): DaemonOptions {
  const { values } = parseOptions(args, DAEMON_OPTIONS, { positionals: 0 });
  // A path option's value resolved from `cwd`, or undefined when absent.
  const path = (value: string | undefined) =>
    value === undefined ? undefined : resolve(cwd, value);
  const where = [
    values["opencode-config-dir"] !== undefined && "opencode-config-dir",
    values["opencode-global"] && "opencode-global",
    values["no-opencode"] && "no-opencode",
  ].filter((flag) => flag !== false);
  if (where.length > 1) {
    throw new UsageError(
      `--${where[0]} and --${
        where[1]
      } cannot be used together: pick one place for the opencode files`,
    );
  }
  const { hostname } = values;
  const allowRemote = values["allow-remote"];
  const refused = listenProblem(hostname, allowRemote);
  if (refused !== undefined) throw new UsageError(refused);
  return {
    dir: resolve(cwd, values.dir),
    manifest: path(values.manifest),
    port: values.port,
    hostname,
    allowRemote,
    tokenFile: path(values["token-file"]),
    maxBodyBytes: values["max-body-bytes"],
    timeoutMs: values["timeout-ms"],
    connections: {
      maxConnections: values["max-connections"],
      headerTimeoutMs: values["header-timeout-ms"],
      idleTimeoutMs: values["idle-timeout-ms"],
    },
    validateArgs: values.validate,
    watch: !values["no-watch"],
    opencodeConfigDir: path(values["opencode-config-dir"]),
    opencodeGlobal: values["opencode-global"],
    opencode: !values["no-opencode"],
    runners: {
      runner: values.runner,
      allowRemoteListen: values["allow-remote-listen"],
      allowRun: values["allow-run"],
      allowRead: values["allow-read"].map((item) => resolve(cwd, item)),
      allowWrite: values["allow-write"].map((item) => resolve(cwd, item)),
      maxRunners: values["max-runners"],
      runnerMemoryMb: values["runner-memory-mb"],
      heapMb: values["runner-heap-mb"],
      idleMs: values["runner-idle-ms"],
      tmpMaxBytes: values["tmp-max-bytes"],
      tmpRetentionMs: values["tmp-retention-ms"],
    },
  };
}
