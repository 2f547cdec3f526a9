/**
 * The code of the opencode plugin, as a real module that `deno check`
 * sees. {@linkcode createBeeuniPlugin} is written into the plugin file
 * with `Function.prototype.toString()`, so it must stay self-contained: it
 * refers to nothing but its two arguments, its own inner functions and the
 * web platform's globals (`fetch`, `TextEncoder`, …). Its imports here are
 * types only; the plugin file imports the two `node:*` modules it is
 * given.
 *
 * @module
 */

import type { CallBody } from "../http/mod.ts";

/** One tool the plugin registers: what `GET /beeuni/tools` lists. */
export interface OpencodePluginTool {
  /** The tool's name. */
  name: string;
  /** The description the model reads. */
  description: string;
  /** The tool's JSON Schema (`type: "object"`), handed to the model as is. */
  parameters: Record<string, unknown>;
}

/** One running daemon in a {@linkcode DaemonRecord}. */
export interface DaemonEntry {
  /** Its base URL, e.g. `http://127.0.0.1:43117`. */
  url: string;
  /** Its process id. */
  pid: number;
  /** Its token file, read at each call; `null`: the token is `BEEUNI_DAEMON_TOKEN`. */
  tokenFile: string | null;
}

/**
 * The "where is the daemon" record of a project: every daemon of the
 * project that runs, oldest first. The plugin calls the last one whose
 * process still runs.
 */
export interface DaemonRecord {
  /** The project's daemons, in the order they started. */
  daemons: DaemonEntry[];
}

/** What the plugin file fixes when it is written. */
export interface PluginConstants {
  /** The project's {@linkcode DaemonRecord} file, read at each call. */
  recordFile: string;
  /** The command that starts the daemon, named when it is down. */
  startHint: string;
  /** opencode's output limit in bytes. */
  maxBytes: number;
  /** opencode's output limit in lines. */
  maxLines: number;
  /** The tools to register. */
  tools: OpencodePluginTool[];
}

/** The two `node:*` modules the plugin file imports and hands in. */
export interface PluginModules {
  /** `readFile` of `node:fs/promises`. */
  readFile(path: string, encoding: "utf8"): Promise<string>;
  /** `node:process`. */
  process: {
    env: Record<string, string | undefined>;
    kill(pid: number, signal: number): unknown;
  };
}

/** The part of opencode's tool context the plugin uses. */
export interface PluginToolContext {
  /** opencode's session id. */
  sessionID: string;
  /** The calling agent. */
  agent: string;
  /** Fires when the turn is stopped. */
  abort?: AbortSignal;
  /** Sets the running call's title. */
  metadata?(
    input: { title?: string; metadata?: Record<string, unknown> },
  ): void;
}

/** An image a tool returned, as an opencode attachment. */
export interface PluginAttachment {
  /** Always `"file"`. */
  type: "file";
  /** The image's media type. */
  mime: string;
  /** A `data:` URL of the image. */
  url: string;
  /** `image-<n>`. */
  filename: string;
}

/** What a tool call resolves to: the text, with the images it returned attached. */
export type PluginResult = string | {
  output: string;
  attachments: PluginAttachment[];
};

/** One registered tool as opencode's `tool` hook takes it. */
export interface PluginToolEntry {
  /** The description the model reads. */
  description: string;
  /** Empty: the schema goes through `tool.definition`. */
  args: Record<string, never>;
  /** Forwards the call to the daemon. */
  execute(args: unknown, ctx: PluginToolContext): Promise<PluginResult>;
}

/** The hooks the plugin gives opencode. */
export interface PluginHooks {
  /** The tools, by name. */
  tool?: Record<string, PluginToolEntry>;
  /** Sets each tool's exact JSON Schema. */
  "tool.definition"?: (
    definition: { toolID: string },
    output: { jsonSchema?: unknown },
  ) => Promise<void>;
}

/**
 * The plugin: registers `constants.tools` and forwards each call to
 * `POST <daemon>/beeuni/tools/<name>`, finding the daemon's address and
 * token in the record at each call. Neither this function nor the plugin
 * it returns ever throws; every failure is a tool error the model reads.
 */
