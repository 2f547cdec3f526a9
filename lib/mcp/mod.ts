/**
 * MCP (the Model Context Protocol) over a tool host, so that every MCP
 * client gets a project's tools with the host's visibility rules,
 * truncation, secrets, isolation and hot reload:
 *
 * - {@linkcode createMcpHttp}: Streamable HTTP for the daemon's `/mcp`
 *   (agent `beeuni`) and `/mcp/<agent>`; revisions 2025-11-25, 2025-06-18
 *   and 2025-03-26 with sessions, and the stateless 2026-07-28 on the same
 *   endpoint.
 * - {@linkcode serveStdio}: the same over standard input and output
 *   (`beeuni mcp`).
 *
 * Both take anything shaped like {@linkcode McpHost}; `createHost()`'s
 * `Host` is one.
 *
 * @example Serve a host's tools over MCP beside the daemon's routes
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { createHost } from "../host/mod.ts";
 * import { createMcpHttp } from "./mod.ts";
 *
 * const host = await createHost({ directory: "/workspace" });
 * const mcp = createMcpHttp({ host });
 * Deno.serve({ hostname: "127.0.0.1", port: 8787 }, (request) => {
 *   const url = new URL(request.url);
 *   return url.pathname.startsWith("/mcp")
 *     ? mcp.handle(request, url)
 *     : new Response("not found", { status: 404 });
 * });
 * ```
 *
 * @module
 */

export { createMcpHttp, type McpHttp, type McpHttpOptions } from "./_http.ts";
export { type McpStdio, type McpStdioOptions, serveStdio } from "./_stdio.ts";
export type { McpHost } from "./_server.ts";
export {
  callResult,
  type ListedTool,
  type McpTool,
  mcpTools,
} from "./_result.ts";
export {
  LATEST_VERSION,
  LEGACY_VERSIONS,
  MODERN_VERSIONS,
} from "./_protocol.ts";

/**
 * Whether a URL path belongs to MCP: `/mcp` or `/mcp/<anything>`.
 *
 * @returns `true` for `/mcp` and the paths under it.
 */
export function isMcpPath(path: string): boolean {
  return path === "/mcp" || path.startsWith("/mcp/");
}
