/**
 * The tool host: loads a project's tools, lists what each agent
 * sees, runs calls in runner processes it can stop
 * and confine, bounds them, and reloads in place. The
 * HTTP daemon, MCP and the CLI are thin layers over it.
 *
 * @example Call a tool of the project in the current folder
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { createHost } from "@beeuni/tools";
 *
 * await using host = await createHost({ directory: Deno.cwd() });
 * const outcome = await host.call({
 *   name: "lookup_order",
 *   args: { id: "A-1042" },
 *   sessionId: "s1",
 *   agent: "build",
 * });
 * console.log(outcome.ok ? outcome.output : outcome.error);
 * ```
 *
 * @module
 */

import { dirname, isAbsolute, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { errorMessage, escapeControl } from "../common/mod.ts";
import { builtinToolUrl, type Diagnostic } from "../manifest/mod.ts";
import { isolatedLoader, loadProject } from "../project/mod.ts";
import { loadRuntime } from "../runtime/mod.ts";
import { CallTicket } from "./_call_ticket.ts";
import { cutContent } from "./_content.ts";
import { Deadlines } from "./_deadlines.ts";
import { Generation, type LoadedTool } from "./_generation.ts";
import { loadModules } from "./_loader.ts";
import { Launcher, type RunnerProgram, runnerProgram } from "./_launcher.ts";
import type { LoadReport, ModuleRef, OutputFolder } from "./_protocol.ts";
import { reloadScope } from "./_reload_scope.ts";
import { runnerEntry, toolkitPaths } from "./_runner_entry.ts";
import { type RunnerFolder, runnerFolder } from "./_runner_folder.ts";
import { RunnerPool } from "./_runner_pool.ts";
import type { RunnerEvents, RunnerProcess } from "./_runner_process.ts";
import { Spill } from "./_spill.ts";
import type { RunnerOutcome } from "./_tool_runner.ts";
import type {
  CallOutcome,
  CallRequest,
  Host,
  HostedTool,
  HostEvent,
  HostOptions,
  LoadError,
  ReloadOptions,
  ReloadResult,
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

/** How a load report of a syntax error starts (see _tool_module.ts). */
const SYNTAX_ERROR = "the module has a syntax error: ";

/** The runner key part of agents granted no secret. */
const NO_GRANT = "";

/** The default per-call timeout (5 minutes). */
export const DEFAULT_TIMEOUT_MS = 300_000;

/** A usable timer length: positive, finite and within what timers accept. */
function timeoutOf(requested: number | undefined, fallback: number): number {
  const value = requested ?? fallback;
  if (!Number.isFinite(value) || value <= 0) return fallback;
  return Math.min(value, 2_147_483_647);
}

function baseEnv(options: HostOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env ?? process.env)) {
    if (typeof value === "string") env[key] = value;
  }
  return env;
}

/**
 * The most changed modules a reload imports in their own runners, ready
 * for calls; more are imported in one loader process, as at start.
 */
const WARM_MAX = 2;

/**
 * How long a reload of some modules waits before importing a module that
 * failed once more: an editor may still have been writing it.
 */
const RETRY_MS = 150;

/** A reload not taken: `next` was read, but the tools served stay. */
function notTaken(next: Generation): ReloadResult {
  return {
    ok: false,
    diagnostics: next.diagnostics,
    changed: false,
    manifest: next.manifest,
  };
}

function describeLoadErrors(errors: LoadError[]): string[] {
  if (errors.length === 0) return [];
  return [
    "[tools] project tools that did not load",
    ...errors.map((e) => `[tools]   ${e.name}: ${e.reason}`),
  ];
}

/**
 * The folder of saved outputs as runners write into it, made now so
 * that runners may be allowed to write there; `undefined` when it cannot
 * be made now: the host then cuts and saves what runners send whole.
 */
async function outputFolder(spill: Spill): Promise<OutputFolder | undefined> {
  try {
    const shown = await spill.folder();
    return { dir: resolve(shown), shown, maxBytes: spill.maxBytes };
  } catch {
    return undefined;
  }
}

