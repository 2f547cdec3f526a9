// Stopping a real `beeuni` process at an exact line, through the V8
// inspector, so that a test can kill it there: a moment (between two
// renames, a temporary file written and not yet renamed) too short to hit
// by timing, reached without the product knowing it is under test.

import { join } from "node:path";
import { CLI, feedStdin, REPO_ROOT } from "./_helpers.ts";

/** Where to stop: the first line of `file` (repo-relative) that holds `text`. */
export interface StopAt {
  file: string;
  text: string;
  /** A JavaScript condition over the variables in scope there; stops every time when absent. */
  condition?: string;
}

/** A `beeuni` process held at a breakpoint. */
export interface StoppedRun {
  /** Kills it where it stands and waits until it is gone. */
  kill(): Promise<void>;
}

interface Message {
  id?: number;
  method?: string;
  // deno-lint-ignore no-explicit-any
  params?: any;
  // deno-lint-ignore no-explicit-any
  result?: any;
  error?: { message: string };
}

/** How long one attempt may take to reach the breakpoint. */
const ATTEMPT_MS = 30_000;
/** How many attempts before giving up. */
const ATTEMPTS = 3;

/**
 * Runs `beeuni <args>` under the inspector and resolves once it stands at
 * `at`, with none of that line run yet. Rejects (and kills the process)
 * when it ends without getting there. A process that still has not reached
 * it after a while is killed and started again, up to three times.
 */
export async function stoppedAt(
  args: string[],
  at: StopAt,
  options: { cwd: string; env?: Record<string, string>; stdin?: string },
): Promise<StoppedRun> {
  for (let attempt = 1;; attempt++) {
    try {
      return await attemptStop(args, at, options, attempt === ATTEMPTS);
    } catch (error) {
      if (!(error instanceof StalledError) || attempt === ATTEMPTS) throw error;
    }
  }
}

/** An attempt that did not reach the breakpoint in time. */
class StalledError extends Error {}

async function attemptStop(
  args: string[],
  at: StopAt,
  options: { cwd: string; env?: Record<string, string>; stdin?: string },
  last: boolean,
): Promise<StoppedRun> {
  const child = new Deno.Command(Deno.execPath(), {
    // `--quiet` would hide the inspector's address.
    args: ["run", "--inspect-wait=127.0.0.1:0", "-A", CLI, ...args],
    cwd: options.cwd,
    env: { NO_COLOR: "1", ...options.env },
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  await feedStdin(child, options.stdin);
  let stderr = "";
  let address: (url: string) => void;
  const listening = new Promise<string>((resolve) => address = resolve);
  const drained = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({
      write(chunk) {
        stderr += chunk;
        const url = stderr.match(/ws:\/\/\S+/)?.[0];
        if (url) address(url);
      },
    }),
  ).catch(() => {});
  const ended = child.status.then(() => {
    throw new Error(
      `beeuni ${args.join(" ")} ended before ${at.file}: ${stderr}`,
    );
  });
  let socket: WebSocket | undefined;
  const kill = async () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
    await child.status;
    await drained;
    socket?.close();
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new StalledError(
            `beeuni ${args.join(" ")} did not reach ${at.file} within ${
              ATTEMPT_MS / 1000
            } s${last ? "" : "; trying again"}: ${stderr}`,
          ),
        ),
      ATTEMPT_MS,
    );
  });
  try {
    const url = await Promise.race([listening, ended, stalled]);
    const ws = socket = new WebSocket(url);
    await Promise.race([
      new Promise((resolve, reject) => {
        ws.onopen = resolve;
        ws.onerror = () =>
          reject(new Error(`cannot reach the inspector at ${url}`));
      }),
      ended,
      stalled,
    ]);
    await Promise.race([stopAt(ws, at), ended, stalled]);
    return { kill };
  } catch (error) {
    await kill();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Sets the breakpoint on `at` as its script is loaded; resolves when the process stands there. */
function stopAt(ws: WebSocket, at: StopAt): Promise<void> {
  const target = new URL(`file://${join(REPO_ROOT, at.file)}`).href;
  const waiting = new Map<number, (message: Message) => void>();
  let next = 0;
  const send = (method: string, params: unknown = {}): Promise<Message> => {
    const id = ++next;
    ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve) => waiting.set(id, resolve));
  };
  let scriptId: string | undefined;
  let breakpoint: string | undefined;
  let instrumentation: string | undefined;
  // Under --inspect-brk Deno could miss a run request sent while it still
  // loaded the main module's graph and wait for ever; --inspect-wait runs
  // once a session connects, and the request is repeated until the first
  // pause all the same (it does nothing to a process already running).
  let nudge: ReturnType<typeof setInterval> | undefined;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) =>
      reject(error instanceof Error ? error : new Error(String(error)));
    /** Every new script stops before it runs: the first time the target is loaded, the breakpoint goes in. */
    const onPause = async (params: { reason: string }): Promise<void> => {
      if (breakpoint !== undefined && params.reason !== "instrumentation") {
        resolve();
        return;
      }
      if (breakpoint === undefined && scriptId !== undefined) {
        const { result } = await send("Debugger.getScriptSource", { scriptId });
        const lines: string[] = result.scriptSource.split("\n");
        const lineNumber = lines.findIndex((line) => line.includes(at.text));
        if (lineNumber < 0) {
          throw new Error(`no line of ${at.file} holds ${at.text}`);
        }
        const set = await send("Debugger.setBreakpoint", {
          location: {
            scriptId,
            lineNumber,
            columnNumber: lines[lineNumber].indexOf(at.text),
          },
          ...(at.condition ? { condition: at.condition } : {}),
        });
        if (set.error) throw new Error(set.error.message);
        breakpoint = set.result.breakpointId;
        await send("Debugger.removeBreakpoint", {
          breakpointId: instrumentation,
        });
      }
      await send("Debugger.resume");
    };
    ws.onmessage = (event) => {
      const message: Message = JSON.parse(event.data);
      if (message.id !== undefined) {
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      } else if (message.method === "Debugger.scriptParsed") {
        if (message.params.url === target) scriptId = message.params.scriptId;
      } else if (message.method === "Debugger.paused") {
        clearInterval(nudge);
        onPause(message.params).catch(fail);
      }
    };
    (async () => {
      await send("Debugger.enable");
      const set = await send("Debugger.setInstrumentationBreakpoint", {
        instrumentation: "beforeScriptExecution",
      });
      instrumentation = set.result.breakpointId;
      nudge = setInterval(() => {
        if (ws.readyState !== WebSocket.OPEN) return clearInterval(nudge);
        ws.send(JSON.stringify({
          id: ++next,
          method: "Runtime.runIfWaitingForDebugger",
        }));
      }, 250);
      ws.addEventListener("close", () => clearInterval(nudge));
      await send("Runtime.runIfWaitingForDebugger");
    })().catch(fail);
  });
}
