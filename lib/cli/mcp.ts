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
import {
  type Command,
  type CommandIo,
  parseOptions,
  UsageError,
} from "./command.ts";
import { MAX_CALLER_STRING } from "../common/mod.ts";
import { timeoutOption } from "./_timeout_option.ts";
import { projectHost } from "./_project_host.ts";
import { locateManifest } from "../project/mod.ts";
import {
  logManifestDiagnostics,
  reloadLogger,
  startReloader,
} from "../daemon/mod.ts";
import { loadRuntime } from "../runtime/mod.ts";

const USAGE = `Usage: beeuni mcp [--manifest PATH] [--agent NAME] [options]

Serves the project's tools over MCP (the Model Context Protocol) on standard
input and output: one JSON-RPC message per line. Add it to an MCP client as a
local (stdio) server, e.g.

  claude mcp add beeuni -- beeuni mcp --manifest /path/to/beeuni.yaml

The client sees the tools of agent NAME (default "beeuni"), as the daemon's
/mcp/<agent> serves them. Edits to beeuni.yaml, its imports and the tool
modules are picked up without a restart, and the client is told
(notifications/tools/list_changed). Logs go to standard error only.

Options:
  --manifest PATH   the project's beeuni.yaml (default: found from the
                    current folder upwards)
  --agent NAME      whose tools to serve (default "beeuni")
  --timeout-ms N    the per-call timeout in milliseconds
  --validate        validate arguments against each tool's schema
  --no-watch        do not reload on changes
  --runner RUNTIME  the runtime tools run on: deno, node or bun (found on the
                    PATH), or the path of one (default: this one); deno
                    confines tools, node and bun only contain them
`;

/** `beeuni mcp`: runs until standard input ends, or SIGINT or SIGTERM. */
export const mcpCommand: Command = {
  name: "mcp",
  summary: "Serve the project's tools over MCP on standard input and output",
  usage: USAGE,
  async run(args: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseOptions(args, {
      manifest: { type: "string" },
      agent: { type: "string" },
      "timeout-ms": { type: "string" },
      validate: { type: "boolean" },
      runner: { type: "string" },
      "no-watch": { type: "boolean" },
    });
    if (positionals.length > 0) {
      throw new UsageError(`unexpected argument "${positionals[0]}"`);
    }
    const agent = (values.agent as string | undefined) ?? "beeuni";
    const tooLong = agent.length > MAX_CALLER_STRING;
    // deno-lint-ignore no-control-regex
    if (agent === "" || tooLong || /[\x00-\x1f\x7f/]/.test(agent)) {
      throw new UsageError(`--agent must be an agent's name, got "${agent}"`);
    }
    const timeoutMs = timeoutOption(values["timeout-ms"] as string | undefined);
    const manifestFile = locateManifest(
      io.cwd,
      values.manifest as string | undefined,
    );
    const root = dirname(manifestFile);
    const log = (line: string) => io.stderr(line + "\n");
    const runtime = await loadRuntime();
    const { serveStdio } = await import("../mcp/mod.ts");
    // What tools print goes to the host's log, on standard error: standard
    // output is the protocol.
    const host = await projectHost(manifestFile, io, {
      validateArgs: values.validate === true,
      runner: values.runner as string | undefined,
      timeoutMs,
      // The manifest's diagnostics are logged below and by each reload.
      logManifest: false,
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
    const reloader = values["no-watch"] === true ? undefined : startReloader({
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
    }
    return 0;
  },
};
