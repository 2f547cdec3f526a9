// The server of the Node.js and Bun adapters, loaded with the first one:
// `node:http` (and the guard's modules) cost a command that serves nothing,
// `beeuni --help` included, about half of Node.js's own start-up (see
// docs/benchmarks.md).

import type { Handler, ServeOptions, Server } from "./types.ts";

/** Serves `handler` like `serveNodeHttp()`, importing it on the first call. */
export async function serve(
  options: ServeOptions,
  handler: Handler,
): Promise<Server> {
  return (await import("./_node_http.ts")).serveNodeHttp(options, handler);
}
