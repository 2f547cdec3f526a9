// Which runner serves a call, and how many run at once: one runner
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
    grant: string,
    idle: () => void,
  ) => ToolRunner;
  // Insertion order is use order: the first entry is the least recently used.
  #runners = new Map<string, ToolRunner>();
  // One timer for every idle runner, armed for the earliest to stop: a call
  // touches no timer.
  #sweep?: ReturnType<typeof setTimeout>;

  /** A pool whose runners `make` builds. */
  constructor(
    limits: PoolLimits,
    options: Omit<ToolRunnerOptions, "idle">,
  ) {
    this.#limits = limits;
    this.#make = (module, grant, idle) =>
      new ToolRunner(module, grant, { ...options, idle });
  }

  /**
   * The runner for `key`, made for `module` and the agents granted `grant`
   * when there is none; marked as just used.
   */
  runner(key: string, module: ModuleRef, grant: string): ToolRunner {
    let runner = this.#runners.get(key);
    if (runner) this.#runners.delete(key);
    else runner = this.#make(module, grant, () => this.#idle(key));
    this.#runners.set(key, runner);
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
    runner.stop("the runner was stopped");
    this.#runners.delete(key);
  }

  #idle(_key: string): void {
    this.#sweep ??= setTimeout(() => this.#stopIdle(), this.#limits.idleMs);
  }

  /** Stops the runners idle for `idleMs`; arms again for the next one due. */
  #stopIdle(): void {
    this.#sweep = undefined;
    const now = performance.now();
    let next = Infinity;
    for (const [key, runner] of [...this.#runners]) {
      if (!runner.process || runner.running > 0) continue;
      const due = runner.lastUsed + this.#limits.idleMs;
      if (due <= now + 1) this.#stop(key, runner);
      else next = Math.min(next, due);
    }
    if (next !== Infinity) {
      this.#sweep = setTimeout(() => this.#stopIdle(), next - now);
    }
  }

  /** The key of the most recently used runner whose key starts with `prefix`. */
  lastUsed(prefix: string): string | undefined {
    let last: string | undefined;
    for (const key of this.#runners.keys()) {
      if (key.startsWith(prefix)) last = key;
    }
    return last;
  }

  /** Stops the runners whose key `stale` says no generation serves any more. */
  closeWhere(stale: (key: string) => boolean): void {
    for (const [key, runner] of [...this.#runners]) {
      if (!stale(key)) continue;
      runner.close();
      this.#runners.delete(key);
    }
  }

  /** Stops every runner; running calls end with an error. */
  close(): void {
    clearTimeout(this.#sweep);
    this.#sweep = undefined;
    for (const runner of this.#runners.values()) runner.close();
    this.#runners.clear();
  }
}
