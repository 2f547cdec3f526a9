// A tool runner: the process the host starts to import tool modules and run
// their calls. Its messages with the host go over a channel of its
// own (file descriptors 3 and 4, see _channel.ts); what tools print goes to
// its own stdout and stderr, which the host logs.
//
// Two jobs, set by the first message: `load` imports every module it is
// sent, one at a time, and reports each; `init` imports one tool
// and then runs its calls, each with its own context.

import { Socket } from "node:net";
import process from "node:process";
import {
  cutLine,
  frame,
  HOST_TO_RUNNER_FD,
  LineSplitter,
  MAX_LINE_CHARS,
  MAX_MESSAGE_CHARS,
  RUNNER_TO_HOST_FD,
} from "./_channel.ts";
import { returnedResult, thrownMessage } from "./_outcome.ts";
import { loadProjectFilesAsModules } from "./_node_esm.ts";
import { endGroup, installGuards } from "./_runner_guards.ts";
import type {
  CallMessage,
  CallResult,
  LoadReport,
  ModuleRef,
  OutputFolder,
  ToHost,
  ToRunner,
} from "./_protocol.ts";
import {
  describeFailure,
  importTool,
  toolMetadata,
  type ToolModule,
} from "./_tool_module.ts";
import { MAX_OUTPUT_LINES } from "./_truncate.ts";

// Results ready in the same turn go back in one message.
let results: ({ id: number } & CallResult)[] = [];

// Progress reported in one turn goes out as its latest value per call,
// before any result of that turn.
const progressed = new Map<number, ToHost>();

function flushProgress(): void {
  for (const message of progressed.values()) send(message);
  progressed.clear();
}

function sendProgress(id: number, message: ToHost): void {
  if (progressed.size === 0) queueMicrotask(flushProgress);
  progressed.set(id, message);
}

function flushResults(): void {
  flushProgress();
  const batch = results;
  results = [];
  send(
    batch.length === 1
      ? { t: "result", ...batch[0] }
      : { t: "results", results: batch },
  );
}

function sendResult(id: number, result: CallResult): void {
  results.push({ id, ...result });
  if (results.length === 1) queueMicrotask(flushResults);
}

/** Where messages to the host go, once the channel is open. */
let toHost: Ends | undefined;

/** The line that stands for `message`, `chars` long once encoded, past what the host takes. */
function overLimit(message: ToHost, chars: number): string {
  const over =
    `${chars} characters once encoded, over the limit of ${MAX_MESSAGE_CHARS}`;
  if (message.t === "result") {
    return frame({
      t: "result",
      id: message.id,
      ok: false,
      status: "error",
      error:
        `the tool's result is ${over}: return less, or write it to a file and return its path`,
    });
  }
  if (message.t === "loaded") {
    return frame({
      t: "loaded",
      name: message.name,
      ok: false,
      reason: `its description and parameters are ${over}`,
    });
  }
  // Nothing else grows with what a tool does: log texts are cut.
  return frame({ t: "log", text: `a message of ${over} was dropped` });
}

function send(message: ToHost): void {
  const line = frame(message);
  if (line.length <= MAX_MESSAGE_CHARS) toHost?.write(line);
  else if (message.t === "results") {
    for (const result of message.results) send({ t: "result", ...result });
  } else toHost?.write(overLimit(message, line.length));
}

/** Logs `text` in the host's log, as one line of this tool's. */
function log(text: string): void {
  send({ t: "log", text: cutLine(text) });
}

/** The ends of the channel as a runtime opens them. */
interface Ends {
  /** Calls `onText` with what arrives, `onEnd` when the host's end closes. */
  read(onText: (text: string) => void, onEnd: () => void): void;
  /** Sends `line` to the host. */
  write(line: string): void;
}

/**
 * The channel's file descriptors as sockets: Deno and Node.js read them so
 * whether the host made pipes or socket pairs (Node.js's permission model
 * lets a runner open them: a runner from Node.js 25 on is allowed the
 * network).
 */
