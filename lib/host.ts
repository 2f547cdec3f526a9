/**
 * The tool host: loads a project's tools (T1, T8, D1), lists what each agent
 * sees (D4, A2), runs calls (T2–T6, D2, D6) in workers it can stop, and
 * reloads in place (D5). The HTTP daemon and the CLI are thin layers over
 * it.
 *
 * @example Call a tool of the project in the current folder
 * ```ts ignore
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

import { mkdir, mkdtemp, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import type { Worker } from "node:worker_threads";
import { randomBytes } from "node:crypto";
import { agentMaySee } from "./agents.ts";
import { loadProject, type Project } from "./project.ts";
import { findAgent } from "./resolve.ts";
import type {
  Diagnostic,
  Harness,
  Manifest,
  ToolKind,
  ToolSet,
} from "./types.ts";
import {
  countLines,
  MAX_OUTPUT_BYTES,
  MAX_OUTPUT_LINES,
  overLimits,
  truncatedText,
} from "./_host_output.ts";
import type { Validator } from "./_host_schema.ts";
import {
  CallTicket,
  Deadlines,
  loadModules,
  type ModuleRef,
  type ProgressUpdate,
  type RawOutcome,
  SpareWorkers,
  startLoader,
  ToolWorker,
} from "./_host_pool.ts";
import { type ContentBlock, cutContent } from "./_host_content.ts";

export type { ContentBlock, EmbeddedResource } from "./_host_content.ts";
export type { ProgressUpdate } from "./_host_pool.ts";

/** Options of {@linkcode createHost}. */
export interface HostOptions {
  /** The project root, absolute. */
  directory: string;
  /** The root manifest's path; found from `directory` upwards when omitted (M1). */
  manifest?: string;
  /** Validate arguments against each tool's `parameters` with Ajv (T2); off by default. */
  validateArgs?: boolean;
  /** Per-call timeout in milliseconds when a call gives none; default 300 000 (5 minutes). */
  timeoutMs?: number;
  /** How long importing the modules may take, in milliseconds; default 30 000. */
  loadTimeoutMs?: number;
  /** Heap limit of each tool worker, in MB; default 512. */
  heapMb?: number;
  /** A tool's worker idle this long is stopped, and restarted on its next call; default 600 000 (10 minutes). */
  idleMs?: number;
  /** The base environment of `context.env`; default: the process environment as it is when the host starts or reloads. */
  env?: Record<string, string>;
  /** The project's secrets by name, read afresh for every call (D6). */
  secrets?: () => Record<string, string>;
  /** Where full outputs of cut calls go (T6); default: a private folder made under the system's temporary folder. */
  tmpDir?: string;
  /** Where log lines go; default `console.error`. */
  log?: (line: string) => void;
  /** The harness whose visibility rules apply (A4, A6); default `experimental`. */
  harness?: Harness;
  /** Send what tools print to standard output to standard error instead (for servers whose standard output is a protocol stream); default false. */
  stdoutToStderr?: boolean;
}

/** A tool as an agent sees it. */
export interface HostedTool {
  /** The tool's name. */
  name: string;
  /** Its description, as the module gives it. */
  description: string;
  /** Its parameters' JSON Schema, as the module gives it. */
  parameters: Record<string, unknown>;
  /** `beeuni`, `beeuni (overridden)` or `project`. */
  kind: ToolKind;
  /** `beeuni:<name>` or the repo-relative module path. */
  source: string;
}

/** One call of a tool. */
export interface CallRequest {
  /** The tool's name. */
  name: string;
  /** The arguments, passed to `execute` as they are. */
  args: unknown;
  /** The session the call belongs to (`context.sessionId`). */
  sessionId: string;
  /** The calling agent (`context.agent`). */
  agent: string;
  /** The session agent that started `agent` as a subagent (A4). */
  parentAgent?: string;
  /** Aborts the call: `context.signal` fires and the call ends as `aborted` (T5). */
  signal?: AbortSignal;
  /** This call's timeout in milliseconds; default {@linkcode HostOptions.timeoutMs}. */
  timeoutMs?: number;
  /**
   * Receives the tool's progress reports (`context.progress(done, total?,
   * message?)`); without it `context.progress` does nothing.
   */
  onProgress?: (update: ProgressUpdate) => void;
}

