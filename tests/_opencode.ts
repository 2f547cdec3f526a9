// Real opencode for tests: installs opencode-ai from npm into a cache folder
// outside the repository (reused between runs), and runs it with its home
// folders isolated in a temporary folder.

import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { npmBin } from "./_npm_cache.ts";

/** The opencode version the tests run. */
export const OPENCODE_VERSION = "1.18.33";

/**
 * The path of the opencode binary, installing `opencode-ai@1.18.33` with npm
 * into a cache folder outside the repository the first time.
 */
export function installOpencode(): Promise<string> {
  return npmBin("opencode-ai", OPENCODE_VERSION, "opencode");
}

/** An isolated home for opencode: HOME and every XDG folder in one temp folder. */
export interface OpencodeHome {
  /** The temporary folder. */
  dir: string;
  /** `<dir>/config/opencode`: opencode's global config folder. */
  configDir: string;
  /** `<dir>/data/opencode`: where opencode keeps sessions and tool output. */
  dataDir: string;
  /** The environment to run opencode with. */
  env: Record<string, string>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Makes an {@linkcode OpencodeHome}. */
export async function opencodeHome(
  extraEnv: Record<string, string> = {},
): Promise<OpencodeHome> {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_opencode_" });
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: join(dir, "home"),
    XDG_CONFIG_HOME: join(dir, "config"),
    XDG_DATA_HOME: join(dir, "data"),
    XDG_CACHE_HOME: join(dir, "cache"),
    XDG_STATE_HOME: join(dir, "state"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    NO_COLOR: "1",
    ...extraEnv,
  };
  for (const key of ["HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"]) {
    await Deno.mkdir(env[key], { recursive: true });
  }
  const configDir = join(env.XDG_CONFIG_HOME, "opencode");
  await Deno.mkdir(configDir, { recursive: true });
  return {
    dir,
    configDir,
    dataDir: join(env.XDG_DATA_HOME, "opencode"),
    env,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** What a finished opencode printed and returned. */
export interface OpencodeResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `opencode ...args` in `cwd` with `home`'s environment. */
export async function runOpencode(
  home: OpencodeHome,
  cwd: string,
  args: string[],
): Promise<OpencodeResult> {
  const bin = await installOpencode();
  const out = await new Deno.Command(bin, {
    args,
    cwd,
    env: home.env,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
  };
}

/**
 * The JSON document opencode printed for `debug agent`: the text from the
 * first `{` at the start of a line to the end.
 */
export function parseDebugJson(stdout: string): Record<string, unknown> {
  const start = stdout.search(/^\{/m);
  if (start < 0) throw new Error(`no JSON in opencode's output:\n${stdout}`);
  return JSON.parse(stdout.slice(start));
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A running `opencode serve`; disposing of it stops it and waits for its exit. */
export interface OpencodeServer {
  /** The port it listens on, on 127.0.0.1. */
  port: number;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts `opencode serve` on a free port in `cwd`, with `home`'s environment and nothing else. */
export async function serveOpencode(
  home: OpencodeHome,
  cwd: string,
): Promise<OpencodeServer> {
  const port = freePort();
  const child = new Deno.Command(await installOpencode(), {
    args: ["serve", "--port", String(port), "--hostname", "127.0.0.1"],
    cwd,
    env: home.env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  return {
    port,
    async [Symbol.asyncDispose]() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** Reads a child's stream line by line until `match` returns a value. */
export async function waitForLine<T>(
  stream: ReadableStream<Uint8Array>,
  match: (line: string) => T | undefined,
  seen: string[] = [],
): Promise<T> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        seen.push(line);
        const found = match(line);
        if (found !== undefined) {
          // Keep draining in the background so the child never blocks on a full pipe.
          (async () => {
            try {
              while (true) {
                const next = await reader.read();
                if (next.done) break;
                seen.push(next.value);
              }
            } catch {
              // The child went away.
            }
          })();
          return found;
        }
      }
    }
  } catch (error) {
    throw new Error(`stream ended: ${error}\n${seen.join("\n")}`);
  }
  reader.releaseLock();
  throw new Error(
    `the process ended before the expected line:\n${seen.join("\n")}`,
  );
}

/** One request the fake model received (the parsed JSON body). */
export type ModelRequest = {
  model?: string;
  messages: { role: string; content?: unknown; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; parameters: unknown } }[];
  [key: string]: unknown;
};

/** What the fake model answers: text, or tool calls. */
export type ModelReply =
  | { text: string }
  | { toolCalls: { name: string; args: Record<string, unknown> }[] };

function chunk(delta: Record<string, unknown>, finish: string | null): string {
  return `data: ${
    JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 0,
      model: "fake-model",
      choices: [{ index: 0, delta, finish_reason: finish }],
    })
  }\n\n`;
}

/**
 * An OpenAI-compatible chat completions server on 127.0.0.1 that streams
 * `chat.completion.chunk` server-sent events. A request without tools (the
 * title request) gets a short title; any other request gets what `reply`
 * returns for it. Every request is kept in `requests`.
 */
export function fakeModel(reply: (request: ModelRequest) => ModelReply) {
  const requests: ModelRequest[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      if (request.method !== "POST") {
        return new Response("not found", { status: 404 });
      }
      const body = await request.json() as ModelRequest;
      requests.push(body);
      const answer: ModelReply = body.tools?.length
        ? reply(body)
        : { text: "Test session" };
      let events = chunk({ role: "assistant", content: "" }, null);
      if ("text" in answer) {
        events += chunk({ content: answer.text }, null);
        events += chunk({}, "stop");
      } else {
        answer.toolCalls.forEach((call, index) => {
          events += chunk({
            tool_calls: [{
              index,
              id: `call_${requests.length}_${index}`,
              type: "function",
              function: {
                name: call.name,
                arguments: JSON.stringify(call.args),
              },
            }],
          }, null);
        });
        events += chunk({}, "tool_calls");
      }
      events += "data: [DONE]\n\n";
      return new Response(events, {
        headers: { "content-type": "text/event-stream" },
      });
    },
  );
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** An `opencode.json` that points the `fake` provider at `baseURL`. */
export function fakeProviderConfig(baseURL: string): string {
  return JSON.stringify(
    {
      $schema: "https://opencode.ai/config.json",
      provider: {
        fake: {
          npm: "@ai-sdk/openai-compatible",
          name: "Fake",
          options: { baseURL, apiKey: "x" },
          models: { "fake-model": { name: "Fake", tool_call: true } },
        },
      },
    },
    null,
    2,
  );
}

type Execute = (args: unknown, ctx: Record<string, unknown>) => Promise<string>;

/** The hooks of a loaded plugin file, as the tests drive them. */
export interface PluginHooks {
  tool: Record<
    string,
    { description: string; args: unknown; execute: Execute }
  >;
  "tool.definition": (
    input: { toolID: string },
    output: Record<string, unknown>,
  ) => Promise<void>;
}

let copies = 0;

/**
 * Imports a plugin file the way opencode does (under a fresh name beside
 * it: modules are cached), checks that it exports the plugin alone, and
 * returns its hooks.
 */
export async function loadPluginFile(file: string): Promise<PluginHooks> {
  const copy = join(dirname(file), `.copy_${copies++}_${basename(file)}`);
  await Deno.copyFile(file, copy);
  try {
    const module = await import(pathToFileURL(copy).href);
    assert.deepEqual(Object.keys(module), ["BeeuniTools"]);
    return await module.BeeuniTools({ directory: "/x", worktree: "/x" });
  } finally {
    await Deno.remove(copy);
  }
}

/** A tool context as opencode 1.18.33 hands it to a plugin tool. */
export function pluginContext(
  signal: AbortSignal = new AbortController().signal,
): Record<string, unknown> {
  return {
    sessionID: "ses_1",
    messageID: "msg_1",
    callID: "call_1",
    agent: "build",
    directory: "/work/project",
    worktree: "/work",
    abort: signal,
    metadata() {},
    ask: () => Promise.resolve(),
  };
}