export function createBeeuniPlugin(
  constants: PluginConstants,
  modules: PluginModules,
): (input?: unknown) => Promise<PluginHooks> {
  type Answer = {
    output?: unknown;
    error?: unknown;
    truncated?: unknown;
    size?: unknown;
    path?: unknown;
    content?: { type?: unknown; data?: unknown; mimeType?: unknown }[];
  };
  type Daemon = { url: string; bearer: string };

  const stopped = () => new Error("the tool call was stopped");

  function messageOf(error: unknown): string {
    if (error instanceof Error) {
      const cause = (error as { cause?: unknown }).cause;
      const detail = cause instanceof Error ? cause.message : "";
      return detail && !error.message.includes(detail)
        ? `${error.message} (${detail})`
        : error.message;
    }
    return String(error);
  }

  function down(reason: string): Error {
    return new Error(
      `the beeuni daemon is not running: ${reason}; start it with \`${constants.startHint}\``,
    );
  }

  function isRunning(pid: number): boolean {
    try {
      modules.process.kill(pid, 0);
      return true;
    } catch (error) {
      // Only ESRCH says it is gone.
      return (error as { code?: unknown })?.code !== "ESRCH";
    }
  }

  function isEntry(value: unknown): value is DaemonEntry {
    const entry = value as DaemonEntry;
    return typeof entry === "object" && entry !== null &&
      typeof entry.url === "string" && /^https?:\/\//.test(entry.url) &&
      Number.isInteger(entry.pid) &&
      (entry.tokenFile === null || typeof entry.tokenFile === "string");
  }

  /** The daemon to call: the newest of the record that still runs. */
  async function locate(): Promise<Daemon> {
    const file = constants.recordFile;
    let record: DaemonRecord;
    try {
      record = JSON.parse(await modules.readFile(file, "utf8"));
    } catch (error) {
      throw down(`its record "${file}" cannot be read (${messageOf(error)})`);
    }
    const entries = Array.isArray(record?.daemons)
      ? record.daemons.filter(isEntry)
      : [];
    const entry = entries.findLast((each) => isRunning(each.pid)) ??
      entries.at(-1);
    if (entry === undefined) throw down(`its record "${file}" names none`);
    const url = entry.url.replace(/\/+$/, "");
    if (entry.tokenFile === null) {
      const value = modules.process.env.BEEUNI_DAEMON_TOKEN;
      if (value) return { url, bearer: value.trim() };
      throw new Error(
        "the beeuni daemon token is not set: start opencode with BEEUNI_DAEMON_TOKEN set to the daemon's token",
      );
    }
    try {
      const bearer = (await modules.readFile(entry.tokenFile, "utf8")).trim();
      return { url, bearer };
    } catch (error) {
      throw down(
        `its token file "${entry.tokenFile}" cannot be read (${
          messageOf(error)
        })`,
      );
    }
  }

  /** `head` cut so that it and `note` fit opencode's limits. */
  function fitted(head: string, note: string): string {
    const encoder = new TextEncoder();
    let text = head;
    const noteLines = note.split("\n").length;
    const lines = text.split("\n");
    if (lines.length + noteLines > constants.maxLines) {
      text = lines.slice(0, Math.max(0, constants.maxLines - noteLines)).join(
        "\n",
      );
    }
    const room = constants.maxBytes - encoder.encode(note).length;
    let over = encoder.encode(text).length - room;
    while (text.length > 0 && over > 0) {
      text = text.slice(0, Math.max(0, text.length - Math.ceil(over / 4)));
      over = encoder.encode(text).length - room;
    }
    return text + note;
  }

  /** Shows a progress report as the running call's title. */
  function showProgress(ctx: PluginToolContext, data: string): void {
    try {
      const update = JSON.parse(data) as {
        progress: number;
        total?: number;
        message?: string;
      };
      const count = update.total === undefined
        ? String(update.progress)
        : `${update.progress}/${update.total}`;
      ctx.metadata?.({
        title: update.message ? `${update.message} (${count})` : count,
        metadata: {
          progress: update.progress,
          total: update.total,
          message: update.message,
        },
      });
    } catch {
      // A report that cannot be shown is skipped.
    }
  }

  /** Reads the daemon's event stream: progress reports, then the result. */
  async function readEvents(
    response: Response,
    ctx: PluginToolContext,
  ): Promise<Answer> {
    const reader = response.body!.pipeThrough(new TextDecoderStream())
      .getReader();
    let buffer = "";
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = block.split("\n").filter((line) =>
          line.startsWith("data: ")
        ).map((line) => line.slice(6)).join("\n");
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
  function attachmentsOf(answer: Answer): PluginAttachment[] {
    return (answer.content ?? []).filter((block) =>
      block.type === "image" && typeof block.data === "string" &&
      typeof block.mimeType === "string"
    ).map((block, index) => ({
      type: "file",
      mime: block.mimeType as string,
      url: `data:${block.mimeType};base64,${block.data}`,
      filename: `image-${index + 1}`,
    }));
  }

  /** The model's text for a daemon's answer, or the error it reads. */
  function resultOf(response: Response, answer: Answer, url: string) {
    if (typeof answer?.error === "string") throw new Error(answer.error);
    if (!response.ok || typeof answer?.output !== "string") {
      throw new Error(
        `the beeuni daemon at ${url} answered ${response.status} without an output`,
      );
    }
    let output = answer.output;
    if (answer.truncated === true && typeof answer.path === "string") {
      const size = typeof answer.size === "number"
        ? `${answer.size} bytes`
        : "more";
      output = fitted(
        output,
        `\n\n...output truncated: the full output is ${size}...\n\n` +
          "The tool call succeeded but the output was truncated. Full output saved to: " +
          `${answer.path}\nRead that file (in parts, or search it with grep) for the rest.`,
      );
    }
    const attachments = attachmentsOf(answer);
    return attachments.length > 0 ? { output, attachments } : output;
  }

  async function send(
    daemon: Daemon,
    name: string,
    args: unknown,
    ctx: PluginToolContext,
  ): Promise<PluginResult> {
    // Exactly the fields the daemon reads.
    const body: CallBody = {
      args: (args ?? {}) as Record<string, unknown>,
      sessionId: ctx.sessionID,
      agent: ctx.agent,
    };
    let response: Response;
    try {
      response = await fetch(
        `${daemon.url}/beeuni/tools/${encodeURIComponent(name)}`,
        {
          method: "POST",
          headers: {
            "authorization": `Bearer ${daemon.bearer}`,
            "content-type": "application/json",
            "accept": "text/event-stream, application/json",
          },
          body: JSON.stringify(body),
          signal: ctx.abort,
        },
      );
    } catch (error) {
      if (ctx.abort?.aborted) throw stopped();
      throw new Error(
        `the beeuni daemon is not running at ${daemon.url} (${
          messageOf(error)
        }): start it with \`${constants.startHint}\``,
      );
    }
    let answer: Answer;
    try {
      answer = response.headers.get("content-type")?.includes(
          "text/event-stream",
        )
        ? await readEvents(response, ctx)
        : await response.json();
    } catch (error) {
      if (ctx.abort?.aborted) throw stopped();
      throw new Error(
        `the beeuni daemon at ${daemon.url} answered ${response.status} without a JSON body (${
          messageOf(error)
        })`,
      );
    }
    return resultOf(response, answer, daemon.url);
  }

  async function call(
    name: string,
    args: unknown,
    ctx: PluginToolContext,
  ): Promise<PluginResult> {
    const daemon = await locate();
    // A stopped turn: besides closing this request, tell the daemon to
    // abort the session's running calls (the connection may stay open in
    // a pool).
    const stop = () => {
      fetch(
        `${daemon.url}/beeuni/sessions/${
          encodeURIComponent(ctx.sessionID)
        }/stop`,
        {
          method: "POST",
          headers: { "authorization": `Bearer ${daemon.bearer}` },
        },
      ).then((answer) => answer.body?.cancel(), () => {});
    };
    ctx.abort?.addEventListener("abort", stop, { once: true });
    try {
      return await send(daemon, name, args, ctx);
    } finally {
      ctx.abort?.removeEventListener("abort", stop);
    }
  }

  return (): Promise<PluginHooks> => {
    try {
      const tool: Record<string, PluginToolEntry> = {};
      const schemas = new Map<string, Record<string, unknown>>();
      for (const entry of constants.tools) {
        schemas.set(entry.name, entry.parameters);
        tool[entry.name] = {
          description: entry.description,
          args: {},
          execute: (args, ctx) => call(entry.name, args, ctx),
        };
      }
      return Promise.resolve({
        tool,
        "tool.definition": (definition, output) => {
          const schema = schemas.get(definition.toolID);
          if (schema !== undefined) output.jsonSchema = structuredClone(schema);
          return Promise.resolve();
        },
      });
    } catch {
      // Never break opencode: no tools rather than a failed load.
      return Promise.resolve({});
    }
  };
}
