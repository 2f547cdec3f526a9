/**
 * The host's workers: one loader that imports every module once to read its
 * metadata, and one worker per tool, started on its first call, that runs
 * its calls. A worker that exits, stops answering or runs out of heap is
 * replaced; only the calls it was running fail.
 *
 * @module
 */

import { Worker } from "node:worker_threads";
import type { ContentBlock } from "./_host_content.ts";

const WORKER_URL = new URL("./_host_boot.js", import.meta.url);

/** A module to load: the tool's name and its absolute `file://` URL. */
export interface ModuleRef {
  /** The tool's name. */
  name: string;
  /** Absolute `file://` URL of the module. */
  url: string;
}

/** What the loader says about one module. */
export type LoadReport =
  | {
    name: string;
    ok: true;
    description: string;
    parameters: Record<string, unknown>;
  }
  | { name: string; ok: false; reason: string };

/** The outcome of one call as the worker reports it. */
export type RawOutcome =
  | {
    ok: true;
    output: string;
    /** The content blocks the tool returned, if it returned blocks. */
    content?: ContentBlock[];
    /** The `structuredContent` returned with the blocks. */
    structured?: Record<string, unknown>;
    /** Whether `output` is the JSON of a plain object. */
    json?: true;
  }
  | { ok: false; status: "error" | "timeout" | "aborted"; error: string };

/** A progress report of a running call. */
export interface ProgressUpdate {
  /** How much is done. */
  progress: number;
  /** How much there is in all, when known. */
  total?: number;
  /** What is going on. */
  message?: string;
}

/** Options shared by the workers. */
export interface PoolOptions {
  /** Heap limit per worker, in MB. */
  heapMb: number;
  /** Where run workers come from; a fresh one each time when absent. */
  spares?: SpareWorkers;
  /** A tool worker without calls for this long is stopped (it restarts on the next call); default 10 minutes. */
  idleMs?: number;
  /** Where worker-side problems (unhandled rejections, exits) are logged. */
  log: (line: string) => void;
  /** Send what tools print to standard output to standard error instead. */
  stdoutToStderr?: boolean;
}

/**
 * A call's result from a worker: `[id, ok, output or error, extra]`, where
 * `extra` is 1 when the output is a plain object's JSON, or the content
 * blocks the tool returned.
 */
type ResultMessage = [
  number,
  boolean,
  string,
  (1 | { content: ContentBlock[]; structured?: Record<string, unknown> })?,
];

/** A call for a worker: `[id, args, sessionId, agent, secrets, progress]`. */
type CallMessage = [
  number,
  unknown,
  string,
  string,
  Record<string, string> | undefined,
  1?,
];

/** A worker's result as the host's raw outcome. */
function rawOutcome(
  ok: boolean,
  text: string,
  extra: ResultMessage[3],
): RawOutcome {
  if (!ok) return { ok: false, status: "error", error: text };
  if (extra === undefined) return { ok: true, output: text };
  if (extra === 1) return { ok: true, output: text, json: true };
  return extra.structured === undefined
    ? { ok: true, output: text, content: extra.content }
    : {
      ok: true,
      output: text,
      content: extra.content,
      structured: extra.structured,
    };
}

/** How long a worker has to answer a ping before it is deemed stuck. */
const PING_MS = 2_000;

/** Messages for a worker whose script does not listen yet. */
const outboxes = new WeakMap<Worker, unknown[]>();

/**
 * Sends `message` to `worker`, holding it until the worker's script says
 * it is ready: a message that arrives while the script still loads may be
 * dropped.
 */
function post(worker: Worker, message: unknown): void {
  const outbox = outboxes.get(worker);
  if (outbox) outbox.push(message);
  else worker.postMessage(message);
}

function spawn(
  data: Record<string, unknown>,
  heapMb: number,
): Worker {
  const worker = new Worker(WORKER_URL, {
    workerData: data,
    resourceLimits: {
      maxOldGenerationSizeMb: heapMb,
      maxYoungGenerationSizeMb: Math.min(64, Math.max(8, heapMb / 8)),
    },
    stdout: false,
    stderr: false,
  });
  const outbox: unknown[] = [];
  outboxes.set(worker, outbox);
  const onReady = (msg: Record<string, unknown>) => {
    if (msg?.t !== "ready") return;
    worker.off("message", onReady);
    outboxes.delete(worker);
    for (const message of outbox) worker.postMessage(message);
  };
  worker.on("message", onReady);
  return worker;
}