/** How a call ended. */
export type CallOutcome =
  | {
    ok: true;
    /** What the model reads (T3), cut when over a T6 limit. */
    output: string;
    truncated?: boolean;
    size?: number;
    path?: string;
    /**
     * The blocks, when the tool returned `{ content: [...] }` (text, image,
     * audio, resource); after a cut (T6) the text blocks are replaced by the
     * cut `output`.
     */
    content?: ContentBlock[];
    /**
     * The JSON object the tool returned (parsed from `output` when first
     * read), or the `structuredContent` it returned with its blocks; absent
     * after a cut.
     */
    structured?: Record<string, unknown>;
  }
  | {
    ok: false;
    status: "not_found" | "forbidden" | "error" | "timeout" | "aborted";
    error: string;
  };

/** What {@linkcode Host.subscribe} listeners receive. Never carries `context.env`, secrets or tokens. */
export type HostEvent =
  | {
    type: "call-start";
    /** This call's id, unique within the host. */
    id: string;
    name: string;
    agent: string;
    sessionId: string;
    args: unknown;
    /** Epoch milliseconds. */
    startedAt: number;
  }
  | {
    type: "call-end";
    id: string;
    name: string;
    agent: string;
    sessionId: string;
    durationMs: number;
    outcome: CallOutcome;
  }
  | {
    type: "reload";
    /** Whether the new manifest is now served. */
    ok: boolean;
    /** Whether what agents see changed. */
    changed: boolean;
  };

/** What {@linkcode Host.reload} did. */
export interface ReloadResult {
  /** Whether the new manifest was valid and is now served. */
  ok: boolean;
  /** The new manifest's diagnostics (errors keep the old tool set serving). */
  diagnostics: Diagnostic[];
  /** Whether what agents see (tools, descriptions, parameters, load failures) changed. */
  changed: boolean;
}

/** A running tool host. */
export interface Host {
  /** The project root. */
  readonly directory: string;
  /** The tools that did not load, each with its reason (T8). */
  loadErrors(): { name: string; reason: string }[];
  /** The session's tool set as resolved from the manifest. */
  toolSet(): ToolSet;
  /** The diagnostics of the manifest now served. */
  diagnostics(): Diagnostic[];
  /** The manifest now served, as parsed (its agents, imports and positions). */
  manifest(): Manifest;
  /** The loaded tools `agent` sees, started by `parentAgent` when given (D4, A2, A4). */
  list(agent?: string, parentAgent?: string): HostedTool[];
  /** Runs one call; never rejects. */
  call(request: CallRequest): Promise<CallOutcome>;
  /** Aborts every running call of the session; returns how many. */
  stopSession(sessionId: string): number;
  /** How many calls are running. */
  running(): number;
  /** Re-reads the manifest and the modules and serves them, unless the manifest has errors (D5). */
  reload(): Promise<ReloadResult>;
  /** Stops every worker; running calls end with an error. */
  close(): Promise<void>;
  /** Every call's start and end, and every reload; returns an unsubscribe function. */
  subscribe(listener: (event: HostEvent) => void): () => void;
  /** Same as {@linkcode Host.close}. */
  [Symbol.asyncDispose](): Promise<void>;
}

interface LoadedTool extends HostedTool {
  url: string;
  validate?: Validator;
}

interface Runtime {
  manifest: Manifest;
  toolSet: ToolSet;
  diagnostics: Diagnostic[];
  tools: Map<string, LoadedTool>;
  errors: { name: string; reason: string }[];
  workers: Map<string, ToolWorker>;
  /** The base of `context.env` for this runtime's calls. */
  env: Record<string, string>;
  /** Visibility decisions, by agent, parent and tool: the manifest does not change within a runtime. */
  seen: Map<string, boolean>;
  inflight: number;
  drained?: () => void;
}

const BUILTIN_TOOLS = new URL("../builtin_tools/", import.meta.url);

/** The default per-call timeout (5 minutes). */
export const DEFAULT_TIMEOUT_MS = 300_000;

