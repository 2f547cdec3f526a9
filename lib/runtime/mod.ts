/**
 * The runtime edge: which runtime this is (Deno, Node.js or Bun) and its
 * adapter, loaded at start-up. Like Hono's adapters, each adapter turns the
 * same runtime-neutral pieces into a process: a server for a
 * `Request → Response` handler, arguments, exit, signals, standard streams
 * and file watching; and the start of a folder's listing, read lazily.
 *
 * @example Serve a handler on whichever runtime runs this
 * ```ts
 * import { loadRuntime } from "./mod.ts";
 *
 * const runtime = await loadRuntime();
 * const server = await runtime.serve(
 *   { hostname: "127.0.0.1", port: 0 },
 *   () => new Response("hi"),
 * );
 * runtime.io().stdout(`listening on ${server.port}\n`);
 * await server.shutdown();
 * ```
 *
 * @module
 */

import type { Runtime, RuntimeName } from "./types.ts";

export type {
  ConnectionLimits,
  Handler,
  Io,
  Runtime,
  RuntimeName,
  ServeOptions,
  Server,
  Watcher,
} from "./types.ts";
export { DEFAULT_CONNECTION_LIMITS } from "./_conn_defaults.ts";
export { type FirstEntries, firstEntries } from "./first_entries.ts";
export { type SelfCommand, selfCommand } from "./self_command.ts";
export {
  MIN_NODE_VERSION,
  nodeVersionProblem,
  nodeVersionSupported,
} from "./_versions.ts";
import { nodeVersionProblem } from "./_versions.ts";
import { missingDependenciesProblem } from "./_dependencies.ts";

// No static `node:*` import here: this face is on the path of every
// command, `beeuni --help` included, and on Deno the first `node:*` module
// a program loads costs more than Deno's whole start-up (see
// docs/benchmarks.md). Node.js's modules are reached through the
// `process` global, which every Node.js the toolkit supports has.

/** Node.js's `process`, as far as this face reads it. */
interface NodeProcess {
  versions: { node?: string };
  argv: string[];
  getBuiltinModule?(id: string): unknown;
}

function nodeProcess(): NodeProcess | undefined {
  return (globalThis as { process?: NodeProcess }).process;
}

/**
 * Which runtime runs this code.
 *
 * @returns `"deno"`, `"bun"` or `"node"`.
 */
export function runtimeName(): RuntimeName {
  const global = globalThis as Record<string, unknown>;
  if (typeof global.Deno === "object") return "deno";
  if (typeof global.Bun === "object") return "bun";
  return "node";
}

/**
 * Why this runtime cannot run the toolkit (a Node.js before
 * {@linkcode MIN_NODE_VERSION}), or `undefined` when it can. Entry points
 * print it and exit with 1 before they load anything else.
 */
export function runtimeProblem(): string | undefined {
  if (runtimeName() !== "node") return undefined;
  return nodeVersionProblem(nodeProcess()?.versions.node ?? "0.0.0");
}

/**
 * Why Node.js or Bun cannot run a command from this checkout: the
 * toolkit's own npm packages it cannot find, with the command that
 * installs them; `undefined` when they are there, under Deno (which
 * fetches them itself), and in the npm package or the bundle. Entry points
 * print it and exit with 1 before they run a command.
 */
export async function dependencyProblem(): Promise<string | undefined> {
  if (runtimeName() === "deno") return undefined;
  return await missingDependenciesProblem();
}

/**
 * The adapter of the runtime that runs this code.
 *
 * @returns The adapter of Deno, Node.js or Bun, loaded on first use.
 */
export async function loadRuntime(): Promise<Runtime> {
  switch (runtimeName()) {
    case "deno":
      return (await import("./deno.ts")).denoRuntime;
    case "bun":
      return (await import("./bun.ts")).bunRuntime;
    default:
      return (await import("./node.ts")).nodeRuntime;
  }
}

function realPath(process: NodeProcess, path: string): string {
  const fs = process.getBuiltinModule?.("node:fs") as
    | { realpathSync(path: string): string }
    | undefined;
  try {
    return fs?.realpathSync(path) ?? path;
  } catch {
    return path;
  }
}

/**
 * Whether the module whose `import.meta` is `meta` is the program's entry:
 * `import.meta.main` where the runtime has it (Deno, Bun, Node.js 24.2+),
 * otherwise whether the script Node.js was started with is that module.
 *
 * @returns `true` when that module is the program's entry.
 */
export function isMainModule(meta: ImportMeta): boolean {
  const main = (meta as { main?: unknown }).main;
  if (typeof main === "boolean") return main;
  // Only a Node.js before 24.2 gets here.
  const process = nodeProcess();
  const script = process?.argv[1];
  if (!process || script === undefined || !meta.url.startsWith("file:")) {
    return false;
  }
  const url = process.getBuiltinModule?.("node:url") as
    | { fileURLToPath(url: string): string }
    | undefined;
  const path = url?.fileURLToPath(meta.url) ??
    decodeURIComponent(new URL(meta.url).pathname);
  return realPath(process, script) === realPath(process, path);
}
