// A runner process started ahead of need, so that the first call, or a
// reload about to come, does not wait for one to start. Only one: it is not
// replaced once taken, so an idle host holds no extra process, and one not
// taken within the runners' idle time stops like an idle runner.

import { type Launcher, NO_GRANT } from "./_launcher.ts";
import type { RunnerEvents, RunnerProcess } from "./_runner_process.ts";

/** A host's one spare runner process. */
export class SpareRunner {
  readonly #launcher: Launcher;
  readonly #log: (line: string) => void;
  readonly #idleMs: number;
  #spare?: RunnerProcess;
  /** The confinement the spare was started with (see {@linkcode Launcher.version}). */
  #version = -1;
  #idle?: ReturnType<typeof setTimeout>;
  #closed = false;

  /** A spare started by `launcher`, stopped after `idleMs` unused. */
  constructor(
    launcher: Launcher,
    log: (line: string) => void,
    idleMs: number,
  ) {
    this.#launcher = launcher;
    this.#log = log;
    this.#idleMs = idleMs;
  }

  /** Starts the spare, unless there is one. */
  fill(): void {
    if (this.#closed || this.#spare) return;
    this.#version = this.#launcher.version;
    const spare = this.#launcher.start(NO_GRANT, {
      message: () => {},
      exit: () => {
        if (this.#spare === spare) this.#spare = undefined;
      },
      log: (line) => this.#log(`[tools] spare runner: ${line}`),
    });
    this.#spare = spare;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      if (this.#spare !== spare) return;
      this.#spare = undefined;
      spare.kill();
    }, this.#idleMs);
  }

  /**
   * A runner process for the agents granted `grant`, reporting to
   * `events`: the spare when it fits (no secrets, started with the
   * confinement now in force), else a new one.
   */
  take(grant: string, events: RunnerEvents): RunnerProcess {
    const spare = this.#spare;
    if (
      grant !== NO_GRANT || !spare || spare.exited ||
      this.#version !== this.#launcher.version
    ) {
      return this.#launcher.start(grant, events);
    }
    this.#spare = undefined;
    clearTimeout(this.#idle);
    spare.rebind(events);
    return spare;
  }

  /** Stops the spare for good. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#idle);
    this.#spare?.kill();
    this.#spare = undefined;
  }
}
