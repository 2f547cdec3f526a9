// What a runner sets up before any tool code runs: exits turned
// into errors, signals kept to the runner's own processes, the APIs that
// reach into other processes taken away, stray errors logged instead of
// ending the process, and an end when the host is gone.

import process from "node:process";
import { thrownMessage } from "./_outcome.ts";

/** The argument that tells a runner its tools may start processes. */
export const MAY_START_PROCESSES = "--beeuni-may-start-processes";

class ExitError extends Error {
  constructor(how: string, code: unknown) {
    super(
      `the tool called ${how}(${
        code === undefined ? "" : String(code)
      }): a tool may not end the process; throw an Error to fail the call instead`,
    );
    this.name = "Error";
  }
}

type Kill = (pid: number, signal?: string | number) => unknown;

const globals = globalThis as Record<string, unknown>;
const internals = process as unknown as Record<string, unknown>;
const denoGlobal = globals.Deno as
  | { exit?: (code: number) => never }
  | undefined;
// Deno's process.exit calls Deno.exit, which the guards replace: keep both.
const realExit: (code: number) => never = denoGlobal?.exit
  ? denoGlobal.exit.bind(denoGlobal)
  : process.exit.bind(process);
// Node.js's process.kill calls process._kill, which the guards replace.
const rawKill = typeof internals._kill === "function"
  ? (internals._kill as Kill).bind(process)
  : undefined;
const realKill: Kill = rawKill ?? process.kill.bind(process);
const parent = process.ppid;

/** Ends this runner and every process it started (its process group). */
export function endGroup(code: number): never {
  try {
    realKill(-process.pid, rawKill ? 9 : "SIGKILL");
  } catch {
    // Not allowed to signal (no children can exist then) or already gone.
  }
  realExit(code);
}

/**
 * Whether a tool may signal `pid`: its own process and process group
 * always; other processes only when it may start processes (they may be
 * its own), and never the host, every process (-1) or another group.
 */
function maySignal(pid: number, mayStart: boolean): boolean {
  if (pid === process.pid || pid === -process.pid) return true;
  if (!mayStart) return false;
  return pid !== parent && pid !== 0 && pid !== -1 && pid > 0;
}

function refusal(pid: number): Error {
  return new Error(
    `a tool may not signal process ${pid}: only processes it started`,
  );
}

/** Replaces `owner[key]` with `value` where the runtime lets it. */
function replace(owner: Record<string, unknown>, key: string, value: unknown) {
  try {
    owner[key] = value;
  } catch {
    // Frozen: the runtime's own permissions still apply.
  }
}

function guardExits(): void {
  process.exit = ((code?: number) => {
    throw new ExitError("process.exit", code);
  }) as typeof process.exit;
  const deno = globals.Deno as Record<string, unknown> | undefined;
  if (deno) {
    replace(deno, "exit", (code?: number) => {
      throw new ExitError("Deno.exit", code);
    });
  }
}

function guardSignals(mayStart: boolean): void {
  const guarded = (kill: Kill): Kill => (pid, signal) => {
    if (!maySignal(Number(pid), mayStart)) throw refusal(Number(pid));
    return kill(pid, signal);
  };
  process.kill = guarded(process.kill.bind(process)) as typeof process.kill;
  if (rawKill) replace(internals, "_kill", guarded(rawKill));
  const deno = globals.Deno as Record<string, unknown> | undefined;
  if (deno && typeof deno.kill === "function") {
    replace(deno, "kill", guarded((deno.kill as Kill).bind(deno)));
  }
  // Node.js: opens another process's inspector (SIGUSR1), unchecked by its
  // permission model.
  if (typeof internals._debugProcess === "function") {
    replace(internals, "_debugProcess", (pid: number) => {
      throw new Error(
        `a tool may not open the debugger of process ${pid}`,
      );
    });
  }
}

/**
 * Turns exits into errors, keeps signals to the runner's own processes,
 * logs stray rejections and exceptions with `log` instead of ending the
 * runner, and ends it when the host is gone (adopted by another parent).
 */
export function installGuards(log: (text: string) => void): void {
  guardExits();
  guardSignals(process.argv.includes(MAY_START_PROCESSES));
  process.on("unhandledRejection", (reason: unknown) => {
    log(`unhandled rejection: ${thrownMessage(reason)}`);
  });
  process.on("uncaughtException", (error: unknown) => {
    log(`uncaught exception: ${thrownMessage(error)}`);
  });
  setInterval(() => {
    if (process.ppid !== parent) endGroup(0);
  }, 250).unref?.();
}
