// One tool runner process as the host sees it: started in a process group
// of its own, spoken to over a channel of its own (see _channel.ts) whose
// every message is checked, its output logged within bounds, and
// killed with everything it started.

import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import process from "node:process";
import { frame, LineSplitter, MAX_MESSAGE_CHARS } from "./_channel.ts";
import { cutLine, MAX_LINE_CHARS } from "./_channel.ts";
import { checkMessage } from "./_check_message.ts";
import { descendantsOf } from "./_process_tree.ts";
import type { ToHost, ToRunner } from "./_protocol.ts";

/** How to start a runner process. */
export interface SpawnSpec {
  /** The executable. */
  command: string;
  /** Its arguments. */
  args: string[];
  /** The working folder: the project root. */
  cwd: string;
  /** The whole environment of the process. */
  env: Record<string, string>;
  /**
   * Also kill the processes below it that left its process group, looked
   * up in /proc when it is killed: for runners that may start processes.
   */
  killDescendants?: boolean;
}

/** What a runner process reports. */
export interface RunnerEvents {
  /** A message from the runner, checked. */
  message(message: ToHost): void;
  /** The process ended: why, in words. */
  exit(reason: string): void;
  /** A line the tool printed or logged, or a problem of the process, cut to one line's length. */
  log(line: string): void;
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** Lines a runner may log per second; more are counted and dropped. */
const LOG_LINES_PER_SECOND = 200;

/** Calls `onLine` with each line of `stream`, long lines cut. */
function lines(
  stream: Readable | null,
  onLine: (line: string) => void,
): void {
  if (!stream) return;
  stream.setEncoding?.("utf8");
  // A line longer than this is logged in pieces, each cut to a line's length.
  const piece = MAX_LINE_CHARS * 4;
  let rest = "";
  stream.on("data", (chunk: string) => {
    rest += chunk;
    let end: number;
    while ((end = rest.indexOf("\n")) !== -1) {
      onLine(rest.slice(0, end));
      rest = rest.slice(end + 1);
    }
    while (rest.length > piece) {
      onLine(rest.slice(0, piece));
      rest = rest.slice(piece);
    }
  });
  stream.on("end", () => {
    if (rest !== "") onLine(rest);
  });
}

function shown(line: string): string {
  return cutLine(
    line.replace(
      CONTROL,
      (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
    ),
  );
}

/**
 * Lets through at most {@linkcode LOG_LINES_PER_SECOND} lines a second,
 * and says at the end of each second how many it dropped.
 */
class LogBudget {
  #windowStart = 0;
  #used = 0;
  #dropped = 0;
  readonly #say: (line: string) => void;

  /** A budget whose notes about dropped lines go to `say`. */
  constructor(say: (line: string) => void) {
    this.#say = say;
  }

  /** Whether one more line may be logged now. */
  take(): boolean {
    const now = performance.now();
    if (now - this.#windowStart >= 1_000) {
      this.#windowStart = now;
      this.#used = 0;
    }
    if (this.#used < LOG_LINES_PER_SECOND) {
      this.#used++;
      return true;
    }
    if (this.#dropped++ === 0) {
      const wait = this.#windowStart + 1_000 - now;
      setTimeout(() => this.#note(), Math.max(0, wait)).unref?.();
    }
    return false;
  }

  #note(): void {
    const dropped = this.#dropped;
    this.#dropped = 0;
    this.#say(`${dropped} more lines of this runner were not logged`);
  }
}

/** A started runner process. */
export class RunnerProcess {
  readonly #child?: ChildProcess;
  readonly #killDescendants: boolean;
  #events: RunnerEvents;
  #exited = false;
  /** Why the host killed it for breaking the protocol. */
  #broken?: string;
  #lastErrors: string[] = [];
  readonly #budget = new LogBudget((note) => this.#events.log(note));

  /**
   * A runner that could not be started for `reason`: it reports its end
   * as soon as its user listens.
   */
  static refused(reason: string, events: RunnerEvents): RunnerProcess {
    return new RunnerProcess({ refused: reason }, events);
  }

  /** Starts the process described by `spec`. */
  constructor(spec: SpawnSpec | { refused: string }, events: RunnerEvents) {
    this.#events = events;
    if ("refused" in spec) {
      this.#killDescendants = false;
      this.refusal = spec.refused;
      queueMicrotask(() => this.#ended(`it could not start: ${spec.refused}`));
      return;
    }
    this.#killDescendants = spec.killDescendants ?? false;
    this.#child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      // stdin unused; stdout and stderr the tool's; 3 and 4 the channel.
      stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
      // Its own process group, so that killing it kills what it started.
      detached: true,
    });
    // A stream's error (a pipe closed under a write) is the process ending,
    // which the exit event reports: never an error thrown in the host.
    for (const stream of this.#child.stdio) stream?.on("error", () => {});
    this.#child.on("error", (error) => {
      this.#log(`runner process error: ${error.message}`);
      this.#ended(`it could not start (${error.message})`);
    });
    this.#child.on("exit", (code, signal) => {
      this.#ended(this.#exitReason(code, signal));
    });
    this.#read(this.#child.stdio[4] as Readable | null);
    lines(this.#child.stdout, (line) => this.#log(line));
    lines(this.#child.stderr, (line) => {
      this.#lastErrors.push(line.slice(0, MAX_LINE_CHARS));
      if (this.#lastErrors.length > 20) this.#lastErrors.shift();
      this.#log(line);
    });
  }

  /** Reads the runner's messages: each line one message, checked. */
  #read(stream: Readable | null): void {
    if (!stream) return;
    stream.setEncoding("utf8");
    const splitter = new LineSplitter(MAX_MESSAGE_CHARS, {
      line: (line) => {
        if (this.#exited || this.#broken !== undefined) return;
        const message = checkMessage(line);
        if ("broken" in message) this.#break(message.broken);
        else if (message.t === "log") this.#log(message.text);
        else this.#events.message(message);
      },
      overflow: (chars) =>
        this.#break(
          `a message is over ${
            chars - 1
          } characters, past the limit of ${MAX_MESSAGE_CHARS}`,
        ),
    });
    stream.on("data", (chunk: string) => splitter.push(chunk));
  }

  /** Ends a runner that broke the protocol: its calls fail, saying so. */
  #break(why: string): void {
    if (this.#broken !== undefined || this.#exited) return;
    this.#broken = why;
    this.kill();
  }

  #log(line: string): void {
    if (this.#budget.take()) this.#events.log(shown(line));
  }

  /** Why no process was started, for a runner refused before it started. */
  readonly refusal?: string;

  /** Sends what the process reports from now on to `events` (a spare runner taken into use). */
  rebind(events: RunnerEvents): void {
    this.#events = events;
  }

  /** The process id. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Whether the process has ended. */
  get exited(): boolean {
    return this.#exited;
  }

  #exitReason(code: number | null, signal: string | null): string {
    if (this.#broken !== undefined) {
      return `it broke the tool host's protocol (${this.#broken}), so the host stopped it`;
    }
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
    const channel = this.#child?.stdio[3] as Writable | null | undefined;
    if (this.#exited || this.#broken !== undefined || !channel?.writable) {
      return false;
    }
    try {
      channel.write(frame(message));
      return true;
    } catch {
      return false;
    }
  }

  /** Kills the process and every process it started at once. */
  kill(): void {
    const pid = this.#child?.pid;
    if (pid === undefined) return;
    // Looked up before anything dies: a child of a killed parent is adopted
    // by another process, and then no longer known as the runner's.
    const strays = this.#killDescendants && !this.#exited
      ? descendantsOf(pid)
      : [];
    for (const target of [-pid, pid, ...strays.flatMap((p) => [-p, p])]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // Already gone, or not a process group.
      }
    }
  }

  /**
   * The memory the process costs in bytes, where the system says (Linux):
   * its proportional set size, which counts the pages it shares with other
   * processes (the runtime's own binary) in part.
   */
  memoryBytes(): number | undefined {
    const pid = this.#child?.pid;
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
