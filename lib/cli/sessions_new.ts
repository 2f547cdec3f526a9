/**
 * `beeuni sessions new`: gives a model the project's tools and a prompt,
 * in the experimental harness, and keeps the session's records for
 * `beeuni sessions log`.
 *
 * @module
 */

import { spawn } from "node:child_process";
import process from "node:process";
import { dirname } from "node:path";
import { type Command, defineCommand, UsageError } from "./command.ts";
import { MANIFEST_OPTION, RUNNER_OPTION } from "./_options.ts";
import { sessionExit, toolLine } from "./_session_lines.ts";
import { projectHost } from "./_project_host.ts";
import { DEFAULT_AGENT } from "./tools_call.ts";
import { escapeControl, isProcessRunning } from "../common/mod.ts";
import { locateManifest } from "../project/mod.ts";
import { undefinedAgentNote } from "../manifest/mod.ts";
import { readSecrets } from "../secrets/mod.ts";
import { watchCalls } from "../telemetry/mod.ts";
import { loadRuntime, selfCommand } from "../runtime/mod.ts";
import {
  DEFAULT_MAX_STEPS,
  languageModel,
  modelSettings,
  newSessionId,
  openSessionWriter,
  projectStateDir,
  runSession,
  sessionSize,
} from "../sessions/mod.ts";

const OPTIONS = {
  prompt: { type: "string", value: "TEXT", help: "what to ask the model" },
  agent: {
    type: "string",
    value: "NAME",
    help: `the agent the session runs as (default "${DEFAULT_AGENT}")`,
  },
  model: {
    type: "string",
    value: "MODEL",
    help: "the model (default: BEEUNI_MODEL)",
  },
  harness: {
    type: "string",
    value: "H",
    choices: ["experimental", "standard"],
    default: "experimental",
    help: `experimental (default: the toolkit runs the tools)
or standard (opencode runs the session)`,
  },
  "max-steps": {
    type: "integer",
    value: "N",
    default: DEFAULT_MAX_STEPS,
    help: `the most model turns (default ${DEFAULT_MAX_STEPS})`,
  },
  wait: {
    type: "boolean",
    help: "run in the foreground and print the session",
  },
  manifest: MANIFEST_OPTION,
  "timeout-ms": {
    type: "integer",
    value: "N",
    help: "each tool call's timeout in milliseconds",
  },
  runner: RUNNER_OPTION,
  verbose: {
    type: "boolean",
    help: "also print the host's log lines on standard error",
  },
  id: {
    type: "string",
    value: "ID",
    help: `the session's id (given when the session runs in
the background)`,
  },
} as const;

