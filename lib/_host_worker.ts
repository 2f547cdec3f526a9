/**
 * The worker script of the tool host. Two modes, set by `workerData.mode`:
 *
 * - `load`: imports every module it is sent, checks its default export
 *   (T1, T8) and reports each tool's description and parameters or the
 *   reason it did not load.
 * - `run`: imports one tool module (named by an `init` message) and runs
 *   its `execute` for each call message, with an `AbortSignal` per call
 *   (T5). Such a worker may be started before it knows its tool.
 *
 * Process exits are turned into errors and unhandled rejections are
 * reported instead of ending the worker.
 *
 * @module
 */

import { parentPort, workerData } from "node:worker_threads";
import process from "node:process";
import { resultText, stripAnsi, thrownMessage } from "./_host_output.ts";
import { contentReturn, contentText, isPlainObject } from "./_host_content.ts";

/**
 * A call: `[id, args, sessionId, agent, secrets, progress]`. A bare array
 * keeps the message small; `secrets` (the granted ones, read for this call)
 * is `undefined` when the agent has none; `progress` is 1 when the caller
 * wants the tool's progress reports.
 */
type CallMessage = [
  number,
  unknown,
  string,
  string,
  Record<string, string> | undefined,
  1?,
];

/** A message from the host. */
type Inbound =
  | CallMessage
  | { t: "load"; tools: { name: string; url: string }[] }
  | { t: "abort"; id: number }
  | {
    t: "init";
    name: string;
    url: string;
    env: Record<string, string>;
    directory: string;
  }
  | { t: "ping"; id: number };

interface ToolModule {
  description: string;
  parameters: Record<string, unknown>;
  execute: (args: unknown, context: unknown) => unknown;
}

const port = parentPort!;
const data = workerData as {
  mode: "load" | "run";
  name?: string;
  url?: string;
  stdoutToStderr?: boolean;
};
/** The base of every call's `context.env`, sent once with `init`. */
let baseEnv: Record<string, string> = {};
let directory = "";

const send = (message: unknown): void => port.postMessage(message);

// Where the process's standard output carries a protocol (`beeuni mcp`),
// what a tool prints goes to standard error instead.
if (data.stdoutToStderr) {
  const toStderr = (...values: unknown[]) => console.error(...values);
  for (const key of ["log", "info", "debug", "dir", "dirxml", "table"]) {
    try {
      (console as unknown as Record<string, unknown>)[key] = toStderr;
    } catch {
      // A frozen console keeps its own.
    }
  }
  try {
    process.stdout.write = process.stderr.write.bind(
      process.stderr,
    ) as typeof process.stdout.write;
  } catch {
    // As above.
  }
}

/**
 * A result: `[id, ok, text, extra]`; `extra` is 1 when `text` is the JSON of
 * a plain object, or the content blocks the tool returned.
 */
type ResultMessage = [number, boolean, string, ResultExtra?];
type ResultExtra = 1 | {
  content: unknown[];
  structured?: Record<string, unknown>;
};

// Results ready in the same turn go back in one message.
let results: ResultMessage[] = [];
function flushResults(): void {
  const batch = results;
  results = [];
  port.postMessage(batch.length === 1 ? batch[0] : batch);
}
function sendResult(
  id: number,
  ok: boolean,
  text: string,
  extra?: ResultExtra,
): void {
  results.push(extra === undefined ? [id, ok, text] : [id, ok, text, extra]);
  if (results.length === 1) queueMicrotask(flushResults);
}

// Progress reports made in the same turn go in one message, the latest per
// call: a tool reporting in a tight loop costs one message, not thousands.
const progress = new Map<number, [number, number?, string?]>();
function flushProgress(): void {
  const updates = [...progress].map(([id, update]) => [id, ...update]);
  progress.clear();
  send({ t: "progress", u: updates });
}

/** `context.progress` where the caller asked for none. */
const noProgress = (): void => {};

/** `context.progress` of call `id`: values that are not finite numbers are dropped. */
function progressFor(id: number) {
  return (done: unknown, total?: unknown, message?: unknown): void => {
    if (!running.has(id)) return;
    if (typeof done !== "number" || !Number.isFinite(done)) return;
    const update: [number, number?, string?] = [done];
    if (typeof total === "number" && Number.isFinite(total)) update[1] = total;
    if (typeof message === "string") update[2] = message.slice(0, 2000);
    if (progress.size === 0) queueMicrotask(flushProgress);
    progress.set(id, update);
  };
}

