// The calls of one tool for one set of granted secrets, run in a runner
// process of their own. A runner that ends, or stops answering
// after a call timed out or was aborted, is replaced; only the calls it was
// running fail.

import type { CallTicket } from "./_call_ticket.ts";
import type { Deadline, Deadlines } from "./_deadlines.ts";
import type {
  CallMessage,
  CallResult,
  CutText,
  LoadReport,
  ModuleRef,
  OutputFolder,
  ToHost,
} from "./_protocol.ts";
import type { RunnerEvents, RunnerProcess } from "./_runner_process.ts";

/** A progress report of a running call. */
export interface Progress {
  /** How much is done. */
  progress: number;
  /** How much there is in all, when known. */
  total?: number;
  /** What is going on. */
  message?: string;
}

/** One call for a tool runner. */
export interface RunnerCall {
  args: unknown;
  sessionId: string;
  agent: string;
  secrets?: Record<string, string>;
  timeoutMs: number;
  ticket: CallTicket;
  onProgress?: (update: Progress) => void;
}

/** What a tool runner needs from its host. */
export interface ToolRunnerOptions {
  /** Starts a runner process for the agents granted `grant`, reporting to `events`. */
  start(grant: string, events: RunnerEvents): RunnerProcess;
  /** The host's call timeouts. */
  deadlines: Deadlines;
  /** Where problems go. */
  log(line: string): void;
  /** Called whenever the runner has no call left. */
  idle(): void;
  /** The heap limit, for messages. */
  heapMb: number;
  /** `context.directory`: the project root. */
  directory: string;
  /** How long a new runner may take to start and import its module. */
  startTimeoutMs: number;
  /** Where the runner saves outputs over the output limits itself; without it the host does. */
  output?: OutputFolder;
  /** Removes the file of a cut text whose call had already ended (aborted). */
  discard?(cut: CutText): void;
}

interface Pending {
  resolve(outcome: CallResult): void;
  /** Armed when the call is sent: starting the runner is not the call's time. */
  deadline?: Deadline;
  timeoutMs: number;
  ticket: CallTicket;
  onProgress?: (update: Progress) => void;
}

/** How long a runner has to answer a ping after a call was stopped. */
const PING_MS = 2_000;

/** Runs one tool's calls (for one grant set) in a runner process. */
export class ToolRunner {
  readonly #module: ModuleRef;
  readonly #grant: string;
  readonly #options: ToolRunnerOptions;
  #process?: RunnerProcess;
  /** Whether the runner process has imported its module and takes calls. */
  #ready = false;
  #startTimer?: ReturnType<typeof setTimeout>;
  /** When the runner process now running began to start, in `performance.now()` time. */
  #startedAt = 0;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  #checking?: Promise<void>;
  #closed = false;
  /** Waiting for the module's load report (see {@linkcode ToolRunner.warm}). */
  #onReport?: (report: LoadReport) => void;
  /** The load report of the runner process now running. */
  #loaded?: LoadReport;
  /** When the last call ended, in `performance.now()` time. */
  lastUsed = performance.now();

  /**
   * A runner for `module`, for the calls of agents granted `grant` (the
   * grant's key); its process starts with the first call.
   */
  constructor(module: ModuleRef, grant: string, options: ToolRunnerOptions) {
    this.#module = module;
    this.#grant = grant;
    this.#options = options;
  }

  /** How many calls are running. */
  get running(): number {
    return this.#pending.size;
  }

  /** The runner process, while one runs. */
  get process(): RunnerProcess | undefined {
    return this.#process;
  }

