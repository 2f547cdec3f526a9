// The calls of a host: whether a call may run, on
// which runner and with which secrets, and the outcome its caller reads.

import { errorMessage } from "../common/mod.ts";
import type { Harness } from "../manifest/mod.ts";
import { CallTicket } from "./_call_ticket.ts";
import { cutContent } from "./_content.ts";
import { timeoutOf } from "./_deadlines.ts";
import type { HostEvents } from "./_events.ts";
import type { Generation } from "./_generation.ts";
import { NO_GRANT } from "./_launcher.ts";
import type { CallResult } from "./_protocol.ts";
import type { RunnerPool } from "./_runner_pool.ts";
import type { Spill } from "./_spill.ts";
import type {
  CallOutcome,
  CallPhases,
  CallRequest,
  TraceContext,
} from "./types.ts";

/**
 * Gives `outcome` a `structured` field that parses the JSON `text` when it
 * is first read: most callers never read it.
 */
function lazyStructured(
  outcome: Extract<CallOutcome, { ok: true }>,
  text: string,
): void {
  Object.defineProperty(outcome, "structured", {
    enumerable: true,
    configurable: true,
    get(): Record<string, unknown> {
      const value = JSON.parse(text);
      Object.defineProperty(outcome, "structured", {
        value,
        enumerable: true,
        configurable: true,
        writable: true,
      });
      return value;
    },
  });
}

/** What the calls of a host need from it. */
export interface CallsOptions {
  /** The generation new calls run on. */
  current(): Generation;
  /** Whether the host was closed. */
  closed(): boolean;
  /** The runners. */
  pool: RunnerPool;
  /** Where texts over the output limits are saved. */
  spill: Spill;
  /** Where calls' starts and ends are told. */
  events: HostEvents;
  /** Where log lines go. */
  log(line: string): void;
  /** A call's timeout when it asks for none. */
  timeoutMs: number;
  /** Whether every call's arguments are validated (a call may ask alone). */
  validateArgs: boolean;
  /** Whose visibility rules apply. */
  harness: Harness;
  /** The project's secrets, read for every call. */
  secrets?: () => Record<string, string>;
}

/** Runs a host's calls and keeps count of them by session. */
export class Calls {
  readonly #o: CallsOptions;
  readonly #sessions = new Map<string, Set<CallTicket>>();
  #calls = 0;
  #total = 0;

  /** Calls for the host `options` describes. */
  constructor(options: CallsOptions) {
    this.#o = options;
  }

  /** How many calls run now. */
  get running(): number {
    return this.#total;
  }

