/**
 * The call record: one JSON line per call in `calls.jsonl` in the
 * project's state folder, mode 0600. A line holds the call's facts (when,
 * which tool, agent, session, transport, how it ended, how long, how many
 * bytes), never its arguments, output or error message unless the
 * project's `record:` setting asks for them; even then every value of the
 * secret store (4 characters or more) is written as `[secret]`.
 *
 * Lines are gathered and appended in the background, each batch with one
 * write to a file opened for appending, so lines stay whole when several
 * processes of a project write. Past its size limit the file is rotated
 * under a lock: `calls.jsonl` becomes `calls.1.jsonl`, and so on up to
 * `calls.<keep>.jsonl`; the oldest goes. A failed write logs one line and
 * the record goes on.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import { appendFileSync, mkdirSync } from "node:fs";
import { appendFile, mkdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Host, HostEvent } from "../host/mod.ts";
import {
  errorMessage,
  traceparentParts,
  utf8Length,
  withFileLock,
} from "../common/mod.ts";
import { outcomeBytes, outcomeLabel } from "./call_metrics.ts";
import type { CallOutcomeLabel } from "./call_metrics.ts";

/** The record's current file, in the project's state folder. */
export const CALL_RECORD_FILE = "calls.jsonl";

/** The size past which the record is rotated by default: 10 MiB. */
export const DEFAULT_RECORD_MAX_BYTES: number = 10 * 1024 * 1024;

/** The variable that sets the size past which the call record is rotated, in bytes. */
export const RECORD_MAX_BYTES_VARIABLE = "BEEUNI_CALL_RECORD_MAX_BYTES";

/**
 * The rotation size `env` sets ({@linkcode RECORD_MAX_BYTES_VARIABLE}), or
 * the default; a value that is not a positive whole number is told to
 * `log` and the default used.
 */
export function recordMaxBytesFrom(
  env: Record<string, string | undefined>,
  log: (line: string) => void,
): number {
  const text = env[RECORD_MAX_BYTES_VARIABLE];
  if (text === undefined || text === "") return DEFAULT_RECORD_MAX_BYTES;
  const value = Number(text);
  if (Number.isSafeInteger(value) && value > 0) return value;
  log(
    `[record] ${RECORD_MAX_BYTES_VARIABLE}="${text}" is not a positive number of bytes: the call record rotates at ${DEFAULT_RECORD_MAX_BYTES} bytes`,
  );
  return DEFAULT_RECORD_MAX_BYTES;
}

/** How many rotated files are kept by default. */
export const DEFAULT_RECORD_KEEP = 3;

/** Secret values shorter than this are not redacted (they would blank common words). */
export const MIN_REDACTED_LENGTH = 4;

/** The current record file of the state folder `dir`, or its rotated file `n` (1 the newest). */
export function callRecordPath(dir: string, n = 0): string {
  return join(dir, n === 0 ? CALL_RECORD_FILE : `calls.${n}.jsonl`);
}

/** One line of the call record. */
export interface CallRecordLine {
  /** When the call started, ISO 8601. */
  time: string;
  /** The call's id, unique within the record. */
  id: string;
  /** The tool called. */
  tool: string;
  /** The calling agent. */
  agent: string;
  /** The session the call belongs to. */
  session: string;
  /** How the call arrived: `http`, `mcp`, `session`, `cli` or `api`. */
  transport: string;
  /** How it ended: `ok`, `error`, `timeout`, `aborted`, `forbidden` or `not_found`. */
  outcome: CallOutcomeLabel;
  /** How long it took, in milliseconds. */
  durationMs: number;
  /** The bytes of its output or error message (the full size when cut). */
  outputBytes: number;
  /** Whether the output or message the model read was cut. */
  truncated: boolean;
  /** The trace id of the caller's `traceparent`, when it sent one. */
  traceId?: string;
  /** The arguments, with `record.arguments: true`. */
  args?: unknown;
  /** The output the model read, with `record.outputs: true`. */
  output?: string;
  /** The error message the model read, with `record.outputs: true`. */
  error?: string;
}

/** What the record may hold besides each call's facts. */
export interface RecordContent {
  /** Record arguments. */
  arguments?: boolean;
  /** Record outputs and error messages. */
  outputs?: boolean;
}