// The loader checks that each tool's parameters compile with Ajv (T1, T8).
// Importing Ajv here, from the start, overlaps it with the host reading the
// manifest and keeps it out of the host's own start.
const compilerReady = data.mode === "load"
  ? import("./_host_schema.ts").then((m) => m.schemaCompiler())
  : undefined;

// A tool must not end the process it shares with the other tools.
class ExitError extends Error {
  constructor(how: string, code: unknown) {
    super(
      `the tool called ${how}(${
        code === undefined ? "" : String(code)
      }): a tool may not end the process; throw an Error to fail the call instead`,
    );
    this.name = "Error";
  }
}
const runtime = (globalThis as Record<string, unknown>)["Deno"] as
  | Record<string, unknown>
  | undefined;
try {
  if (runtime) {
    runtime["exit"] = (code?: number) => {
      throw new ExitError("Deno.exit", code);
    };
  }
} catch {
  // The worker's exit is still noticed by the host.
}
try {
  process.exit = ((code?: number) => {
    throw new ExitError("process.exit", code);
  }) as typeof process.exit;
} catch {
  // As above.
}
const events = typeof globalThis.addEventListener === "function";
if (events) {
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    send({
      t: "log",
      text: `unhandled rejection: ${thrownMessage(event.reason)}`,
    });
  });
  globalThis.addEventListener("error", (event) => {
    event.preventDefault();
    send({
      t: "log",
      text: `uncaught exception: ${thrownMessage(event.error)}`,
    });
  });
} else {
  process.on("unhandledRejection", (reason: unknown) => {
    send({ t: "log", text: `unhandled rejection: ${thrownMessage(reason)}` });
  });
  process.on("uncaughtException", (error: unknown) => {
    send({ t: "log", text: `uncaught exception: ${thrownMessage(error)}` });
  });
}

const BUN_HINT =
  `Bun APIs exist only when the daemon runs under Bun: this daemon runs under ${
    runtime ? "Deno" : "Node.js"
  }; start it with bun to use them, or use node:* modules instead`;

/** A thrown value as the text the model or the log reads, with T7's and T9's rewording. */
function message(thrown: unknown): string {
  const text = thrownMessage(thrown);
  if (/\bBun is not defined\b/.test(text)) {
    return `${BUN_HINT} (${text})`;
  }
  const bare = packageName(text);
  if (bare !== undefined) {
    return `Cannot find package '${bare}': install it in a node_modules folder beside or above the module (${
      firstLine(text)
    })`;
  }
  return text;
}

function firstLine(text: string): string {
  return stripAnsi(text).split("\n")[0].trim();
}

/** The package a resolution error names, when it is one. */
function packageName(text: string): string | undefined {
  if (/^Cannot find package '/m.test(text)) return undefined;
  const patterns = [
    /Import "([^"./][^"]*)" not a dependency/,
    /Could not resolve "([^"./][^"]*)"/,
    /Cannot find module '([^'./][^']*)'/,
    /Relative import path "([^"./][^"]*)" not prefixed/,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match && !match[1].includes(":")) return match[1];
  }
  return undefined;
}

/** The module's tool, or the reason it is not one (T1, T8). */
async function importTool(
  url: string,
): Promise<{ tool: ToolModule } | { reason: string }> {
  let ns: Record<string, unknown>;
  try {
    ns = await import(url);
  } catch (error) {
    const text = message(error);
    if (/Module not found|No such file|ENOENT/i.test(text)) {
      return { reason: `file not found (${firstLine(text)})` };
    }
    return { reason: `the module threw while loading: ${text}` };
  }
  if (!("default" in ns) || ns.default === undefined) {
    return {
      reason:
        "the module has no default export: export default { description, parameters, execute }",
    };
  }
  const tool = ns.default;
  if (!isPlainObject(tool)) {
    return {
      reason:
        "the default export is not a plain object: export default { description, parameters, execute }",
    };
  }
  if (typeof tool.description !== "string" || tool.description.trim() === "") {
    return { reason: "description must be a non-empty string" };
  }
  if (!isPlainObject(tool.parameters) || tool.parameters.type !== "object") {
    return {
      reason: `parameters must be a JSON Schema object with type: "object"`,
    };
  }
  if (typeof tool.execute !== "function") {
    return { reason: "execute must be a function" };
  }
  return { tool: tool as unknown as ToolModule };
}

