/**
 * The DNS-pinned client of `scrape_webpage`: one GET per hop over
 * `node:http`/`node:https`, connecting to the very addresses the address
 * policy checked (no second lookup that DNS rebinding could answer
 * differently), following redirects with every hop checked again, reading
 * at most a given size of decompressed body.
 *
 * @module
 */

import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import {
  type AddressPolicy,
  effectivePort,
  vetHost,
  type Vetted,
} from "./_address_policy.ts";
import { binaryType, parseContentType } from "./_page_body.ts";
import { messageOf } from "./_tool.ts";

const MAX_REDIRECTS = 10;
const USER_AGENT = "Mozilla/5.0 (compatible; beeuni-scrape_webpage/0.1)";

/**
 * Throws, with `prefix` leading the message, when `url` is not http(s) or
 * carries a user name or password.
 */
export function checkScheme(url: URL, prefix: string): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(
      `${prefix}, not "${url.protocol.slice(0, -1)}": "${url.href}"`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new Error(
      `${prefix} without a user name or password; remove them from "${url.href}"`,
    );
  }
}

// ---------------------------------------------------------------------------
// HTTP: one hop over node:http(s), pinned to the vetted addresses

interface Hop {
  status: number;
  headers: http.IncomingHttpHeaders;
  response: http.IncomingMessage;
  request: http.ClientRequest;
}

function openHop(
  url: URL,
  addresses: Vetted[],
  signal: AbortSignal,
): Promise<Hop> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6
      ? addresses.filter((entry) => entry.family === options.family)
      : addresses;
    const list = wanted.length > 0 ? wanted : addresses;
    if (options.all) {
      (callback as (
        error: null,
        list: { address: string; family: number }[],
      ) => void)(null, list);
    } else {
      callback(null, list[0].address, list[0].family);
    }
  };
  const module = url.protocol === "https:" ? https : http;
  const hostname = url.hostname.startsWith("[")
    ? url.hostname.slice(1, -1)
    : url.hostname;
  return new Promise<Hop>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const request = module.request({
      protocol: url.protocol,
      hostname,
      port: effectivePort(url),
      path: url.pathname + url.search,
      method: "GET",
      agent: false,
      lookup: pinned,
      headers: {
        "user-agent": USER_AGENT,
        "accept":
          "text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,application/json;q=0.8,*/*;q=0.5",
        "accept-encoding": "gzip, deflate, br",
        "accept-language": "en;q=0.9, *;q=0.5",
      },
    }, (response) => {
      signal.removeEventListener("abort", onAbort);
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        response,
        request,
      });
    });
    const onAbort = (): void => {
      request.destroy();
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      reject(signal.aborted ? signal.reason : error);
    });
    request.end();
  });
}

/** Reads the (decompressed) body up to `maxBytes`, then stops. */
function readBody(
  hop: Hop,
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  const encoding = String(hop.headers["content-encoding"] ?? "identity")
    .trim().toLowerCase();
  let stream: Readable = hop.response;
  let decoder: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null = null;
  if (encoding === "gzip" || encoding === "x-gzip") {
    decoder = zlib.createGunzip();
  } else if (encoding === "deflate") decoder = zlib.createInflate();
  else if (encoding === "br") decoder = zlib.createBrotliDecompress();
  else if (encoding !== "identity" && encoding !== "") {
    hop.request.destroy();
    return Promise.reject(
      new Error(`unsupported content encoding "${encoding}"`),
    );
  }
  if (decoder) stream = hop.response.pipe(decoder);
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    let done = false;
    const finish = (error: unknown, truncated = false): void => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      if (error !== null) {
        hop.request.destroy();
        decoder?.destroy();
        reject(error);
        return;
      }
      const bytes = new Uint8Array(Math.min(size, maxBytes));
      let at = 0;
      for (const chunk of chunks) {
        const part = chunk.subarray(0, bytes.length - at);
        bytes.set(part, at);
        at += part.length;
        if (at >= bytes.length) break;
      }
      if (truncated) {
        hop.request.destroy();
        decoder?.destroy();
      }
      resolve({ bytes, truncated });
    };
    const onAbort = (): void => finish(signal.reason);
    if (signal.aborted) {
      finish(signal.reason);
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    stream.on("data", (chunk: Uint8Array) => {
      if (done) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) finish(null, true);
    });
    stream.on("end", () => finish(null));
    stream.on("error", (error) => finish(error));
    hop.response.on("error", (error) => finish(error));
    hop.response.on("close", () => {
      if (!hop.response.complete) {
        finish(new Error("the connection closed before the body ended"));
      }
    });
  });
}

/** A page as fetched: where it ended, its status, type and body. */
export interface Fetched {
  url: URL;
  status: number;
  contentType: string;
  charset: string | null;
  bytes: Uint8Array;
  truncated: boolean;
}

/** How much a fetch may read, and which addresses it may reach. */
export interface FetchLimits {
  policy: AddressPolicy;
  /** The most bytes of decompressed body to read. */
  maxBytes: number;
}

/**
 * Fetches `start`, following redirects, every hop checked against the
 * address policy before it connects. Throws an error that says what failed.
 */
export async function fetchPage(
  start: URL,
  limits: FetchLimits,
  signal: AbortSignal,
): Promise<Fetched> {
  let url = start;
  const seen = new Set<string>();
  for (let hops = 0;; hops++) {
    seen.add(url.href);
    const addresses = await vetHost(url, limits.policy, signal);
    let hop: Hop;
    try {
      hop = await openHop(url, addresses, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new Error(
        `cannot fetch "${url.href}": ${messageOf(error)}`,
      );
    }
    const location = hop.headers.location;
    if ([301, 302, 303, 307, 308].includes(hop.status) && location) {
      hop.request.destroy();
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new Error(
          `cannot follow the redirect from "${url.href}": invalid location "${location}"`,
        );
      }
      checkScheme(
        next,
        `cannot follow the redirect from "${url.href}": the target must use http or https`,
      );
      next.hash = "";
      if (seen.has(next.href)) {
        throw new Error(
          `redirect loop: "${url.href}" redirects back to "${next.href}"; check the URL`,
        );
      }
      if (hops + 1 > MAX_REDIRECTS) {
        throw new Error(
          `too many redirects: "${start.href}" redirected more than ${MAX_REDIRECTS} times (last to "${next.href}")`,
        );
      }
      url = next;
      continue;
    }
    const { type, charset } = parseContentType(
      String(hop.headers["content-type"] ?? ""),
    );
    if (type !== "" && binaryType(type)) {
      hop.request.destroy();
      throw new Error(
        `cannot scrape "${url.href}": its content type "${type}" is not a web page, text or JSON; scrape_webpage reads HTML, text and JSON only`,
      );
    }
    let body: { bytes: Uint8Array; truncated: boolean };
    try {
      body = await readBody(hop, limits.maxBytes, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new Error(
        `cannot read "${url.href}": ${messageOf(error)}`,
      );
    }
    return {
      url,
      status: hop.status,
      contentType: type,
      charset,
      bytes: body.bytes,
      truncated: body.truncated,
    };
  }
}