  #start(): RunnerProcess {
    const started = this.#options.start(this.#grant, {
      message: (message) => this.#receive(started, message),
      exit: (reason) => this.#exited(started, reason),
      log: (line) => this.#options.log(`[tools] ${this.#module.name}: ${line}`),
    });
    started.send({
      t: "init",
      module: this.#module,
      directory: this.#options.directory,
      ...(this.#options.output ? { output: this.#options.output } : {}),
    });
    this.#process = started;
    this.#ready = false;
    this.#loaded = undefined;
    this.#startedAt = performance.now();
    const ms = this.#options.startTimeoutMs;
    this.#startTimer = setTimeout(() => {
      this.#replace(
        started,
        `the runner of tool "${this.#module.name}" did not start and import its module within ${ms} ms`,
      );
    }, ms);
    return started;
  }

  /** The runner imported its module: calls waiting for it go now. */
  #started(from: RunnerProcess): void {
    clearTimeout(this.#startTimer);
    this.#startTimer = undefined;
    this.#ready = true;
    this.#flush(from);
  }

  #receive(from: RunnerProcess, message: ToHost): void {
    if (from !== this.#process) return;
    if (message.t === "result") {
      const { t: _, ...result } = message;
      this.#result(result);
    } else if (message.t === "loaded") {
      const { t: _, ...report } = message;
      this.#loaded = report;
      this.#report(report);
      this.#started(from);
    } else if (message.t === "results") {
      for (const result of message.results) this.#result(result);
    } else if (message.t === "progress") {
      const pending = this.#pending.get(message.id);
      pending?.onProgress?.({
        progress: message.progress,
        ...(message.total === undefined ? {} : { total: message.total }),
        ...(message.message === undefined ? {} : { message: message.message }),
      });
    } else if (message.t === "pong") {
      this.#pong?.(message.id);
    }
  }

  #result({ id, ...result }: { id: number } & CallResult): void {
    if (this.#pending.has(id)) this.#settle(id, result);
    else if (result.cut) this.#options.discard?.(result.cut);
  }

  #exited(from: RunnerProcess, reason: string): void {
    if (from !== this.#process) return;
    const wasReady = this.#ready;
    this.#process = undefined;
    this.#ready = false;
    clearTimeout(this.#startTimer);
    this.#failReport(
      `the module ended the process that imported it (${reason})`,
    );
    if (this.#closed) return;
    this.#options.log(`[tools] ${this.#module.name}: runner ended: ${reason}`);
    const limit = reason.includes("memory")
      ? ` (heap limit ${this.#options.heapMb} MB)`
      : "";
    this.#failAll(
      from.refusal !== undefined
        ? `tool "${this.#module.name}" cannot run: ${from.refusal}`
        : wasReady
        ? `the runner of tool "${this.#module.name}" ended while running the call: ${reason}${limit}; it is restarted on the next call`
        : `the runner of tool "${this.#module.name}" ended before it could run the call: ${reason}${limit}`,
    );
  }

  #settle(id: number, outcome: CallResult): void {
    const pending = this.#pending.get(id);
    if (!pending) return;
    this.#pending.delete(id);
    if (pending.deadline) this.#options.deadlines.remove(pending.deadline);
    pending.ticket.cancel = undefined;
    pending.resolve(outcome);
    if (this.#pending.size === 0) {
      this.lastUsed = performance.now();
      this.#options.idle();
    }
  }

  #failAll(error: string): void {
    // Calls not sent yet end here too: none may reach the next runner. They
    // never ran, which the host may act on.
    const unsent = new Set(this.#outbox.map((call) => call.id));
    this.#outbox = [];
    for (const id of [...this.#pending.keys()]) {
      this.#settle(
        id,
        unsent.has(id)
          ? { ok: false, status: "error", error, notRun: true }
          : { ok: false, status: "error", error },
      );
    }
  }

  #report(report: LoadReport): void {
    const onReport = this.#onReport;
    this.#onReport = undefined;
    onReport?.(report);
  }

  #failReport(reason: string): void {
    this.#report({ name: this.#module.name, ok: false, reason });
  }

  /**
   * Starts the runner process ahead of any call, so that the first call
   * finds its module imported; resolves to the module's load report, or
   * why the process did not get that far.
   */
  warm(): Promise<LoadReport> {
    return new Promise((resolve) => {
      if (this.#closed) {
        resolve({
          name: this.#module.name,
          ok: false,
          reason: "the tool host was closed",
        });
        return;
      }
      if (this.#ready && this.#loaded) {
        resolve(this.#loaded);
        return;
      }
      this.#failReport("the runner was warmed again");
      this.#onReport = resolve;
      if (!this.#process) this.#start();
    });
  }

  /** Runs one call; never rejects. */
  async call(call: RunnerCall): Promise<CallResult> {
    const name = this.#module.name;
    if (this.#closed) {
      return {
        ok: false,
        status: "error",
        error: `tool "${name}" is shutting down`,
      };
    }
    // A runner under suspicion is not given new calls until it is judged.
    while (this.#checking) await this.#checking;
    if (call.ticket.aborted) {
      return aborted(name);
    }
    const runner = this.#process ?? this.#start();
    if (!this.#ready) call.ticket.runnerStartAt = this.#startedAt;
    const id = this.#nextId++;
    return new Promise<CallResult>((resolve) => {
      this.#pending.set(id, {
        resolve,
        timeoutMs: call.timeoutMs,
        ticket: call.ticket,
        onProgress: call.onProgress,
      });
      call.ticket.cancel = () => this.#abort(id);
      const message: CallMessage = {
        t: "call",
        id,
        args: call.args,
        sessionId: call.sessionId,
        agent: call.agent,
        progress: call.onProgress !== undefined,
        ...(call.secrets ? { secrets: call.secrets } : {}),
      };
      // A call to an idle runner goes at once. While it is busy with
      // earlier calls, the calls made until the next turn of the event loop
      // (each HTTP request has a turn of its own) go together in one
      // message: one write and one wake-up for all. A runner still
      // starting gets them once it has imported its module.
      this.#outbox.push(message);
      if (!this.#ready) return;
      if (this.#pending.size <= 1) this.#flush(runner);
      else if (this.#outbox.length === 1) {
        setTimeout(() => this.#flush(runner), 0);
      }
    });
  }

  /** Arms the timeout of a call as it is sent. */
  #arm(id: number, runner: RunnerProcess): void {
    const pending = this.#pending.get(id);
    if (!pending || pending.deadline) return;
    pending.ticket.sentAt = performance.now();
    const name = this.#module.name;
    const ms = pending.timeoutMs;
    pending.deadline = this.#options.deadlines.add(ms, () => {
      this.#settle(id, {
        ok: false,
        status: "timeout",
        error:
          `tool "${name}" did not finish within ${ms} ms: the call was stopped`,
      });
      // A call past its timeout may spin, or have started processes that
      // never end: its runner goes, with all it started.
      this.#replace(
        runner,
        `the runner of tool "${name}" was stopped because one of its calls ran past its timeout`,
      );
    });
  }

  #outbox: CallMessage[] = [];

  #flush(runner: RunnerProcess): void {
    const calls = this.#outbox;
    if (calls.length === 0 || runner !== this.#process || !this.#ready) return;
    this.#outbox = [];
    for (const call of calls) this.#arm(call.id, runner);
    const sent = runner.send(
      calls.length === 1 ? calls[0] : { t: "calls", calls },
    );
    if (sent) return;
    for (const call of calls) {
      this.#settle(call.id, {
        ok: false,
        status: "error",
        error:
          `cannot send the call to the runner of tool "${this.#module.name}"`,
      });
    }
  }

  /** Tells the runner to abort a call, or drops it when it was not sent yet. */
  #stop(id: number): void {
    const waiting = this.#outbox.findIndex((call) => call.id === id);
    if (waiting !== -1) this.#outbox.splice(waiting, 1);
    else this.#process?.send({ t: "abort", id });
  }

  #abort(id: number): void {
    if (!this.#pending.has(id)) return;
    this.#stop(id);
    this.#settle(id, aborted(this.#module.name));
    this.#check();
  }

  /** Pings the runner; one that does not answer in time is killed and replaced. */
  #check(): void {
    const runner = this.#process;
    if (!runner || this.#checking) return;
    this.#checking = new Promise<void>((done) => {
      const id = -this.#nextId++;
      const finish = (alive: boolean) => {
        clearTimeout(timer);
        this.#checking = undefined;
        if (!alive) {
          this.#replace(
            runner,
            `the runner of tool "${this.#module.name}" stopped answering (a call blocked it) and was replaced`,
          );
        }
        done();
      };
      const timer = setTimeout(() => finish(false), PING_MS);
      this.#pong = (pongId) => {
        if (pongId === id) finish(true);
      };
      if (!runner.send({ t: "ping", id })) finish(false);
    });
  }

  #pong?: (id: number) => void;

  /** Kills `runner` when it is still this tool's, failing its calls with `error`. */
  #replace(runner: RunnerProcess, error: string): void {
    if (this.#process !== runner) return;
    this.#process = undefined;
    this.#ready = false;
    clearTimeout(this.#startTimer);
    this.#options.log(
      `[tools] ${this.#module.name}: runner replaced: ${error}`,
    );
    runner.kill();
    this.#failReport(error);
    this.#failAll(error);
  }

  /** Stops the runner process (running calls end with an error); a later call starts a new one. */
  stop(reason: string): void {
    const runner = this.#process;
    this.#process = undefined;
    this.#ready = false;
    clearTimeout(this.#startTimer);
    this.#failReport(reason);
    this.#failAll(reason);
    runner?.kill();
  }

  /** Stops the runner for good. */
  close(): void {
    this.#closed = true;
    this.stop(`tool "${this.#module.name}" was shut down`);
  }
}

function aborted(name: string): CallResult {
  return {
    ok: false,
    status: "aborted",
    error: `the call to tool "${name}" was aborted`,
  };
}
