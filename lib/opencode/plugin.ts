/**
 * The opencode plugin the daemon writes for the standard harness (D3): one
 * TypeScript file that registers every tool the daemon serves, with its
 * description and its exact JSON Schema, and forwards each call to
 * `POST /beeuni/tools/<name>`.
 *
 * The generated file:
 * - imports types only (`import type` from `@opencode-ai/plugin`, erased
 *   when opencode loads it) and `node:fs/promises`, so nothing is installed;
 * - never throws while loading: every failure happens inside a tool call and
 *   becomes a tool error the model reads (a daemon that is down, a missing
 *   token, a refused call);
 * - sets each tool's schema through the `tool.definition` hook
 *   (`output.jsonSchema`), so optional arguments stay optional;
 * - sends the session id, message id, call id, agent, directory and
 *   worktree with each call, and passes opencode's abort signal to `fetch`,
 *   so a stopped turn closes the request and aborts the tool's
 *   `context.signal` in the daemon;
 * - reads the daemon's bearer token at call time from the token file whose
 *   path it holds (or from `BEEUNI_DAEMON_TOKEN` when the daemon has no
 *   token file), so the token itself is never written into the plugin;
 * - asks for the answer as server-sent events, and shows each progress
 *   report of the tool as the running call's title (`ctx.metadata`);
 * - attaches the images a tool returns as content blocks to its result,
 *   as opencode's tool attachments (data URLs).
 *
 * @module
 */

import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { removeStaleTemps, writeFileAtomic } from "../common/mod.ts";

/** One tool the plugin registers: what `GET /beeuni/tools` lists. */
export interface OpencodePluginTool {
  /** The tool's name. */
  name: string;
  /** The description the model reads. */
  description: string;
  /** The tool's JSON Schema (`type: "object"`), handed to the model as is. */
  parameters: Record<string, unknown>;
}

/** What {@linkcode renderOpencodePlugin} needs. */
export interface OpencodePluginOptions {
  /** The daemon's base URL, e.g. `http://127.0.0.1:4096`. */
  url: string;
  /**
   * Absolute path of the daemon's token file, read at each call. When
   * absent, the plugin reads `BEEUNI_DAEMON_TOKEN` from opencode's
   * environment instead.
   */
  tokenFile?: string;
  /** The tools the daemon serves. */
  tools: readonly OpencodePluginTool[];
  /** The project folder the daemon serves; named in the "daemon is down" error. */
  projectDir?: string;
}

/** What {@linkcode writeOpencodePlugin} needs. */
export interface WriteOpencodePluginOptions extends OpencodePluginOptions {
  /**
   * opencode's config folder. Default: `$XDG_CONFIG_HOME/opencode`, or
   * `~/.config/opencode` when `XDG_CONFIG_HOME` is unset or not absolute.
   */
  configDir?: string;
  /** The environment to read `XDG_CONFIG_HOME` and `HOME` from. */
  env?: Record<string, string | undefined>;
}

/** The file name of the plugin inside `<configDir>/plugins/`. */
export const OPENCODE_PLUGIN_FILE = "beeuni.ts";

/**
 * opencode's global config folder: `$XDG_CONFIG_HOME/opencode`, or
 * `~/.config/opencode`.
 */
export function opencodeConfigDir(
  env: Record<string, string | undefined> = {},
): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "opencode");
  const home = env.HOME || env.USERPROFILE || homedir();
  return join(home, ".config", "opencode");
}

/**
 * A JSON text that is also a safe JavaScript expression: the line and
 * paragraph separators are escaped so no engine reads them as line ends.
 */
function jsLiteral(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent)
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

/**
 * The source text of the opencode plugin that forwards `tools` to the
 * daemon at `url`. Pure: the same options give the same bytes.
 *
 * @example
 * ```ts
 * import { renderOpencodePlugin } from "./plugin.ts";
 * const source = renderOpencodePlugin({
 *   url: "http://127.0.0.1:4096",
 *   tokenFile: "/home/me/.local/state/beeuni/daemon/abc.token",
 *   tools: [{
 *     name: "lookup_order",
 *     description: "Look up an order",
 *     parameters: { type: "object", properties: { id: { type: "string" } } },
 *   }],
 * });
 * ```
 */