/** Waits until `ready()` or the process `pid` has exited; resolves to whether `ready()` held. */
async function waitForStart(
  ready: () => boolean,
  pid: number,
): Promise<boolean> {
  while (!ready()) {
    if (!isProcessRunning(pid)) return ready();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/** `beeuni sessions new --prompt TEXT`. */
export const sessionsNewCommand: Command<typeof OPTIONS> = defineCommand({
  synopsis:
    "--prompt TEXT [--agent NAME] [--model PROVIDER/MODEL] [--harness experimental|standard] [--max-steps N] [--wait]",
  description:
    `Starts a session in which a model gets the tools the agent sees (as
\`beeuni tools ls --agent NAME --harness experimental\` lists them) and the
prompt; the toolkit runs each call the model makes as the daemon would.
Prints "session <id>" first. Without --wait the session runs in the
background (\`beeuni sessions log <id>\` shows it); with --wait the model's
text and one line per tool call (name, status, duration) are printed as
they come, and the exit code is 0 when the model finished, 1 when the
session failed (a model error, or --max-steps turns used). With
--harness standard, opencode runs the session with its own model settings.

Models (PROVIDER/MODEL), and what each reads from the environment or, for
a key, from the project's secret store (\`beeuni secrets set NAME\`):
  openai/MODEL             OPENAI_API_KEY, OPENAI_BASE_URL (Responses API)
  anthropic/MODEL          ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL
  openai-compatible/MODEL  OPENAI_COMPATIBLE_BASE_URL (llama.cpp, vLLM,
                           Ollama: Chat Completions), OPENAI_COMPATIBLE_API_KEY`,
  options: OPTIONS,
  async run({ values, args }, io) {
    const prompt = values.prompt;
    if (prompt === undefined || prompt.trim() === "") {
      throw new UsageError("missing --prompt: say what to ask the model");
    }
    const agent = values.agent ?? DEFAULT_AGENT;
    if (agent === "") throw new UsageError("--agent must not be empty");
    const harness = values.harness;
    const maxSteps = values["max-steps"];
    const timeoutMs = values["timeout-ms"];
    const manifestFile = locateManifest(io.cwd, values.manifest);
    const root = dirname(manifestFile);
    let secrets: Record<string, string> | undefined;
    const lookup = (name: string) =>
      io.env[name] || (secrets ??= readSecrets(root, io.env))[name];
    // opencode reads its own model settings in the standard harness.
    const settings = harness === "standard"
      ? undefined
      : modelSettings(values.model, lookup);
    const stateDir = projectStateDir(root, io.env);

    if (values.wait !== true) {
      const id = newSessionId();
      const self = selfCommand();
      const child = spawn(
        self.program,
        [...self.args, "sessions", "new", ...args, "--wait", "--id", id],
        {
          cwd: io.cwd,
          env: io.env as Record<string, string>,
          detached: true,
          stdio: "ignore",
        },
      );
      child.unref();
      const started = child.pid !== undefined &&
        await waitForStart(() => sessionSize(stateDir, id) > 0, child.pid);
      if (!started) {
        io.stderr(
          `beeuni sessions new: the session did not start: run it again with --wait to see why\n`,
        );
        return 1;
      }
      io.stdout(
        `session ${id}\nrunning in the background: \`beeuni sessions log ${id}\` shows it\n`,
      );
      return 0;
    }

    const id = values.id ?? newSessionId();
    const verbose = values.verbose;
    if (settings === undefined) {
      const { standardSessionCommand } = await import("./_standard_session.ts");
      return await standardSessionCommand({
        root,
        stateDir,
        id,
        agent: values.agent,
        defaultAgent: DEFAULT_AGENT,
        model: values.model ?? io.env.BEEUNI_MODEL,
        prompt,
        pid: process.pid,
        verbose,
      }, io);
    }
    const model = await languageModel(settings);
    const host = await projectHost(manifestFile, io, {
      validateArgs: false,
      runner: values.runner,
      timeoutMs,
      log: (line) => {
        if (verbose) io.stderr(line + "\n");
      },
    });
    // Each tool call on record, as the daemon records them, and spans of
    // the session's calls when an OTLP endpoint is set.
    const watched = await watchCalls(host, {
      dir: stateDir,
      secrets: () => readSecrets(root, io.env),
      env: io.env,
      log: (line) => io.stderr(line + "\n"),
    });
    try {
      const note = values.agent === undefined
        ? undefined
        : undefinedAgentNote(host.manifest(), agent);
      if (note) io.stderr(`beeuni sessions new: ${escapeControl(note)}\n`);
      const writer = await openSessionWriter(stateDir, {
        id,
        agent,
        harness: "experimental",
        model: `${settings.provider}/${settings.model}`,
        startedAt: new Date().toISOString(),
        prompt,
        pid: process.pid,
      });
      io.stdout(`session ${id}\n`);
      let atLineStart = true;
      const print = (text: string) => {
        if (text === "") return;
        io.stdout(text);
        atLineStart = text.endsWith("\n");
      };
      // SIGINT or SIGTERM stops the session: its calls are aborted and
      // its log ends as failed.
      const stopper = new AbortController();
      const runtime = await loadRuntime();
      const unlisten = runtime.onTerminate(() => stopper.abort());
      const result = await runSession({
        signal: stopper.signal,
        id,
        host,
        agent,
        model,
        provider: settings.provider,
        prompt,
        maxSteps,
        writer,
        onText: (delta) => print(escapeControl(delta, { keepNewlines: true })),
        log: (line) => {
          if (verbose) io.stderr(escapeControl(line) + "\n");
        },
        onRecord: (record) => {
          if (record.type !== "tool-result") return;
          if (!atLineStart) print("\n");
          print(toolLine(record));
        },
      });
      unlisten();
      if (!atLineStart) print("\n");
      return sessionExit(io, id, result);
    } finally {
      await host.close();
      await watched.stop();
    }
  },
});
