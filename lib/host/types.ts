/**
 * The tool host's public types: its options, the tools it lists, calls and
 * their outcomes, and the events it reports.
 *
 * @module
 */

import type {
  Diagnostic,
  Harness,
  Manifest,
  ToolKind,
  ToolSet,
} from "../manifest/mod.ts";

/** Options of `createHost()`. */
export interface HostOptions {
  /** The project root, absolute. */
  directory: string;
  /** The root manifest's path; found from `directory` upwards when omitted. */
  manifest?: string;
  /** Validate arguments against each tool's `parameters` with Ajv; off by default. */
  validateArgs?: boolean;
  /** Per-call timeout in milliseconds when a call gives none; default 300 000 (5 minutes). */
  timeoutMs?: number;
  /** How long importing one module may take, in milliseconds; default 10 000. */
  loadTimeoutMs?: number;
  /** Heap limit of each tool runner, in MB (Deno, Node.js); default 256. */
  heapMb?: number;
  /** A tool's runner idle this long is stopped, and started again on its next call; default 60 000 (1 minute). */
  idleMs?: number;
  /** Most runner processes kept alive while idle; default 8. */
  maxRunners?: number;
  /** Resident memory of all runner processes together above which idle ones are stopped, in MB; default 512. */
  runnerMemoryMb?: number;
  /** Let tools start processes (Deno: `--allow-run`; Node.js: `--allow-child-process`); default false. */
  allowRun?: boolean;
  /** More paths tools may read, besides the project and the `node_modules` folders above it. */
  allowRead?: string[];
  /** More paths tools may write, besides the project. */
  allowWrite?: string[];
  /** Paths tools may never read (the daemon's token file, the secret store), enforced under Deno. */
  denyRead?: string[];
  /**
   * More paths tools may never write, besides what governs the tools (the
   * manifest and its imports, the tool modules and what they import, the
   * folders holding them, `.git`, `.opencode`, `harnesses`, `node_modules`,
   * package manifests and lock files, the toolkit's own files); enforced
   * under Deno.
   */
  denyWrite?: string[];
  /**
   * The runtime tool runners run on: `"deno"`, `"node"` or `"bun"` (found on
   * the PATH), or the path of one; default: the runtime running the host.
   * Deno confines tools; Node.js and Bun contain them (see docs/host.md).
   */
  runner?: string;
  /** Let tools listen on addresses other than loopback (Deno runners); default false. */
  allowRemoteListen?: boolean;
  /**
   * Wait for every module to load before `createHost()` resolves; default
   * true. With false, the host answers calls at once and lists each tool
   * once it has loaded ({@linkcode Host.ready} resolves when all have).
   */
  waitForLoad?: boolean;
  /** The base environment of `context.env`; default: the process environment as it is when the host starts or reloads. */
  env?: Record<string, string>;
  /** The project's secrets by name, read afresh for every call. */
  secrets?: () => Record<string, string>;
  /**
   * Where full outputs of cut calls go; default: the project's own
   * folder `beeuni-tools-<uid>/<key>` under the system's temporary folder
   * (`<key>`: 16 hex digits of the SHA-256 of the project root's real
   * path; both levels mode 0700), shared by the project's hosts and by no
   * other project's (a new private folder when either level is not safe
   * to use: another owner, a symlink, open permissions). Made when the
   * host starts: tool runners write long outputs there themselves, and
   * may write but not read it (Deno, Node.js). Everything in it is swept,
   * whatever its name: give a folder of its own.
   */
  tmpDir?: string;
  /**
   * The most bytes of files kept in `tmpDir`; default 104 857 600
   * (100 MiB). Before each save the oldest files are removed until the new
   * one fits; an output larger than this is cut and not saved.
   */
  tmpMaxBytes?: number;
  /** Files in `tmpDir` older than this are removed, whatever their names (at the next save and when the host closes), in milliseconds; default 86 400 000 (24 hours). */
  tmpRetentionMs?: number;
  /**
   * Log the manifest's errors and each refused reload
   * (`[tools] the manifest has errors`, `[tools] reload refused: …`);
   * default true. The daemon and `beeuni mcp` report them themselves.
   */
  logManifest?: boolean;
  /** Where log lines go; default `console.error`. */
  log?: (line: string) => void;
  /** The harness whose visibility rules apply; default `experimental`. */
  harness?: Harness;
}

