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
import {
  type Command,
  type CommandIo,
  parseOptions,
  UsageError,
} from "./command.ts";
import { timeoutOption } from "./_timeout_option.ts";
import { projectHost } from "./_project_host.ts";
import { DEFAULT_AGENT } from "./tools_call.ts";
import { escapeControl, isProcessRunning } from "../common/mod.ts";
import { locateManifest } from "../project/mod.ts";
import { undefinedAgentNote } from "../manifest/mod.ts";
import { readSecrets } from "../secrets/mod.ts";
import { loadRuntime, selfCommand } from "../runtime/mod.ts";
import {
  DEFAULT_MAX_STEPS,
  languageModel,
  modelSettings,
  newSessionId,
  openSessionWriter,
  projectStateDir,
  runSession,
  type SessionRecord,
  sessionSize,
} from "../sessions/mod.ts";

const HARNESSES = ["experimental", "standard"];

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

/** The line `--wait` prints for a finished tool call. */
function toolLine(record: SessionRecord & { type: "tool-result" }): string {
  return `[tool] ${
    escapeControl(record.name)
  } ${record.status} ${record.durationMs} ms\n`;
}

/** `beeuni sessions new --prompt TEXT`. */
export const sessionsNewCommand: Command = {
  name: "sessions new",
  summary: "Start a session: a model given the project's tools and a prompt",
  usage:
    `Usage: beeuni sessions new --prompt TEXT [--agent NAME] [--model PROVIDER/MODEL]
                          [--harness experimental] [--max-steps N] [--wait]

Starts a session in which a model gets the tools the agent sees (as
\`beeuni tools ls --agent NAME --harness experimental\` lists them) and the
prompt; the toolkit runs each call the model makes as the daemon would.
Prints "session <id>" first. Without --wait the session runs in the
background (\`beeuni sessions log <id>\` shows it); with --wait the model's
text and one line per tool call (name, status, duration) are printed as
they come, and the exit code is 0 when the model finished, 1 when the
session failed (a model error, or --max-steps turns used).

Models (PROVIDER/MODEL), and what each reads from the environment or, for
a key, from the project's secret store (\`beeuni secrets set NAME\`):
  openai/MODEL             OPENAI_API_KEY, OPENAI_BASE_URL (Responses API)
  anthropic/MODEL          ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL
  openai-compatible/MODEL  OPENAI_COMPATIBLE_BASE_URL (llama.cpp, vLLM,
                           Ollama: Chat Completions), OPENAI_COMPATIBLE_API_KEY

Options:
  --prompt TEXT     what to ask the model
  --agent NAME      the agent the session runs as (default "${DEFAULT_AGENT}")
  --model P/M       the model (default: BEEUNI_MODEL)
  --harness H       experimental (default: the toolkit runs the tools)
  --max-steps N     the most model turns (default ${DEFAULT_MAX_STEPS})
  --wait            run in the foreground and print the session
  --manifest PATH   the project's beeuni.yaml (default: found from the
                    current folder upwards)
  --timeout-ms N    each tool call's timeout in milliseconds
  --runner RUNTIME  the runtime tools run on: deno, node or bun
  --verbose         also print the host's log lines on standard error
`,
  async run(args: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseOptions(args, {
      prompt: { type: "string" },
      agent: { type: "string" },
      model: { type: "string" },
      harness: { type: "string" },
      "max-steps": { type: "string" },
      wait: { type: "boolean" },
      manifest: { type: "string" },
      "timeout-ms": { type: "string" },
      runner: { type: "string" },
      verbose: { type: "boolean" },
      // Set when `sessions new` starts itself in the background.
      id: { type: "string" },
    });
    if (positionals.length > 0) {
      throw new UsageError(`unexpected argument "${positionals[0]}"`);
    }
    const prompt = values.prompt as string | undefined;
    if (prompt === undefined || prompt.trim() === "") {
      throw new UsageError("missing --prompt: say what to ask the model");
    }
    const agent = (values.agent as string | undefined) ?? DEFAULT_AGENT;
    if (agent === "") throw new UsageError("--agent must not be empty");
    const harness = (values.harness as string | undefined) ?? "experimental";
    if (!HARNESSES.includes(harness)) {
      throw new UsageError(
        `unknown harness "${harness}": use "experimental" or "standard"`,
      );
    }
    if (harness === "standard") {
      throw new UsageError(
        `the standard harness cannot run sessions here yet: use --harness experimental`,
      );
    }
    const stepsText = values["max-steps"] as string | undefined;
    const maxSteps = stepsText === undefined
      ? DEFAULT_MAX_STEPS
      : Number(stepsText);
    if (!Number.isInteger(maxSteps) || maxSteps < 1) {
      throw new UsageError(
        `--max-steps must be a whole number of at least 1, got "${stepsText}"`,
      );
    }
    const timeoutMs = timeoutOption(values["timeout-ms"] as string | undefined);
    const manifestFile = locateManifest(
      io.cwd,
      values.manifest as string | undefined,
    );
    const root = dirname(manifestFile);
    let secrets: Record<string, string> | undefined;
    const lookup = (name: string) =>
      io.env[name] || (secrets ??= readSecrets(root, io.env))[name];
    const settings = modelSettings(values.model as string | undefined, lookup);
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

    const id = (values.id as string | undefined) ?? newSessionId();
    const verbose = values.verbose === true;
    const model = await languageModel(settings);
    const host = await projectHost(manifestFile, io, {
      validateArgs: false,
      runner: values.runner as string | undefined,
      timeoutMs,
      log: (line) => {
        if (verbose) io.stderr(line + "\n");
      },
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
      if (result.status === "failed") {
        io.stderr(
          `beeuni sessions new: session ${id} failed: ${
            escapeControl(result.error ?? "")
          }\n`,
        );
        return 1;
      }
      return 0;
    } finally {
      await host.close();
    }
  },
};
