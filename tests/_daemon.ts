// Test helpers for the daemon: start a real `daemon.ts` (or `beeuni daemon`)
// process on a free loopback port and talk to it over HTTP.

import { join } from "node:path";
import { CLI, REPO_ROOT } from "./_helpers.ts";
import { testCacheEnv } from "./_npm_cache.ts";

/** Absolute path of `daemon.ts`. */
export const DAEMON: string = join(REPO_ROOT, "daemon.ts");

/** A daemon process started by {@linkcode startDaemon}. */
export interface TestDaemon {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** The port. */
  port: number;
  /** The bearer token. */
  token: string;
  /** The token file the daemon printed, if any. */
  tokenFile?: string;
  /** Its `XDG_STATE_HOME`, where its token file and daemon record are. */
  stateDir: string;
  /** Everything printed on stdout so far. */
  stdout(): string;
  /** Everything printed on stderr so far (the logs). */
  stderr(): string;
  /** `fetch` on a path with the token and a loopback Host. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Calls a tool and returns the status and the parsed JSON body. */
  call(
    name: string,
    body: Record<string, unknown>,
    init?: RequestInit,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Sends SIGTERM and resolves to the exit code. */
  stop(): Promise<number>;
  /** The daemon's process id. */
  pid: number;
  /** Sends `signal` and resolves to the exit status once it ended. */
  kill(signal: Deno.Signal): Promise<Deno.CommandStatus>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Options of {@linkcode startDaemon}. */
export interface StartOptions {
  /** Extra command-line arguments. */
  args?: string[];
  /** Extra environment variables (a fresh XDG_STATE_HOME is always set). */
  env?: Record<string, string>;
  /** Run `cli.ts daemon` instead of `daemon.ts`. */
  viaCli?: boolean;
  /**
   * The whole command line to run instead of
   * `deno run -A --quiet daemon.ts --dir <dir> --port 0 <args>`: program
   * first (another runtime, a build of the toolkit).
   */
  argv?: string[];
}

async function pump(
  stream: ReadableStream<Uint8Array>,
  onText: (text: string) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    onText(decoder.decode(chunk, { stream: true }));
  }
}

/**
 * Polls `check` every 25 ms until it returns true or `timeoutMs` (60 s)
 * pass: a guard against a hang, generous enough for a machine busy with
 * the whole suite.
 */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Starts `deno run -A daemon.ts --dir <dir> --port 0` (or `options.argv`)
 * and waits for its `listening on` line. Throws with the daemon's stderr when it exits first.
 */
export async function startDaemon(
  dir: string,
  options: StartOptions = {},
): Promise<TestDaemon> {
  const state = options.env?.XDG_STATE_HOME ??
    await Deno.makeTempDir({ prefix: "beeuni_state_" });
  const ownState = options.env?.XDG_STATE_HOME === undefined;
  const entry = options.viaCli ? [CLI, "daemon"] : [DAEMON];
  const [program, ...args] = options.argv ?? [
    Deno.execPath(),
    "run",
    "-A",
    "--quiet",
    ...entry,
    "--dir",
    dir,
    "--port",
    "0",
    ...(options.args ?? []),
  ];
  const child = new Deno.Command(program, {
    args,
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: {
      NO_COLOR: "1",
      RUST_BACKTRACE: "0",
      ...testCacheEnv(),
      XDG_STATE_HOME: state,
      // The daemon writes opencode's plugin under XDG_CONFIG_HOME: keep it here.
      XDG_CONFIG_HOME: join(state, "config"),
      // Saved outputs (T6) go under TMPDIR: keep them in this folder too.
      TMPDIR: state,
      ...options.env,
    },
  }).spawn();
  let out = "";
  let err = "";
  const pumps = Promise.all([
    pump(child.stdout, (text) => out += text),
    pump(child.stderr, (text) => err += text),
  ]);
  let exited = false;
  const status = child.status.then((s) => {
    exited = true;
    return s;
  });
  const cleanup = async () => {
    await pumps;
    if (ownState) await Deno.remove(state, { recursive: true });
  };
  try {
    await waitFor("the daemon to listen", () => {
      if (exited) {
        throw new Error(`the daemon exited before listening:\n${out}\n${err}`);
      }
      return /listening on http:\/\/[^\s]+\n/.test(out);
    }, 120_000);
  } catch (error) {
    if (!exited) child.kill("SIGKILL");
    await status;
    await cleanup();
    throw new Error(
      `${(error as Error).message}\nstdout:\n${out}\nstderr:\n${err}`,
    );
  }
  const url = /listening on (http:\/\/[^\s]+)\n/.exec(out)![1];
  const tokenFile = /^token file: (.+)$/m.exec(out)?.[1];
  const token = tokenFile
    ? (await Deno.readTextFile(tokenFile)).trim()
    : options.env?.BEEUNI_DAEMON_TOKEN ?? "";
  let stopped: Promise<number> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      if (!exited) child.kill("SIGTERM");
      const s = await status;
      await cleanup();
      return s.code;
    })();
    return stopped;
  };
  const fetchPath = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("authorization")) {
      headers.set("authorization", `Bearer ${token}`);
    }
    return fetch(url + path, { ...init, headers });
  };
  return {
    url,
    port: Number(new URL(url).port),
    token,
    tokenFile,
    stateDir: state,
    stdout: () => out,
    stderr: () => err,
    fetch: fetchPath,
    async call(name, body, init = {}) {
      const response = await fetchPath(
        `/beeuni/tools/${encodeURIComponent(name)}`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
          ...init,
        },
      );
      return { status: response.status, body: await response.json() };
    },
    stop,
    pid: child.pid,
    async kill(signal: Deno.Signal) {
      if (!exited) child.kill(signal);
      const s = await status;
      await stop();
      return s;
    },
    async [Symbol.asyncDispose]() {
      await stop();
    },
  };
}

