/**
 * The beeuni daemon: loads a project's tools (its `beeuni.yaml`) and serves
 * calls over HTTP on loopback, with a bearer token, hot reload of the
 * manifest and the tool modules, and per-call secrets.
 *
 * Prints `token file: <path>` (unless the token comes from
 * `BEEUNI_DAEMON_TOKEN`), then `listening on http://127.0.0.1:<port>` once
 * ready. SIGINT or SIGTERM stops it (exit code 0).
 *
 * @example Start the daemon on a project and call a tool with curl
 * ```sh
 * deno run -A daemon.ts --dir examples/starter --port 8787
 * # token file: /home/me/.local/state/beeuni/daemon/<hash>.token
 * # listening on http://127.0.0.1:8787
 * curl -s -H "Authorization: Bearer $(cat /home/me/.local/state/beeuni/daemon/<hash>.token)" \
 *   -d '{"args":{"query":"deno"},"sessionId":"s1","agent":"beeuni"}' \
 *   http://127.0.0.1:8787/beeuni/tools/web_search
 * ```
 *
 * @module
 */

import { dirname, relative, resolve } from "node:path";
import {
  args as processArgs,
  denoIo,
  exit,
  onTerminate,
  serve,
  type Server,
  watchDirs,
  type Watcher,
} from "./_deno.ts";
import {
  type Command,
  type CommandIo,
  parseOptions,
  UsageError,
} from "./lib/command.ts";
import { locateManifest } from "./lib/project.ts";
import { createHandler, DEFAULT_MAX_BODY_BYTES } from "./lib/daemon_http.ts";
import { prepareToken, removeTokenFile } from "./lib/daemon_token.ts";
import { isReloadTrigger, watchTargets } from "./lib/daemon_watch.ts";
import { syncOpencodeConfig } from "./lib/opencode_agents.ts";
import type { Host } from "./lib/host.ts";
import { canonicalRoot, readSecrets } from "./lib/secrets.ts";
import type { Diagnostic } from "./lib/types.ts";

export type { Command, CommandIo } from "./lib/command.ts";

/** How to start a daemon. */
export interface DaemonOptions {
  /** The project folder (its `beeuni.yaml` is found from here upwards). */
  dir: string;
  /** The root manifest, overriding the search from `dir`. */
  manifest?: string;
  /** The port; 0 picks a free one. */
  port: number;
  /** The address to listen on (a loopback address unless `allowRemote`). */
  hostname: string;
  /** Allow a non-loopback `hostname` and skip the loopback `Host` check. */
  allowRemote?: boolean;
  /** Where to write a generated token (default: the state folder). */
  tokenFile?: string;
  /** The largest request body accepted, in bytes. */
  maxBodyBytes?: number;
  /** The per-call timeout in milliseconds (the host's default when absent). */
  timeoutMs?: number;
  /** Validate call arguments against each tool's schema (T2). */
  validateArgs?: boolean;
  /** Watch the manifest and the tool modules and reload on change (D5). */
  watch?: boolean;
  /** Quiet time after the last change before reloading, in milliseconds. */
  debounceMs?: number;
  /** opencode's config folder for the plugin and agent files (default `$XDG_CONFIG_HOME/opencode`). */
  opencodeConfigDir?: string;
  /** Write the opencode plugin and agent files (D3); default true. */
  opencode?: boolean;
}

/** A daemon started by {@linkcode startDaemon}. */
export interface RunningDaemon {
  /** The base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** The token file, when the token was generated. */
  tokenFile?: string;
  /** Stops serving, aborts running calls, closes the host, removes the token file. */
  close(): Promise<void>;
}

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Whether `hostname` is a loopback address the daemon may listen on by default. */
export function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname.toLowerCase());
}

function formatDiagnostic(d: Diagnostic): string {
  return `  ${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.message}`;
}

/** Environment variables tool modules never see. */
const HIDDEN_ENV = ["BEEUNI_DAEMON_TOKEN"];

/**
 * Starts a daemon: loads the host, writes the token file, listens, prints
 * the token file and `listening on <url>` to standard output, and starts
 * watching for changes. Logs go to standard error.
 */