export function renderOpencodePlugin(options: OpencodePluginOptions): string {
  const tools = options.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
  }));
  const url = options.url.replace(/\/+$/, "");
  const start = options.projectDir === undefined
    ? "beeuni daemon --dir <project>"
    : `beeuni daemon --dir ${options.projectDir}`;
  return `// Written by the beeuni daemon; rewritten on every start and reload. Do not edit.
// It forwards the tools the daemon serves to POST ${url}/beeuni/tools/<name>.
import type { Hooks, Plugin, PluginInput, ToolContext } from "@opencode-ai/plugin";
import { readFile } from "node:fs/promises";

const DAEMON_URL: string = ${jsLiteral(url)};
const TOKEN_FILE: string | null = ${jsLiteral(options.tokenFile ?? null)};
const START_HINT: string = ${jsLiteral(start)};
const MAX_BYTES = 51200;
const MAX_LINES = 2000;
const TOOLS: { name: string; description: string; parameters: Record<string, unknown> }[] = ${
    jsLiteral(tools, 2)
  };

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error ? cause.message : "";
    return detail && !error.message.includes(detail)
      ? error.message + " (" + detail + ")"
      : error.message;
  }
  return String(error);
}

async function token(): Promise<string> {
  if (TOKEN_FILE === null) {
    const value = (globalThis as { process?: { env?: Record<string, string | undefined> } })
      .process?.env?.BEEUNI_DAEMON_TOKEN;
    if (value) return value.trim();
    throw new Error(
      "the beeuni daemon token is not set: start opencode with BEEUNI_DAEMON_TOKEN set to the daemon's token",
    );
  }
  try {
    return (await readFile(TOKEN_FILE, "utf8")).trim();
  } catch (error) {
    throw new Error(
      'the beeuni daemon is not running: its token file "' + TOKEN_FILE +
        '" cannot be read (' + messageOf(error) + "); start it with \`" + START_HINT + "\`",
    );
  }
}

function fitted(head: string, note: string): string {
  const encoder = new TextEncoder();
  let text = head;
  const noteLines = note.split("\\n").length;
  let lines = text.split("\\n");
  if (lines.length + noteLines > MAX_LINES) {
    lines = lines.slice(0, Math.max(0, MAX_LINES - noteLines));
    text = lines.join("\\n");
  }
  const room = MAX_BYTES - encoder.encode(note).length;
  while (text.length > 0 && encoder.encode(text).length > room) {
    text = text.slice(0, Math.max(0, text.length - Math.max(1, Math.ceil((encoder.encode(text).length - room) / 4))));
  }
  return text + note;
}

async function call(
  name: string,
  args: unknown,
  ctx: ToolContext & { callID?: string },
  input: PluginInput,
): Promise<Result> {
  const bearer = await token();
  // A stopped turn: besides closing this request, tell the daemon to abort
  // the session's running calls (the connection may stay open in a pool).
  const stop = () => {
    fetch(DAEMON_URL + "/beeuni/sessions/" + encodeURIComponent(ctx.sessionID) + "/stop", {
      method: "POST",
      headers: { "authorization": "Bearer " + bearer },
    }).then((answer) => answer.body?.cancel(), () => {});
  };
  ctx.abort?.addEventListener("abort", stop, { once: true });
  try {
    return await send(name, args, ctx, input, bearer);
  } finally {
    ctx.abort?.removeEventListener("abort", stop);
  }
}

/** What a tool call resolves to: the text, with the images it returned attached. */
type Result = string | {
  output: string;
  attachments: { type: "file"; mime: string; url: string; filename: string }[];
};

type Answer = {
  output?: unknown;
  error?: unknown;
  truncated?: unknown;
  size?: unknown;
  path?: unknown;
  content?: { type?: unknown; data?: unknown; mimeType?: unknown }[];
};

/** Shows a progress report as the running call's title. */
function showProgress(ctx: ToolContext, data: string): void {
  try {
    const update = JSON.parse(data) as { progress: number; total?: number; message?: string };
    const count = update.total === undefined
      ? String(update.progress)
      : update.progress + "/" + update.total;
    ctx.metadata?.({
      title: update.message ? update.message + " (" + count + ")" : count,
      metadata: { progress: update.progress, total: update.total, message: update.message },
    });
  } catch {
    // A report that cannot be shown is skipped.
  }
}

/** Reads the daemon's event stream: progress reports, then the result. */
async function readEvents(response: Response, ctx: ToolContext): Promise<Answer> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf("\\n\\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = block.split("\\n").filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6)).join("\\n");
      if (event === "progress") showProgress(ctx, data);
      else if (event === "result") {
        await reader.cancel().catch(() => {});
        return JSON.parse(data) as Answer;
      }
    }
  }
  throw new Error("the answer ended before its result");
}

/** The images among the blocks a tool returned, as opencode attachments. */
function attachmentsOf(body: Answer) {
  return (body.content ?? []).filter((block) =>
    block.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string"
  ).map((block, index) => ({
    type: "file" as const,
    mime: block.mimeType as string,
    url: "data:" + block.mimeType + ";base64," + block.data,
    filename: "image-" + (index + 1),
  }));
}

async function send(
  name: string,
  args: unknown,
  ctx: ToolContext & { callID?: string },
  input: PluginInput,
  bearer: string,
): Promise<Result> {
  let response: Response;
  try {
    response = await fetch(DAEMON_URL + "/beeuni/tools/" + encodeURIComponent(name), {
      method: "POST",
      headers: {
        "authorization": "Bearer " + bearer,
        "content-type": "application/json",
        "accept": "text/event-stream, application/json",
      },
      body: JSON.stringify({
        args: args ?? {},
        sessionId: ctx.sessionID,
        messageId: ctx.messageID,
        callId: ctx.callID,
        agent: ctx.agent,
        directory: ctx.directory ?? input.directory,
        worktree: ctx.worktree ?? input.worktree,
      }),
      signal: ctx.abort,
    });
  } catch (error) {
    if (ctx.abort?.aborted) throw new Error("the tool call was stopped");
    throw new Error(
      "the beeuni daemon is not running at " + DAEMON_URL + " (" + messageOf(error) +
        "): start it with \`" + START_HINT + "\`",
    );
  }
  let body: Answer;
  try {
    body = response.headers.get("content-type")?.includes("text/event-stream")
      ? await readEvents(response, ctx)
      : await response.json();
  } catch (error) {
    if (ctx.abort?.aborted) throw new Error("the tool call was stopped");
    throw new Error(
      "the beeuni daemon at " + DAEMON_URL + " answered " + response.status +
        " without a JSON body (" + messageOf(error) + ")",
    );
  }
  if (typeof body?.error === "string") throw new Error(body.error);
  if (!response.ok || typeof body?.output !== "string") {
    throw new Error(
      "the beeuni daemon at " + DAEMON_URL + " answered " + response.status +
        " without an output",
    );
  }
  let output = body.output as string;
  if (body.truncated === true && typeof body.path === "string") {
    const size = typeof body.size === "number" ? body.size + " bytes" : "more";
    output = fitted(
      output,
      "\\n\\n...output truncated: the full output is " + size + "...\\n\\n" +
        "The tool call succeeded but the output was truncated. Full output saved to: " +
        body.path + "\\nRead that file (in parts, or search it with grep) for the rest.",
    );
  }
  const attachments = attachmentsOf(body);
  return attachments.length > 0 ? { output, attachments } : output;
}

export const BeeuniTools: Plugin = async (input: PluginInput): Promise<Hooks> => {
  const tool: Record<string, unknown> = {};
  const schemas = new Map<string, Record<string, unknown>>();
  for (const entry of TOOLS) {
    schemas.set(entry.name, entry.parameters);
    tool[entry.name] = {
      description: entry.description,
      args: {},
      execute: (args: unknown, ctx: ToolContext) => call(entry.name, args, ctx, input),
    };
  }
  return {
    tool,
    "tool.definition": async (
      definition: { toolID: string },
      output: { description: string; parameters: unknown; jsonSchema?: unknown },
    ) => {
      const schema = schemas.get(definition.toolID);
      if (schema !== undefined) output.jsonSchema = structuredClone(schema);
    },
  } as Hooks;
};
`;
}

/**
 * Writes the plugin rendered by {@linkcode renderOpencodePlugin} to
 * `<configDir>/plugins/beeuni.ts` atomically (a temporary file in the same
 * folder, then a rename), creating the folders, and removes the temporary
 * files a killed write of it left there. Returns the file's path.
 */
export function writeOpencodePlugin(
  options: WriteOpencodePluginOptions,
): string {
  const configDir = options.configDir === undefined
    ? opencodeConfigDir(options.env)
    : resolve(options.configDir);
  const path = join(configDir, "plugins", OPENCODE_PLUGIN_FILE);
  writeFileAtomic(path, renderOpencodePlugin(options));
  removeStaleTemps(dirname(path), { names: [OPENCODE_PLUGIN_FILE] });
  return path;
}