function baseEnv(options: HostOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env ?? process.env)) {
    if (typeof value === "string") env[key] = value;
  }
  return env;
}

async function buildRuntime(
  project: Project,
  options: HostOptions,
  heapMb: number,
  log: (line: string) => void,
  loader: Worker,
): Promise<Runtime> {
  const refs: ModuleRef[] = [];
  const byName = new Map(project.toolSet.tools.map((t) => [t.name, t]));
  for (const tool of project.toolSet.tools) {
    if (tool.kind === "beeuni") {
      const url = new URL(`${tool.name}.ts`, BUILTIN_TOOLS);
      refs.push({ name: tool.name, url: url.href });
    } else {
      const path = resolve(project.root, tool.source);
      refs.push({ name: tool.name, url: pathToFileURL(path).href });
    }
  }
  const reports = await loadModules(
    refs,
    options.loadTimeoutMs ?? 30_000,
    { heapMb, log, stdoutToStderr: options.stdoutToStderr },
    loader,
  );
  // The loader checked that each schema compiles; Ajv is loaded here only
  // when arguments are validated (T2).
  const compile = options.validateArgs
    ? (await import("./_host_schema.ts")).schemaCompiler()
    : undefined;
  const tools = new Map<string, LoadedTool>();
  const errors: { name: string; reason: string }[] = [];
  for (const report of reports) {
    const resolved = byName.get(report.name)!;
    if (!report.ok) {
      errors.push({ name: report.name, reason: report.reason });
      continue;
    }
    let validate: LoadedTool["validate"];
    try {
      validate = compile?.(report.parameters);
    } catch (error) {
      errors.push({
        name: report.name,
        reason: `parameters is not a valid JSON Schema: ${
          error instanceof Error ? error.message : String(error)
        }`,
      });
      continue;
    }
    tools.set(report.name, {
      name: report.name,
      description: report.description,
      parameters: report.parameters,
      kind: resolved.kind,
      source: resolved.source,
      url: refs.find((r) => r.name === report.name)!.url,
      validate,
    });
  }
  return {
    manifest: project.manifest,
    toolSet: project.toolSet,
    diagnostics: project.diagnostics,
    tools,
    errors,
    workers: new Map(),
    env: baseEnv(options),
    seen: new Map(),
    inflight: 0,
  };
}

function describeLoadErrors(
  errors: { name: string; reason: string }[],
): string[] {
  if (errors.length === 0) return [];
  return [
    "[tools] project tools that did not load",
    ...errors.map((e) => `[tools]   ${e.name}: ${e.reason}`),
  ];
}

function fingerprint(runtime: Runtime): string {
  return JSON.stringify({
    tools: [...runtime.tools.values()].map((t) => [
      t.name,
      t.kind,
      t.source,
      t.description,
      t.parameters,
    ]),
    errors: runtime.errors,
    agents: runtime.manifest.files.map((f) =>
      f.agents.map((a) => [a.name, a.tools, a.secrets])
    ),
  });
}

async function closeRuntime(runtime: Runtime): Promise<void> {
  await Promise.all([...runtime.workers.values()].map((w) => w.close()));
  runtime.workers.clear();
}