export async function startDaemon(
  options: DaemonOptions,
  io: CommandIo,
): Promise<RunningDaemon> {
  if (!options.allowRemote && !isLoopbackHostname(options.hostname)) {
    throw new UsageError(
      `refusing to listen on "${options.hostname}": the daemon listens on loopback only (127.0.0.1, ::1, localhost); pass --allow-remote to listen there anyway`,
    );
  }
  const manifestFile = locateManifest(options.dir, options.manifest);
  const root = dirname(manifestFile);
  const manifestPath = relative(root, manifestFile);
  // Log lines are batched and written after the current turn, off the
  // path of the answer; close() flushes what is left.
  let logLines: string[] = [];
  let logTimer: ReturnType<typeof setTimeout> | undefined;
  const flushLog = () => {
    clearTimeout(logTimer);
    logTimer = undefined;
    if (logLines.length === 0) return;
    const text = logLines.join("");
    logLines = [];
    io.stderr(text);
  };
  const log = (line: string) => {
    logLines.push(line + "\n");
    logTimer ??= setTimeout(flushLog, 0);
  };
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(io.env)) {
    if (value !== undefined && !HIDDEN_ENV.includes(key)) env[key] = value;
  }
  const token = prepareToken(root, io.env, options.tokenFile);
  let host: Host;
  try {
    // Loaded on demand, so `beeuni` commands that never serve stay quick.
    const { createHost } = await import("./lib/host.ts");
    host = await createHost({
      directory: root,
      manifest: manifestFile,
      validateArgs: options.validateArgs ?? false,
      timeoutMs: options.timeoutMs,
      env,
      secrets: () => readSecrets(root, io.env),
      log,
    });
  } catch (error) {
    flushLog();
    if (token.file) removeTokenFile(token.file, token.token);
    throw error;
  }
  // MCP at /mcp and /mcp/<agent>, behind the same token and Host check.
  const { createMcpHttp } = await import("./lib/mcp/mod.ts");
  const mcp = createMcpHttp({
    host,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    allowSameOrigin: options.allowRemote ?? false,
    log,
  });
  const handler = createHandler({
    host,
    token: token.token,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    allowAnyHost: options.allowRemote ?? false,
    log,
    mcp: mcp.handle,
  });
  let server: Server;
  try {
    server = await serve(
      { hostname: options.hostname, port: options.port },
      handler,
    );
  } catch (error) {
    await mcp.close();
    await host.close();
    flushLog();
    if (token.file) removeTokenFile(token.file, token.token);
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot listen on ${options.hostname}:${options.port}: ${message}`,
    );
  }
  const shownHost = server.hostname.includes(":")
    ? `[${server.hostname}]`
    : server.hostname;
  const url = `http://${shownHost}:${server.port}`;
  // The standard harness (D3): the opencode plugin and agent files, on start and after each reload.
  const writeOpencode = () => {
    if (options.opencode === false) return;
    syncOpencodeConfig({
      configDir: options.opencodeConfigDir,
      env: io.env,
      url,
      tokenFile: token.file,
      projectDir: root,
      manifest: host.manifest(),
      tools: host.list(),
      log,
    });
  };
  writeOpencode();

  // Hot reload (D5): watch, debounce, reload, watch the new set of folders.
  let watcher: Watcher | undefined;
  let watchedKey = "";
  let watchedManifests = new Set<string>();
  const realRoot = canonicalRoot(root);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reloading = false;
  let again = false;
  let closed = false;
  const changed = new Set<string>();
  const debounceMs = options.debounceMs ?? 150;

  const rewatch = () => {
    if (closed || options.watch === false) return;
    const { dirs, manifests } = watchTargets(root, manifestPath);
    watchedManifests = new Set(manifests);
    const key = dirs.join("\n");
    if (key === watchedKey) return;
    watcher?.close();
    watchedKey = key;
    watcher = watchDirs(dirs, (paths) => {
      const relevant = paths.filter((path) =>
        isReloadTrigger(path, watchedManifests)
      );
      if (relevant.length === 0 || closed) return;
      for (const path of relevant) changed.add(relative(realRoot, path));
      clearTimeout(timer);
      timer = setTimeout(reload, debounceMs);
    });
  };

  const reload = async () => {
    timer = undefined;
    if (closed) return;
    if (reloading) {
      again = true;
      return;
    }
    reloading = true;
    const files = [...changed].sort();
    changed.clear();
    const what = files.length > 0 ? files.join(", ") : "the project";
    // Watch what the manifest on disk names before the host reads it, so an
    // edit in a newly imported file's folder during the reload is not missed.
    try {
      rewatch();
    } catch {
      // Reported by the rewatch after the reload.
    }
    try {
      const result = await host.reload();
      if (result.ok) {
        const names = host.list().map((tool) => tool.name);
        log(
          result.changed
            ? `[daemon] reloaded after a change to ${what}: ${names.length} tools (${
              names.join(", ")
            })`
            : `[daemon] reloaded after a change to ${what}: tool set unchanged`,
        );
        for (const d of result.diagnostics) log(formatDiagnostic(d));
        writeOpencode();
      } else {
        log(
          `[daemon] not reloaded after a change to ${what}: the previous tools keep serving; fix these and save again:`,
        );
        for (const d of result.diagnostics) log(formatDiagnostic(d));
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(
        `[daemon] not reloaded after a change to ${what}: ${message}; the previous tools keep serving`,
      );
    } finally {
      reloading = false;
    }
    try {
      rewatch();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`[daemon] cannot watch the project: ${message}`);
    }
    if (again && !closed) {
      again = false;
      timer = setTimeout(reload, debounceMs);
    }
  };

  try {
    rewatch();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`[daemon] cannot watch the project, hot reload is off: ${message}`);
  }

  flushLog();
  if (token.file) io.stdout(`token file: ${token.file}\n`);
  else io.stdout("token: from BEEUNI_DAEMON_TOKEN\n");
  io.stdout(`listening on ${url}\n`);

  let closing: Promise<void> | undefined;
  return {
    url,
    port: server.port,
    tokenFile: token.file,
    close(): Promise<void> {
      closing ??= (async () => {
        closed = true;
        clearTimeout(timer);
        watcher?.close();
        // Open MCP event streams would keep the server from shutting down.
        await mcp.close();
        const stopped = server.shutdown();
        await host.close();
        await stopped;
        flushLog();
        if (token.file) removeTokenFile(token.file, token.token);
      })();
      return closing;
    },
  };
}

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

