/**
 * `startDaemon()`: loads a project's tools and serves them over HTTP on
 * loopback, with a bearer token, hot reload and the opencode files. The
 * runtime's server and watcher are passed in, as Hono passes its adapters.
 *
 * @module
 */

import { dirname, relative } from "node:path";
import process from "node:process";
import {
  errorMessage,
  listenProblem,
  StreamPool,
  toolEnv,
} from "../common/mod.ts";
import { locateManifest } from "../project/mod.ts";
import { createHandler, DEFAULT_MAX_BODY_BYTES } from "../http/mod.ts";
import type { Host, HostOptions } from "../host/mod.ts";
import {
  AgentTokenVerifier,
  privatePaths,
  readSecrets,
} from "../secrets/mod.ts";
import {
  type ConnectionLimits,
  DEFAULT_CONNECTION_LIMITS,
  type Handler,
  type Io,
  type Runtime,
  type Server,
} from "../runtime/mod.ts";
import { createMcpHttp } from "../mcp/mod.ts";
import {
  createWebHandler,
  type WebHandler,
  webMounts,
  webScope,
} from "../web/mod.ts";
import { batchedLog } from "./_log.ts";
import { startReloader } from "./_reloader.ts";
import { logManifestDiagnostics, reloadLogger } from "./_reload_log.ts";
import { startOpencodeWriter } from "./_opencode_writer.ts";
import {
  type DaemonPlace,
  daemonRecordFile,
  publishDaemon,
} from "./_record.ts";
import { acquireToken } from "./_token.ts";
import { type DaemonTelemetry, startTelemetry } from "./_telemetry.ts";
import { projectStateDir } from "../sessions/mod.ts";
import { listenError } from "./listen_error.ts";

/** The part of a runtime adapter the daemon uses. */
export type DaemonRuntime = Pick<Runtime, "serve" | "watchDirs">;

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
  /** Limits on the server's connections (each one left out takes its default). */
  connections?: ConnectionLimits;
  /** Validate call arguments against each tool's schema. */
  validateArgs?: boolean;
  /** Watch the manifest and the tool modules and reload on change. */
  watch?: boolean;
  /** Quiet time after the last change before reloading, in milliseconds. */
  debounceMs?: number;
  /**
   * The opencode config folder for the plugin and agent files. Default:
   * the project's `.opencode/`, kept out of git through the checkout's
   * `info/exclude`.
   */
  opencodeConfigDir?: string;
  /** Write the plugin and agent files into opencode's global folder (`$XDG_CONFIG_HOME/opencode`) instead. */
  opencodeGlobal?: boolean;
  /** Write the opencode plugin and agent files; default true. */
  opencode?: boolean;
  /** How tool runners are bounded and what tools may touch besides the project. */
  runners?: Pick<
    HostOptions,
    | "runner"
    | "allowRemoteListen"
    | "allowRun"
    | "allowRead"
    | "allowWrite"
    | "maxRunners"
    | "runnerMemoryMb"
    | "heapMb"
    | "idleMs"
    | "tmpMaxBytes"
    | "tmpRetentionMs"
  >;
  /** The runtime's server and watcher; default: the adapter of the runtime running this. */
  runtime?: DaemonRuntime;
}

/** A daemon started by {@linkcode startDaemon}. */
export interface RunningDaemon {
  /** The base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** The token file, when the token was generated. */
  tokenFile?: string;
  /** The project's daemon record, where the opencode plugin finds this daemon. */
  recordFile: string;
  /** Stops serving, aborts running calls, closes the host, removes the token file (unless another daemon still uses it). */
  close(): Promise<void>;
  /**
   * For an exit that cannot wait: stops watching, writes the call
   * record's gathered lines and gives up the token file at once (as
   * `close()` does), without waiting for anything. The tool runners end
   * when the process does.
   */
  closeNow(): void;
}

async function defaultRuntime(): Promise<DaemonRuntime> {
  const { loadRuntime } = await import("../runtime/mod.ts");
  return await loadRuntime();
}

function urlOf(server: Server): string {
  const host = server.hostname.includes(":")
    ? `[${server.hostname}]`
    : server.hostname;
  return `http://${host}:${server.port}`;
}