/** Options of {@linkcode CallRecorder}. */
export interface CallRecorderOptions {
  /** The project's state folder, where `calls.jsonl` goes (made with mode 0700). */
  dir: string;
  /** What the project opts into, read at each call. */
  content: () => RecordContent;
  /** The secret store's values by name, read for each batch that holds arguments or outputs. */
  secrets: () => Record<string, string>;
  /** The size past which the file is rotated, in bytes; default {@linkcode DEFAULT_RECORD_MAX_BYTES}. */
  maxBytes?: number;
  /** How many rotated files are kept; default {@linkcode DEFAULT_RECORD_KEEP}. */
  keep?: number;
  /** How long lines are gathered before they are written, in milliseconds; default 25. */
  batchMs?: number;
  /** Where a failed write is told. */
  log: (line: string) => void;
}

/** `value` with every occurrence of each of `secrets` in its strings (keys included) replaced by `[secret]`. */
export function redactSecrets(
  value: unknown,
  secrets: readonly string[],
): unknown {
  if (secrets.length === 0) return value;
  const text = (s: string) =>
    secrets.reduce((out, secret) => out.replaceAll(secret, "[secret]"), s);
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return text(node);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(
        Object.entries(node).map(([key, item]) => [text(key), walk(item)]),
      );
    }
    return node;
  };
  return walk(value);
}

/**
 * Writes a host's calls to the call record, fed by its events
 * (`host.subscribe((event) => recorder.observe(event))`).
 *
 * @example Record a host's calls until it closes
 * ```ts ignore (needs a running host)
 * const recorder = new CallRecorder({
 *   dir: "/home/me/.local/state/beeuni/projects/<key>",
 *   content: () => ({}),
 *   secrets: () => ({}),
 *   log: console.error,
 * });
 * const stop = host.subscribe((event) => recorder.observe(event));
 * // …
 * stop();
 * await recorder.close();
 * ```
 */
export class CallRecorder {
  readonly #o: CallRecorderOptions;
  readonly #file: string;
  readonly #instance = randomBytes(4).toString("hex");
  readonly #args = new Map<string, unknown>();
  #pending: CallRecordLine[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  #failed = false;
  #madeDir = false;
  #closedNow = false;

  /** A recorder writing into `options.dir`. */
  constructor(options: CallRecorderOptions) {
    this.#o = options;
    this.#file = callRecordPath(options.dir);
  }

  /** The record's current file. */
  get file(): string {
    return this.#file;
  }

  /** Takes one host event: a call's end becomes a line (its start is kept only for its arguments). */
  observe(event: HostEvent): void {
    if (event.type === "call-start") {
      if (this.#o.content().arguments) this.#args.set(event.id, event.args);
      return;
    }
    if (event.type !== "call-end" || this.#closedNow) return;
    const args = this.#args.get(event.id);
    const hadArgs = this.#args.delete(event.id);
    const content = this.#o.content();
    const outcome = event.outcome;
    const line: CallRecordLine = {
      time: new Date(Date.now() - event.durationMs).toISOString(),
      id: `${this.#instance}-${event.id}`,
      tool: event.name,
      agent: event.agent,
      session: event.sessionId,
      transport: event.transport,
      outcome: outcomeLabel(outcome),
      durationMs: event.durationMs,
      outputBytes: outcomeBytes(outcome),
      truncated: outcome.truncated === true,
    };
    const traceId = event.traceContext &&
      traceparentParts(event.traceContext.traceparent)?.traceId;
    if (traceId !== undefined) line.traceId = traceId;
    if (content.arguments && hadArgs) line.args = args;
    if (content.outputs) {
      if (outcome.ok) line.output = outcome.output;
      else line.error = outcome.error;
    }
    this.#pending.push(line);
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.#o.batchMs ?? 25);
  }

  /** Writes the lines gathered so far; resolves once they are written (or the write failed). */
  flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const lines = this.#pending;
    this.#pending = [];
    if (lines.length > 0) {
      this.#writing = this.#writing.then(() => this.#write(lines));
    }
    return this.#writing;
  }

  /** Writes what is gathered; no line is taken after. */
  async close(): Promise<void> {
    await this.flush();
  }

  /**
   * For an exit that cannot wait: writes the lines gathered so far at once,
   * with one synchronous append (the file is not rotated: the next writer
   * does it), and takes no line after. A batch already being written in
   * the background is not waited for. Never throws: a failed write is
   * logged as any other.
   */
  closeNow(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    this.#closedNow = true;
    const lines = this.#pending;
    this.#pending = [];
    if (lines.length === 0) return;
    try {
      const text = this.#text(lines);
      mkdirSync(this.#o.dir, { recursive: true, mode: 0o700 });
      appendFileSync(this.#file, text, { mode: 0o600, flag: "a" });
    } catch (error) {
      this.#failedWrite(error);
    }
  }

  #failedWrite(error: unknown): void {
    // One line per run of failures: the calls go on either way.
    if (!this.#failed) {
      try {
        this.#o.log(
          `[record] cannot write the call record "${this.#file}": ${
            errorMessage(error)
          }; calls go on unrecorded until it can`,
        );
      } catch {
        // Nowhere to tell it.
      }
    }
    this.#failed = true;
  }

  #text(lines: CallRecordLine[]): string {
    const content = lines.some((line) =>
      "args" in line || "output" in line || "error" in line
    );
    let secrets: string[] = [];
    if (content) {
      try {
        secrets = Object.values(this.#o.secrets())
          .filter((value) => value.length >= MIN_REDACTED_LENGTH)
          .sort((a, b) => b.length - a.length);
      } catch (error) {
        // Without the secret values nothing can be redacted: keep only the facts.
        this.#o.log(
          `[record] cannot read the secret store (${
            errorMessage(error)
          }): these calls are recorded without arguments or outputs`,
        );
        for (const line of lines) {
          delete line.args;
          delete line.output;
          delete line.error;
        }
      }
    }
    return lines.map((line) =>
      JSON.stringify(redactSecrets(line, secrets)) + "\n"
    ).join("");
  }

