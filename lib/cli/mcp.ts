/**
 * `beeuni mcp`: the project's tools over MCP on standard input and output,
 * for clients that start local servers themselves (Claude Code, Gemini
 * CLI, Codex, Cursor, opencode's `mcp` config). Same host, visibility,
 * truncation, secrets and hot reload as the daemon; standard output carries
 * only JSON-RPC, every log line goes to standard error.
 *
 * @module
 */

import { dirname, relative } from "node:path";
import process from "node:process";
import { type Command, defineCommand, UsageError } from "./command.ts";
import { MAX_CALLER_STRING } from "../common/mod.ts";
import { MANIFEST_OPTION, RUNNER_OPTION } from "./_options.ts";
import { projectHost } from "./_project_host.ts";
import { locateManifest } from "../project/mod.ts";
import {
  DAEMON_OPTIONS,
  logManifestDiagnostics,
  reloadLogger,
  startReloader,
} from "../daemon/mod.ts";
import { loadRuntime } from "../runtime/mod.ts";
import { readSecrets } from "../secrets/mod.ts";
import { projectStateDir } from "../sessions/mod.ts";
import { watchCalls } from "../telemetry/mod.ts";

const OPTIONS = {
  manifest: MANIFEST_OPTION,
  agent: {
    type: "string",
    value: "NAME",
    default: "beeuni",
    help: 'whose tools to serve (default "beeuni")',
  },
  // The host's settings the daemon has too, with the same meaning.
  "timeout-ms": DAEMON_OPTIONS["timeout-ms"],
  validate: DAEMON_OPTIONS.validate,
  "no-watch": DAEMON_OPTIONS["no-watch"],
  runner: RUNNER_OPTION,
} as const;

/** `beeuni mcp`: runs until standard input ends, or SIGINT or SIGTERM. */
export const mcpCommand: Command<typeof OPTIONS> = defineCommand({
  synopsis: "[--manifest PATH] [--agent NAME] [options]",
  description:
    `Serves the project's tools over MCP (the Model Context Protocol) on standard
input and output: one JSON-RPC message per line. Add it to an MCP client as a
local (stdio) server, e.g.

  claude mcp add beeuni -- beeuni mcp --manifest /path/to/beeuni.yaml

The client sees the tools of agent NAME (default "beeuni"), as the daemon's
/mcp/<agent> serves them. Edits to beeuni.yaml, its imports and the tool
modules are picked up without a restart, and the client is told
(notifications/tools/list_changed). Logs go to standard error only.`,
  options: OPTIONS,
  async run({ values }, io) {
    const { agent } = values;
    const tooLong = agent.length > MAX_CALLER_STRING;
    // deno-lint-ignore no-control-regex
    if (agent === "" || tooLong || /[\x00-\x1f\x7f/]/.test(agent)) {
      throw new UsageError(`--agent must be an agent's name, got "${agent}"`);
    }
    const manifestFile = locateManifest(io.cwd, values.manifest);
    const root = dirname(manifestFile);
    const log = (line: string) => io.stderr(line + "\n");
    const runtime = await loadRuntime();
    const { serveStdio } = await import("../mcp/mod.ts");
    // What tools print goes to the host's log, on standard error: standard
    // output is the protocol.
    const host = await projectHost(manifestFile, io, {
      validateArgs: values.validate,
      runner: values.runner,
      timeoutMs: values["timeout-ms"],
      // The manifest's diagnostics are logged below and by each reload.
      logManifest: false,
      log,
    });
    // Each call on record, as the daemon records them, and spans of every
    // call and reload when an OTLP endpoint is set.
    const watched = await watchCalls(host, {
      dir: projectStateDir(root, io.env),
      secrets: () => readSecrets(root, io.env),
      env: io.env,
      log,
    });
    logManifestDiagnostics(
      "mcp",
      relative(root, manifestFile),
      host.diagnostics(),
      log,
    );
    const server = serveStdio({
      host,
      agent,
      input: process.stdin,
      write: (text) => io.stdout(text),
      log,
    });
    log(
      `[mcp] serving ${
        host.list(agent).length
      } tools to agent "${agent}" over stdio (session ${server.sessionId})`,
    );
    const reloader = values["no-watch"] ? undefined : startReloader({
      root,
      manifest: host.manifest(),
      debounceMs: 150,
      prepare: () => host.prepare(),
      sources: () => host.sources(),
      watchDirs: runtime.watchDirs,
      log,
      reload: reloadLogger(host, {
        tag: "mcp",
        names: () => host.list(agent).map((tool) => tool.name),
        log,
      }),
    });
    let stop: (() => void) | undefined;
    const signalled = new Promise<string>((resolve) => {
      stop = runtime.onTerminate(() => resolve("signal"));
    });
    try {
      const how = await Promise.race([
        server.done.then(() => "end"),
        signalled,
      ]);
      if (how === "signal") server.close();
    } finally {
      stop?.();
      reloader?.close();
      await host.close();
      await watched.stop();
    }
    return 0;
  },
});
