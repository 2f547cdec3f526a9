/**
 * `@beeuni/tools/http`: the daemon's routes as one runtime-neutral
 * function from a web `Request` to a `Response`, over a tool host: list a
 * tool set, call a tool, health, behind a bearer token and a loopback
 * `Host` check. Serve it with any server (`Deno.serve`, `Bun.serve`,
 * `node:http` through an adapter), or mount more routes beside it. The
 * {@linkcode StreamPool} caps the event streams a server keeps open, shared
 * by MCP's and the web UI's.
 *
 * @example Serve a host's tools with Deno
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { createHost } from "@beeuni/tools";
 * import { createHandler } from "@beeuni/tools/http";
 *
 * const host = await createHost({ directory: "/workspace" });
 * const handler = createHandler({ host, token: "a long random token" });
 * Deno.serve({ hostname: "127.0.0.1", port: 8787 }, handler);
 * ```
 *
 * @module
 */

export {
  type AgentTokenPrincipal,
  type AgentTokens,
  type CallBody,
  createHandler,
  type DaemonHost,
  DEFAULT_MAX_BODY_BYTES,
  type HandlerOptions,
  type HostCall,
  type HostOutcome,
  HttpError,
  type ListedTool,
  type Mount,
  parseCallBody,
  type Principal,
  type Scope,
} from "./lib/http/mod.ts";
export { type PooledStream, StreamPool } from "./lib/common/mod.ts";