  async #write(lines: CallRecordLine[]): Promise<void> {
    try {
      const text = this.#text(lines);
      if (!this.#madeDir) {
        await mkdir(this.#o.dir, { recursive: true, mode: 0o700 });
        this.#madeDir = true;
      }
      const size = await stat(this.#file).then((s) => s.size, () => 0);
      const max = this.#o.maxBytes ?? DEFAULT_RECORD_MAX_BYTES;
      if (size > 0 && size + utf8Length(text) > max) {
        await withFileLock(
          this.#file,
          () => this.#rotate(max, utf8Length(text)),
        );
      }
      await appendFile(this.#file, text, { mode: 0o600, flag: "a" });
      this.#failed = false;
    } catch (error) {
      this.#failedWrite(error);
    }
  }

  /** Under the lock: moves each file one place up unless another process just did. */
  async #rotate(max: number, incoming: number): Promise<void> {
    const size = await stat(this.#file).then((s) => s.size, () => 0);
    // Rotated by another process meanwhile.
    if (size === 0 || size + incoming <= max) return;
    const keep = this.#o.keep ?? DEFAULT_RECORD_KEEP;
    await rm(callRecordPath(this.#o.dir, keep), { force: true });
    for (let n = keep - 1; n >= 0; n--) {
      await rename(
        callRecordPath(this.#o.dir, n),
        callRecordPath(this.#o.dir, n + 1),
      ).catch(() => {});
    }
  }
}

/** Options of {@linkcode recordCalls}. */
export type RecordCallsOptions = Omit<CallRecorderOptions, "content">;

/** A host's calls being recorded: stop to write what is gathered and stop listening. */
export interface RecordingCalls {
  /** The recorder. */
  recorder: CallRecorder;
  /** Stops listening and writes what is gathered. */
  stop(): Promise<void>;
  /** For an exit that cannot wait: stops listening and writes what is gathered at once ({@linkcode CallRecorder.closeNow}). */
  stopNow(): void;
}

/**
 * Records every call of `host` into `options.dir`, holding arguments and
 * outputs only as the root manifest's `record:` setting (as now served)
 * asks.
 */
export function recordCalls(
  host: Pick<Host, "subscribe" | "manifest">,
  options: RecordCallsOptions,
): RecordingCalls {
  const recorder = new CallRecorder({
    ...options,
    content: () => host.manifest().files[0]?.record ?? {},
  });
  const unsubscribe = host.subscribe((event) => recorder.observe(event));
  return {
    recorder,
    async stop(): Promise<void> {
      unsubscribe();
      await recorder.close();
    },
    stopNow(): void {
      unsubscribe();
      recorder.closeNow();
    },
  };
}