async function loadAll(tools: { name: string; url: string }[]): Promise<void> {
  await Promise.all(tools.map(async ({ name, url }) => {
    const result = await importTool(url);
    if ("reason" in result) {
      send({ t: "loaded", name, ok: false, reason: result.reason });
      return;
    }
    let parameters: unknown;
    try {
      parameters = JSON.parse(JSON.stringify(result.tool.parameters));
    } catch (error) {
      send({
        t: "loaded",
        name,
        ok: false,
        reason: `parameters must be plain JSON data: ${message(error)}`,
      });
      return;
    }
    try {
      (await compilerReady!)(parameters as Record<string, unknown>);
    } catch (error) {
      send({
        t: "loaded",
        name,
        ok: false,
        reason: `parameters is not a valid JSON Schema: ${
          error instanceof Error ? error.message : String(error)
        }`,
      });
      return;
    }
    send({
      t: "loaded",
      name,
      ok: true,
      description: result.tool.description,
      parameters,
    });
  }));
  send({ t: "loadDone" });
}

let loaded: Promise<{ tool: ToolModule } | { reason: string }> | undefined;

/** A running call: its controller once `context.signal` was read, or whether it was aborted before. */
interface Running {
  controller?: AbortController;
  aborted: boolean;
}
const running = new Map<number, Running>();

const ABORT_REASON = () =>
  new DOMException("The call was aborted", "AbortError");

/** `context.signal`'s controller is made when a tool first reads it: most never do. */
function signalOf(entry: Running): AbortSignal {
  if (!entry.controller) {
    entry.controller = new AbortController();
    if (entry.aborted) entry.controller.abort(ABORT_REASON());
  }
  return entry.controller.signal;
}

function contextFor(
  entry: Running,
  msg: CallMessage,
): Record<string, unknown> {
  const [id, , sessionId, agent, secrets, wantsProgress] = msg;
  // Each call gets its own copy: a tool that edits its env does not leak
  // into the next call.
  const env = Object.assign({}, baseEnv);
  if (secrets) Object.assign(env, secrets);
  return {
    sessionId,
    agent,
    directory,
    env,
    get signal(): AbortSignal {
      return signalOf(entry);
    },
    progress: wantsProgress === 1 ? progressFor(id) : noProgress,
  };
}

/** The text, and what else goes back, for a value `execute` returned (T3). */
function shapeValue(value: unknown): [string, ResultExtra?] {
  const blocks = contentReturn(value);
  if (blocks) {
    const extra: ResultExtra = { content: blocks.content };
    // Through JSON, so what reaches the host is plain JSON data.
    if (blocks.structured) {
      extra.structured = JSON.parse(resultText(blocks.structured));
    }
    return [contentText(blocks.content), extra];
  }
  const text = resultText(value);
  return isPlainObject(value) ? [text, 1] : [text];
}

async function run(msg: CallMessage): Promise<void> {
  const [id, args] = msg;
  const entry: Running = { aborted: false };
  running.set(id, entry);
  try {
    loaded ??= importTool(data.url!);
    const module = await loaded;
    if ("reason" in module) {
      sendResult(id, false, `tool "${data.name}" cannot run: ${module.reason}`);
      return;
    }
    if (entry.aborted) return;
    const value = await module.tool.execute(args, contextFor(entry, msg));
    let shaped: [string, ResultExtra?];
    try {
      shaped = shapeValue(value);
    } catch (error) {
      sendResult(id, false, thrownMessage(error));
      return;
    }
    sendResult(id, true, shaped[0], shaped[1]);
  } catch (error) {
    sendResult(id, false, message(error));
  } finally {
    running.delete(id);
  }
}

port.on("message", (msg: Inbound) => {
  if (Array.isArray(msg)) {
    // One call, or several sent together.
    if (Array.isArray(msg[0])) {
      for (const call of msg as unknown as CallMessage[]) void run(call);
    } else void run(msg);
    return;
  }
  switch (msg.t) {
    case "load":
      void loadAll(msg.tools);
      break;
    case "init":
      data.name = msg.name;
      data.url = msg.url;
      baseEnv = msg.env;
      directory = msg.directory;
      break;
    case "abort": {
      const entry = running.get(msg.id);
      if (entry && !entry.aborted) {
        entry.aborted = true;
        entry.controller?.abort(ABORT_REASON());
      }
      break;
    }
    case "ping":
      send({ t: "pong", id: msg.id });
      break;
  }
});

send({ t: "ready", mode: data.mode });