/** The runtime tool runners run on: `options.runner`, or the host's own. */
async function runnerRuntime(options: HostOptions): Promise<RunnerProgram> {
  const own = await loadRuntime();
  const choice = options.runner;
  if (choice !== undefined && choice !== own.name) return runnerProgram(choice);
  return {
    runtime: own.name,
    execPath: own.execPath(),
    version: own.name === "node" ? process.versions.node : undefined,
  };
}

/** How runner processes start for this host: the runtime, its flags and the paths tools may touch. */
async function launcher(
  options: HostOptions,
  tmpRoot: string,
  outputDir?: string,
): Promise<Launcher> {
  return new Launcher({
    ...await runnerRuntime(options),
    directory: options.directory,
    entry: runnerEntry(),
    heapMb: options.heapMb ?? 256,
    allowRun: options.allowRun ?? false,
    allowRemoteListen: options.allowRemoteListen ?? false,
    builtinDir: dirname(fileURLToPath(builtinToolUrl("memory"))),
    tmpRoot,
    outputDir,
    allowRead: options.allowRead,
    allowWrite: options.allowWrite,
    denyRead: options.denyRead,
    denyWrite: [...toolkitPaths(), ...(options.denyWrite ?? [])],
    env: () => baseEnv(options),
  });
}

/**
 * Creates a host for the project at `options.directory`: reads its
 * manifest, imports every tool module once in a loader process to check it
 * and logs the ones that did not load. Each tool's calls then run in a
 * runner process of its own, started on its first call. Problems inside
 * the manifest are logged and the tools that resolve are served; a tool
 * that does not load is listed by `host.loadErrors()`, not thrown.
 *
 * @returns The host, once every module has loaded (at once with
 * `waitForLoad: false`). Close it with `close()` or `await using`.
 * @throws {ManifestNotFoundError} When there is no manifest to read.
 * @throws {Error} When `options.directory` is not an absolute path, or
 * `options.runner` names no runtime that can run tools.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  if (!isAbsolute(options.directory)) {
    throw new Error(
      `cannot start the tool host: directory "${options.directory}" is not an absolute path`,
    );
  }
  // Log lines carry names, session ids and reasons from requests and
  // tools: none may drive the terminal or forge a line.
  const sink = options.log ?? ((line: string) => console.error(line));
  const log = (line: string) => sink(escapeControl(line));
  const spill = new Spill({
    dir: options.tmpDir,
    project: options.directory,
    maxBytes: options.tmpMaxBytes,
    retentionMs: options.tmpRetentionMs,
  });
  const [runnerTmp, output] = await Promise.all([
    runnerFolder(),
    outputFolder(spill),
  ]);
  let start: Launcher;
  try {
    start = await launcher(options, runnerTmp.path, output?.dir);
  } catch (error) {
    await runnerTmp.remove();
    throw error;
  }
  const state = new HostState(options, log, start, runnerTmp, {
    spill,
    output,
  });
  try {
    await state.begin();
  } catch (error) {
    await state.close();
    throw error;
  }
  return state.host();
}

/** The host's moving parts: the generation served, the runners, the running calls. */
class HostState {
  readonly #options: HostOptions;
  readonly #log: (line: string) => void;
  readonly #launcher: Launcher;
  readonly #runnerTmp: RunnerFolder;
  readonly #pool: RunnerPool;
  readonly #deadlines = new Deadlines();
  readonly #spill: Spill;
  readonly #sessions = new Map<string, Set<CallTicket>>();
  readonly #listeners = new Set<(event: HostEvent) => void>();
  readonly #timeout: number;
  readonly #stopLoading = new AbortController();
  /** Reads a changed manifest off this thread (see `#read`). */
  readonly #reader = isolatedLoader();
  #current!: Generation;
  /** The generations calls may still run on: the current one and those draining. */
  readonly #serving = new Set<Generation>();
  #loading!: Promise<void>;
  #generations = 0;
  #calls = 0;
  #total = 0;
  #closed = false;
  #reloading?: Promise<ReloadResult>;
  /**
   * A runner process started with the host, so that the first call does
   * not wait for one to start. Only one: kept while it may serve a first
   * call, it is not replaced once taken, so idle hosts hold no extra
   * process.
   */
  #spare?: RunnerProcess;
  /** The confinement the spare was started with (see {@linkcode Launcher.version}). */
  #spareVersion = -1;
  #spareIdle?: ReturnType<typeof setTimeout>;
  #compile?: Promise<
    (schema: Record<string, unknown>) => LoadedTool["validate"]
  >;

