/**
 * The standard harness: a session run by opencode. `opencode run` runs in
 * the project, where the daemon's plugin gives it the project's tools
 * (a daemon is started for the session when none serves the project),
 * and the events it prints become the session's records, the same
 * records the experimental harness writes.
 *
 * @module
 */

import { spawn } from "node:child_process";
import { dirname } from "node:path";
import { createInterface } from "node:readline";
import {
  type Env,
  errorMessage,
  escapeControl,
  findProgram,
} from "../common/mod.ts";
import {
  DaemonNotRunningError,
  locateDaemon,
  type RunningDaemon,
} from "../daemon/mod.ts";
import { locateManifest } from "../project/mod.ts";
import { readSecrets } from "../secrets/mod.ts";
import type { Io } from "../runtime/mod.ts";
import {
  opencodeEventRecords,
  type SessionRecord,
  type SessionWriter,
} from "../sessions/mod.ts";

/** The provider keys opencode reads that a session takes from the project's secret store when the environment lacks them. */
export const MODEL_KEY_NAMES: readonly string[] = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "OPENROUTER_API_KEY",
];

/** How to run a session in the standard harness. */
export interface StandardSessionOptions {
  /** The project folder (its `beeuni.yaml` is found from here upwards). */
  dir: string;
  /** The opencode agent to run as; opencode's default agent when absent. */
  agent?: string;
  /** `provider/model` as opencode names it; else `BEEUNI_MODEL`, else opencode's configured model. */
  model?: string;
  /** The user's prompt. */
  prompt: string;
  /** Where the session's records go (its start record written already). */
  writer: SessionWriter;
  /** The environment opencode and the daemon run with. */
  env: Env;
  /** Called with each record once written (to print it as it comes). */
  onRecord?(record: SessionRecord): void;
  /** Receives the log lines of a daemon the session starts. */
  log?(line: string): void;
  /** Stops the session: opencode is stopped and the session fails. */
  signal?: AbortSignal;
}

/** How a standard-harness session ended. */
export interface StandardSessionResult {
  /** `done` when opencode ended its run without an error. */
  status: "done" | "failed";
  /** Why it failed. */
  error?: string;
}

/** The most bytes of opencode's standard error kept, for the failure message. */
const MAX_STDERR = 64 * 1024;

/** An `Io` for a daemon started in this process: nothing on standard output, logs to `log`. */
function daemonIo(root: string, env: Env, log?: (line: string) => void): Io {
  return {
    cwd: root,
    env,
    stdout: () => {},
    stderr: (text) => {
      for (const line of text.split("\n")) if (line) log?.(line);
    },
    readStdin: () => Promise.resolve(""),
    color: false,
  };
}

/** Starts a daemon for the project at `root` unless one serves it already. */
async function ensureDaemon(
  root: string,
  env: Env,
  log?: (line: string) => void,
): Promise<RunningDaemon | undefined> {
  try {
    locateDaemon(root, env);
    return undefined;
  } catch (error) {
    // A daemon whose token is out of reach still serves the project: the
    // plugin says what is wrong on each call.
    if (!(error instanceof DaemonNotRunningError)) return undefined;
  }
  const { startDaemon } = await import("../daemon/mod.ts");
  return await startDaemon(
    { dir: root, port: 0, hostname: "127.0.0.1", watch: true },
    daemonIo(root, env, log),
  );
}

/** `env` with the provider keys it lacks taken from the project's secret store. */
function withModelKeys(root: string, env: Env): Env {
  const missing = MODEL_KEY_NAMES.filter((name) => !env[name]);
  if (missing.length === 0) return env;
  let secrets: Record<string, string>;
  try {
    secrets = readSecrets(root, env);
  } catch {
    return env;
  }
  const added = Object.fromEntries(
    missing.filter((name) => secrets[name]).map((
      name,
    ) => [name, secrets[name]]),
  );
  return { ...env, ...added };
}

/** What `opencode run` did: its exit, the error event it printed, its standard error. */
interface OpencodeRun {
  code: number | null;
  error?: string;
  stderr: string;
}