function socketEnds(): Ends {
  const input = new Socket({
    fd: HOST_TO_RUNNER_FD,
    readable: true,
    writable: false,
  });
  const output = new Socket({
    fd: RUNNER_TO_HOST_FD,
    readable: false,
    writable: true,
  });
  output.on("error", () => endGroup(0));
  return {
    read(onText, onEnd) {
      input.setEncoding("utf8");
      input.on("data", onText);
      input.on("end", onEnd);
      input.on("error", onEnd);
    },
    write: (line) => void output.write(line),
  };
}

/** The channel's file descriptors as Bun reads them: as files. */
function bunEnds(bun: BunFiles): Ends {
  const writer = bun.file(RUNNER_TO_HOST_FD).writer();
  return {
    read(onText, onEnd) {
      const reader = bun.file(HOST_TO_RUNNER_FD).stream().getReader();
      const decoder = new TextDecoder();
      const pump = async () => {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return onEnd();
          onText(decoder.decode(value, { stream: true }));
        }
      };
      pump().catch(onEnd);
    },
    write(line) {
      try {
        writer.write(line);
        writer.flush();
      } catch {
        endGroup(0);
      }
    },
  };
}

/** What the runner uses of Bun's API. */
interface BunFiles {
  file(fd: number): {
    stream(): ReadableStream<Uint8Array>;
    writer(): { write(text: string): unknown; flush(): unknown };
  };
}

/**
 * Opens the channel to the host (file descriptors 3 and 4) and passes each
 * message the host sends to `onMessage`. The host gone (its end closed),
 * this runner ends with what it started.
 */
function openChannel(onMessage: (message: ToRunner) => void): void {
  const bun = (globalThis as { Bun?: BunFiles }).Bun;
  const ends = bun ? bunEnds(bun) : socketEnds();
  // The host is trusted: its messages are not bounded here.
  const splitter = new LineSplitter(Infinity, {
    line: (line) => onMessage(JSON.parse(line) as ToRunner),
    overflow: () => {},
  });
  ends.read((text) => splitter.push(text), () => endGroup(0));
  toHost = ends;
}

/** A tool's description and parameters, or why they are not plain JSON. */
function metadataOf(tool: ToolModule): LoadReport {
  const metadata = toolMetadata(tool);
  return "reason" in metadata
    ? { name: toolName, ok: false, reason: metadata.reason }
    : { name: toolName, ok: true, ...metadata };
}

async function loadAll(modules: ModuleRef[]): Promise<void> {
  for (const { name, url } of modules) {
    send({ t: "loading", name });
    const result = await importTool(url);
    if ("reason" in result) {
      send({ t: "loaded", name, ok: false, ...result });
      continue;
    }
    const metadata = toolMetadata(result.tool);
    if ("reason" in metadata) {
      send({ t: "loaded", name, ok: false, reason: metadata.reason });
    } else send({ t: "loaded", name, ok: true, ...metadata });
  }
  send({ t: "load-done" });
}

/** A running call: its controller once `context.signal` was read, or whether it was aborted before. */
interface Running {
  controller?: AbortController;
  aborted: boolean;
}

const running = new Map<number, Running>();
let tool: ReturnType<typeof importTool> | undefined;
let toolName = "";
let directory = process.cwd();
/** The host's folder for saved outputs, when this runner may write there. */
let output: OutputFolder | undefined;

const abortReason = () =>
  new DOMException("The call was aborted", "AbortError");

/** The environment the runner started with: the base of every call's `context.env`, read once (reading the process environment costs a call into the runtime per variable). */
let baseEnv: Record<string, string> | undefined;

function startEnv(): Record<string, string> {
  if (baseEnv === undefined) {
    baseEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (typeof value === "string") baseEnv[key] = value;
    }
  }
  return baseEnv;
}

