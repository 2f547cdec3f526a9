// Shared helpers of the Beeuni tool tests: provider servers on 127.0.0.1 that
// record what they are sent, and a tool host over a temporary git repository
// whose manifest selects one Beeuni tool.

import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, tempRepo } from "./_helpers.ts";
import { createHost, type Host } from "../lib/host/mod.ts";

/** One request a test server received. */
export interface Seen {
  /** The full request URL. */
  url: URL;
  method: string;
  /** `url.pathname`. */
  path: string;
  /** `url.searchParams`. */
  params: URLSearchParams;
  headers: Headers;
  /** The request body as text; empty for a request without one. */
  body: string;
}

/** A server on 127.0.0.1 that records requests and answers with a handler. */
export interface TestServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  port: number;
  /** Every request received so far, in order. */
  seen: Seen[];
  /** Releases the handlers waiting on `released`, then stops the server. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a {@linkcode TestServer} that answers each request with `handler`.
 * `released` resolves when the server is being stopped, so a handler can hang
 * until then (see {@linkcode never}).
 */
export function serve(
  handler: (
    seen: Seen,
    released: Promise<void>,
  ) => Response | Promise<Response>,
): TestServer {
  const seen: Seen[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      const entry: Seen = {
        url,
        method: request.method,
        path: url.pathname,
        params: url.searchParams,
        headers: request.headers,
        body: await request.text(),
      };
      seen.push(entry);
      return await handler(entry, released);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    port: server.addr.port,
    seen,
    [Symbol.asyncDispose]: () => {
      release();
      return server.shutdown();
    },
  };
}

/** A JSON response of `body`, with `init`'s status and extra headers. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    ...init,
    headers: { "content-type": "application/json", ...init.headers },
  });
}

/** Answers only when the test stops the server: a server that hangs. */
export async function never(released: Promise<void>): Promise<Response> {
  await released;
  return new Response("late");
}

/** Every module a module's source names. */
export interface ModuleSpecifiers {
  /**
   * The specifiers of its static imports and re-exports, its bare
   * `import "x"` lines and its dynamic `import("x")` calls: what it loads
   * at run time.
   */
  specifiers: string[];
  /** The specifiers of its `import type` lines, which no runtime loads. */
  typeSpecifiers: string[];
}

/** A Beeuni tool module's source and every module it names. */
export interface ToolSource extends ModuleSpecifiers {
  /** The text of `builtin_tools/<tool>.ts`. */
  source: string;
}

/** Finds the modules a module's `source` imports. */
export function moduleSpecifiers(source: string): ModuleSpecifiers {
  const typeOnly =
    /(?:^|\n)\s*import\s+type\s[^'"]*?from\s*["']([^"']+)["'];?/g;
  const typeSpecifiers = [...source.matchAll(typeOnly)].map((match) =>
    match[1]
  );
  const code = source.replace(typeOnly, "\n");
  const specifiers = [
    ...code.matchAll(
      /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']/g,
    ),
    ...code.matchAll(
      /\b(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']/g,
    ),
    ...code.matchAll(/^\s*import\s*["']([^"']+)["']/gm),
    ...code.matchAll(/\bimport\s*\(\s*["']([^"']+)["']/g),
  ].map((match) => match[1]);
  return { specifiers, typeSpecifiers };
}

/** Reads `builtin_tools/<tool>.ts` and finds the modules it imports (B1). */
export async function toolSource(tool: string): Promise<ToolSource> {
  const source = await Deno.readTextFile(
    join(REPO_ROOT, "builtin_tools", `${tool}.ts`),
  );
  return { source, ...moduleSpecifiers(source) };
}

/** Files by path: text, or bytes. */
export type Files = Record<string, string | Uint8Array>;

async function writeFiles(dir: string, files: Files): Promise<void> {
  for (const [path, data] of Object.entries(files)) {
    await Deno.mkdir(join(dir, path, ".."), { recursive: true });
    if (typeof data === "string") {
      await Deno.writeTextFile(join(dir, path), data);
    } else await Deno.writeFile(join(dir, path), data);
  }
}

/** A temporary folder holding `files`, removed at the end. */
export async function plainDir(
  files: Files = {},
): Promise<{ dir: string; [Symbol.asyncDispose](): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_test_" });
  await writeFiles(dir, files);
  return {
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** How a call through the host ended: the output text, or the error. */
export type Outcome =
  | { ok: true; output: string }
  | { ok: false; status: string; error: string };

/** The output of a call that must succeed, parsed from JSON. */
export function success(outcome: Outcome): Record<string, unknown> {
  if (!outcome.ok) assert.fail(`expected a result, got: ${outcome.error}`);
  return JSON.parse(outcome.output);
}

/** The error of a call that must fail. */
export function failure(outcome: Outcome): string {
  if (outcome.ok) assert.fail(`expected a tool error, got ${outcome.output}`);
  return outcome.error;
}

/** Asserts that `promise` rejects with a message that matches `pattern`. */
export async function refused(
  promise: Promise<unknown>,
  pattern: RegExp,
): Promise<void> {
  await assert.rejects(promise, (error: Error) => {
    assert.match(error.message, pattern);
    return true;
  });
}

/** A tool host over a checkout whose manifest selects one Beeuni tool. */
export interface BuiltinHost {
  /** The checkout, a git repository. */
  dir: string;
  /**
   * Calls the tool as agent `beeuni`, which is granted all secrets, so
   * `secrets` reach the tool's `context.env` for this call alone.
   */
  call(
    secrets: Record<string, string>,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<Outcome>;
  /**
   * Calls the tool with no secrets: resolves to its output text, or rejects
   * with its error.
   */
  run(args: Record<string, unknown>): Promise<string>;
  /** Removes everything but `beeuni.yaml` and `.git`, then writes `files`. */
  reset(files?: Files): Promise<void>;
  /** Reads a file of the checkout as text. */
  read(path: string): Promise<string>;
  /** Stops the host (if a call started it) and removes the checkout. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A git checkout holding `files` and a `beeuni.yaml` that selects the Beeuni
 * tool `tool` and grants agent `beeuni` every tool and secret. Calls go through
 * the daemon's tool host (D1, T5) like a session's; one host, started by the
 * first call, serves every call.
 */
export async function builtinHost(
  tool: string,
  files: Record<string, string> = {},
): Promise<BuiltinHost> {
  const manifest = `tools:
  ${tool}: beeuni:${tool}
agents:
  beeuni:
    tools: all
    secrets: all
`;
  const repo = await tempRepo({ "beeuni.yaml": manifest, ...files });
  const dir = repo.dir;
  let secrets: Record<string, string> = {};
  let host: Host | undefined;
  const call = async (
    env: Record<string, string>,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<Outcome> => {
    host ??= await createHost({
      directory: dir,
      env: {},
      secrets: () => secrets,
      log: () => {},
    });
    secrets = env;
    return await host.call({
      name: tool,
      args,
      sessionId: "s-1",
      agent: "beeuni",
      signal,
    });
  };
  return {
    dir,
    call,
    async run(args) {
      const outcome = await call({}, args);
      if (!outcome.ok) throw new Error(outcome.error);
      return outcome.output;
    },
    async reset(files = {}) {
      for (const entry of Deno.readDirSync(dir)) {
        if (entry.name !== "beeuni.yaml" && entry.name !== ".git") {
          await Deno.remove(join(dir, entry.name), { recursive: true });
        }
      }
      await writeFiles(dir, files);
    },
    read: (path) => Deno.readTextFile(join(dir, path)),
    async [Symbol.asyncDispose]() {
      await host?.close();
      await repo[Symbol.asyncDispose]();
    },
  };
}