/**
 * Starts `daemon.ts` on `dir` under another runtime (`runtime`: the
 * command that runs a script, e.g. `[node]`), without opencode files or
 * watching, with `args` after and `env` added to its environment.
 */
export async function startDaemonUnder(
  runtime: string[],
  dir: string,
  args: string[] = [],
  env?: Record<string, string>,
): Promise<TestDaemon> {
  return await startDaemon(dir, {
    env,
    argv: [
      ...runtime,
      DAEMON,
      "--dir",
      dir,
      "--port",
      "0",
      "--no-opencode",
      "--no-watch",
      ...args,
    ],
  });
}

/** Sends raw HTTP/1.1 over TCP (for Host headers `fetch` will not send) and returns the status code and body. */
export async function rawRequest(
  port: number,
  head: string,
  body: Uint8Array = new Uint8Array(),
): Promise<{ status: number; text: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const encoded = new TextEncoder().encode(head.replaceAll("\n", "\r\n"));
    const all = new Uint8Array(encoded.length + body.length);
    all.set(encoded);
    all.set(body, encoded.length);
    try {
      let written = 0;
      while (written < all.length) {
        written += await conn.write(all.subarray(written));
      }
    } catch {
      // The server may close early (413): read what it answered.
    }
    const chunks: Uint8Array[] = [];
    const buffer = new Uint8Array(65536);
    while (true) {
      let n: number | null;
      try {
        n = await conn.read(buffer);
      } catch {
        break;
      }
      if (n === null) break;
      chunks.push(buffer.slice(0, n));
      const text = new TextDecoder().decode(concat(chunks));
      const headEnd = text.indexOf("\r\n\r\n");
      if (headEnd !== -1) {
        const length = /content-length: (\d+)/i.exec(text.slice(0, headEnd));
        if (
          length &&
          new TextEncoder().encode(text.slice(headEnd + 4)).length >=
            Number(length[1])
        ) break;
      }
    }
    const text = new TextDecoder().decode(concat(chunks));
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
    return { status, text: text.slice(text.indexOf("\r\n\r\n") + 4) };
  } finally {
    conn.close();
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
