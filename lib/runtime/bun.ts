/**
 * The Bun adapter: `Bun.serve` for web `Request`/`Response` handlers, and
 * the `node:*` process pieces Bun shares with Node.js.
 *
 * @module
 */

import process from "node:process";
import type { Handler, Runtime, ServeOptions, Server } from "./types.ts";
import { args, exit, onTerminate, processIo, watchDirs } from "./_node_io.ts";

/** The part of Bun's global API this adapter uses. */
interface BunApi {
  version: string;
  serve(options: {
    hostname: string;
    port: number;
    idleTimeout?: number;
    fetch: (request: Request) => Response | Promise<Response>;
    error?: (error: Error) => Response;
  }): {
    hostname: string;
    port: number;
    stop(closeActiveConnections?: boolean): Promise<void>;
  };
}

function bun(): BunApi {
  return (globalThis as unknown as { Bun: BunApi }).Bun;
}

function serve(options: ServeOptions, handler: Handler): Promise<Server> {
  let finish: () => void;
  const finished = new Promise<void>((done) => finish = done);
  const server = bun().serve({
    hostname: options.hostname,
    port: options.port,
    // Bun closes a connection idle for 10 s by default, even while a call
    // runs; calls may take minutes.
    idleTimeout: 0,
    fetch: handler,
    error: () =>
      new Response('{"error":"internal error"}\n', {
        status: 500,
        headers: { "content-type": "application/json; charset=utf-8" },
      }),
  });
  return Promise.resolve({
    hostname: server.hostname,
    port: server.port,
    shutdown: async () => {
      await server.stop(false);
      finish();
    },
    finished,
  });
}

/** The toolkit's view of Bun. */
export const bunRuntime: Runtime = {
  name: "bun",
  version: bun().version,
  args,
  io: processIo,
  exit,
  serve,
  onTerminate,
  watchDirs,
  execPath: () => process.execPath,
};