/** `record` without its undefined values. */
function definedOnly<T extends object>(record: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(record).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

/**
 * Starts a daemon: takes the token, listens (a port in use fails here,
 * before any tool loads), loads the host, prints the token file and
 * `listening on <url>` to standard output, and starts watching for
 * changes. Logs go to standard error.
 *
 * @returns The running daemon, once every tool has loaded.
 * @throws {ManifestNotFoundError} When `options.dir` holds no project.
 * @throws {PortInUseError} When another daemon or program listens on the
 * port; a `ListenError` when the daemon cannot listen for another
 * reason.
 * @throws {Error} When `options.hostname` is not a loopback address and
 * `allowRemote` is not set, or `BEEUNI_DAEMON_TOKEN` is too short.
 *
 * @example Start a daemon on a project and stop it
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { loadRuntime } from "@beeuni/tools/runtime";
 * import { startDaemon } from "@beeuni/tools/daemon";
 *
 * const runtime = await loadRuntime();
 * const daemon = await startDaemon(
 *   { dir: "/workspace", port: 0, hostname: "127.0.0.1" },
 *   runtime.io(),
 * );
 * console.log(daemon.url);
 * await daemon.close();
 * ```
 */
export async function startDaemon(
  options: DaemonOptions,
  io: Io,
): Promise<RunningDaemon> {
  const refused = listenProblem(options.hostname, options.allowRemote === true);
  if (refused !== undefined) throw new Error(refused);
  const runtime = options.runtime ?? await defaultRuntime();
  const manifestFile = locateManifest(options.dir, options.manifest);
  const root = dirname(manifestFile);
  const { log, flush } = batchedLog(io.stderr);
  const token = await acquireToken(root, io.env, options.tokenFile);
  const dropToken = () => token.release();
  // Event streams (the web UI's, MCP's) hold their connections busy: at
  // most half the connections, so that calls always find one (the cap is
  // set again from the server's once it listens).
  const streams = new StreamPool(
    (options.connections?.maxConnections ??
      DEFAULT_CONNECTION_LIMITS.maxConnections) / 2,
  );
  // Listen before loading anything: a port that is taken is the one thing
  // said, and no tool runner starts for nothing. Until the host is there,
  // requests get a 503 (only a fixed --port can be known this early).
  let serve: Handler = () =>
    Response.json(
      { error: "the daemon is starting: try again in a moment" },
      { status: 503 },
    );
  let server: Server;
  try {
    server = await runtime.serve({
      hostname: options.hostname,
      port: options.port,
      limits: definedOnly(options.connections ?? {}),
    }, (request) => serve(request));
  } catch (error) {
    flush();
    await dropToken();
    throw listenError(options, error);
  }
  let host: Host;
  let web: WebHandler;
  let telemetry: DaemonTelemetry | undefined;
  try {
    // Loaded on demand, so `beeuni` commands that never serve stay quick.
    const { createHost } = await import("../host/mod.ts");
    host = await createHost({
      ...definedOnly(options.runners ?? {}),
      directory: root,
      manifest: manifestFile,
      // Listen at once; each tool is listed once it has loaded.
      waitForLoad: false,
      // Tools never read the daemon's token or the secret store,
      // nor write the opencode files the daemon writes.
      denyRead: [
        ...(token.file ? [token.file] : []),
        ...privatePaths(root, io.env),
      ],
      denyWrite: options.opencodeConfigDir ? [options.opencodeConfigDir] : [],
      validateArgs: options.validateArgs ?? false,
      timeoutMs: options.timeoutMs,
      env: toolEnv(io.env),
      secrets: () => readSecrets(root, io.env),
      // The manifest's diagnostics are logged below and by each reload.
      logManifest: false,
      log,
    });
    web = createWebHandler({
      host,
      streams,
      sessionsDir: projectStateDir(root, io.env),
    });
    // Metrics at GET /metrics, the call record and (with an OTLP endpoint)
    // spans, from the first call on.
    telemetry = await startTelemetry(host, {
      stateDir: projectStateDir(root, io.env),
      secrets: () => readSecrets(root, io.env),
      env: io.env,
      log,
    });
  } catch (error) {
    await server.shutdown();
    await telemetry?.close();
    flush();
    await dropToken();
    throw error;
  }
  logManifestDiagnostics(
    "daemon",
    relative(root, manifestFile),
    host.diagnostics(),
    log,
  );
  // MCP at /mcp and /mcp/<agent>, behind the same token and Host check.
  const mcp = createMcpHttp({
    host,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    allowSameOrigin: options.allowRemote ?? false,
    streams,
    log,
  });
  // Agent tokens: beside the daemon's own, each acting only as its agents;
  // the project's token file is read again whenever it changes.
  const agentTokens = new AgentTokenVerifier(root, io.env, { log });
  serve = createHandler({
    host,
    token: token.token,
    agentTokens,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    allowAnyHost: options.allowRemote ?? false,
    mounts: [
      {
        prefix: "/mcp",
        handler: (request, url, principal) =>
          mcp.handle(request, url, principal),
      },
      telemetry.mount,
      ...webMounts(web),
    ],
    // The web UI's secret path: its session cookie opens what the page calls there.
    scope: webScope(web),
    log,
  });
  const url = urlOf(server);
  streams.max = server.limits.maxConnections / 2;
  const asked = options.connections?.maxConnections ??
    DEFAULT_CONNECTION_LIMITS.maxConnections;
  if (server.limits.maxConnections < asked) {
    log(
      `[daemon] at most ${server.limits.maxConnections} connections, not ${asked}: half the open-file limit`,
    );
  }
  // Where the opencode plugin finds this daemon, from now until it stops.
  const recordFile = daemonRecordFile(root, io.env);
  const self = { url, pid: process.pid, tokenFile: token.file ?? null };
  let place: DaemonPlace | undefined;
  try {
    place = await publishDaemon(recordFile, self);
  } catch (error) {
    // Serving goes on; the plugin says it cannot read the record.
    log(
      `[daemon] cannot write the daemon record ${recordFile}: ${
        errorMessage(error)
      }; the opencode plugin will not find this daemon`,
    );
  }
  // Calls are answered from here on; the lines below are printed, and the
  // opencode files written, once every tool has loaded.
  await host.ready();
  // The standard harness: the opencode plugin and agent files, on
  // start and after each reload, while this is the daemon the plugin calls.
  // Loaded here, not imported above: it needs the `yaml` package, and
  // `daemon.ts` must load before any package does to say when the
  // toolkit's own packages are not installed.
  const { syncOpencodeConfig } = await import("../opencode/mod.ts");
  const opencode = options.opencode === false
    ? undefined
    : await startOpencodeWriter({
      recordFile,
      self: place === undefined ? undefined : self,
      write: (announce) =>
        syncOpencodeConfig({
          configDir: options.opencodeConfigDir,
          global: options.opencodeGlobal,
          env: io.env,
          recordFile,
          projectDir: root,
          manifest: host.manifest(),
          tools: host.list(),
          log,
          announce,
        }),
      log,
    });
  const reloader = options.watch === false ? undefined : startReloader({
    root,
    manifest: host.manifest(),
    debounceMs: options.debounceMs ?? 150,
    prepare: () => host.prepare(),
    sources: () => host.sources(),
    watchDirs: runtime.watchDirs,
    reload: reloadLogger(host, {
      tag: "daemon",
      names: () => host.list().map((tool) => tool.name),
      log,
      // In the background: the reload is done, and answered, first.
      after: () => void opencode?.sync(),
    }),
    log,
  });

  flush();
  io.stdout(
    token.file
      ? `token file: ${token.file}\n`
      : "token: from BEEUNI_DAEMON_TOKEN\n",
  );
  // A one-time code, never the token: browsers keep the addresses they
  // visit. The page's secret path is printed here and nowhere else.
  io.stdout(`web ui: ${web.address(url)}\n`);
  io.stdout(`listening on ${url}\n`);

  let closing: Promise<void> | undefined;
  return {
    url,
    port: server.port,
    tokenFile: token.file,
    recordFile,
    close(): Promise<void> {
      closing ??= (async () => {
        reloader?.close();
        await opencode?.close();
        await place?.release();
        // Open event streams (the page's, MCP's) would hold the shutdown up.
        web.close();
        await mcp.close();
        const stopped = server.shutdown();
        await host.close();
        await stopped;
        await agentTokens.close();
        // After the host: the calls its close ended are recorded too.
        await telemetry.close();
        flush();
        await dropToken();
      })();
      return closing;
    },
    closeNow(): void {
      reloader?.close();
      void opencode?.close();
      place?.releaseNow();
      // The lines gathered for the record's next write would be lost.
      telemetry.closeNow();
      flush();
      token.releaseNow();
    },
  };
}
