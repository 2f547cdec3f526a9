/**
 * `@beeuni/tools/mcp`: MCP (the Model Context Protocol) over a tool host,
 * so that every MCP client gets a project's tools with the host's
 * visibility rules, truncation, secrets, isolation and hot reload:
 * {@linkcode createMcpHttp} over Streamable HTTP (the daemon's `/mcp`),
 * {@linkcode serveStdio} over standard input and output (`beeuni mcp`),
 * and {@linkcode mcpTools} and {@linkcode callResult} for another MCP
 * server that lists and calls a host's tools itself.
 *
 * @example Serve a host's tools over MCP on standard input and output
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import process from "node:process";
 * import { createHost } from "@beeuni/tools";
 * import { serveStdio } from "@beeuni/tools/mcp";
 *
 * const host = await createHost({ directory: "/workspace", log: () => {} });
 * const server = serveStdio({
 *   host,
 *   agent: "build",
 *   input: process.stdin,
 *   write: (line) => process.stdout.write(line),
 * });
 * await server.done;
 * ```
 *
 * @module
 */

export {
  callResult,
  createMcpHttp,
  isMcpPath,
  LATEST_VERSION,
  LEGACY_VERSIONS,
  type ListedTool,
  type McpHost,
  type McpHttp,
  type McpHttpOptions,
  type McpStdio,
  type McpStdioOptions,
  type McpTool,
  mcpTools,
  MODERN_VERSIONS,
  serveStdio,
} from "./lib/mcp/mod.ts";
