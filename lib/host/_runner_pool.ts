// Which runner serves a call, and how many run at once (H3): one runner
// per tool and set of granted secrets, the least recently used idle ones
// stopped when more than `maxRunners` run or their memory passes the
// budget, and each stopped after `idleMs` without calls.

import { ToolRunner, type ToolRunnerOptions } from "./_tool_runner.ts";
import type { ModuleRef } from "./_protocol.ts";

/** The bounds of a pool. */
export interface PoolLimits {
  /** Most runner processes alive at once while some are idle. */
  maxRunners: number;
  /** Most memory (proportional set size) of all runner processes together, in MB. */
  memoryMb: number;
  /** A runner without calls for this long is stopped. */
  idleMs: number;
}

/** The runners of one host. */
export class RunnerPool {
  readonly #limits: PoolLimits;
  readonly #make: (
    module: ModuleRef,
    idle: () => void,
  ) => ToolRunner;
  // Insertion order is use order: the first entry is the least recently used.
  #runners = new Map<string, ToolRunner>();
  #idleTimers = new Map<ToolRunner, ReturnType<typeof setTimeout>>();

  /** A pool whose runners `make` builds. */
  constructor(
    limits: PoolLimits,
    options: Omit<ToolRunnerOptions, "idle">,
  ) {
    this.#limits = limits;
    this.#make = (module, idle) => new ToolRunner(module, { ...options, idle });
  }

  /** The runner for `key`, made for `module` when there is none; marked as just used. */
  runner(key: string, module: ModuleRef): ToolRunner {
    let runner = this.#runners.get(key);
    if (runner) this.#runners.delete(key);
    else runner = this.#make(module, () => this.#idle(key));
    this.#runners.set(key, runner);
    clearTimeout(this.#idleTimers.get(runner));
    if (!runner.process) this.#makeRoom(runner);
    return runner;
  }

  /** Runner processes alive now. */
  live(): number {
    let count = 0;
    for (const runner of this.#runners.values()) if (runner.process) count++;
    return count;
  }

  #memoryMb(): number {
    let bytes = 0;
    for (const runner of this.#runners.values()) {
      bytes += runner.process?.memoryBytes() ?? 0;
    }
    return bytes / (1024 * 1024);
  }

  /** Stops least recently used idle runners until one more fits the limits. */
  #makeRoom(keep: ToolRunner): void {
    const over = () =>
      this.live() >= this.#limits.maxRunners ||
      this.#memoryMb() > this.#limits.memoryMb;
    for (const [key, runner] of this.#runners) {
      if (!over()) return;
      if (runner === keep || !runner.process || runner.running > 0) continue;
      this.#stop(key, runner);
    }
  }

  #stop(key: string, runner: ToolRunner): void {
    clearTimeout(this.#idleTimers.get(runner));
    this.#idleTimers.delete(runner);
    runner.stop("the runner was stopped");
    this.#runners.delete(key);
  }

  #idle(key: string): void {
    const runner = this.#runners.get(key);
    if (!runner) return;
    clearTimeout(this.#idleTimers.get(runner));
    this.#idleTimers.set(
      runner,
      setTimeout(() => {
        this.#idleTimers.delete(runner);
        if (runner.running === 0 && this.#runners.get(key) === runner) {
          this.#stop(key, runner);
        }
      }, this.#limits.idleMs),
    );
  }

  /** Stops the runners whose key starts with `prefix` (a finished generation's). */
  closeWhere(prefix: string): void {
    for (const [key, runner] of [...this.#runners]) {
      if (!key.startsWith(prefix)) continue;
      clearTimeout(this.#idleTimers.get(runner));
      this.#idleTimers.delete(runner);
      runner.close();
      this.#runners.delete(key);
    }
  }

  /** Stops every runner; running calls end with an error. */
  close(): void {
    for (const timer of this.#idleTimers.values()) clearTimeout(timer);
    this.#idleTimers.clear();
    for (const runner of this.#runners.values()) runner.close();
    this.#runners.clear();
  }
}