/** Runs `opencode run --format json` and writes the records of its events as they come. */
function spawnOpencode(
  program: string,
  args: string[],
  root: string,
  env: Env,
  options: StandardSessionOptions,
): Promise<OpencodeRun> {
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      cwd: root,
      // opencode takes its project folder from PWD when set.
      env: { ...env, PWD: root } as Record<string, string>,
      // No standard input: opencode run reads a piped one as more prompt.
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-MAX_STDERR);
    });
    let error: string | undefined;
    let writes = Promise.resolve();
    createInterface({ input: child.stdout }).on("line", (line) => {
      const found = opencodeEventRecords(line);
      error ??= found.error;
      for (const record of found.records) {
        writes = writes.then(async () => {
          await options.writer.write(record);
          options.onRecord?.(record);
        });
      }
    });
    const stop = () => child.kill("SIGTERM");
    options.signal?.addEventListener("abort", stop, { once: true });
    child.on("error", (e) => error ??= errorMessage(e));
    child.on("close", async (code) => {
      options.signal?.removeEventListener("abort", stop);
      await writes.catch((e) => error ??= errorMessage(e));
      resolve({ code, error, stderr });
    });
  });
}

/** The last line of `stderr` that says something, without terminal escapes. */
function lastLine(stderr: string): string | undefined {
  const lines = stderr.split("\n").map((line) => line.trim()).filter(Boolean);
  const last = lines.at(-1);
  return last === undefined ? undefined : escapeControl(last);
}

/**
 * Runs one session in opencode: starts a daemon for the project when none
 * serves it (stopped again when the session ends), runs `opencode run
 * --format json [--model M] [--agent A] PROMPT` in the project, writes a
 * text record for the model's text and a tool-call and a tool-result
 * record for each finished call, then the end record.
 *
 * @returns How the session ended; it never rejects for opencode's
 * failures (they end the session as failed).
 *
 * @example
 * ```ts ignore (needs opencode, a model, and a session file)
 * const result = await runStandardSession({
 *   dir: "/work/project", prompt: "Call lookup_order with id A-7",
 *   model: "openai/gpt-4.1", writer, env: process.env,
 * });
 * console.log(result.status);
 * ```
 */
export async function runStandardSession(
  options: StandardSessionOptions,
): Promise<StandardSessionResult> {
  const end = async (
    result: StandardSessionResult,
  ): Promise<StandardSessionResult> => {
    const record: SessionRecord = {
      type: "end",
      status: result.status,
      ...(result.error === undefined ? {} : { error: result.error }),
      endedAt: new Date().toISOString(),
    };
    await options.writer.write(record);
    options.onRecord?.(record);
    return result;
  };
  const { env } = options;
  const program = findProgram("opencode", env);
  if (!program) {
    return await end({
      status: "failed",
      error:
        "opencode is not installed: install it (npm install -g opencode-ai) so that `opencode` is on PATH, or use --harness experimental",
    });
  }
  let root: string;
  let daemon: RunningDaemon | undefined;
  try {
    root = dirname(locateManifest(options.dir));
    daemon = await ensureDaemon(root, env, options.log);
  } catch (error) {
    return await end({
      status: "failed",
      error: `cannot start the beeuni daemon for opencode: ${
        errorMessage(error)
      }`,
    });
  }
  try {
    const model = options.model ?? env.BEEUNI_MODEL;
    // A prompt starting with "-" would be read as an option.
    const prompt = options.prompt.startsWith("-")
      ? ` ${options.prompt}`
      : options.prompt;
    const args = [
      "run",
      "--format",
      "json",
      ...(model ? ["--model", model] : []),
      ...(options.agent ? ["--agent", options.agent] : []),
      prompt,
    ];
    const run = await spawnOpencode(
      program,
      args,
      root,
      withModelKeys(root, env),
      options,
    );
    if (options.signal?.aborted) {
      return await end({ status: "failed", error: "the session was stopped" });
    }
    if (run.error !== undefined) {
      return await end({ status: "failed", error: run.error });
    }
    if (run.code !== 0) {
      return await end({
        status: "failed",
        error: `opencode exited with code ${run.code}${
          lastLine(run.stderr) ? `: ${lastLine(run.stderr)}` : ""
        }`,
      });
    }
    return await end({ status: "done" });
  } finally {
    await daemon?.close();
  }
}