  constructor(
    options: HostOptions,
    log: (line: string) => void,
    launcher: Launcher,
    runnerTmp: RunnerFolder,
    saved: { spill: Spill; output?: OutputFolder },
  ) {
    this.#options = options;
    this.#log = log;
    this.#launcher = launcher;
    this.#runnerTmp = runnerTmp;
    this.#spill = saved.spill;
    this.#timeout = timeoutOf(options.timeoutMs, DEFAULT_TIMEOUT_MS);
    this.#pool = new RunnerPool({
      maxRunners: options.maxRunners ?? 8,
      memoryMb: options.runnerMemoryMb ?? 512,
      idleMs: options.idleMs ?? 60_000,
    }, {
      start: (grant, events) => this.#takeRunner(grant, events),
      deadlines: this.#deadlines,
      log,
      heapMb: options.heapMb ?? 256,
      directory: options.directory,
      startTimeoutMs: timeoutOf(options.loadTimeoutMs, 10_000),
      output: saved.output,
      discard: (cut) => void this.#spill.discard(cut),
    });
  }

  /**
   * Starts the spare runner process, unless there is one. A spare not
   * taken within the runners' idle time stops like an idle runner.
   */
  #fillSpare(): void {
    if (this.#closed || this.#spare) return;
    this.#spareVersion = this.#launcher.version;
    const spare = this.#launcher.start(NO_GRANT, {
      message: () => {},
      exit: () => {
        if (this.#spare === spare) this.#spare = undefined;
      },
      log: (line) => this.#log(`[tools] spare runner: ${line}`),
    });
    this.#spare = spare;
    clearTimeout(this.#spareIdle);
    this.#spareIdle = setTimeout(() => {
      if (this.#spare !== spare) return;
      this.#spare = undefined;
      spare.kill();
    }, this.#options.idleMs ?? 60_000);
  }

  /**
   * A runner process for a tool and the agents granted `grant`: the spare
   * when it fits (no secrets, started with the confinement now in force),
   * else a new one.
   */
  #takeRunner(grant: string, events: RunnerEvents): RunnerProcess {
    const spare = this.#spare;
    if (
      grant !== NO_GRANT || !spare || spare.exited ||
      this.#spareVersion !== this.#launcher.version
    ) {
      return this.#launcher.start(grant, events);
    }
    this.#spare = undefined;
    clearTimeout(this.#spareIdle);
    spare.rebind(events);
    return spare;
  }

  /**
   * Confines the runners started from now on by what governs
   * `generations`' tools; one look at a time, in the order asked. Resolves
   * to whether the look found something runners started before do not
   * deny.
   */
  #confine(...generations: Generation[]): Promise<boolean> {
    const look = async () => {
      let note: string | undefined;
      let widened = true;
      try {
        ({ note, widened } = await this.#launcher.refresh({
          manifestFiles: generations.flatMap((g) => g.manifestFiles()),
          modules: generations.flatMap((g) => g.projectModules()),
          imports: generations.flatMap((g) => g.sources() ?? []),
        }));
      } catch (error) {
        note = `cannot look at what governs the tools: ${errorMessage(error)}`;
      }
      if (note !== undefined && note !== this.#confineNote) {
        this.#log(`[tools] ${note}`);
      }
      this.#confineNote = note;
      return widened;
    };
    const next = this.#confining.then(look, look);
    this.#confining = next;
    return next;
  }

  #confining: Promise<boolean> = Promise.resolve(false);

  #confineNote?: string;

  /** Reads the project and starts loading it; waits for the load unless told not to. */
  async begin(): Promise<void> {
    const generation = await this.#read();
    this.#current = generation;
    this.#serving.add(generation);
    // Runners are confined by what governs the tools: known from here on.
    await this.#confine(generation);
    this.#fillSpare();
    this.#logManifestErrors(generation.diagnostics);
    this.#loading = this.#load(generation).then(() => {
      for (const line of describeLoadErrors(generation.loadErrors())) {
        this.#log(line);
      }
    });
    if (this.#options.waitForLoad !== false) await this.#loading;
  }

  /**
   * Reads the project. At start, in this process (the manifest limits bound
   * the cost, and a worker would slow every start); on reload, in a worker
   * with its own heap and time limit, so a changed manifest cannot exhaust
   * this process's memory or hold the calls it answers meanwhile.
   */
  async #read(isolated = false): Promise<Generation> {
    const options = {
      cwd: this.#options.directory,
      manifest: this.#options.manifest,
      tracking: false,
    };
    const project = isolated
      ? await this.#reader.load(options)
      : await loadProject(options);
    return new Generation(++this.#generations, project);
  }

  #logManifestErrors(diagnostics: Diagnostic[]): void {
    if (this.#options.logManifest === false) return;
    const errors = diagnostics.filter((d) => d.severity === "error");
    if (errors.length === 0) return;
    this.#log(`[tools] the manifest has errors`);
    for (const d of errors) {
      this.#log(`[tools]   ${d.file}:${d.line}:${d.col}: ${d.message}`);
    }
  }

  /**
   * `report` with the file and position of its syntax error, where the
   * runner's runtime gave none (Node.js, for a JavaScript module).
   */
  async #located(
    generation: Generation,
    report: Extract<LoadReport, { ok: false }>,
  ): Promise<LoadReport> {
    const url = generation.modules.get(report.name)?.url;
    if (
      report.at || this.#launcher.runtime !== "node" ||
      !report.reason.startsWith(SYNTAX_ERROR) || !url?.startsWith("file:")
    ) return report;
    const { locateSyntaxError } = await import("./_syntax_position.ts");
    const at = await locateSyntaxError(
      fileURLToPath(url),
      this.#launcher.execPath,
    );
    if (!at) return report;
    const shown = relative(this.#options.directory, at.file);
    return {
      ...report,
      reason: `${report.reason} (${shown}:${at.line}:${at.col})`,
      at,
    };
  }

  /** Checks a reported schema with Ajv (the load check; argument validation keeps the validator). */
  async #accept(generation: Generation, report: LoadReport): Promise<void> {
    if (!report.ok) {
      generation.record(await this.#located(generation, report));
      return;
    }
    const resolved = generation.toolSet.tools.find((t) =>
      t.name === report.name
    )!;
    this.#compile ??= import("./_schema.ts").then((m) => m.schemaCompiler());
    let validate: LoadedTool["validate"];
    try {
      const compiled = (await this.#compile)(report.parameters);
      if (this.#options.validateArgs) validate = compiled;
    } catch (error) {
      generation.record({
        name: report.name,
        ok: false,
        reason: `parameters is not a valid JSON Schema: ${errorMessage(error)}`,
      });
      return;
    }
    generation.record(report, {
      name: report.name,
      description: report.description,
      parameters: report.parameters,
      kind: resolved.kind,
      source: resolved.source,
      validate,
    });
  }

  /**
   * Imports `modules` (default: all of `generation`'s) in a loader process
   * and records their reports; on reload the loader may be the spare
   * runner process.
   */
  async #load(
    generation: Generation,
    modules: ModuleRef[] = [...generation.modules.values()],
    spare = false,
  ): Promise<void> {
    const accepted: Promise<void>[] = [];
    await loadModules(modules, {
      start: (events) =>
        spare
          ? this.#takeRunner(NO_GRANT, events)
          : this.#launcher.start(NO_GRANT, events),
      timeoutMs: timeoutOf(this.#options.loadTimeoutMs, 10_000),
      log: this.#log,
      signal: this.#stopLoading.signal,
      onReport: (report) => accepted.push(this.#accept(generation, report)),
    });
    await Promise.all(accepted);
  }

  #emit(event: HostEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        // A listener's failure is its own: logged, and the others still hear.
        this.#log(`[tools] an event listener failed: ${errorMessage(error)}`);
      }
    }
  }

  /** The secrets `agent` is granted, read afresh, and the runner key part for them. */
  #secrets(
    generation: Generation,
    agent: string,
  ): { key: string; secrets?: Record<string, string> } {
    const grant = generation.grant(agent);
    if (grant === undefined || !this.#options.secrets) return { key: NO_GRANT };
    const all = this.#options.secrets();
    if (grant === "*") return { key: "*", secrets: { ...all } };
    const secrets: Record<string, string> = {};
    for (const name of grant) {
      if (typeof all[name] === "string") secrets[name] = all[name];
    }
    return { key: grant.join(","), secrets };
  }

  async #shape(name: string, raw: RunnerOutcome): Promise<CallOutcome> {
    if (!raw.ok) {
      const cut = await this.#spill.shape(`${name}-error`, raw.error, raw.cut);
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
    const cut = await this.#spill.shape(name, raw.output, raw.cut);
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

  async #checkArgs(
    generation: Generation,
    request: CallRequest,
  ): Promise<CallOutcome | undefined> {
    if (!this.#options.validateArgs) return undefined;
    await generation.whenSettled(request.name);
    const tool = generation.tools.get(request.name);
    if (!tool?.validate || tool.validate(request.args)) return undefined;
    const { argumentErrors } = await import("./_schema.ts");
    return {
      ok: false,
      status: "error",
      error: `invalid arguments for tool "${tool.name}": ${
        argumentErrors(tool.validate.errors)
      }`,
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
    const harness = this.#options.harness ?? "experimental";
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

  async #run(request: CallRequest): Promise<CallOutcome> {
    const generation = this.#current;
    // Counted in at once, so the generation cannot be judged drained (and
    // its runners stopped) while the call's arguments are checked.
    generation.enter();
    try {
      const refused = this.#refusal(generation, request) ??
        await this.#checkArgs(generation, request);
      return refused ?? await this.#runOn(generation, request);
    } finally {
      generation.leave();
    }
  }

  async #runOn(
    generation: Generation,
    request: CallRequest,
  ): Promise<CallOutcome> {
    const ticket = new CallTicket();
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
        this.#pool.runner(runnerKey, module, key).call({
          args: request.args,
          sessionId: request.sessionId,
          agent: request.agent,
          secrets,
          timeoutMs: timeoutOf(request.timeoutMs, this.#timeout),
          ticket,
          onProgress: request.onProgress,
        });
      let raw = await attempt();
      if (!raw.ok && raw.notRun && generation.tools.has(request.name)) {
        // The call never ran: the loader loaded this module but its runner
        // did not (the file changed in between, as when an editor writes it
        // in place), or the runner went before the call reached it. It runs
        // once more, on a runner that reads the file anew.
        this.#log(
          `[tools] ${request.name}: its module did not load in its runner (${raw.error}); retrying on a new runner`,
        );
        this.#pool.runner(runnerKey, module, key).stop("the module changed");
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

  async call(request: CallRequest): Promise<CallOutcome> {
    const started = performance.now();
    const id = String(++this.#calls);
    const watched = this.#listeners.size > 0;
    if (watched) {
      this.#emit({
        type: "call-start",
        id,
        name: request.name,
        agent: request.agent,
        sessionId: request.sessionId,
        args: request.args,
        startedAt: Date.now(),
      });
    }
    let outcome: CallOutcome;
    if (this.#closed) {
      outcome = {
        ok: false,
        status: "error",
        error: "the tool host is closed",
      };
    } else {
      try {
        outcome = await this.#run(request);
      } catch (error) {
        outcome = {
          ok: false,
          status: "error",
          error: `the tool host failed to run the call: ${errorMessage(error)}`,
        };
      }
    }
    const ms = Math.round(performance.now() - started);
    const result = outcome.ok
      ? (outcome.truncated ? "ok (truncated)" : "ok")
      : outcome.status;
    this.#log(
      `[tools] call ${request.name} agent=${request.agent} session=${request.sessionId} ${ms}ms ${result}`,
    );
    if (watched) {
      this.#emit({
        type: "call-end",
        id,
        name: request.name,
        agent: request.agent,
        sessionId: request.sessionId,
        durationMs: ms,
        outcome,
      });
    }
    return outcome;
  }

  async #reload(options: ReloadOptions): Promise<ReloadResult> {
    if (options.changed) {
      // The first load must have reported: a reload of some modules keeps
      // the others' reports.
      await this.#loading.catch(() => {});
      const scope = reloadScope(this.#current, options.changed);
      if (scope) {
        // A changed module may import files nothing imported before: the
        // runners of every tool must then deny writing them, and all start
        // anew with the whole project.
        const next = this.#current.derive(++this.#generations, scope);
        if (!await this.#confine(this.#current, next)) {
          return await this.#reloadModules(next, scope);
        }
      }
    }
    let next: Generation;
    try {
      next = await this.#read(true);
      const errors = next.diagnostics.filter((d) => d.severity === "error");
      if (errors.length > 0) {
        this.#logManifestErrors(next.diagnostics);
        if (this.#options.logManifest !== false) {
          this.#log("[tools] reload refused: the old tool set keeps serving");
        }
        return notTaken(next);
      }
      // Both tool sets serve until the swap: runners deny what governs either.
      await this.#confine(this.#current, next);
      await this.#load(next, undefined, true);
    } catch (error) {
      const message = errorMessage(error);
      if (this.#options.logManifest !== false) {
        this.#log(`[tools] reload refused: ${message}`);
      }
      return { ok: false, diagnostics: [], changed: false, error: message };
    }
    if (this.#closed) {
      return notTaken(next);
    }
    await this.#loading.catch(() => {});
    const changed = this.#swap(next);
    this.#loading = Promise.resolve();
    // Not waited for: until it is done, new runners deny what governed the
    // old tool set too.
    void this.#confine(next);
    for (const line of describeLoadErrors(next.loadErrors())) this.#log(line);
    return {
      ok: true,
      diagnostics: next.diagnostics,
      changed,
      manifest: next.manifest,
      reloaded: [...next.modules.keys()],
    };
  }

  /**
   * Imports the modules of the tools `names` anew, for the manifest now
   * served; every other tool keeps its runners.
   */
  async #reloadModules(
    next: Generation,
    names: Set<string>,
  ): Promise<ReloadResult> {
    const modules = [...names].map((name) => next.modules.get(name)!);
    if (modules.length <= WARM_MAX) await this.#warm(next, modules);
    else await this.#load(next, modules, true);
    if (this.#closed) {
      return notTaken(next);
    }
    const changed = this.#swap(next);
    for (
      const line of describeLoadErrors(
        next.loadErrors().filter((error) => names.has(error.name)),
      )
    ) this.#log(line);
    return {
      ok: true,
      diagnostics: next.diagnostics,
      changed,
      manifest: next.manifest,
      reloaded: [...names],
      scoped: true,
    };
  }

  /**
   * Imports each of `modules` in the runner that will serve its calls, for
   * the grant its last runner served: the module is checked and its first
   * call finds it imported. A module that fails is imported once more
   * after a pause, as an editor may not have finished writing it.
   */
  async #warm(generation: Generation, modules: ModuleRef[]): Promise<void> {
    const warmOne = async (module: ModuleRef) => {
      const previous = this.#current.runnerPrefix(module.name);
      const grant = this.#pool.lastUsed(previous)?.slice(previous.length) ??
        "";
      const key = generation.runnerPrefix(module.name) + grant;
      let report = await this.#pool.runner(key, module, grant).warm();
      if (!report.ok && !this.#closed) {
        await new Promise((wake) => setTimeout(wake, RETRY_MS));
        this.#pool.closeWhere((candidate) => candidate === key);
        report = await this.#pool.runner(key, module, grant).warm();
      }
      await this.#accept(generation, report);
      if (!generation.tools.has(module.name)) {
        this.#pool.closeWhere((candidate) => candidate === key);
      }
    };
    await Promise.all(modules.map(warmOne));
  }

  /**
   * Serves `next` from now on; the runners only the generations before it
   * used stop once their calls end. Returns whether what agents see
   * changed.
   */
  #swap(next: Generation): boolean {
    const old = this.#current;
    const changed = old.fingerprint() !== next.fingerprint();
    this.#current = next;
    this.#serving.add(next);
    // Announced as the new tools take over, not once old calls drain.
    this.#emit({ type: "reload", ok: true, changed });
    void old.drained().then(() => {
      this.#serving.delete(old);
      this.#closeStale();
    });
    return changed;
  }

  /** Stops the runners of module versions no serving generation uses. */
  #closeStale(): void {
    const live = new Set<string>();
    for (const generation of this.#serving) {
      for (const name of generation.modules.keys()) {
        live.add(generation.runnerPrefix(name));
      }
    }
    this.#pool.closeWhere((key) => {
      const end = key.indexOf("\0", key.indexOf("\0") + 1);
      return !live.has(key.slice(0, end + 1));
    });
  }

  reload(options: ReloadOptions = {}): Promise<ReloadResult> {
    const previous = this.#reloading ?? Promise.resolve();
    const next = previous.catch(() => {}).then(() => this.#reload(options))
      .then(
        (result) => {
          if (!result.ok) {
            this.#emit({ type: "reload", ok: false, changed: false });
          }
          return result;
        },
      );
    this.#reloading = next;
    return next;
  }

  list(agent?: string, parentAgent?: string): HostedTool[] {
    const generation = this.#current;
    const harness = this.#options.harness ?? "experimental";
    return generation.loaded()
      .filter((t) => generation.visible(t.name, agent, parentAgent, harness))
      .map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.parameters,
        kind: t.kind,
        source: t.source,
      }));
  }

  stopSession(sessionId: string): number {
    const session = this.#sessions.get(sessionId);
    if (!session) return 0;
    const count = session.size;
    for (const ticket of [...session]) ticket.abort();
    return count;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#spareIdle);
    this.#spare?.kill();
    this.#spare = undefined;
    this.#stopLoading.abort();
    // A reload still reading the manifest ends now rather than at its end.
    await this.#reader.close();
    await this.#reloading?.catch(() => {});
    this.#pool.close();
    this.#deadlines.stop();
    await this.#runnerTmp.remove();
    await this.#spill.cleanup();
  }

  host(): Host {
    const host: Host = {
      directory: this.#options.directory,
      loadErrors: () => this.#current.loadErrors(),
      toolSet: () => this.#current.toolSet,
      diagnostics: () => this.#current.diagnostics,
      manifest: () => this.#current.manifest,
      list: (agent, parentAgent) => this.list(agent, parentAgent),
      ready: () => this.#loading,
      call: (request) => this.call(request),
      stopSession: (sessionId) => this.stopSession(sessionId),
      running: () => this.#total,
      reload: (options) => this.reload(options),
      prepare: () => this.#fillSpare(),
      sources: () => this.#current.sources() ?? this.#current.projectModules(),
      subscribe: (listener) => {
        this.#listeners.add(listener);
        return () => void this.#listeners.delete(listener);
      },
      close: () => this.close(),
      [Symbol.asyncDispose]: () => this.close(),
    };
    return host;
  }
}