/** A tool that did not load. */
export interface LoadError {
  /** The tool's name. */
  name: string;
  /** Why, in words. */
  reason: string;
  /** Where in its module, for a syntax error: absolute path, 1-based line and column. */
  at?: { file: string; line: number; col: number };
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

/** A progress report of a running call (`context.progress(progress, total, message)`). */
export interface ProgressUpdate {
  /** How much is done. */
  progress: number;
  /** How much there is in all, when known. */
  total?: number;
  /** What is going on. */
  message?: string;
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
  /** The session agent that started `agent` as a subagent. */
  parentAgent?: string;
  /** Aborts the call: `context.signal` fires and the call ends as `aborted`. */
  signal?: AbortSignal;
  /** This call's timeout in milliseconds; default {@linkcode HostOptions.timeoutMs}. */
  timeoutMs?: number;
  /** Receives the tool's `context.progress` reports; without it they go nowhere. */
  onProgress?: (update: ProgressUpdate) => void;
  /**
   * Check the arguments against the tool's schema on this call even when
   * the host does not validate arguments ({@linkcode HostOptions.validateArgs}).
   */
  validateArgs?: boolean;
  /** How the call reached the host, for logs, traces and the call record; default `"api"`. */
  transport?: CallTransport;
  /** The caller's W3C trace context, continued by the call's trace. */
  traceContext?: TraceContext;
}

/** How a call reached the host. */
export type CallTransport = "http" | "mcp" | "session" | "cli" | "api";

/** A W3C trace context as a caller sent it (`traceparent`, `tracestate`). */
export interface TraceContext {
  /** The `traceparent` value, as sent. */
  traceparent: string;
  /** The `tracestate` value, when sent. */
  tracestate?: string;
}

export type { ContentBlock, EmbeddedResource } from "./_content.ts";
import type { ContentBlock } from "./_content.ts";

/** How a call that failed failed. */
export type CallStatus =
  | "not_found"
  | "forbidden"
  | "error"
  | "timeout"
  | "aborted";

/** A call that answered: what the model reads, and what else a caller may use. */
export interface CallSuccess {
  /** Always `true`: the tool answered. */
  ok: true;
  /** What the model reads. */
  output: string;
  /** Whether `output` is the head of a longer text. */
  truncated?: boolean;
  /** The full size in bytes, when truncated. */
  size?: number;
  /** The file holding the full text, when truncated. */
  path?: string;
  /** The blocks of a `{ content: [...] }` result (text, images, audio, resources), the text cut as `output` is. */
  content?: ContentBlock[];
  /** The returned value when it was a plain JSON object, or the `structuredContent` returned beside blocks; absent when the output was cut. */
  structured?: Record<string, unknown>;
}

/** A call that failed: how, and the message the model reads. */
export interface CallFailure {
  /** Always `false`: the call did not answer. */
  ok: false;
  /** How it failed. */
  status: CallStatus;
  /** What the model reads. */
  error: string;
  /** Whether `error` is the head of a longer message. */
  truncated?: boolean;
  /** The full message's size in bytes, when truncated. */
  size?: number;
  /** The file holding the full message, when truncated. */
  path?: string;
  /** For `not_found`, when the tool is declared but did not load: why. */
  loadError?: string;
}

/** How a call ended: {@linkcode Host.call} never rejects. */
export type CallOutcome = CallSuccess | CallFailure;

/** What {@linkcode Host.reload} is told about the change. */
export interface ReloadOptions {
  /**
   * The files that changed, as absolute paths. When none of them is a
   * manifest file, the manifest is not read again: only the tools whose
   * module changed are imported anew (every project tool when a changed
   * file is not a tool module itself, such as a helper they import), and
   * every other tool keeps its runner and the state in it. Without it, the
   * whole project is read again.
   */
  changed?: string[];
}

/** What {@linkcode Host.reload} did. */
export interface ReloadResult {
  /** Whether the new manifest was valid and is now served. */
  ok: boolean;
  /** The new manifest's diagnostics (errors keep the old tool set serving). */
  diagnostics: Diagnostic[];
  /** Whether what agents see (tools, descriptions, parameters, load failures) changed. */
  changed: boolean;
  /** Why the reload failed when it was not the manifest's errors (for example, the manifest could not be read). */
  error?: string;
  /** The manifest as the reload read it, valid or not; absent when it could not be read. */
  manifest?: Manifest;
  /** The tools whose modules were imported anew. */
  reloaded?: string[];
  /** Set when only some tools' modules were imported anew, the manifest not read again. */
  scoped?: true;
}

/** Something the host did, for those watching it: never a call's env, secrets or tokens. */
export type HostEvent =
  | {
    type: "call-start";
    /** The call's id, unique within the host. */
    id: string;
    name: string;
    agent: string;
    sessionId: string;
    args: unknown;
    /** When it started, in milliseconds since the epoch. */
    startedAt: number;
    transport: CallTransport;
    traceContext?: TraceContext;
  }
  | {
    type: "call-end";
    id: string;
    name: string;
    agent: string;
    sessionId: string;
    durationMs: number;
    outcome: CallOutcome;
    transport: CallTransport;
    traceContext?: TraceContext;
  }
  | { type: "reload"; ok: boolean; changed: boolean };

/** A running tool host. */
export interface Host {
  /** The project root. */
  readonly directory: string;
  /** The tools that did not load, each with its reason. */
  loadErrors(): LoadError[];
  /** The session's tool set as resolved from the manifest. */
  toolSet(): ToolSet;
  /** The diagnostics of the manifest now served. */
  diagnostics(): Diagnostic[];
  /** The manifest now served, as parsed (its agents, imports and positions). */
  manifest(): Manifest;
  /** The loaded tools `agent` sees, started by `parentAgent` when given. */
  list(agent?: string, parentAgent?: string): HostedTool[];
  /** Resolves once every module of the tool set now served has loaded (or failed to). */
  ready(): Promise<void>;
  /** Runs one call; never rejects. */
  call(request: CallRequest): Promise<CallOutcome>;
  /**
   * Aborts every running call of the session (only those of `agents` when
   * given); returns how many.
   */
  stopSession(sessionId: string, agents?: readonly string[]): number;
  /** How many calls are running. */
  running(): number;
  /** How many tool runner processes are alive (busy or idle). */
  runners(): number;
  /**
   * Re-reads the manifest and the modules and serves them, unless the
   * manifest has errors; told which files changed, imports only the
   * modules that need it.
   */
  reload(options?: ReloadOptions): Promise<ReloadResult>;
  /**
   * Starts a runner process ahead of need, unless one is waiting already:
   * for a reload about to come, so that it does not wait for a process to
   * start. One not used within the idle time stops.
   */
  prepare(): void;
  /**
   * The project tool modules served and every local file they import, at
   * any depth (absolute, real paths): what a watcher watches for reloads.
   */
  sources(): string[];
  /** Every call's start and end, and every reload; returns a function that stops listening. */
  subscribe(listener: (event: HostEvent) => void): () => void;
  /** Stops every runner; running calls end with an error. */
  close(): Promise<void>;
  /** Same as {@linkcode Host.close}. */
  [Symbol.asyncDispose](): Promise<void>;
}
