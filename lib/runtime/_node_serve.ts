// Serving a web `Request -> Response` handler with `node:http`: loaded
// with the first server, since `node:http` alone costs a Node.js CLI
// command about half of Node's own start-up (see docs/benchmarks.md).

import {
  createServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { Readable } from "node:stream";
import type { Handler, ServeOptions, Server } from "./types.ts";

function toRequest(
  incoming: IncomingMessage,
  base: string,
  signal: AbortSignal,
): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i], raw[i + 1]);
    } catch {
      // A header the web Headers type refuses is dropped.
    }
  }
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  let url: string;
  try {
    url = new URL(incoming.url ?? "/", base).href;
  } catch {
    url = new URL("/", base).href;
  }
  return new Request(url, {
    method,
    headers,
    signal,
    body: hasBody
      ? Readable.toWeb(incoming) as unknown as ReadableStream<Uint8Array>
      : null,
    // @ts-ignore: Node's fetch needs `duplex` for a streamed body.
    duplex: "half",
  });
}

async function writeResponse(
  response: Response,
  outgoing: ServerResponse,
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [key, value] of response.headers) {
    const seen = headers[key];
    if (seen === undefined) headers[key] = value;
    else headers[key] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  outgoing.writeHead(response.status, headers);
  if (response.body === null) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  outgoing.on("close", () => void reader.cancel().catch(() => {}));
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!outgoing.write(value)) {
        await new Promise<void>((resolve) => {
          outgoing.once("drain", resolve);
          outgoing.once("close", resolve);
        });
      }
      if (outgoing.destroyed) break;
    }
  } finally {
    outgoing.end();
  }
}

/** Serves `handler` on `options.hostname`:`options.port` with `node:http`. */
export function serve(
  options: ServeOptions,
  handler: Handler,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    let base = "http://127.0.0.1/";
    const server = createServer(async (incoming, outgoing) => {
      const controller = new AbortController();
      outgoing.on("close", () => {
        if (!outgoing.writableFinished) controller.abort();
      });
      let response: Response;
      try {
        response = await handler(toRequest(incoming, base, controller.signal));
      } catch {
        response = new Response('{"error":"internal error"}\n', {
          status: 500,
          headers: { "content-type": "application/json; charset=utf-8" },
        });
      }
      await writeResponse(response, outgoing).catch(() => outgoing.destroy());
    });
    let finish: () => void;
    const finished = new Promise<void>((done) => finish = done);
    server.on("close", () => finish());
    server.once("error", reject);
    server.listen(options.port, options.hostname, () => {
      server.off("error", reject);
      const address = server.address();
      const port = typeof address === "object" && address
        ? address.port
        : options.port;
      const host = options.hostname.includes(":")
        ? `[${options.hostname}]`
        : options.hostname;
      base = `http://${host}:${port}/`;
      resolve({
        hostname: options.hostname,
        port,
        shutdown: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
          }),
        finished,
      });
    });
  });
}
