// One tool runner process as the host sees it: started in a process group
// of its own, spoken to over IPC, its output logged, and killed with
// everything it started (H1).

import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Readable } from "node:stream";
import process from "node:process";
import type { ToHost, ToRunner } from "./_protocol.ts";

/** How to start a runner process. */
export interface SpawnSpec {
  /** The executable. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** The working folder: the project root (T5). */
  cwd: string;
  /** The whole environment of the process. */
  env: Record<string, string>;
}

/** What a runner process reports. */
export interface RunnerEvents {
  /** A message from the runner. */
  message(message: ToHost): void;
  /** The process ended: why, in words. */
  exit(reason: string): void;
  /** A line the tool printed, or a problem of the process. */
  log(line: string): void;
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** Longest line of a tool's output that reaches the log. */
const MAX_LOG_LINE = 1000;

/** Calls `onLine` with each line of `stream`, control characters escaped and long lines cut. */
function lines(
  stream: Readable | null,
  onLine: (line: string) => void,
): void {
  if (!stream) return;
  let rest = "";
  stream.setEncoding?.("utf8");
  stream.on("data", (chunk: string) => {
    rest += chunk;
    let end: number;
    while ((end = rest.indexOf("\n")) !== -1) {
      onLine(rest.slice(0, end));
      rest = rest.slice(end + 1);
    }
    if (rest.length > MAX_LOG_LINE * 4) {
      onLine(rest);
      rest = "";
    }
  });
  stream.on("end", () => {
    if (rest !== "") onLine(rest);
  });
}

function shown(line: string): string {
  const escaped = line.replace(
    CONTROL,
    (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  return escaped.length > MAX_LOG_LINE
    ? `${escaped.slice(0, MAX_LOG_LINE)}… (${escaped.length} characters)`
    : escaped;
}

// Deno's IPC carries a string faster than an object; Node.js and Bun the
// other way round. Either side reads both.
const AS_TEXT = typeof (globalThis as Record<string, unknown>).Deno ===
  "object";

/** A started runner process. */
export class RunnerProcess {
  readonly #child: ChildProcess;
  #events: RunnerEvents;
  #exited = false;
  #lastErrors: string[] = [];

  /** Starts the process described by `spec`. */
  constructor(spec: SpawnSpec, events: RunnerEvents) {
    this.#events = events;
    this.#child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      // Its own process group, so that killing it kills what it started.
      detached: true,
      serialization: "json",
    });
    this.#child.on("message", (message) => {
      if (this.#exited) return;
      this.#events.message(
        (typeof message === "string" ? JSON.parse(message) : message) as ToHost,
      );
    });
    this.#child.on("error", (error) => {
      this.#events.log(`runner process error: ${shown(error.message)}`);
      this.#ended(`it could not start (${error.message})`);
    });
    this.#child.on("exit", (code, signal) => {
      this.#ended(this.#exitReason(code, signal));
    });
    lines(this.#child.stdout, (line) => this.#events.log(shown(line)));
    lines(this.#child.stderr, (line) => {
      this.#lastErrors.push(line);
      if (this.#lastErrors.length > 20) this.#lastErrors.shift();
      this.#events.log(shown(line));
    });
  }

  /** Sends what the process reports from now on to `events` (a spare runner taken into use). */
  rebind(events: RunnerEvents): void {
    this.#events = events;
  }

  /** The process id. */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Whether the process has ended. */
  get exited(): boolean {
    return this.#exited;
  }

  #exitReason(code: number | null, signal: string | null): string {
    const tail = this.#lastErrors.join("\n");
    if (/out of memory|heap limit|allocation failed/i.test(tail)) {
      return "it ran out of memory";
    }
    return signal ? `it was ended by ${signal}` : `it exited with code ${code}`;
  }

  #ended(reason: string): void {
    if (this.#exited) return;
    this.#exited = true;
    this.#events.exit(reason);
  }

  /** Sends a message; false when the process is gone or the message cannot be sent. */
  send(message: ToRunner): boolean {
    if (this.#exited || !this.#child.connected) return false;
    try {
      this.#child.send(AS_TEXT ? JSON.stringify(message) : message);
      return true;
    } catch {
      return false;
    }
  }

  /** Kills the process and every process in its group at once. */
  kill(): void {
    const pid = this.#child.pid;
    if (pid !== undefined) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }

  /**
   * The memory the process costs in bytes, where the system says (Linux):
   * its proportional set size, which counts the pages it shares with other
   * processes (the runtime's own binary) in part.
   */
  memoryBytes(): number | undefined {
    const pid = this.#child.pid;
    if (pid === undefined || this.#exited) return undefined;
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      const match = /^Pss:\s+(\d+) kB/m.exec(rollup);
      return match ? Number(match[1]) * 1024 : undefined;
    } catch {
      return undefined;
    }
  }
}
