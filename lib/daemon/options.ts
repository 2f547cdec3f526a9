/**
 * The daemon's command line: its usage text and the parsing of its options
 * into {@linkcode DaemonOptions}.
 *
 * @module
 */

import { resolve } from "node:path";
import { isLoopbackHostname, parseOptions, UsageError } from "../common/mod.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../http/mod.ts";
import { DEFAULT_CONNECTION_LIMITS } from "../runtime/mod.ts";
import type { DaemonOptions } from "./start_daemon.ts";

function positiveInteger(
  value: string | undefined,
  flag: string,
  min: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(
      `${flag} must be a whole number${
        min > 0 ? ` of at least ${min}` : ""
      }, got "${value}"`,
    );
  }
  return Number(value);
}

function paths(value: unknown, cwd: string): string[] {
  return (Array.isArray(value) ? value : []).map((path) =>
    resolve(cwd, String(path))
  );
}

/** The daemon's usage text, as `beeuni daemon --help` prints it. */
export const DAEMON_USAGE: string =
  `Usage: beeuni daemon [--dir PATH] [--port N] [--hostname 127.0.0.1] [options]

Loads the project's tools and serves calls over HTTP on loopback:
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
without a restart.

Options:
  --dir PATH            the project (default: the current folder); its
                        beeuni.yaml is found from there upwards
  --manifest PATH       the root manifest instead
  --port N              the port (default 0: pick a free one)
  --hostname ADDR       the address (default 127.0.0.1; loopback only)
  --allow-remote        allow a non-loopback --hostname and any Host header
                        (the token is still required)
  --token-file PATH     where to write the generated token (default:
                        $XDG_STATE_HOME/beeuni/daemon/<sha256 of root>.token)
  --max-body-bytes N    the largest request body (default ${DEFAULT_MAX_BODY_BYTES})
  --timeout-ms N        the per-call timeout in milliseconds
  --validate            validate arguments against each tool's schema
  --no-watch            do not reload on changes
  --opencode-config-dir DIR
                        where to write the opencode plugin (plugins/beeuni.ts)
                        and agent files (default: the project's .opencode/,
                        kept out of git through .git/info/exclude)
  --opencode-global     write them into opencode's global folder
                        ($XDG_CONFIG_HOME/opencode) instead, so opencode run
                        anywhere gets this project's tools
  --no-opencode         do not write the opencode plugin and agent files

Connections (see docs/daemon.md; one with a request in progress is never
closed by these):
  --max-connections N   open connections at most (default ${DEFAULT_CONNECTION_LIMITS.maxConnections}, and at most
                        half the open-file limit); one more closes the
                        connection that has waited longest for a request
  --header-timeout-ms N time a new connection has to send a complete
                        request header (default ${DEFAULT_CONNECTION_LIMITS.headerTimeoutMs})
  --idle-timeout-ms N   time a connection stays open after a response
                        without a new request header (default ${DEFAULT_CONNECTION_LIMITS.idleTimeoutMs})

Tool runners (each tool runs in a process of its own, see docs/host.md):
  --runner RUNTIME      the runtime tools run on: deno, node or bun (found
                        on the PATH), or the path of one (default: the
                        daemon's own); deno confines tools, node and bun
                        only contain them
  --allow-run           let tools start processes (Deno: --allow-run,
                        Node.js: --allow-child-process)
  --allow-remote-listen let tools listen on addresses other than loopback
                        (Deno runners; Node.js and Bun do not limit it)
  --allow-read PATH     one more path tools may read (repeatable)
  --allow-write PATH    one more path tools may write (repeatable)
  --max-runners N       runner processes kept while idle (default 8)
  --runner-memory-mb N  memory of all runners above which idle ones stop
                        (default 512)
  --runner-heap-mb N    heap limit of each runner (default 256)
  --runner-idle-ms N    stop a runner idle this long (default 60000)

Saved outputs (outputs over 50 KB or 2,000 lines):
  --tmp-max-bytes N     the most bytes of saved outputs kept; the oldest go
                        first, and a larger output is not saved (default
                        104857600)
  --tmp-retention-ms N  remove files in the folder of saved outputs older
                        than this (default 86400000, 24 hours)
`;