function contextFor(
  entry: Running,
  call: CallMessage,
): Record<string, unknown> {
  // Each call gets its own copy: a tool that edits its env does not leak
  // into the next call.
  const env = Object.assign({}, startEnv());
  if (call.secrets) Object.assign(env, call.secrets);
  return {
    sessionId: call.sessionId,
    agent: call.agent,
    directory,
    env,
    get signal(): AbortSignal {
      entry.controller ??= new AbortController();
      if (entry.aborted) entry.controller.abort(abortReason());
      return entry.controller.signal;
    },
    progress(progress: number, total?: number, message?: string): void {
      if (!call.progress || entry.aborted) return;
      if (typeof progress !== "number" || !Number.isFinite(progress)) return;
      sendProgress(call.id, {
        t: "progress",
        id: call.id,
        progress,
        ...(typeof total === "number" && Number.isFinite(total)
          ? { total }
          : {}),
        ...(typeof message === "string"
          ? { message: message.slice(0, MAX_LINE_CHARS) }
          : {}),
      });
    },
  };
}

/** Whether `result`'s text may be over the output limits, and this runner cuts it. */
function mayCut(result: CallResult): boolean {
  const text = result.ok ? result.output : result.error;
  // Within both limits for sure: at most 3 bytes and one line per unit.
  return output !== undefined && text.length > MAX_OUTPUT_LINES;
}

/**
 * `result` with a text over the output limits cut here and saved whole for the
 * host (see _runner_cut.ts); as it was when that fails, for the host to cut.
 */
async function cutHere(result: CallResult): Promise<CallResult> {
  try {
    const { cutResult } = await import("./_runner_cut.ts");
    return await cutResult(result, toolName, output!);
  } catch {
    return result;
  }
}

/** Sends a call's result, a text over the output limits cut first. */
async function finish(id: number, result: CallResult): Promise<void> {
  send({
    t: "result",
    id,
    ...(mayCut(result) ? await cutHere(result) : result),
  });
}

async function run(call: CallMessage): Promise<void> {
  const entry: Running = { aborted: false };
  running.set(call.id, entry);
  try {
    const loaded = await tool!;
    if ("reason" in loaded) {
      sendResult(call.id, {
        ok: false,
        status: "error",
        error: `tool "${toolName}" cannot run: ${loaded.reason}`,
        notRun: true,
      });
      return;
    }
    const value = await loaded.tool.execute(call.args, contextFor(entry, call));
    let result: CallResult;
    try {
      result = returnedResult(value);
    } catch (error) {
      result = { ok: false, status: "error", error: thrownMessage(error) };
    }
    await finish(call.id, result);
  } catch (error) {
    await finish(call.id, {
      ok: false,
      status: "error",
      error: describeFailure(error),
    });
  } finally {
    running.delete(call.id);
  }
}

function receive(message: ToRunner): void {
  switch (message.t) {
    case "call":
      void run(message);
      break;
    case "calls":
      for (const call of message.calls) void run(call);
      break;
    case "init":
      toolName = message.module.name;
      directory = message.directory;
      output = message.output;
      tool = importTool(message.module.url);
      // The host sends calls once the module is in: the time a runner takes
      // to start is not a call's.
      void tool.then((result) =>
        send(
          "reason" in result
            ? { t: "loaded", name: toolName, ok: false, ...result }
            : { t: "loaded", ...metadataOf(result.tool) },
        )
      );
      break;
    case "load":
      void loadAll(message.modules);
      break;
    case "abort": {
      const entry = running.get(message.id);
      if (entry && !entry.aborted) {
        entry.aborted = true;
        entry.controller?.abort(abortReason());
      }
      break;
    }
    case "ping":
      send({ t: "pong", id: message.id });
      break;
  }
}

/** Starts the runner: guards, then messages from the host. */
export function runRunner(): void {
  installGuards(log);
  loadProjectFilesAsModules();
  openChannel(receive);
  send({ t: "ready" });
}

if (
  (import.meta as { main?: boolean }).main ??
    /_runner_main\.[mc]?[jt]s$/.test(process.argv[1] ?? "")
) {
  runRunner();
}
