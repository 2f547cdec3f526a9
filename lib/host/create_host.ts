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

import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { errorMessage, escapeControl } from "../common/mod.ts";
import { builtinToolUrl, type Diagnostic } from "../manifest/mod.ts";
import { isolatedLoader, loadProject } from "../project/mod.ts";
import { loadRuntime } from "../runtime/mod.ts";
import { Calls } from "./_calls.ts";
import { Deadlines, timeoutOf } from "./_deadlines.ts";
import { HostEvents } from "./_events.ts";
import { Generation } from "./_generation.ts";
import { Launcher, type RunnerProgram, runnerProgram } from "./_launcher.ts";
import { ModuleLoading } from "./_loading.ts";
import type { ModuleRef, OutputFolder } from "./_protocol.ts";
import { reloadScope } from "./_reload_scope.ts";
import { runnerEntry, toolkitPaths } from "./_runner_entry.ts";
import { type RunnerFolder, runnerFolder } from "./_runner_folder.ts";
import { RunnerPool } from "./_runner_pool.ts";
import { SpareRunner } from "./_spare_runner.ts";
import { Spill } from "./_spill.ts";
import type {
  Host,
  HostedTool,
  HostOptions,
  LoadError,
  ReloadOptions,
  ReloadResult,
} from "./types.ts";

/** The default per-call timeout (5 minutes). */
export const DEFAULT_TIMEOUT_MS = 300_000;

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
  paths: { tmpRoot: string; outputDir?: string },
  log: (line: string) => void,
): Promise<Launcher> {
  return new Launcher({
    ...await runnerRuntime(options),
    directory: options.directory,
    entry: runnerEntry(),
    heapMb: options.heapMb ?? 256,
    allowRun: options.allowRun ?? false,
    allowRemoteListen: options.allowRemoteListen ?? false,
    builtinDir: dirname(fileURLToPath(builtinToolUrl("memory"))),
    tmpRoot: paths.tmpRoot,
    outputDir: paths.outputDir,
    allowRead: options.allowRead,
    allowWrite: options.allowWrite,
    denyRead: options.denyRead,
    denyWrite: [...toolkitPaths(), ...(options.denyWrite ?? [])],
    env: () => baseEnv(options),
    log,
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
    start = await launcher(
      options,
      { tmpRoot: runnerTmp.path, outputDir: output?.dir },
      log,
    );
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
  readonly #events: HostEvents;
  readonly #spare: SpareRunner;
  readonly #loader: ModuleLoading;
  readonly #calls: Calls;
  readonly #stopLoading = new AbortController();
  /** Reads a changed manifest off this thread (see `#read`). */
  readonly #reader = isolatedLoader();
  #current!: Generation;
  /** The generations calls may still run on: the current one and those draining. */
  readonly #serving = new Set<Generation>();
  #loading!: Promise<void>;
  #generations = 0;
  #closed = false;
  #reloading?: Promise<ReloadResult>;

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
    this.#events = new HostEvents(log);
    this.#spare = new SpareRunner(launcher, log, options.idleMs ?? 60_000);
    this.#pool = new RunnerPool({
      maxRunners: options.maxRunners ?? 8,
      memoryMb: options.runnerMemoryMb ?? 512,
      idleMs: options.idleMs ?? 60_000,
    }, {
      start: (grant, events) => this.#spare.take(grant, events),
      deadlines: this.#deadlines,
      log,
      heapMb: options.heapMb ?? 256,
      directory: options.directory,
      startTimeoutMs: timeoutOf(options.loadTimeoutMs, 10_000),
      output: saved.output,
      discard: (cut) => void this.#spill.discard(cut),
    });
    this.#loader = new ModuleLoading({
      directory: options.directory,
      loadTimeoutMs: timeoutOf(options.loadTimeoutMs, 10_000),
      launcher,
      spare: this.#spare,
      log,
      signal: this.#stopLoading.signal,
    });
    this.#calls = new Calls({
      current: () => this.#current,
      closed: () => this.#closed,
      pool: this.#pool,
      spill: this.#spill,
      events: this.#events,
      log,
      timeoutMs: timeoutOf(options.timeoutMs, DEFAULT_TIMEOUT_MS),
      validateArgs: options.validateArgs ?? false,
      harness: options.harness ?? "experimental",
      secrets: options.secrets,
    });
  }

  /**
   * Confines the runners started from now on by what governs
   * `generations`' tools; resolves to whether runners started before must
   * go.
   */
  #confine(...generations: Generation[]): Promise<boolean> {
    return this.#launcher.confine({
      manifestFiles: generations.flatMap((g) => g.manifestFiles()),
      modules: generations.flatMap((g) => g.projectModules()),
      imports: generations.flatMap((g) => g.sources() ?? []),
    });
  }

  /** Reads the project and starts loading it; waits for the load unless told not to. */
  async begin(): Promise<void> {
    const generation = await this.#read();
    this.#current = generation;
    this.#serving.add(generation);
    // Runners are confined by what governs the tools: known from here on.
    await this.#confine(generation);
    this.#spare.fill();
    this.#logManifestErrors(generation.diagnostics);
    this.#loading = this.#loader.load(generation).then(() => {
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
      await this.#loader.load(next, undefined, true);
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
    else await this.#loader.load(next, modules, true);
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
      await this.#loader.accept(generation, report);
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
    this.#events.emit({ type: "reload", ok: true, changed });
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
            this.#events.emit({ type: "reload", ok: false, changed: false });
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

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#spare.close();
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
      call: (request) => this.#calls.call(request),
      stopSession: (sessionId, agents) =>
        this.#calls.stopSession(sessionId, agents),
      running: () => this.#calls.running,
      runners: () => this.#pool.live(),
      reload: (options) => this.reload(options),
      prepare: () => this.#spare.fill(),
      sources: () => this.#current.sources() ?? this.#current.projectModules(),
      subscribe: (listener) => this.#events.add(listener),
      close: () => this.close(),
      [Symbol.asyncDispose]: () => this.close(),
    };
    return host;
  }
}
