/**
 * `@beeuni/tools/runtime`: which runtime runs this code (Deno, Node.js or
 * Bun) and its adapter. Like Hono's adapters, each adapter turns the same
 * runtime-neutral pieces into a process: a server for a
 * `Request → Response` handler, arguments, exit, signals, standard streams
 * and file watching.
 *
 * @example Serve a handler on whichever runtime runs this
 * ```ts
 * import { loadRuntime } from "@beeuni/tools/runtime";
 *
 * const runtime = await loadRuntime();
 * const server = await runtime.serve(
 *   { hostname: "127.0.0.1", port: 0 },
 *   () => new Response("hi"),
 * );
 * const response = await fetch(`http://127.0.0.1:${server.port}/`);
 * console.assert(await response.text() === "hi");
 * await server.shutdown();
 * ```
 *
 * @module
 */

export {
  type ConnectionLimits,
  DEFAULT_CONNECTION_LIMITS,
  type Handler,
  type Io,
  isMainModule,
  loadRuntime,
  MIN_NODE_VERSION,
  type Runtime,
  type RuntimeName,
  runtimeName,
  type ServeOptions,
  type Server,
  type Watcher,
} from "./lib/runtime/mod.ts";