  /** The secrets `agent` is granted, read afresh, and the runner key part for them. */
  #secrets(
    generation: Generation,
    agent: string,
  ): { key: string; secrets?: Record<string, string> } {
    const grant = generation.grant(agent);
    if (grant === undefined || !this.#o.secrets) return { key: NO_GRANT };
    const all = this.#o.secrets();
    if (grant === "*") return { key: "*", secrets: { ...all } };
    const secrets: Record<string, string> = {};
    for (const name of grant) {
      if (typeof all[name] === "string") secrets[name] = all[name];
    }
    return { key: grant.join(","), secrets };
  }

  async #shape(name: string, raw: CallResult): Promise<CallOutcome> {
    if (!raw.ok) {
      const cut = await this.#o.spill.shape(
        `${name}-error`,
        raw.error,
        raw.cut,
      );
      const { notRun: _, cut: __, ...failure } = raw;
      return cut.truncated
        ? {
          ...failure,
          error: cut.text,
          truncated: true,
          size: cut.size,
          ...(cut.path === undefined ? {} : { path: cut.path }),
        }
        : failure;
    }
    // A runner that cut a long output itself says so in raw.cut.
    const cut = await this.#o.spill.shape(name, raw.output, raw.cut);
    const outcome: Extract<CallOutcome, { ok: true }> = {
      ok: true,
      output: cut.text,
    };
    if (cut.truncated) {
      outcome.truncated = true;
      outcome.size = cut.size;
      if (cut.path !== undefined) outcome.path = cut.path;
    }
    if (raw.content) {
      outcome.content = cut.truncated
        ? cutContent(raw.content, cut.text)
        : raw.content;
    }
    if (cut.truncated) return outcome;
    if (raw.structured) outcome.structured = raw.structured;
    else if (raw.object) lazyStructured(outcome, raw.output);
    return outcome;
  }

  /**
   * `request` with its arguments ready for `execute` (the schema's
   * defaults filled in), or why it may not run (validation on for the host
   * or asked for by the call).
   */
  async #prepared(
    generation: Generation,
    request: CallRequest,
  ): Promise<CallRequest | CallOutcome> {
    await generation.whenSettled(request.name);
    const tool = generation.tools.get(request.name);
    const prepared = tool?.prepare?.(
      request.args,
      this.#o.validateArgs || request.validateArgs === true,
    );
    if (!prepared) return request;
    if (prepared.ok) {
      return prepared.args === request.args
        ? request
        : { ...request, args: prepared.args };
    }
    return {
      ok: false,
      status: "error",
      error: `invalid arguments for tool "${request.name}": ${prepared.error}`,
    };
  }

  /** Why `request` may not run on `generation`, or `undefined` when it may. */
  #refusal(
    generation: Generation,
    request: CallRequest,
  ): CallOutcome | undefined {
    const name = request.name;
    if (!generation.modules.has(name) || generation.failed.has(name)) {
      const loadError = generation.failed.get(name)?.reason;
      return {
        ok: false,
        status: "not_found",
        error: `Tool ${name} not found`,
        ...(loadError === undefined ? {} : { loadError }),
      };
    }
    const harness = this.#o.harness;
    if (
      !generation.visible(name, request.agent, request.parentAgent, harness)
    ) {
      return {
        ok: false,
        status: "forbidden",
        error: `agent "${request.agent}" may not use tool "${name}"${
          request.parentAgent === undefined
            ? ""
            : ` (started by agent "${request.parentAgent}")`
        }: it is not in the agent's tools`,
      };
    }
    return undefined;
  }

  async #run(request: CallRequest, ticket: CallTicket): Promise<CallOutcome> {
    const generation = this.#o.current();
    // Counted in at once, so the generation cannot be judged drained (and
    // its runners stopped) while the call's arguments are checked.
    generation.enter();
    try {
      const refused = this.#refusal(generation, request);
      if (refused) return refused;
      const prepared = await this.#prepared(generation, request);
      return "ok" in prepared
        ? prepared
        : await this.#runOn(generation, prepared, ticket);
    } finally {
      generation.leave();
    }
  }

  async #runOn(
    generation: Generation,
    request: CallRequest,
    ticket: CallTicket,
  ): Promise<CallOutcome> {
    const outer = request.signal;
    const onAbort = () => ticket.abort();
    if (outer?.aborted) ticket.aborted = true;
    else outer?.addEventListener("abort", onAbort, { once: true });
    let session = this.#sessions.get(request.sessionId);
    if (!session) this.#sessions.set(request.sessionId, session = new Set());
    session.add(ticket);
    this.#total++;
    try {
      const { key, secrets } = this.#secrets(generation, request.agent);
      const runnerKey = generation.runnerPrefix(request.name) + key;
      const module = generation.modules.get(request.name)!;
      const attempt = () =>
        this.#o.pool.runner(runnerKey, module, key).call({
          args: request.args,
          sessionId: request.sessionId,
          agent: request.agent,
          secrets,
          timeoutMs: timeoutOf(request.timeoutMs, this.#o.timeoutMs),
          ticket,
          onProgress: request.onProgress,
        });
      let raw = await attempt();
      if (!raw.ok && raw.notRun && generation.tools.has(request.name)) {
        // The call never ran: the loader loaded this module but its runner
        // did not (the file changed in between, as when an editor writes it
        // in place), or the runner went before the call reached it. It runs
        // once more, on a runner that reads the file anew.
        this.#o.log(
          `[tools] ${request.name}: its module did not load in its runner (${raw.error}); retrying on a new runner`,
        );
        this.#o.pool.runner(runnerKey, module, key).stop("the module changed");
        raw = await attempt();
      }
      return await this.#shape(request.name, raw);
    } finally {
      outer?.removeEventListener("abort", onAbort);
      session.delete(ticket);
      if (session.size === 0) this.#sessions.delete(request.sessionId);
      this.#total--;
    }
  }

  /** Runs one call; never rejects. */
  async call(request: CallRequest): Promise<CallOutcome> {
    const started = performance.now();
    const id = String(++this.#calls);
    const ticket = new CallTicket(request.agent);
    const watched = this.#o.events.watched;
    if (watched) {
      this.#o.events.emit({
        type: "call-start",
        id,
        name: request.name,
        agent: request.agent,
        sessionId: request.sessionId,
        args: request.args,
        startedAt: Date.now(),
        transport: request.transport ?? "api",
        ...traceOf(request),
      });
    }
    let outcome: CallOutcome;
    if (this.#o.closed()) {
      outcome = {
        ok: false,
        status: "error",
        error: "the tool host is closed",
      };
    } else {
      try {
        outcome = await this.#run(request, ticket);
      } catch (error) {
        outcome = {
          ok: false,
          status: "error",
          error: `the tool host failed to run the call: ${errorMessage(error)}`,
        };
      }
    }
    const ended = performance.now();
    const ms = Math.round(ended - started);
    const result = outcome.ok
      ? (outcome.truncated ? "ok (truncated)" : "ok")
      : outcome.status;
    this.#o.log(
      `[tools] call ${request.name} agent=${request.agent} session=${request.sessionId} ${ms}ms ${result}`,
    );
    if (watched) {
      this.#o.events.emit({
        type: "call-end",
        id,
        name: request.name,
        agent: request.agent,
        sessionId: request.sessionId,
        durationMs: ms,
        outcome,
        transport: request.transport ?? "api",
        ...traceOf(request),
        ...phasesOf(ticket, started, ended),
      });
    }
    return outcome;
  }

  stopSession(sessionId: string, agents?: readonly string[]): number {
    const session = this.#sessions.get(sessionId);
    if (!session) return 0;
    let count = 0;
    for (const ticket of [...session]) {
      if (agents !== undefined && !agents.includes(ticket.agent)) continue;
      ticket.abort();
      count++;
    }
    return count;
  }
}

function traceOf(request: CallRequest): { traceContext?: TraceContext } {
  return request.traceContext ? { traceContext: request.traceContext } : {};
}

/** Where the call's time went, from what its ticket saw (see {@linkcode CallPhases}). */
function phasesOf(
  ticket: CallTicket,
  started: number,
  ended: number,
): { phases?: CallPhases } {
  if (ticket.sentAt === undefined) return {};
  const queuedMs = ticket.sentAt - started;
  const waited = ticket.runnerStartAt === undefined ? {} : {
    runnerStartMs: ticket.sentAt - Math.max(ticket.runnerStartAt, started),
  };
  return { phases: { queuedMs, ...waited, runMs: ended - ticket.sentAt } };
}