/** A usable timer length: positive, finite and within what timers accept. */
function timeoutOf(requested: number | undefined, fallback: number): number {
  const value = requested ?? fallback;
  if (!Number.isFinite(value) || value <= 0) return fallback;
  return Math.min(value, 2_147_483_647);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The outcome of a call that ran: the shaped output (T6) with the blocks
 * or the JSON object the tool returned. A JSON object is parsed from the
 * output only when `structured` is first read.
 */
function withExtras(
  shaped: Extract<CallOutcome, { ok: true }>,
  raw: Extract<RawOutcome, { ok: true }>,
): CallOutcome {
  if (raw.content) {
    shaped.content = shaped.truncated
      ? cutContent(raw.content, shaped.output)
      : raw.content;
  }
  if (shaped.truncated) return shaped;
  if (raw.structured) shaped.structured = raw.structured;
  else if (raw.json) {
    const text = raw.output;
    Object.defineProperty(shaped, "structured", {
      enumerable: true,
      configurable: true,
      get(): Record<string, unknown> {
        const value = JSON.parse(text);
        Object.defineProperty(shaped, "structured", {
          value,
          enumerable: true,
          configurable: true,
          writable: true,
        });
        return value;
      },
    });
  }
  return shaped;
}

/**
 * Creates a host for the project at `options.directory`: reads its
 * manifest, imports every tool module once to check it (T1, T8) and logs
 * the ones that did not load. Tools then run in workers of their own,
 * started on their first call.
 *
 * Rejects only when there is no manifest to read; problems inside the
 * manifest are logged and the tools that resolve are served.
 */
export async function createHost(options: HostOptions): Promise<Host> {
  if (!isAbsolute(options.directory)) {
    throw new Error(
      `cannot start the tool host: directory "${options.directory}" is not an absolute path`,
    );
  }
  const log = options.log ?? ((line: string) => console.error(line));
  const harness: Harness = options.harness ?? "experimental";
  const heapMb = options.heapMb ?? 512;
  // Started now, so that it is up by the first call.
  const spares = new SpareWorkers(heapMb, options.stdoutToStderr);
  const defaultTimeout = timeoutOf(options.timeoutMs, DEFAULT_TIMEOUT_MS);
  let tmpDir = options.tmpDir;
  const outputDir = async (): Promise<string> => {
    if (tmpDir === undefined) {
      tmpDir = await mkdtemp(join(tmpdir(), "beeuni-tools-"));
    } else await mkdir(tmpDir, { recursive: true, mode: 0o700 });
    return tmpDir;
  };

  let current: Runtime;
  // Starting a worker blocks this thread for a while: start the loader
  // first, so that it boots (and imports Ajv) while the manifest is read,
  // and the reserve worker while the loader imports the modules.
  const loader = startLoader(heapMb, options.stdoutToStderr);
  const projectLoaded = loadProject({
    cwd: options.directory,
    manifest: options.manifest,
    tracking: false,
  });
  try {
    const project = await projectLoaded;
    const built = buildRuntime(project, options, heapMb, log, loader);
    spares.fill();
    current = await built;
  } catch (error) {
    await Promise.all([loader.terminate(), spares.close()]);
    throw error;
  }
  logManifestErrors(current.diagnostics);
  for (const line of describeLoadErrors(current.errors)) log(line);

  const sessions = new Map<string, Set<CallTicket>>();
  const deadlines = new Deadlines();
  let total = 0;
  let closed = false;
  let reloading: Promise<ReloadResult> | undefined;
  const listeners = new Set<(event: HostEvent) => void>();
  let callIds = 0;

  function emit(event: HostEvent): void {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        log(`[tools] an event listener failed: ${errorText(error)}`);
      }
    }
  }

  function logManifestErrors(diagnostics: Diagnostic[]): void {
    const errors = diagnostics.filter((d) => d.severity === "error");
    if (errors.length === 0) return;
    log(`[tools] the manifest has errors`);
    for (const d of errors) {
      log(`[tools]   ${d.file}:${d.line}:${d.col}: ${d.message}`);
    }
  }

  function visible(
    runtime: Runtime,
    tool: string,
    agent: string | undefined,
    parentAgent: string | undefined,
  ): boolean {
    if (agent === undefined) return true;
    const key = parentAgent === undefined
      ? `${agent}\0${tool}`
      : `${agent}\0${tool}\0${parentAgent}`;
    let allowed = runtime.seen.get(key);
    if (allowed === undefined) {
      allowed = agentMaySee(tool, {
        agent: findAgent(runtime.manifest, agent),
        parent: parentAgent === undefined
          ? undefined
          : findAgent(runtime.manifest, parentAgent),
        harness,
      });
      if (runtime.seen.size >= 10_000) runtime.seen.clear();
      runtime.seen.set(key, allowed);
    }
    return allowed;
  }

  /** The secrets `agent` is granted, read afresh (D6); `undefined` when none. */
  function grantedSecrets(
    runtime: Runtime,
    agent: string,
  ): Record<string, string> | undefined {
    if (!options.secrets) return undefined;
    const entry = findAgent(runtime.manifest, agent);
    if (!entry) return undefined;
    const grant = entry.secrets;
    if (grant !== "all" && grant.length === 0) return undefined;
    const secrets = options.secrets();
    if (grant === "all") return { ...secrets };
    const granted: Record<string, string> = {};
    for (const ref of grant) {
      const value = secrets[ref.name];
      if (typeof value === "string") granted[ref.name] = value;
    }
    return granted;
  }

  async function shapeOutput(tool: string, text: string): Promise<CallOutcome> {
    // UTF-8 takes at most 3 bytes per UTF-16 unit, and a text has at most
    // one line per unit: short outputs skip the byte count (T6).
    if (
      text.length <= MAX_OUTPUT_LINES ||
      (text.length * 3 <= MAX_OUTPUT_BYTES &&
        countLines(text) <= MAX_OUTPUT_LINES)
    ) return { ok: true, output: text };
    const bytes = new TextEncoder().encode(text).length;
    if (!overLimits(text, bytes)) return { ok: true, output: text };
    const dir = await outputDir();
    const base = `${tool}-${Date.now()}-${randomBytes(4).toString("hex")}.txt`;
    const path = join(dir, base);
    const temp = join(dir, `.${base}.tmp`);
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, path);
    const cut = truncatedText(text, path);
    return {
      ok: true,
      output: cut.text,
      truncated: true,
      size: cut.size,
      path,
    };
  }

  async function run(request: CallRequest): Promise<CallOutcome> {
    const runtime = current;
    const tool = runtime.tools.get(request.name);
    if (!tool) {
      return {
        ok: false,
        status: "not_found",
        error: `Tool ${request.name} not found`,
      };
    }
    if (!visible(runtime, tool.name, request.agent, request.parentAgent)) {
      return {
        ok: false,
        status: "forbidden",
        error: `agent "${request.agent}" may not use tool "${tool.name}"${
          request.parentAgent === undefined
            ? ""
            : ` (started by agent "${request.parentAgent}")`
        }: it is not in the agent's tools`,
      };
    }
    if (options.validateArgs && tool.validate && !tool.validate(request.args)) {
      return {
        ok: false,
        status: "error",
        error: `invalid arguments for tool "${tool.name}": ${
          (await import("./_host_schema.ts")).argumentErrors(
            tool.validate.errors,
          )
        }`,
      };
    }
    const ticket = new CallTicket();
    const outer = request.signal;
    const onOuterAbort = () => ticket.abort();
    if (outer) {
      if (outer.aborted) ticket.aborted = true;
      else outer.addEventListener("abort", onOuterAbort, { once: true });
    }
    let set = sessions.get(request.sessionId);
    if (!set) sessions.set(request.sessionId, set = new Set());
    set.add(ticket);
    runtime.inflight++;
    total++;
    try {
      let worker = runtime.workers.get(tool.name);
      if (!worker) {
        worker = new ToolWorker(tool.name, tool.url, {
          heapMb,
          log,
          spares,
          idleMs: options.idleMs,
          env: runtime.env,
          deadlines,
          directory: options.directory,
          stdoutToStderr: options.stdoutToStderr,
        });
        runtime.workers.set(tool.name, worker);
      }
      const raw: RawOutcome = await worker.call(
        request.args,
        request.sessionId,
        request.agent,
        grantedSecrets(runtime, request.agent),
        timeoutOf(request.timeoutMs, defaultTimeout),
        ticket,
        request.onProgress,
      );
      if (!raw.ok) return raw;
      const shaped = await shapeOutput(tool.name, raw.output);
      return raw.content || raw.json || raw.structured
        ? withExtras(shaped as Extract<CallOutcome, { ok: true }>, raw)
        : shaped;
    } finally {
      outer?.removeEventListener("abort", onOuterAbort);
      set.delete(ticket);
      if (set.size === 0) sessions.delete(request.sessionId);
      runtime.inflight--;
      total--;
      if (runtime.inflight === 0) runtime.drained?.();
    }
  }

  async function call(request: CallRequest): Promise<CallOutcome> {
    const started = performance.now();
    // Events cost nothing while no one listens.
    const id = listeners.size > 0 ? String(++callIds) : undefined;
    if (id !== undefined) {
      emit({
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
    if (closed) {
      outcome = {
        ok: false,
        status: "error",
        error: "the tool host is closed",
      };
    } else {
      try {
        outcome = await run(request);
      } catch (error) {
        outcome = {
          ok: false,
          status: "error",
          error: `the tool host failed to run the call: ${errorText(error)}`,
        };
      }
    }
    const ms = Math.round(performance.now() - started);
    const result = outcome.ok
      ? (outcome.truncated ? "ok (truncated)" : "ok")
      : outcome.status;
    log(
      `[tools] call ${request.name} agent=${request.agent} session=${request.sessionId} ${ms}ms ${result}`,
    );
    if (id !== undefined) {
      emit({
        type: "call-end",
        id,
        name: request.name,
        agent: request.agent,
        sessionId: request.sessionId,
        durationMs: performance.now() - started,
        outcome,
      });
    }
    return outcome;
  }

  async function doReload(): Promise<ReloadResult> {
    let next: Runtime;
    try {
      const project = await loadProject({
        cwd: options.directory,
        manifest: options.manifest,
        tracking: false,
      });
      const errors = project.diagnostics.filter((d) => d.severity === "error");
      if (errors.length > 0) {
        logManifestErrors(project.diagnostics);
        log("[tools] reload refused: the old tool set keeps serving");
        return { ok: false, diagnostics: project.diagnostics, changed: false };
      }
      next = await buildRuntime(
        project,
        options,
        heapMb,
        log,
        startLoader(heapMb, options.stdoutToStderr),
      );
    } catch (error) {
      log(`[tools] reload refused: ${errorText(error)}`);
      return {
        ok: false,
        diagnostics: [{
          file: options.manifest ?? "beeuni.yaml",
          line: 1,
          col: 1,
          severity: "error",
          rule: "M1",
          message: errorText(error),
        }],
        changed: false,
      };
    }
    if (closed) {
      await closeRuntime(next);
      return { ok: false, diagnostics: next.diagnostics, changed: false };
    }
    const old = current;
    const changed = fingerprint(old) !== fingerprint(next);
    current = next;
    for (const line of describeLoadErrors(next.errors)) log(line);
    // Announced now, not once the old runtime's calls have drained.
    emit({ type: "reload", ok: true, changed });
    if (old.inflight > 0) {
      await new Promise<void>((resolve) => old.drained = resolve);
    }
    await closeRuntime(old);
    return { ok: true, diagnostics: next.diagnostics, changed };
  }

  const host: Host = {
    directory: options.directory,
    loadErrors: () => current.errors.map((e) => ({ ...e })),
    toolSet: () => current.toolSet,
    diagnostics: () => current.diagnostics,
    manifest: () => current.manifest,
    list(agent?: string, parentAgent?: string): HostedTool[] {
      const runtime = current;
      return [...runtime.tools.values()]
        .filter((t) => visible(runtime, t.name, agent, parentAgent))
        .map((t) => ({
          name: t.name,
          description: t.description,
          parameters: t.parameters,
          kind: t.kind,
          source: t.source,
        }));
    },
    call,
    stopSession(sessionId: string): number {
      const set = sessions.get(sessionId);
      if (!set) return 0;
      const count = set.size;
      for (const ticket of [...set]) ticket.abort();
      return count;
    },
    running: () => total,
    reload(): Promise<ReloadResult> {
      const previous = reloading ?? Promise.resolve();
      const next = previous.catch(() => {}).then(doReload).then((result) => {
        // A served reload was announced when the new tools took over.
        if (!result.ok) emit({ type: "reload", ok: false, changed: false });
        return result;
      });
      reloading = next;
      return next;
    },
    subscribe(listener: (event: HostEvent) => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await reloading?.catch(() => {});
      await closeRuntime(current);
      await spares.close();
      deadlines.stop();
    },
    [Symbol.asyncDispose](): Promise<void> {
      return host.close();
    },
  };
  return host;
}