const USAGE =
  `Usage: beeuni daemon [--dir PATH] [--port N] [--hostname 127.0.0.1] [options]

Loads the project's tools and serves calls over HTTP on loopback:
  GET  /beeuni/tools?agent=NAME        the tools an agent sees
  POST /beeuni/tools/<name>            run a tool: {"args":{},"sessionId":"s","agent":"a"}
  POST /beeuni/sessions/<id>/stop      abort every running call of a session
  GET  /beeuni/health                  liveness
  /mcp, /mcp/<agent>                   MCP (Streamable HTTP) for agent beeuni,
                                       or another agent
Every request needs "Authorization: Bearer <token>". The token is
BEEUNI_DAEMON_TOKEN when set, otherwise generated and written (mode 0600) to
the token file the daemon prints. Edits to beeuni.yaml, its imports and the
tool modules are picked up without a restart.

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
                        and agent files (default: $XDG_CONFIG_HOME/opencode)
  --no-opencode         do not write the opencode plugin and agent files
`;

/** Parses the daemon's command line into {@linkcode DaemonOptions}. */
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
    validate: { type: "boolean" },
    "no-watch": { type: "boolean" },
    "opencode-config-dir": { type: "string" },
    "no-opencode": { type: "boolean" },
  });
  if (positionals.length > 0) {
    throw new UsageError(`unexpected argument "${positionals[0]}"`);
  }
  const port = positiveInteger(values.port as string | undefined, "--port", 0);
  if (port !== undefined && port > 65535) {
    throw new UsageError(`--port must be at most 65535, got "${port}"`);
  }
  const dir = resolve(cwd, (values.dir as string | undefined) ?? ".");
  return {
    dir,
    manifest: values.manifest === undefined
      ? undefined
      : resolve(cwd, values.manifest as string),
    port: port ?? 0,
    hostname: (values.hostname as string | undefined) ?? "127.0.0.1",
    allowRemote: values["allow-remote"] === true,
    tokenFile: values["token-file"] === undefined
      ? undefined
      : resolve(cwd, values["token-file"] as string),
    maxBodyBytes: positiveInteger(
      values["max-body-bytes"] as string | undefined,
      "--max-body-bytes",
      1,
    ),
    timeoutMs: positiveInteger(
      values["timeout-ms"] as string | undefined,
      "--timeout-ms",
      1,
    ),
    validateArgs: values.validate === true,
    watch: values["no-watch"] !== true,
    opencodeConfigDir: values["opencode-config-dir"] === undefined
      ? undefined
      : resolve(cwd, values["opencode-config-dir"] as string),
    opencode: values["no-opencode"] !== true,
  };
}

/** `beeuni daemon`: runs the daemon until SIGINT or SIGTERM. */
export const daemonCommand: Command = {
  name: "daemon",
  summary: "Serve the project's tools over HTTP on loopback (hot reload)",
  usage: USAGE,
  async run(args: string[], io: CommandIo): Promise<number> {
    const options = parseDaemonArgs(args, io.cwd);
    const daemon = await startDaemon(options, io);
    const signal = await new Promise<string>((resolve) => {
      const stop = onTerminate((name) => {
        stop();
        resolve(name);
      });
    });
    io.stderr(`[daemon] ${signal}: stopping\n`);
    // A second signal while closing ends the process at once.
    const force = onTerminate(() => exit(130));
    await daemon.close();
    force();
    return 0;
  },
};

if (import.meta.main) {
  const io = denoIo();
  const argv = processArgs();
  let code: number;
  try {
    if (argv.includes("--help") || argv.includes("-h")) {
      io.stdout(USAGE.replace("beeuni daemon", "deno run -A daemon.ts"));
      exit(0);
    }
    code = await daemonCommand.run(argv, io);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`beeuni daemon: ${message}\n`);
    if (error instanceof UsageError) {
      io.stderr("Run `deno run -A daemon.ts --help` for usage.\n");
    }
    code = error instanceof UsageError ? 2 : 1;
  }
  exit(code);
}