/**
 * Parses the daemon's command line into {@linkcode DaemonOptions}.
 *
 * @returns The options, relative paths resolved against `cwd`.
 * @throws {UsageError} For an unknown option, a missing or bad value, or an
 * argument where none belongs.
 */
export function parseDaemonArgs(args: string[], cwd: string): DaemonOptions {
  const { values, positionals } = parseOptions(args, {
    dir: { type: "string" },
    manifest: { type: "string" },
    port: { type: "string" },
    hostname: { type: "string" },
    "allow-remote": { type: "boolean" },
    "token-file": { type: "string" },
    "max-body-bytes": { type: "string" },
    "timeout-ms": { type: "string" },
    "max-connections": { type: "string" },
    "header-timeout-ms": { type: "string" },
    "idle-timeout-ms": { type: "string" },
    validate: { type: "boolean" },
    "no-watch": { type: "boolean" },
    "opencode-config-dir": { type: "string" },
    "opencode-global": { type: "boolean" },
    "no-opencode": { type: "boolean" },
    runner: { type: "string" },
    "allow-remote-listen": { type: "boolean" },
    "allow-run": { type: "boolean" },
    "allow-read": { type: "string", multiple: true },
    "allow-write": { type: "string", multiple: true },
    "max-runners": { type: "string" },
    "runner-memory-mb": { type: "string" },
    "runner-heap-mb": { type: "string" },
    "runner-idle-ms": { type: "string" },
    "tmp-max-bytes": { type: "string" },
    "tmp-retention-ms": { type: "string" },
  });
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument "${positionals[0]}"`);
  }
  // A flag's whole-number value, at least `min`, or undefined when absent.
  const number = (flag: string, min = 1) =>
    positiveInteger(values[flag] as string | undefined, `--${flag}`, min);
  // A flag's path, resolved from `cwd`, or undefined when absent.
  const path = (flag: string) =>
    values[flag] === undefined
      ? undefined
      : resolve(cwd, values[flag] as string);
  const port = number("port", 0);
  if (port !== undefined && port > 65535) {
    throw new UsageError(`--port must be at most 65535, got "${port}"`);
  }
  const where = ["opencode-config-dir", "opencode-global", "no-opencode"]
    .filter((flag) => values[flag] !== undefined);
  if (where.length > 1) {
    throw new UsageError(
      `--${where[0]} and --${
        where[1]
      } cannot be used together: pick one place for the opencode files`,
    );
  }
  const dir = resolve(cwd, (values.dir as string | undefined) ?? ".");
  const hostname = (values.hostname as string | undefined) ?? "127.0.0.1";
  const allowRemote = values["allow-remote"] === true;
  if (!allowRemote && !isLoopbackHostname(hostname)) {
    throw new UsageError(
      `refusing to listen on "${hostname}": the daemon listens on loopback only (127.0.0.1, ::1, localhost); pass --allow-remote to listen there anyway`,
    );
  }
  return {
    dir,
    manifest: path("manifest"),
    port: port ?? 0,
    hostname,
    allowRemote,
    tokenFile: path("token-file"),
    maxBodyBytes: number("max-body-bytes"),
    timeoutMs: number("timeout-ms"),
    connections: {
      maxConnections: number("max-connections"),
      headerTimeoutMs: number("header-timeout-ms"),
      idleTimeoutMs: number("idle-timeout-ms"),
    },
    validateArgs: values.validate === true,
    watch: values["no-watch"] !== true,
    opencodeConfigDir: path("opencode-config-dir"),
    opencodeGlobal: values["opencode-global"] === true,
    opencode: values["no-opencode"] !== true,
    runners: {
      runner: values.runner as string | undefined,
      allowRemoteListen: values["allow-remote-listen"] === true,
      allowRun: values["allow-run"] === true,
      allowRead: paths(values["allow-read"], cwd),
      allowWrite: paths(values["allow-write"], cwd),
      maxRunners: number("max-runners"),
      runnerMemoryMb: number("runner-memory-mb"),
      heapMb: number("runner-heap-mb", 16),
      idleMs: number("runner-idle-ms"),
      tmpMaxBytes: number("tmp-max-bytes"),
      tmpRetentionMs: number("tmp-retention-ms"),
    },
  };
}