/** A started worker and whether its script is up and listening. */
interface Started {
  worker: Worker;
  ready: boolean;
}

function startRun(heapMb: number, stdoutToStderr?: boolean): Started {
  const started: Started = {
    worker: spawn({ mode: "run", stdoutToStderr }, heapMb),
    ready: false,
  };
  const onReady = (msg: Record<string, unknown>) => {
    if (msg.t !== "ready") return;
    started.ready = true;
    started.worker.off("message", onReady);
  };
  started.worker.on("message", onReady);
  return started;
}

/**
 * Keeps one started run worker in reserve, so that a tool's first call
 * does not wait for a worker to start.
 */
export class SpareWorkers {
  #heapMb: number;
  #stdoutToStderr?: boolean;
  #spare?: Started;
  #refill?: ReturnType<typeof setTimeout>;
  #closed = false;

  constructor(heapMb: number, stdoutToStderr?: boolean) {
    this.#heapMb = heapMb;
    this.#stdoutToStderr = stdoutToStderr;
  }

  /** Starts the reserve worker if there is none. */
  fill(): void {
    if (this.#closed || this.#spare) return;
    this.#spare = startRun(this.#heapMb, this.#stdoutToStderr);
    this.#spare.worker.on("error", () => {});
    this.#spare.worker.on("exit", () => {
      this.#spare = undefined;
    });
  }

  /** A started worker: the reserve one if any (a new reserve is started soon after), otherwise a new one. */
  take(): Started {
    const spare = this.#spare;
    this.#spare = undefined;
    if (!spare) return startRun(this.#heapMb, this.#stdoutToStderr);
    spare.worker.removeAllListeners("exit");
    spare.worker.removeAllListeners("error");
    clearTimeout(this.#refill);
    this.#refill = setTimeout(() => this.fill(), 50);
    return spare;
  }

  /** Stops the reserve worker. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#refill);
    const spare = this.#spare;
    this.#spare = undefined;
    if (spare) await spare.worker.terminate();
  }
}

/**
 * Imports every module in one worker and reports each; a module that stalls
 * the loader (an endless loop or an exit at import time) is retried alone
 * in its own worker and reported as stuck when that times out too.
 */
export async function loadModules(
  modules: ModuleRef[],
  timeoutMs: number,
  options: PoolOptions,
  loader?: Worker,
): Promise<LoadReport[]> {
  if (modules.length === 0) {
    if (loader) await loader.terminate();
    return [];
  }
  const reports = new Map<string, LoadReport>();
  const outcome = await loadIn(modules, timeoutMs, options, reports, loader);
  if (outcome === "done") return modules.map((m) => reports.get(m.name)!);
  const left = modules.filter((m) => !reports.has(m.name));
  if (modules.length > 1) {
    await Promise.all(left.map(async (module) => {
      const own = new Map<string, LoadReport>();
      const result = await loadIn([module], timeoutMs, options, own);
      reports.set(
        module.name,
        own.get(module.name) ?? {
          name: module.name,
          ok: false,
          reason: result === "timeout"
            ? `importing the module did not finish within ${timeoutMs} ms`
            : `the module ended its worker while loading (${result})`,
        },
      );
    }));
  } else {
    for (const module of left) {
      reports.set(module.name, {
        name: module.name,
        ok: false,
        reason: outcome === "timeout"
          ? `importing the module did not finish within ${timeoutMs} ms`
          : `the module ended its worker while loading (${outcome})`,
      });
    }
  }
  return modules.map((m) => reports.get(m.name)!);
}

function loadIn(
  modules: ModuleRef[],
  timeoutMs: number,
  options: PoolOptions,
  reports: Map<string, LoadReport>,
  loader?: Worker,
): Promise<string> {
  return new Promise((resolve) => {
    const worker = loader ??
      startLoader(options.heapMb, options.stdoutToStderr);
    let settled = false;
    const finish = (how: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.removeAllListeners();
      worker.on("error", () => {});
      void worker.terminate();
      resolve(how);
    };
    const timer = setTimeout(() => finish("timeout"), timeoutMs);
    worker.on("message", (msg: Record<string, unknown>) => {
      if (msg.t === "loaded") {
        const report = msg as unknown as LoadReport & { t?: string };
        delete report.t;
        reports.set(report.name, report);
      } else if (msg.t === "loadDone") finish("done");
    });
    worker.on("error", (error: Error) => finish(`error: ${error.message}`));
    worker.on("exit", (code: number) => finish(`exit code ${code}`));
    post(worker, { t: "load", tools: modules });
  });
}

/**
 * Starts a loader worker ahead of {@linkcode loadModules}, so that its start
 * overlaps reading the manifest.
 */
export function startLoader(heapMb: number, stdoutToStderr?: boolean): Worker {
  return spawn({ mode: "load", stdoutToStderr }, heapMb);
}

interface Pending {
  resolve: (outcome: RawOutcome) => void;
  deadline: Deadline;
  ticket: CallTicket;
  onProgress?: (update: ProgressUpdate) => void;
}

/** One call's timeout in a {@linkcode Deadlines} set. */
export interface Deadline {
  /** When it fires, in `performance.now()` time. */
  at: number;
  /** What firing does. */
  fire: () => void;
}

/**
 * The timeouts of a host's running calls under one timer, armed for the
 * earliest. Adding a call with the usual timeout touches no timer (a later
 * deadline than the armed one) and removing one never does: a call costs a
 * set insertion and deletion, not a timer start and stop. When the timer
 * fires it fires what is due and re-arms for the next, if any.
 */
export class Deadlines {
  #entries = new Set<Deadline>();
  #timer?: ReturnType<typeof setTimeout>;
  #armedAt = Infinity;

  /** Fires `fire` after `ms` unless removed first. */
  add(ms: number, fire: () => void): Deadline {
    const entry = { at: performance.now() + ms, fire };
    this.#entries.add(entry);
    if (entry.at < this.#armedAt) this.#arm(entry.at);
    return entry;
  }

  /** Forgets a deadline. */
  remove(entry: Deadline): void {
    this.#entries.delete(entry);
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#armedAt = at;
    this.#timer = setTimeout(
      () => this.#sweep(),
      Math.min(Math.max(at - performance.now(), 0), 2_147_483_647),
    );
  }

  #sweep(): void {
    this.#timer = undefined;
    this.#armedAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    const due: Deadline[] = [];
    for (const entry of this.#entries) {
      if (entry.at <= now + 1) due.push(entry);
      else if (entry.at < next) next = entry.at;
    }
    for (const entry of due) {
      this.#entries.delete(entry);
      entry.fire();
    }
    // Firing may have added deadlines and armed for them.
    if (next < this.#armedAt) this.#arm(next);
  }

  /** Drops every deadline and the timer. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Infinity;
    this.#entries.clear();
  }
}

/**
 * The host's handle on one call: `abort()` stops it (T5). The host may
 * abort before the call is sent; the worker wires `cancel` once it is.
 */
export class CallTicket {
  /** Whether the call was aborted. */
  aborted = false;
  /** Set by the worker while the call runs. */
  cancel?: () => void;

  /** Aborts the call: its `context.signal` fires and it ends as aborted. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.cancel?.();
  }
}

/** What every call of a runtime's tools shares, sent once when a worker starts. */
export interface RunOptions extends PoolOptions {
  /** The base of `context.env`. */
  env: Record<string, string>;
  /** The host's call timeouts. */
  deadlines: Deadlines;
  /** `context.directory`. */
  directory: string;
}

/** Runs one tool's calls in a worker of its own, replacing the worker when it dies or hangs. */
export class ToolWorker {
  #name: string;
  #url: string;
  #options: RunOptions;
  #worker?: Worker;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #pinging = false;
  #ready = false;
  #checkWhenReady = false;
  #held: (() => void)[] = [];
  #idle?: ReturnType<typeof setTimeout>;
  #lastUsed = 0;
  #closed = false;

  constructor(name: string, url: string, options: RunOptions) {
    this.#name = name;
    this.#url = url;
    this.#options = options;
  }

  /** Calls now running in this worker. */
  get running(): number {
    return this.#pending.size;
  }

  #start(): Worker {
    const started = this.#options.spares?.take() ??
      startRun(this.#options.heapMb, this.#options.stdoutToStderr);
    const worker = started.worker;
    post(worker, {
      t: "init",
      name: this.#name,
      url: this.#url,
      env: this.#options.env,
      directory: this.#options.directory,
    });
    this.#ready = started.ready;
    worker.on("message", (
      msg: Record<string, unknown> | ResultMessage | ResultMessage[],
    ) => {
      if (Array.isArray(msg)) {
        // One result, or several sent together.
        const results =
          (Array.isArray(msg[0]) ? msg : [msg]) as ResultMessage[];
        for (const [id, ok, text, extra] of results) {
          this.#settle(id, rawOutcome(ok, text, extra));
        }
      } else if (msg.t === "progress") {
        this.#progress(msg.u as [number, number, number?, string?][]);
      } else if (msg.t === "ready") {
        this.#ready = true;
        if (this.#checkWhenReady) {
          this.#checkWhenReady = false;
          this.#check();
        }
      } else if (msg.t === "log") {
        this.#options.log(`[tools] ${this.#name}: ${msg.text}`);
      }
    });
    worker.on("error", (error: Error) => {
      this.#options.log(
        `[tools] ${this.#name}: worker error: ${error.message}`,
      );
    });
    worker.on("exit", (code: number) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      if (this.#closed) return;
      const heap = this.#options.heapMb;
      const reason =
        `the worker running tool "${this.#name}" ended unexpectedly (exit code ${code}): the tool may have run out of memory (limit ${heap} MB) or crashed; it is restarted on the next call`;
      this.#options.log(
        `[tools] ${this.#name}: worker ended (exit code ${code})`,
      );
      this.#failAll(reason);
    });
    this.#worker = worker;
    return worker;
  }

  /** Hands each progress report to its call's listener. */
  #progress(updates: [number, number, number?, string?][]): void {
    for (const [id, progress, total, message] of updates) {
      const listener = this.#pending.get(id)?.onProgress;
      if (!listener) continue;
      const update: ProgressUpdate = { progress };
      if (total !== undefined && total !== null) update.total = total;
      if (message !== undefined && message !== null) update.message = message;
      try {
        listener(update);
      } catch (error) {
        this.#options.log(
          `[tools] ${this.#name}: progress listener failed: ${
            error instanceof Error ? error.message : String(error)
          }`,
        );
      }
    }
  }

  #settle(id: number, outcome: RawOutcome): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    this.#options.deadlines.remove(pending.deadline);
    pending.ticket.cancel = undefined;
    pending.resolve(outcome);
    if (this.#pending.size === 0 && !this.#closed) {
      this.#lastUsed = performance.now();
      this.#armIdle(this.#options.idleMs ?? 600_000);
    }
  }

  /**
   * Stops the worker once it has had no call for `idleMs`. One timer per
   * idle period, not one per call: when it fires early (calls came and
   * went meanwhile) it waits out the rest.
   */
  #armIdle(delay: number): void {
    if (this.#idle !== undefined) return;
    this.#idle = setTimeout(() => {
      this.#idle = undefined;
      const worker = this.#worker;
      if (!worker || this.#closed || this.#pending.size > 0) return;
      const idleMs = this.#options.idleMs ?? 600_000;
      const left = this.#lastUsed + idleMs - performance.now();
      if (left > 1 || this.#pinging) {
        this.#armIdle(Math.max(left, 1));
        return;
      }
      this.#worker = undefined;
      void worker.terminate();
    }, delay);
  }

  #failAll(error: string): void {
    // Calls not sent yet end here too: none may reach the next worker.
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    this.#outbox = [];
    for (const id of [...this.#pending.keys()]) {
      this.#settle(id, { ok: false, status: "error", error });
    }
  }

  /** Runs one call; never rejects. */
  call(
    args: unknown,
    sessionId: string,
    agent: string,
    secrets: Record<string, string> | undefined,
    timeoutMs: number,
    ticket: CallTicket,
    onProgress?: (update: ProgressUpdate) => void,
  ): Promise<RawOutcome> {
    if (this.#closed) {
      return Promise.resolve({
        ok: false,
        status: "error",
        error: `tool "${this.#name}" is shutting down`,
      });
    }
    if (ticket.aborted) {
      return Promise.resolve({
        ok: false,
        status: "aborted",
        error: `the call to tool "${this.#name}" was aborted`,
      });
    }
    if (this.#pinging || this.#checkWhenReady) {
      // A health check is under way: wait for its verdict, so the call does
      // not land in a worker about to be replaced.
      return new Promise<void>((resume) => this.#held.push(resume)).then(() =>
        this.call(
          args,
          sessionId,
          agent,
          secrets,
          timeoutMs,
          ticket,
          onProgress,
        )
      );
    }
    const worker = this.#worker ?? this.#start();
    const id = this.#nextId++;
    return new Promise<RawOutcome>((resolve) => {
      const deadline = this.#options.deadlines.add(timeoutMs, () => {
        this.#stop(id);
        this.#settle(id, {
          ok: false,
          status: "timeout",
          error:
            `tool "${this.#name}" did not finish within ${timeoutMs} ms: the call was stopped`,
        });
        this.#check();
      });
      this.#pending.set(id, { resolve, deadline, ticket, onProgress });
      ticket.cancel = () => this.abort(id);
      // A call to an idle worker goes at once. While the worker is busy
      // with earlier calls, the calls made until the next turn of the
      // event loop (each HTTP request has a turn of its own) go together
      // in one message: one post, one clone and one wake-up for all.
      this.#outbox.push(
        onProgress
          ? [id, args, sessionId, agent, secrets, 1]
          : [id, args, sessionId, agent, secrets],
      );
      if (this.#pending.size <= 1) this.#flush(worker);
      else if (this.#outbox.length === 1) {
        this.#flushTimer = setTimeout(() => this.#flush(worker), 0);
      }
    });
  }

  #outbox: CallMessage[] = [];
  #flushTimer?: ReturnType<typeof setTimeout>;

  #flush(worker: Worker): void {
    if (this.#flushTimer !== undefined) {
      clearTimeout(this.#flushTimer);
      this.#flushTimer = undefined;
    }
    const calls = this.#outbox;
    if (calls.length === 0) return;
    this.#outbox = [];
    if (calls.length > 1) {
      try {
        post(worker, calls);
        return;
      } catch {
        // One of them cannot be sent: send each alone to find which.
      }
    }
    for (const call of calls) {
      try {
        post(worker, call);
      } catch (error) {
        this.#settle(call[0], {
          ok: false,
          status: "error",
          error: `cannot send the arguments to tool "${this.#name}": ${
            error instanceof Error ? error.message : String(error)
          }`,
        });
      }
    }
  }

  /** Tells the worker to abort a call, or drops it when it was not sent yet. */
  #stop(id: number): void {
    const waiting = this.#outbox.findIndex((call) => call[0] === id);
    if (waiting !== -1) this.#outbox.splice(waiting, 1);
    else if (this.#worker) post(this.#worker, { t: "abort", id });
  }

  /** Aborts one running call: its `context.signal` fires and the call ends as aborted. */
  abort(id: number): boolean {
    if (!this.#pending.has(id)) return false;
    this.#stop(id);
    this.#settle(id, {
      ok: false,
      status: "aborted",
      error: `the call to tool "${this.#name}" was aborted`,
    });
    this.#check();
    return true;
  }

  /** Pings the worker; one that does not answer in time is replaced. */
  #check(): void {
    const worker = this.#worker;
    if (!worker || this.#pinging) return;
    if (!this.#ready) {
      // A worker still starting cannot answer yet; ask once it is up.
      this.#checkWhenReady = true;
      return;
    }
    this.#pinging = true;
    const id = -this.#nextId++;
    const onMessage = (msg: Record<string, unknown>) => {
      if (msg.t === "pong" && msg.id === id) done(true);
    };
    const done = (alive: boolean) => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      this.#pinging = false;
      if (!alive && this.#worker === worker) {
        this.#worker = undefined;
        this.#options.log(
          `[tools] ${this.#name}: worker stopped answering; replaced`,
        );
        void worker.terminate();
        this.#failAll(
          `the worker running tool "${this.#name}" stopped answering (a call blocked it or it ran out of memory) and was replaced`,
        );
      }
      for (const resume of this.#held.splice(0)) resume();
    };
    const timer = setTimeout(() => done(false), PING_MS);
    worker.on("message", onMessage);
    post(worker, { t: "ping", id });
  }

  /** Stops the worker; running calls end with an error. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#idle);
    for (const resume of this.#held.splice(0)) resume();
    this.#failAll(`tool "${this.#name}" was shut down`);
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
  }
}
