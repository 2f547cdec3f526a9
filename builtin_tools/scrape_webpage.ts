/**
 * The `scrape_webpage` Beeuni tool: fetches one http(s) URL and returns its
 * readable content — Markdown for HTML, plain text for text types, indented
 * JSON for JSON — with the final URL, status, title and content type.
 *
 * The fetch follows at most 10 redirects, reads at most 5 MiB of body (then
 * stops and flags the result as truncated) and gives up after 30 s. Every hop
 * is checked against the address policy before any connection is made:
 * loopback, private, link-local, shared, unspecified, multicast and cloud
 * metadata addresses are refused after DNS resolution, and the connection goes
 * to the address that was checked (no second lookup).
 *
 * With `BEEUNI_API_URL` and `BEEUNI_TOKEN` set, the call is delegated to the
 * Beeuni API instead (`POST <BEEUNI_API_URL>/v1/tools/scrape_webpage`).
 *
 * The module imports only `node:*` modules and reads its configuration from
 * `context.env` alone.
 *
 * @module
 */

import http from "node:http";
import https from "node:https";
import { lookup as dnsLookup } from "node:dns/promises";
import zlib from "node:zlib";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";

// ---------------------------------------------------------------------------
// Interface: arguments, output and context

/** What `execute` receives as its second argument. */
interface ToolContext {
  sessionId?: string;
  agent?: string;
  directory?: string;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
}

/**
 * The shape of a tool module's default export: `{ description, parameters,
 * execute(args, context) }`. Declared here rather than imported from the
 * toolkit, so a copy of this file type-checks in any project as it is.
 */
interface ToolModule {
  description: string;
  parameters: Record<string, unknown>;
  execute(args: never, context: ToolContext): unknown;
}

/** The output JSON of one call. */
interface ScrapeResult {
  url: string;
  status: number;
  title: string;
  content_type: string;
  content: string;
  truncated: boolean;
  next_offset: number | null;
}

type Format = "markdown" | "text" | "html";

interface ScrapeArgs {
  url: URL;
  format: Format;
  maxLength: number;
  offset: number;
}

const DEFAULT_MAX_LENGTH = 20_000;
const MAX_MAX_LENGTH = 1_000_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 10;
const USER_AGENT = "Mozilla/5.0 (compatible; beeuni-scrape_webpage/0.1)";

// ---------------------------------------------------------------------------
// Arguments and configuration

function readArgs(raw: unknown): ScrapeArgs {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new Error(
      'invalid arguments: expected an object such as {"url": "https://example.com/"}',
    );
  }
  const args = raw as Record<string, unknown>;
  if (typeof args.url !== "string" || args.url.trim() === "") {
    throw new Error(
      'invalid arguments: "url" is required and must be an http or https URL string',
    );
  }
  let url: URL;
  try {
    url = new URL(args.url.trim());
  } catch {
    throw new Error(
      `invalid arguments: "url" is not a valid URL: "${args.url}"; give an absolute http or https URL`,
    );
  }
  checkScheme(url, `invalid arguments: "url" must use http or https`);
  url.hash = "";

  let format: Format = "markdown";
  if (args.format !== undefined && args.format !== null) {
    if (
      args.format !== "markdown" && args.format !== "text" &&
      args.format !== "html"
    ) {
      throw new Error(
        `invalid arguments: "format" must be "markdown", "text" or "html", not ${
          JSON.stringify(args.format)
        }`,
      );
    }
    format = args.format;
  }
  const maxLength = readInteger(
    args.max_length,
    "max_length",
    DEFAULT_MAX_LENGTH,
    1,
    MAX_MAX_LENGTH,
  );
  const offset = readInteger(
    args.offset,
    "offset",
    0,
    0,
    Number.MAX_SAFE_INTEGER,
  );
  return { url, format, maxLength, offset };
}

function readInteger(
  value: unknown,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined || value === null) return fallback;
  if (
    typeof value !== "number" || !Number.isInteger(value) || value < min ||
    value > max
  ) {
    throw new Error(
      `invalid arguments: "${name}" must be a whole number from ${min} to ${max}, not ${
        JSON.stringify(value)
      }`,
    );
  }
  return value;
}

function checkScheme(url: URL, prefix: string): void {
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

interface Config {
  env: Record<string, string | undefined>;
  timeoutMs: number;
  maxBytes: number;
  allowPrivate: boolean;
  allowHosts: { host: string; port: string | null }[];
}

function readConfig(env: Record<string, string | undefined>): Config {
  return {
    env,
    timeoutMs: positiveEnv(env, "BEEUNI_HTTP_TIMEOUT_MS", DEFAULT_TIMEOUT_MS),
    maxBytes: positiveEnv(env, "BEEUNI_SCRAPE_MAX_BYTES", DEFAULT_MAX_BYTES),
    allowPrivate: env.BEEUNI_SCRAPE_ALLOW_PRIVATE === "1",
    allowHosts: (env.BEEUNI_SCRAPE_ALLOW_HOSTS ?? "").split(",")
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== "")
      .map(parseHostEntry),
  };
}

function positiveEnv(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
): number {
  const value = env[name];
  if (value === undefined || value.trim() === "") return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) {
    throw new Error(
      `invalid ${name}: expected a positive whole number, got "${value}"; fix or unset it`,
    );
  }
  return number;
}

function parseHostEntry(entry: string): { host: string; port: string | null } {
  const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] ?? null };
  const withPort = /^([^:]+):(\d+)$/.exec(entry);
  if (withPort) return { host: stripDot(withPort[1]), port: withPort[2] };
  return { host: stripDot(entry), port: null };
}

function stripDot(host: string): string {
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

function effectivePort(url: URL): string {
  return url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
}

function isAllowedHost(url: URL, config: Config): boolean {
  const host = stripDot(url.hostname.toLowerCase());
  const port = effectivePort(url);
  return config.allowHosts.some((entry) =>
    entry.host === host && (entry.port === null || entry.port === port)
  );
}

// ---------------------------------------------------------------------------
// Address policy

function parseIPv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

function parseIPv6(text: string): number[] | null {
  let source = text.startsWith("[") && text.endsWith("]")
    ? text.slice(1, -1)
    : text;
  const zone = source.indexOf("%");
  if (zone >= 0) source = source.slice(0, zone);
  if (!source.includes(":")) return null;
  let tail: number[] = [];
  const lastColon = source.lastIndexOf(":");
  const last = source.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = parseIPv4(last);
    if (!v4) return null;
    tail = v4;
    source = source.slice(0, lastColon + 1) + "0:0";
  }
  const halves = source.split("::");
  if (halves.length > 2) return null;
  const toGroups = (part: string): number[] | null => {
    if (part === "") return [];
    const groups: number[] = [];
    for (const group of part.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
      groups.push(parseInt(group, 16));
    }
    return groups;
  };
  const head = toGroups(halves[0]);
  const rest = halves.length === 2 ? toGroups(halves[1]) : [];
  if (!head || !rest) return null;
  let groups: number[];
  if (halves.length === 2) {
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return null;
    groups = [...head, ...new Array(missing).fill(0), ...rest];
  } else {
    groups = head;
  }
  if (groups.length !== 8) return null;
  const bytes: number[] = [];
  for (const group of groups) bytes.push(group >> 8, group & 0xff);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function inV4(bytes: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i < 4 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (prefix[i] & mask)) return false;
  }
  return true;
}

const V4_RULES: [number[], number, string][] = [
  [[169, 254, 169, 254], 32, "a cloud metadata address"],
  [[0, 0, 0, 0], 8, "unspecified (0.0.0.0/8)"],
  [[10, 0, 0, 0], 8, "private (10.0.0.0/8)"],
  [[100, 64, 0, 0], 10, "shared address space (100.64.0.0/10)"],
  [[127, 0, 0, 0], 8, "loopback (127.0.0.0/8)"],
  [[169, 254, 0, 0], 16, "link-local (169.254.0.0/16)"],
  [[172, 16, 0, 0], 12, "private (172.16.0.0/12)"],
  [[192, 0, 0, 0], 24, "reserved (192.0.0.0/24)"],
  [[192, 168, 0, 0], 16, "private (192.168.0.0/16)"],
  [[198, 18, 0, 0], 15, "reserved for benchmarks (198.18.0.0/15)"],
  [[224, 0, 0, 0], 4, "multicast (224.0.0.0/4)"],
  [[240, 0, 0, 0], 4, "reserved (240.0.0.0/4)"],
];

function classifyIPv4(bytes: number[]): string | null {
  for (const [prefix, bits, reason] of V4_RULES) {
    if (inV4(bytes, prefix, bits)) return reason;
  }
  return null;
}

function classifyIPv6(bytes: number[]): string | null {
  const zeroUpTo = (n: number): boolean =>
    bytes.slice(0, n).every((b) => b === 0);
  if (bytes.every((b) => b === 0)) return "unspecified (::)";
  if (zeroUpTo(15) && bytes[15] === 1) return "loopback (::1)";
  const embedded = (reason: string, v4: number[]): string | null => {
    const inner = classifyIPv4(v4);
    return inner === null ? null : `${reason} ${v4.join(".")}, ${inner}`;
  };
  if (zeroUpTo(10) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return embedded("an IPv4-mapped form of", bytes.slice(12)) ??
      "IPv4-mapped (::ffff:0:0/96): use the IPv4 address itself";
  }
  if (
    zeroUpTo(8) && bytes[8] === 0xff && bytes[9] === 0xff &&
    bytes[10] === 0 && bytes[11] === 0
  ) return "IPv4-translated (::ffff:0:0:0/96)";
  if (zeroUpTo(12)) {
    return embedded("an IPv4-compatible form of", bytes.slice(12));
  }
  if (
    bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff &&
    bytes[3] === 0x9b
  ) {
    return embedded("a NAT64 form of", bytes.slice(12));
  }
  if (bytes[0] === 0x20 && bytes[1] === 0x02) {
    return embedded("a 6to4 form of", bytes.slice(2, 6));
  }
  if ((bytes[0] & 0xfe) === 0xfc) return "unique local (fc00::/7)";
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0x80) {
    return "link-local (fe80::/10)";
  }
  if (bytes[0] === 0xfe && (bytes[1] & 0xc0) === 0xc0) {
    return "site-local (fec0::/10)";
  }
  if (bytes[0] === 0xff) return "multicast (ff00::/8)";
  if (bytes[0] === 0x01 && zeroUpTo(8)) return "discard-only (100::/64)";
  return null;
}

/** Why an IP address literal is refused, or null when it may be fetched. */
function classifyAddress(address: string): string | null {
  const v4 = parseIPv4(address);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(address);
  if (v6) return classifyIPv6(v6);
  return "not a valid IP address";
}

const BLOCKED_NAMES = new Set(["metadata", "metadata.goog", "instance-data"]);

function blockedName(host: string): boolean {
  return BLOCKED_NAMES.has(host) || host === "internal" ||
    host.endsWith(".internal");
}

interface Vetted {
  address: string;
  family: 4 | 6;
}

function refusal(url: URL, detail: string): Error {
  return new Error(
    `refused to fetch "${url.href}": ${detail}; only public addresses are fetched (set BEEUNI_SCRAPE_ALLOW_PRIVATE=1 in the tool's environment to allow private ones)`,
  );
}

/**
 * Resolves the host of `url` and checks every address against the policy.
 * Returns the addresses to connect to; throws before any connection when one
 * of them is refused.
 */
async function vetHost(
  url: URL,
  config: Config,
  signal: AbortSignal,
): Promise<Vetted[]> {
  const enforce = !config.allowPrivate && !isAllowedHost(url, config);
  const hostname = url.hostname.startsWith("[")
    ? url.hostname.slice(1, -1)
    : stripDot(url.hostname.toLowerCase());
  if (parseIPv4(hostname)) {
    if (enforce) {
      const reason = classifyAddress(hostname);
      if (reason) throw refusal(url, `address ${hostname} is ${reason}`);
    }
    return [{ address: hostname, family: 4 }];
  }
  if (parseIPv6(hostname)) {
    if (enforce) {
      const reason = classifyAddress(hostname);
      if (reason) throw refusal(url, `address ${hostname} is ${reason}`);
    }
    return [{ address: hostname, family: 6 }];
  }
  if (enforce && blockedName(hostname)) {
    throw refusal(url, `host "${hostname}" is an internal or metadata name`);
  }
  let found: { address: string; family: number }[];
  try {
    found = await abortable(
      dnsLookup(hostname, { all: true, verbatim: true }),
      signal,
    );
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Error(
      `cannot resolve host "${hostname}" of "${url.href}": ${
        (error as Error).message
      }; check the URL`,
    );
  }
  if (found.length === 0) {
    throw new Error(
      `cannot resolve host "${hostname}" of "${url.href}": no addresses; check the URL`,
    );
  }
  if (enforce) {
    for (const entry of found) {
      const reason = classifyAddress(entry.address);
      if (reason) {
        throw refusal(
          url,
          `host "${hostname}" resolves to ${entry.address}, which is ${reason}`,
        );
      }
    }
  }
  return found.map((entry) => ({
    address: entry.address,
    family: entry.family === 6 ? 6 : 4,
  }));
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
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

interface Fetched {
  url: URL;
  status: number;
  contentType: string;
  charset: string | null;
  bytes: Uint8Array;
  truncated: boolean;
}

async function fetchPage(
  start: URL,
  config: Config,
  signal: AbortSignal,
): Promise<Fetched> {
  let url = start;
  const seen = new Set<string>();
  for (let hops = 0;; hops++) {
    seen.add(url.href);
    const addresses = await vetHost(url, config, signal);
    let hop: Hop;
    try {
      hop = await openHop(url, addresses, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new Error(
        `cannot fetch "${url.href}": ${(error as Error).message}`,
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
      body = await readBody(hop, config.maxBytes, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new Error(
        `cannot read "${url.href}": ${(error as Error).message}`,
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

function parseContentType(
  header: string,
): { type: string; charset: string | null } {
  const [type, ...params] = header.split(";");
  let charset: string | null = null;
  for (const param of params) {
    const match = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(param);
    if (match) charset = match[1];
  }
  return { type: type.trim().toLowerCase(), charset };
}

type Kind = "html" | "json" | "text";

function textKind(type: string): Kind | null {
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (
    type === "application/json" || type.endsWith("+json") ||
    type === "text/json"
  ) return "json";
  if (type.startsWith("text/") || type.endsWith("+xml")) return "text";
  if (
    [
      "application/xml",
      "application/javascript",
      "application/ecmascript",
      "application/x-javascript",
      "application/x-yaml",
      "application/yaml",
      "application/toml",
      "application/x-sh",
      "application/sql",
      "application/graphql",
      "application/x-ndjson",
      "application/csv",
      "application/rtf",
      "application/x-httpd-php",
    ].includes(type)
  ) return "text";
  return null;
}

function binaryType(type: string): boolean {
  if (textKind(type) !== null) return false;
  // Unlabelled or generic bodies are sniffed after reading.
  return type !== "application/octet-stream" && type !== "unknown/unknown";
}

function sniffKind(bytes: Uint8Array): Kind | "binary" {
  const head = bytes.subarray(0, 1024);
  const starts = (...sig: number[]): boolean =>
    sig.every((byte, i) => head[i] === byte);
  if (
    starts(0x25, 0x50, 0x44, 0x46) || starts(0x89, 0x50, 0x4e, 0x47) ||
    starts(0x47, 0x49, 0x46, 0x38) || starts(0xff, 0xd8, 0xff) ||
    starts(0x50, 0x4b, 0x03, 0x04) || starts(0x1f, 0x8b)
  ) return "binary";
  const utf16 = starts(0xff, 0xfe) || starts(0xfe, 0xff);
  if (!utf16 && head.includes(0)) return "binary";
  const text = new TextDecoder("windows-1252").decode(head).trimStart()
    .toLowerCase();
  if (
    /^(\ufeff|ï»¿)?\s*<(!doctype html|html|head|body|meta|title|!--)/.test(
      text,
    )
  ) return "html";
  if (/^(\ufeff|ï»¿)?\s*[{[]/.test(text)) return "json";
  return "text";
}

// ---------------------------------------------------------------------------
// Character sets

function decoderFor(label: string | null): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim());
  } catch {
    return null;
  }
}

function metaCharset(bytes: Uint8Array, kind: Kind): string | null {
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, 4096));
  const xml = /^\s*<\?xml[^>]*\sencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml) return xml[1];
  if (kind !== "html") return null;
  const tags = head.match(/<meta\b[^>]*>/gi) ?? [];
  for (const tag of tags) {
    const attrs = parseAttributes(tag.slice(5, -1));
    if (attrs.charset) return attrs.charset;
    if ((attrs["http-equiv"] ?? "").toLowerCase() === "content-type") {
      const match = /charset\s*=\s*["']?([^"';\s]+)/i.exec(
        attrs.content ?? "",
      );
      if (match) return match[1];
    }
  }
  return null;
}

function decodeBody(
  bytes: Uint8Array,
  headerCharset: string | null,
  kind: Kind,
): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return new TextDecoder("utf-8").decode(bytes);
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return new TextDecoder("utf-16le").decode(bytes);
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return new TextDecoder("utf-16be").decode(bytes);
  }
  const fromHeader = decoderFor(headerCharset);
  if (fromHeader) return fromHeader.decode(bytes);
  if (kind === "json") return new TextDecoder("utf-8").decode(bytes);
  const declared = metaCharset(bytes, kind);
  let fromMeta = decoderFor(declared);
  // A page cannot declare a UTF-16 charset from inside itself.
  if (fromMeta && fromMeta.encoding.startsWith("utf-16")) {
    fromMeta = new TextDecoder("utf-8");
  }
  if (fromMeta) return fromMeta.decode(bytes);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    // A cut at the size cap may split the last character.
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(
        bytes.subarray(0, Math.max(0, bytes.length - 3)),
      ) + new TextDecoder("utf-8").decode(bytes.subarray(bytes.length - 3));
    } catch {
      return new TextDecoder("windows-1252").decode(bytes);
    }
  }
}

// ---------------------------------------------------------------------------
// HTML parsing: a forgiving tokenizer and tree builder

interface Element {
  kind: "element";
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  parent: Element | null;
}

interface Text {
  kind: "text";
  text: string;
}

type Node = Element | Text;

const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

const RAW_TEXT = new Set([
  "script",
  "style",
  "xmp",
  "iframe",
  "noembed",
  "noframes",
  "noscript",
]);
const ESCAPABLE_RAW_TEXT = new Set(["title", "textarea"]);

const CLOSES_P = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "center",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "plaintext",
  "pre",
  "search",
  "section",
  "summary",
  "table",
  "ul",
  "dd",
  "dt",
]);

const HEAD_CONTENT = new Set([
  "title",
  "meta",
  "link",
  "style",
  "script",
  "base",
  "noscript",
  "template",
]);

const SCOPE_BARRIERS = new Set([
  "#document",
  "html",
  "table",
  "td",
  "th",
  "caption",
  "template",
  "applet",
  "object",
  "marquee",
]);

const MAX_DEPTH = 256;

const TABLE_PARTS = new Set([
  "tr",
  "td",
  "th",
  "tbody",
  "thead",
  "tfoot",
  "caption",
  "colgroup",
]);

function newElement(
  name: string,
  attrs: Record<string, string>,
  parent: Element | null,
  children: Node[] = [],
): Element {
  return { kind: "element", name, attrs, children, parent };
}

class TreeBuilder {
  readonly root: Element = newElement("#document", {}, null);
  private readonly stack: Element[] = [this.root];
  private foreign = 0;

  private get current(): Element {
    return this.stack[this.stack.length - 1];
  }

  text(text: string): void {
    if (text === "") return;
    if (
      this.headOpen() && this.current.name === "head" && /\S/.test(text)
    ) {
      this.popTo("head");
    }
    const children = this.current.children;
    const last = children[children.length - 1];
    if (last && last.kind === "text") last.text += text;
    else children.push({ kind: "text", text });
  }

  /** Whether `<head>` is open (it can only sit right below the root). */
  private headOpen(): boolean {
    return this.stack[1]?.name === "head" || this.stack[2]?.name === "head";
  }

  /** Index of the nearest open `name` not hidden behind a barrier. */
  private inScope(name: string, barriers: Set<string>): number {
    for (let i = this.stack.length - 1; i > 0; i--) {
      const element = this.stack[i];
      if (element.name === name) return i;
      if (barriers.has(element.name)) return -1;
    }
    return -1;
  }

  private popTo(name: string, barriers = SCOPE_BARRIERS): boolean {
    const at = this.inScope(name, barriers);
    if (at < 0) return false;
    this.stack.length = at;
    return true;
  }

  start(
    name: string,
    attrs: Record<string, string>,
    selfClosing: boolean,
  ): Element {
    if (this.foreign === 0) this.implyEnds(name);
    const element = newElement(name, attrs, this.current);
    this.current.children.push(element);
    // Like browsers, nesting stops deepening at a fixed depth: deeper
    // elements become siblings, which keeps the walks below shallow.
    const isVoid = VOID.has(name) || (selfClosing && this.foreign > 0) ||
      (selfClosing && (name === "svg" || name === "math")) ||
      this.stack.length >= MAX_DEPTH;
    if (!isVoid) {
      this.stack.push(element);
      if (name === "svg" || name === "math") this.foreign++;
    }
    return element;
  }

  private implyEnds(name: string): void {
    if (this.headOpen() && !HEAD_CONTENT.has(name) && name !== "head") {
      this.popTo("head");
    }
    if (CLOSES_P.has(name)) this.popTo("p");
    if (name === "li") {
      this.popTo("li", new Set([...SCOPE_BARRIERS, "ul", "ol", "menu", "dir"]));
    } else if (name === "dt" || name === "dd") {
      const barriers = new Set([...SCOPE_BARRIERS, "dl"]);
      this.popTo("dt", barriers);
      this.popTo("dd", barriers);
    } else if (/^h[1-6]$/.test(name) && /^h[1-6]$/.test(this.current.name)) {
      this.stack.pop();
    } else if (name === "option" && this.current.name === "option") {
      this.stack.pop();
    } else if (name === "a") {
      this.popTo("a");
    } else if (name === "tr") {
      this.closeCells();
      this.popTo("tr", new Set(["table", "#document"]));
    } else if (name === "td" || name === "th") {
      this.closeCells();
      if (this.inTable() && this.current.name !== "tr") {
        this.start("tr", {}, false);
      }
    } else if (
      name === "tbody" || name === "thead" || name === "tfoot" ||
      name === "caption" || name === "colgroup"
    ) {
      this.closeCells();
      const barriers = new Set(["table", "#document"]);
      this.popTo("tr", barriers);
      for (const part of ["tbody", "thead", "tfoot", "caption", "colgroup"]) {
        this.popTo(part, barriers);
      }
    }
  }

  private closeCells(): void {
    const barriers = new Set(["table", "#document"]);
    this.popTo("td", barriers);
    this.popTo("th", barriers);
  }

  private inTable(): boolean {
    const name = this.current.name;
    return name === "table" || name === "tbody" || name === "thead" ||
      name === "tfoot";
  }

  end(name: string): void {
    if (name === "br") {
      this.start("br", {}, false);
      return;
    }
    if (name === "html" || name === "body") return;
    let barriers = SCOPE_BARRIERS;
    if (TABLE_PARTS.has(name)) barriers = new Set(["table", "#document"]);
    else if (name === "table") barriers = new Set(["#document"]);
    else if (this.foreign > 0) barriers = new Set(["#document"]);
    let at = this.inScope(name, barriers);
    if (at < 0 && /^h[1-6]$/.test(name)) {
      // Any heading end tag closes the open heading, whatever its level.
      for (let i = this.stack.length - 1; i > 0; i--) {
        if (/^h[1-6]$/.test(this.stack[i].name)) at = i;
        if (at >= 0 || barriers.has(this.stack[i].name)) break;
      }
    }
    if (at < 0) return;
    for (let i = at; i < this.stack.length; i++) {
      const open = this.stack[i].name;
      if ((open === "svg" || open === "math") && this.foreign > 0) {
        this.foreign--;
      }
    }
    this.stack.length = at;
  }
}

/** Parses the attributes part of a tag (everything after the name). */
function parseAttributes(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  let i = 0;
  const n = source.length;
  while (i < n) {
    while (i < n && /[\s/]/.test(source[i])) i++;
    if (i >= n) break;
    let start = i;
    i++; // an attribute name may start with "="
    while (i < n && !/[\s/>=]/.test(source[i])) i++;
    const name = source.slice(start, i).toLowerCase();
    while (i < n && /\s/.test(source[i])) i++;
    let value = "";
    if (source[i] === "=") {
      i++;
      while (i < n && /\s/.test(source[i])) i++;
      const quote = source[i];
      if (quote === '"' || quote === "'") {
        const close = source.indexOf(quote, i + 1);
        const stop = close < 0 ? n : close;
        value = source.slice(i + 1, stop);
        i = stop + 1;
      } else {
        start = i;
        while (i < n && !/[\s>]/.test(source[i])) i++;
        value = source.slice(start, i);
      }
    }
    if (name !== "" && !(name in attrs)) {
      attrs[name] = decodeEntities(value, true);
    }
  }
  return attrs;
}

/** Finds the `>` that ends a tag starting at `from`, honouring quotes. */
function tagEnd(source: string, from: number): number {
  let quote = "";
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === ">") return i;
    else if ((c === '"' || c === "'") && /[=\s]/.test(source[i - 1] ?? "")) {
      // Only a quote right after "=" (or space before a value) opens one.
      if (source[i - 1] === "=" || /=\s*$/.test(source.slice(from, i))) {
        quote = c;
      }
    }
  }
  return -1;
}

/** Parses an HTML document, forgiving broken markup as browsers do. */
function parseHtml(source: string): Element {
  const tree = new TreeBuilder();
  const n = source.length;
  let i = 0;
  const text = (raw: string): void => tree.text(decodeEntities(raw, false));
  while (i < n) {
    const lt = source.indexOf("<", i);
    if (lt < 0) {
      text(source.slice(i));
      break;
    }
    if (lt > i) text(source.slice(i, lt));
    i = lt;
    const next = source[i + 1] ?? "";
    if (source.startsWith("<!--", i)) {
      if (source.startsWith("<!-->", i)) {
        i += 5;
        continue;
      }
      if (source.startsWith("<!--->", i)) {
        i += 6;
        continue;
      }
      const close = source.indexOf("-->", i + 4);
      const bang = source.indexOf("--!>", i + 4);
      const stop = close < 0
        ? (bang < 0 ? n : bang + 4)
        : bang >= 0 && bang < close
        ? bang + 4
        : close + 3;
      i = stop;
      continue;
    }
    if (source.startsWith("<![CDATA[", i)) {
      const close = source.indexOf("]]>", i + 9);
      tree.text(source.slice(i + 9, close < 0 ? n : close));
      i = close < 0 ? n : close + 3;
      continue;
    }
    if (next === "!" || next === "?") {
      const close = source.indexOf(">", i + 2);
      i = close < 0 ? n : close + 1;
      continue;
    }
    if (next === "/") {
      const match = /^<\/([a-zA-Z][^\s/>]*)/.exec(source.slice(i, i + 64));
      if (!match) {
        const close = source.indexOf(">", i + 2);
        i = close < 0 ? n : close + 1;
        continue;
      }
      const close = source.indexOf(">", i + match[0].length);
      tree.end(match[1].toLowerCase());
      i = close < 0 ? n : close + 1;
      continue;
    }
    if (!/[a-zA-Z]/.test(next)) {
      text("<");
      i++;
      continue;
    }
    const nameMatch = /^<([a-zA-Z][^\s/>]*)/.exec(source.slice(i, i + 128));
    const name = (nameMatch ? nameMatch[1] : next).toLowerCase();
    const afterName = i + 1 + (nameMatch ? nameMatch[1].length : 1);
    const close = tagEnd(source, afterName);
    if (close < 0) break; // an unfinished tag at the end is dropped
    const inside = source.slice(afterName, close);
    const selfClosing = inside.endsWith("/");
    const element = tree.start(name, parseAttributes(inside), selfClosing);
    i = close + 1;
    if (
      (RAW_TEXT.has(name) || ESCAPABLE_RAW_TEXT.has(name) ||
        name === "plaintext") && !VOID.has(name) && !selfClosing
    ) {
      let stop = n;
      let resume = n;
      if (name !== "plaintext") {
        const pattern = new RegExp(`</${name}(?=[\\s/>])`, "ig");
        pattern.lastIndex = i;
        const found = pattern.exec(source);
        if (found) {
          stop = found.index;
          const gt = source.indexOf(">", stop);
          resume = gt < 0 ? n : gt + 1;
        }
      }
      const raw = source.slice(i, stop);
      const content = ESCAPABLE_RAW_TEXT.has(name)
        ? decodeEntities(raw, false)
        : raw;
      if (content !== "") {
        element.children.push({ kind: "text", text: content });
      }
      tree.end(name);
      i = resume;
    }
  }
  return tree.root;
}

// ---------------------------------------------------------------------------
// Character references

const LATIN1_NAMES =
  "nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml"
    .split(" ");

const GREEK_UPPER =
  "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho - Sigma Tau Upsilon Phi Chi Psi Omega"
    .split(" ");
const GREEK_LOWER =
  "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma tau upsilon phi chi psi omega"
    .split(" ");

const OTHER_ENTITIES =
  "quot:34 amp:38 apos:39 lt:60 gt:62 QUOT:34 AMP:38 LT:60 GT:62 COPY:169 REG:174 " +
  "OElig:338 oelig:339 Scaron:352 scaron:353 Yuml:376 fnof:402 circ:710 tilde:732 " +
  "thetasym:977 upsih:978 piv:982 ensp:8194 emsp:8195 thinsp:8201 hairsp:8202 zwnj:8204 " +
  "zwj:8205 lrm:8206 rlm:8207 hyphen:8208 dash:8208 ndash:8211 mdash:8212 horbar:8213 " +
  "lsquo:8216 rsquo:8217 rsquor:8217 sbquo:8218 ldquo:8220 rdquo:8221 rdquor:8221 bdquo:8222 " +
  "dagger:8224 Dagger:8225 bull:8226 bullet:8226 nldr:8229 hellip:8230 mldr:8230 permil:8240 " +
  "prime:8242 Prime:8243 lsaquo:8249 rsaquo:8250 oline:8254 frasl:8260 euro:8364 " +
  "image:8465 weierp:8472 real:8476 trade:8482 TRADE:8482 alefsym:8501 larr:8592 uarr:8593 " +
  "rarr:8594 darr:8595 harr:8596 crarr:8629 lArr:8656 uArr:8657 rArr:8658 dArr:8659 " +
  "hArr:8660 forall:8704 part:8706 exist:8707 empty:8709 nabla:8711 isin:8712 notin:8713 " +
  "ni:8715 prod:8719 sum:8721 minus:8722 lowast:8727 radic:8730 prop:8733 infin:8734 " +
  "ang:8736 and:8743 or:8744 cap:8745 cup:8746 int:8747 there4:8756 sim:8764 cong:8773 " +
  "asymp:8776 ne:8800 equiv:8801 le:8804 ge:8805 sub:8834 sup:8835 nsub:8836 sube:8838 " +
  "supe:8839 oplus:8853 otimes:8855 perp:8869 sdot:8901 lceil:8968 rceil:8969 lfloor:8970 " +
  "rfloor:8971 lang:10216 rang:10217 loz:9674 spades:9824 clubs:9827 hearts:9829 diams:9830 " +
  "Tab:9 NewLine:10 excl:33 num:35 dollar:36 percnt:37 lpar:40 rpar:41 ast:42 midast:42 " +
  "plus:43 comma:44 period:46 sol:47 colon:58 semi:59 equals:61 quest:63 commat:64 " +
  "lsqb:91 lbrack:91 bsol:92 rsqb:93 rbrack:93 Hat:94 lowbar:95 grave:96 lcub:123 " +
  "lbrace:123 verbar:124 vert:124 VerticalLine:124 rcub:125 rbrace:125 nbsp:160 " +
  "NonBreakingSpace:160 half:189 centerdot:183 check:10003 checkmark:10003 cross:10007 " +
  "star:9734 starf:9733 bigstar:9733 phone:9742 female:9792 male:9794 sharp:9839 " +
  "flat:9837 natural:9838 larrow:8592 rarrow:8594 leftarrow:8592 rightarrow:8594 " +
  "uparrow:8593 downarrow:8595 LeftArrow:8592 RightArrow:8594 ensp:8194 numsp:8199 " +
  "puncsp:8200 MediumSpace:8287 NoBreak:8288 ZeroWidthSpace:8203 copysr:8471 " +
  "incare:8453 numero:8470 ohm:937 angst:197 deg:176 times:215 divide:247 pm:177 " +
  "middot:183 laquo:171 raquo:187 blacksquare:9642 square:9633 squ:9633 cir:9675 " +
  "dollar:36 yen:165 pound:163 cent:162 inodot:305 imath:305 Ccaron:268 ccaron:269 " +
  "Zcaron:381 zcaron:382 Rcaron:344 rcaron:345 Ecaron:282 ecaron:283 Lstrok:321 lstrok:322";

const ENTITIES = new Map<string, string>();
const LEGACY = new Set<string>([
  "amp",
  "lt",
  "gt",
  "quot",
  "AMP",
  "LT",
  "GT",
  "QUOT",
  "COPY",
  "REG",
]);
LATIN1_NAMES.forEach((name, i) => {
  ENTITIES.set(name, String.fromCodePoint(160 + i));
  LEGACY.add(name);
});
GREEK_UPPER.forEach((name, i) => {
  if (name !== "-") ENTITIES.set(name, String.fromCodePoint(913 + i));
});
GREEK_LOWER.forEach((name, i) =>
  ENTITIES.set(name, String.fromCodePoint(945 + i))
);
for (const pair of OTHER_ENTITIES.split(" ")) {
  const [name, code] = pair.split(":");
  if (name && code) ENTITIES.set(name, String.fromCodePoint(Number(code)));
}

/** Windows-1252 meanings of the C1 range, as browsers read `&#150;`. */
const C1 =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function numericReference(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
    return "\ufffd";
  }
  if (code >= 0x80 && code <= 0x9f) return C1[code - 0x80];
  return String.fromCodePoint(code);
}

function decodeEntities(text: string, inAttribute: boolean): string {
  if (!text.includes("&")) return text;
  return text.replace(
    /&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([a-zA-Z][a-zA-Z0-9]*)(;?))/g,
    (whole, hex, dec, name, semi, at: number, all: string) => {
      if (hex !== undefined) {
        return numericReference(parseInt(hex.slice(0, 8), 16));
      }
      if (dec !== undefined) return numericReference(Number(dec.slice(0, 9)));
      if (semi && ENTITIES.has(name)) return ENTITIES.get(name)!;
      // Legacy names work without ";" and as a prefix ("&copy2020").
      for (let len = Math.min(name.length, 8); len >= 2; len--) {
        const prefix = name.slice(0, len);
        if (!LEGACY.has(prefix)) continue;
        const following = len < name.length
          ? name[len]
          : semi || all[at + whole.length] || "";
        if (inAttribute && (len < name.length || following === "=")) {
          return whole;
        }
        if (len === name.length && semi) return ENTITIES.get(prefix)!;
        return ENTITIES.get(prefix)! + name.slice(len) + semi;
      }
      return whole;
    },
  );
}

// ---------------------------------------------------------------------------
// Readable content: choosing the main part and dropping boilerplate

const ALWAYS_DROPPED = new Set([
  "head",
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "math",
  "canvas",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "audio",
  "video",
  "map",
  "link",
  "meta",
  "base",
  "title",
  "input",
  "button",
  "select",
  "option",
  "optgroup",
  "textarea",
  "datalist",
  "output",
  "progress",
  "meter",
  "noembed",
  "noframes",
  "param",
  "source",
  "track",
  "slot",
]);

const BOILERPLATE_ROLES = new Set([
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "search",
  "menubar",
  "dialog",
  "alertdialog",
  "toolbar",
]);

const BOILERPLATE_WORDS =
  /(^|[\s_-])(nav|navbar|navigation|menu|menubar|sidebar|breadcrumbs?|cookies?|cookie-banner|consent|gdpr|share|sharing|social|advert|advertisement|ads|ad-slot|sponsored|promo|newsletter|subscribe|skip-link|skip-to-content|site-header|site-footer|masthead|popup|modal|related-posts|comments?|footer|topbar|pagination|pager|editsection|edit-section)($|[\s_-])/i;

function isHidden(element: Element): boolean {
  const attrs = element.attrs;
  if ("hidden" in attrs) return true;
  if ((attrs["aria-hidden"] ?? "").toLowerCase() === "true") return true;
  const style = (attrs.style ?? "").toLowerCase().replace(/\s+/g, "");
  return style.includes("display:none") || style.includes("visibility:hidden");
}

function textLength(node: Node, memo: Map<Element, number>): number {
  if (node.kind === "text") return node.text.replace(/\s+/g, "").length;
  const known = memo.get(node);
  if (known !== undefined) return known;
  let total = 0;
  if (!ALWAYS_DROPPED.has(node.name)) {
    for (const child of node.children) total += textLength(child, memo);
  }
  memo.set(node, total);
  return total;
}

function findAll(
  root: Element,
  test: (element: Element) => boolean,
): Element[] {
  const found: Element[] = [];
  const walk = (element: Element): void => {
    for (const child of element.children) {
      if (child.kind !== "element" || ALWAYS_DROPPED.has(child.name)) continue;
      if (isHidden(child)) continue;
      if (test(child)) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

function contains(outer: Element, inner: Element): boolean {
  for (let at: Element | null = inner; at; at = at.parent) {
    if (at === outer) return true;
  }
  return false;
}

/** Picks the element holding the page's main content. */
function contentRoot(document: Element): Element {
  const memo = new Map<Element, number>();
  const body = findAll(document, (element) => element.name === "body")[0] ??
    document;
  const total = textLength(body, memo);
  const substantial = (element: Element): boolean =>
    textLength(element, memo) >= Math.min(50, total * 0.5);
  const mains = findAll(
    body,
    (element) =>
      element.name === "main" ||
      (element.attrs.role ?? "").toLowerCase() === "main",
  ).filter(substantial);
  if (mains.length > 0) return mains[0];
  const articles = findAll(body, (element) => element.name === "article")
    .filter((article) => substantial(article));
  const outermost = articles.filter((article) =>
    !articles.some((other) => other !== article && contains(other, article))
  );
  if (outermost.length === 1) return outermost[0];
  if (outermost.length > 1) return body;
  const byId = findAll(
    body,
    (element) =>
      /^(content|main|main-content|maincontent|primary|article|post)$/i.test(
        element.attrs.id ?? "",
      ),
  ).filter((element) => textLength(element, memo) >= total * 0.4);
  return byId[0] ?? body;
}

/** Removes boilerplate below `root`, in place. */
function prune(root: Element): void {
  const memo = new Map<Element, number>();
  const rootText = textLength(root, memo);
  const keepsHeading = (element: Element): boolean =>
    findAll(element, (inner) => inner.name === "h1").length > 0;
  const walk = (element: Element, inSection: boolean): void => {
    element.children = element.children.filter((child) => {
      if (child.kind === "text") return true;
      const name = child.name;
      if (ALWAYS_DROPPED.has(name) || isHidden(child)) return false;
      if (name === "dialog" && !("open" in child.attrs)) return false;
      if (
        name === "a" && (child.attrs.href ?? "").startsWith("#") &&
        /^[\s¶#§🔗]*$/u.test(textOf(child)) &&
        !child.children.some((inner) => inner.kind === "element")
      ) return false; // a heading's permalink mark
      if (name === "nav" || name === "aside" || name === "footer") return false;
      const role = (child.attrs.role ?? "").toLowerCase();
      if (BOILERPLATE_ROLES.has(role)) return false;
      if (name === "header") {
        const heading = findAll(child, (inner) => /^h[1-6]$/.test(inner.name))
          .length > 0;
        if (!inSection || !heading) return false;
      }
      if (name === "form") {
        const wraps = findAll(
          child,
          (inner) => inner.name === "main" || inner.name === "article",
        ).length > 0;
        if (!wraps && textLength(child, memo) < 200) return false;
      }
      const words = `${child.attrs.id ?? ""} ${child.attrs.class ?? ""}`;
      if (
        BOILERPLATE_WORDS.test(words) && !keepsHeading(child) &&
        textLength(child, memo) < rootText * 0.4
      ) return false;
      return true;
    });
    for (const child of element.children) {
      if (child.kind === "element") {
        walk(
          child,
          inSection || child.name === "article" || child.name === "section" ||
            child.name === "main",
        );
      }
    }
  };
  walk(
    root,
    root.name === "article" || root.name === "main" ||
      root.name === "section" || (root.attrs.role ?? "") === "main",
  );
}

function documentTitle(document: Element): string {
  let title = "";
  let ogTitle = "";
  const walk = (element: Element): void => {
    for (const child of element.children) {
      if (child.kind !== "element" || title) continue;
      if (child.name === "svg" || child.name === "math") continue;
      if (child.name === "title") {
        title = collapse(textOf(child));
        continue;
      }
      if (
        child.name === "meta" && !ogTitle &&
        (child.attrs.property ?? child.attrs.name ?? "").toLowerCase() ===
          "og:title"
      ) ogTitle = collapse(child.attrs.content ?? "");
      walk(child);
    }
  };
  walk(document);
  if (title) return title;
  if (ogTitle) return ogTitle;
  const h1 = findAll(document, (element) => element.name === "h1")[0];
  return h1 ? collapse(textOf(h1)) : "";
}

function baseUrl(document: Element, pageUrl: URL): URL {
  const base = findAllIncludingHead(document, "base")
    .find((element) => element.attrs.href);
  if (!base) return pageUrl;
  try {
    return new URL(base.attrs.href, pageUrl);
  } catch {
    return pageUrl;
  }
}

function findAllIncludingHead(root: Element, name: string): Element[] {
  const found: Element[] = [];
  const walk = (element: Element): void => {
    for (const child of element.children) {
      if (child.kind !== "element") continue;
      if (child.name === name) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

function textOf(node: Node): string {
  if (node.kind === "text") return node.text;
  if (node.name === "br") return "\n";
  return node.children.map(textOf).join("");
}

function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/g, " ").trim();
}

// ---------------------------------------------------------------------------
// Rendering Markdown (or plain text)

interface RenderContext {
  markdown: boolean;
  base: URL;
  cell: boolean;
}

const BLOCKS = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "body",
  "caption",
  "center",
  "dd",
  "details",
  "dialog",
  "dir",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hgroup",
  "hr",
  "html",
  "legend",
  "li",
  "listing",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "plaintext",
  "pre",
  "search",
  "section",
  "summary",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
  "xmp",
  "#document",
]);

/** Marks a hard line break inside inline text until paragraphs are built. */
const BREAK = "\ue000";

function hasBlock(element: Element): boolean {
  return element.children.some((child) =>
    child.kind === "element" && (BLOCKS.has(child.name) || hasBlock(child))
  );
}

function escapeMarkdown(text: string): string {
  if (!/[\\*`_[]/.test(text)) return text;
  return text
    .replace(/\\/g, "\\\\")
    .replace(/([*`])/g, "\\$1")
    .replace(
      /(^|[\s(])_|_($|[\s).,;:!?])/g,
      (match) => match.replace("_", "\\_"),
    )
    .replace(/\[([^\]]*)\]\(/g, "\\[$1\\](");
}

function escapeLineStart(line: string): string {
  if (!/^[#>+=\d-]/.test(line)) return line;
  return line
    .replace(/^(#{1,6}\s)/, "\\$1")
    .replace(/^>/, "\\>")
    .replace(/^([-+])(\s)/, "\\$1$2")
    .replace(/^(\d+)([.)])(\s)/, "$1\\$2$3")
    .replace(/^(={3,}|-{3,})\s*$/, "\\$1");
}

function paragraph(inline: string, context: RenderContext): string {
  const lines = inline
    .replace(/[ \t\n\r\f\u00a0]+/g, " ")
    .split(BREAK)
    .map((line) => line.trim());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length === 0) return "";
  const fixed = context.markdown ? lines.map(escapeLineStart) : lines;
  return fixed.join(context.markdown && !context.cell ? "  \n" : "\n");
}

function wrapInline(inner: string, marker: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
  if (match[2] === "") return inner;
  return `${match[1]}${marker}${match[2]}${marker}${match[3]}`;
}

function codeSpan(text: string): string {
  const content = collapse(text);
  if (content === "") return "";
  const runs = content.match(/`+/g) ?? [];
  const longest = runs.reduce((max, run) => Math.max(max, run.length), 0);
  const fence = "`".repeat(longest + 1);
  const pad = content.startsWith("`") || content.endsWith("`") ? " " : "";
  return `${fence}${pad}${content}${pad}${fence}`;
}

function resolveLink(href: string | undefined, base: URL): string | null {
  if (!href) return null;
  const trimmed = href.trim();
  if (trimmed === "" || trimmed.startsWith("#")) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return null;
  }
  if (!["http:", "https:", "mailto:", "ftp:", "tel:"].includes(url.protocol)) {
    return null;
  }
  return url.href.replace(/\(/g, "%28").replace(/\)/g, "%29").replace(
    / /g,
    "%20",
  );
}

function renderInline(node: Node, context: RenderContext): string {
  if (node.kind === "text") {
    return context.markdown ? escapeMarkdown(node.text) : node.text;
  }
  const name = node.name;
  const children = (): string =>
    node.children.map((child) => renderInline(child, context)).join("");
  switch (name) {
    case "br":
      return BREAK;
    case "wbr":
      return "";
    case "img": {
      const alt = collapse(node.attrs.alt ?? "");
      const width = node.attrs.width ?? "";
      const height = node.attrs.height ?? "";
      if (/^[01](px)?$/.test(width) && /^[01](px)?$/.test(height)) return "";
      const src = resolveLink(node.attrs.src, context.base);
      if (!context.markdown) return alt;
      if (!src || !/^https?:/.test(src)) return escapeMarkdown(alt);
      return `![${alt.replace(/[[\]]/g, "\\$&")}](${src})`;
    }
    case "a": {
      const inner = children();
      const href = resolveLink(node.attrs.href, context.base);
      if (!context.markdown || !href) return inner;
      if (inner.replace(new RegExp(BREAK, "g"), "").trim() === "") return inner;
      const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
      return `${match[1]}[${match[2]}](${href})${match[3]}`;
    }
    case "code":
    case "kbd":
    case "samp":
    case "tt":
      return context.markdown ? codeSpan(textOf(node)) : textOf(node);
    case "em":
    case "i":
      return context.markdown ? wrapInline(children(), "*") : children();
    case "strong":
    case "b":
      return context.markdown ? wrapInline(children(), "**") : children();
    case "del":
    case "s":
    case "strike":
      return context.markdown ? wrapInline(children(), "~~") : children();
    case "q":
      return `"${children()}"`;
    case "sup":
    case "sub": {
      const inner = children();
      if (inner.trim() === "" || /^\s*\[/.test(inner)) return inner;
      if (context.markdown) return `<${name}>${inner.trim()}</${name}>`;
      return `${name === "sup" ? "^" : "_"}${inner.trim()}`;
    }
    case "table":
      return ` ${flattenTable(node, context)} `;
    default:
      if (BLOCKS.has(name)) return ` ${children()} `;
      return children();
  }
}

/** Renders the children of a container as a list of blocks. */
function renderBlocks(nodes: Node[], context: RenderContext): string[] {
  const blocks: string[] = [];
  let inline = "";
  const flush = (): void => {
    const text = paragraph(inline, context);
    if (text !== "") blocks.push(text);
    inline = "";
  };
  for (const node of nodes) {
    if (node.kind === "text") {
      inline += renderInline(node, context);
    } else if (BLOCKS.has(node.name)) {
      flush();
      blocks.push(...renderBlock(node, context));
    } else if (hasBlock(node)) {
      flush();
      const inner = renderBlocks(node.children, context);
      const href = node.name === "a" && context.markdown
        ? resolveLink(node.attrs.href, context.base)
        : null;
      if (href && inner.length > 0) {
        const heading = /^(#{1,6} )(.*)$/.exec(inner[0]);
        if (heading && !inner[0].includes("\n")) {
          inner[0] = `${heading[1]}[${heading[2]}](${href})`;
        } else if (!inner[0].includes("\n")) {
          inner[0] = `[${inner[0]}](${href})`;
        }
      }
      blocks.push(...inner);
    } else {
      inline += renderInline(node, context);
    }
  }
  flush();
  return blocks;
}

function renderBlock(element: Element, context: RenderContext): string[] {
  const name = element.name;
  if (/^h[1-6]$/.test(name)) {
    const text = paragraph(
      renderInline(element, context).replace(new RegExp(BREAK, "g"), " "),
      { ...context, markdown: false },
    );
    if (text === "") return [];
    if (!context.markdown || context.cell) return [text];
    return [`${"#".repeat(Number(name[1]))} ${text}`];
  }
  switch (name) {
    case "hr":
      return context.cell ? [] : ["---"];
    case "pre":
    case "listing":
    case "xmp":
    case "plaintext":
      return renderPre(element, context);
    case "blockquote": {
      const inner = renderBlocks(element.children, context).join("\n\n");
      if (inner === "") return [];
      return [
        inner.split("\n").map((line) => line === "" ? ">" : `> ${line}`).join(
          "\n",
        ),
      ];
    }
    case "ul":
    case "ol":
    case "menu":
    case "dir":
      return renderList(element, context);
    case "li":
      return renderList(newElement("ul", {}, null, [element]), context);
    case "dl":
      return renderBlocks(element.children, context);
    case "dt": {
      const blocks = renderBlocks(element.children, context);
      if (blocks.length === 0) return [];
      return context.markdown && !context.cell && blocks.length === 1
        ? [`**${blocks[0]}**`]
        : blocks;
    }
    case "dd": {
      const blocks = renderBlocks(element.children, context);
      if (blocks.length === 0) return [];
      return [indentItem(": ", blocks.join("\n\n"))];
    }
    case "table":
      return renderTable(element, context);
    default:
      return renderBlocks(element.children, context);
  }
}

function renderPre(element: Element, context: RenderContext): string[] {
  let code = textOf(element).replace(/\r\n?/g, "\n");
  if (code.startsWith("\n")) code = code.slice(1);
  code = code.replace(/\s+$/, "");
  if (code.trim() === "") return [];
  if (context.cell) {
    return [context.markdown ? codeSpan(code) : collapse(code)];
  }
  if (!context.markdown) return [code];
  const classes = [
    element.attrs.class ?? "",
    ...element.children.filter((child): child is Element =>
      child.kind === "element" && child.name === "code"
    ).map((child) => child.attrs.class ?? ""),
    element.parent?.attrs.class ?? "",
    element.parent?.parent?.attrs.class ?? "",
  ].join(" ");
  const dataLang = element.attrs["data-lang"] ?? "";
  const language =
    /(?:^|\s)(?:(?:language|lang|highlight)-|brush:\s*)([\w+#.-]+)/.exec(
      classes,
    )?.[1] ?? (/^[\w+#.-]+$/.test(dataLang) ? dataLang : "");
  const runs = code.match(/^\s*`{3,}/gm) ?? [];
  const longest = runs.reduce(
    (max, run) => Math.max(max, run.trim().length),
    2,
  );
  const fence = "`".repeat(longest + 1);
  return [`${fence}${language}\n${code}\n${fence}`];
}

function indentItem(marker: string, text: string): string {
  const pad = " ".repeat(marker.length);
  return text.split("\n").map((line, i) =>
    i === 0 ? marker + line : line === "" ? "" : pad + line
  ).join("\n");
}

function renderList(list: Element, context: RenderContext): string[] {
  const ordered = list.name === "ol";
  let number = Number.parseInt(list.attrs.start ?? "1", 10);
  if (!Number.isFinite(number)) number = 1;
  const items: Node[][] = [];
  for (const child of list.children) {
    if (child.kind === "element" && child.name === "li") {
      items.push([...child.children]);
    } else if (child.kind === "text" && child.text.trim() === "") {
      continue;
    } else if (items.length > 0) {
      // A list nested straight in a list, or stray content: it belongs to
      // the item before it.
      items[items.length - 1].push(child);
    } else {
      items.push([child]);
    }
  }
  const lines: string[] = [];
  const liValues = list.children.filter((child): child is Element =>
    child.kind === "element" && child.name === "li"
  );
  items.forEach((nodes, i) => {
    const value = Number.parseInt(liValues[i]?.attrs.value ?? "", 10);
    if (ordered && Number.isFinite(value)) number = value;
    const marker = ordered ? `${number}. ` : "- ";
    number++;
    const blocks = renderBlocks(nodes, context);
    if (blocks.length === 0) return;
    let text = blocks[0];
    for (let b = 1; b < blocks.length; b++) {
      const nested = /^(- |\d+\. )/.test(blocks[b]);
      text += (nested ? "\n" : "\n\n") + blocks[b];
    }
    lines.push(indentItem(marker, text));
  });
  if (lines.length === 0) return [];
  if (context.cell) return [lines.join(BREAK)];
  return [lines.join("\n")];
}

interface Row {
  cells: Element[];
  header: boolean;
}

function tableRows(
  table: Element,
): { rows: Row[]; caption: Element | null; stray: Node[] } {
  const rows: Row[] = [];
  let caption: Element | null = null;
  const stray: Node[] = [];
  const addRow = (tr: Element, inHead: boolean): void => {
    const cells = tr.children.filter((child): child is Element =>
      child.kind === "element" && (child.name === "td" || child.name === "th")
    );
    if (cells.length === 0) return;
    rows.push({
      cells,
      header: inHead || cells.every((cell) => cell.name === "th"),
    });
  };
  const walk = (element: Element, inHead: boolean): void => {
    for (const child of element.children) {
      if (child.kind === "text") {
        if (child.text.trim() !== "") stray.push(child);
        continue;
      }
      if (child.name === "tr") addRow(child, inHead);
      else if (child.name === "thead") walk(child, true);
      else if (child.name === "tbody" || child.name === "tfoot") {
        walk(child, false);
      } else if (child.name === "caption") caption = caption ?? child;
      else if (child.name === "colgroup" || child.name === "col") continue;
      else if (child.name === "td" || child.name === "th") {
        addRow(newElement("tr", {}, null, [child]), inHead);
      } else stray.push(child);
    }
  };
  walk(table, false);
  return { rows, caption, stray };
}

const RICH_IN_CELL = new Set([
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "pre",
  "blockquote",
  "hr",
  "article",
  "section",
  "main",
  "nav",
  "form",
]);

function isLayoutTable(table: Element, rows: Row[]): boolean {
  const role = (table.attrs.role ?? "").toLowerCase();
  if (role === "presentation" || role === "none") return true;
  const columns = rows.reduce((max, row) => Math.max(max, row.cells.length), 0);
  if (columns <= 1) return true;
  const rich = (element: Element): boolean => {
    let paragraphs = 0;
    const walk = (inner: Element): boolean => {
      for (const child of inner.children) {
        if (child.kind !== "element") continue;
        if (child.name === "table") continue;
        if (RICH_IN_CELL.has(child.name)) return true;
        if (child.name === "p" && ++paragraphs > 1) return true;
        if (walk(child)) return true;
      }
      return false;
    };
    return walk(element);
  };
  return rows.some((row) => row.cells.some(rich));
}

function cellText(cell: Element, context: RenderContext): string {
  const blocks = renderBlocks(cell.children, { ...context, cell: true });
  const joiner = context.markdown ? "<br>" : " ";
  const text = blocks.join(joiner).replace(/\n/g, joiner).replace(
    new RegExp(BREAK, "g"),
    joiner,
  );
  return context.markdown ? text.replace(/\|/g, "\\|") : text;
}

/** A table inside a table cell, as one line: rows by breaks, cells by ";". */
function flattenTable(table: Element, context: RenderContext): string {
  const { rows, caption } = tableRows(table);
  const lines = rows.map((row) =>
    row.cells.map((cell) => cellText(cell, context)).filter((text) =>
      text.trim() !== ""
    ).join("; ")
  ).filter((line) => line !== "");
  if (caption) {
    const title = collapse(textOf(caption));
    if (title) lines.unshift(title);
  }
  return lines.join(BREAK);
}

function renderTable(table: Element, context: RenderContext): string[] {
  const { rows, caption, stray } = tableRows(table);
  const before = stray.length > 0 ? renderBlocks(stray, context) : [];
  const captionBlocks = caption ? renderBlocks(caption.children, context) : [];
  if (context.cell) {
    const flat = flattenTable(table, context);
    return flat === "" ? before : [...before, flat];
  }
  if (rows.length === 0) return [...before, ...captionBlocks];
  if (isLayoutTable(table, rows)) {
    const blocks = [...before, ...captionBlocks];
    for (const row of rows) {
      for (const cell of row.cells) {
        blocks.push(...renderBlocks(cell.children, context));
      }
    }
    return blocks;
  }
  // Build the grid, honouring colspan and rowspan.
  const grid: string[][] = [];
  rows.forEach((row, r) => {
    grid[r] = grid[r] ?? [];
    let column = 0;
    for (const cell of row.cells) {
      const text = cellText(cell, context);
      const colspan = Math.min(
        Math.max(Number.parseInt(cell.attrs.colspan ?? "1", 10) || 1, 1),
        50,
      );
      const rowspan = Math.min(
        Math.max(Number.parseInt(cell.attrs.rowspan ?? "1", 10) || 1, 1),
        rows.length - r,
      );
      while (grid[r][column] !== undefined) column++;
      for (let c = 0; c < colspan; c++) {
        for (let s = 0; s < rowspan; s++) {
          grid[r + s] = grid[r + s] ?? [];
          grid[r + s][column + c] = s === 0 && c === 0 ? text : "";
        }
      }
      column += colspan;
    }
  });
  const width = grid.reduce((max, row) => Math.max(max, row.length), 0);
  const filled = grid.map((row) =>
    Array.from({ length: width }, (_, c) => (row[c] ?? "").trim())
  );
  const nonEmpty = filled.filter((row) => row.some((cell) => cell !== ""));
  if (nonEmpty.length === 0) return [...before, ...captionBlocks];
  if (!context.markdown) {
    return [
      ...before,
      ...captionBlocks,
      nonEmpty.map((row) => row.join(" | ")).join("\n"),
    ];
  }
  const line = (cells: string[]): string => `| ${cells.join(" | ")} |`;
  const hasHeader = rows[0].header && filled[0].some((cell) => cell !== "");
  const header = hasHeader ? filled[0] : new Array(width).fill("");
  const body = hasHeader ? filled.slice(1) : filled;
  const lines = [
    line(header),
    line(new Array(width).fill("---")),
    ...body.filter((row) => row.some((cell) => cell !== "")).map(line),
  ];
  return [...before, ...captionBlocks, lines.join("\n")];
}

/** Converts an HTML document to readable Markdown (or plain text). */
function htmlToContent(
  source: string,
  pageUrl: URL,
  markdown: boolean,
): { title: string; content: string } {
  const document = parseHtml(source);
  const title = documentTitle(document);
  const base = baseUrl(document, pageUrl);
  const root = contentRoot(document);
  prune(root);
  const blocks = renderBlock(root, { markdown, base, cell: false });
  const content = blocks.join("\n\n")
    .replace(/[ \t]+$/gm, (spaces) => spaces === "  " && markdown ? spaces : "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title, content };
}

// ---------------------------------------------------------------------------
// The Beeuni API

async function callApi(
  args: Record<string, unknown>,
  config: Config,
  signal: AbortSignal,
): Promise<ScrapeResult> {
  const endpoint = `${
    String(config.env.BEEUNI_API_URL).replace(/\/+$/, "")
  }/v1/tools/scrape_webpage`;
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: {
        "authorization": `Bearer ${config.env.BEEUNI_TOKEN}`,
        "content-type": "application/json",
        "accept": "application/json",
      },
      body: JSON.stringify(args),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Error(
      `cannot reach the Beeuni API at "${endpoint}": ${
        (error as Error).message
      }; check BEEUNI_API_URL`,
    );
  }
  const text = await response.text();
  if (!response.ok) {
    let message = text.trim().slice(0, 500);
    try {
      const parsed = JSON.parse(text);
      const detail = parsed?.error?.message ?? parsed?.error ?? parsed?.message;
      if (typeof detail === "string") message = detail;
    } catch {
      // keep the raw text
    }
    const hint = response.status === 401 || response.status === 403
      ? "; check BEEUNI_TOKEN"
      : "";
    throw new Error(
      `the Beeuni API answered ${response.status} for scrape_webpage: ${
        message || response.statusText
      }${hint}`,
    );
  }
  let result: unknown;
  try {
    result = JSON.parse(text);
  } catch {
    throw new Error(
      `the Beeuni API answered scrape_webpage with a body that is not JSON: "${
        text.slice(0, 200)
      }"`,
    );
  }
  const record = result as Record<string, unknown>;
  if (
    record === null || typeof record !== "object" ||
    typeof record.url !== "string" || typeof record.content !== "string"
  ) {
    throw new Error(
      'the Beeuni API answered scrape_webpage without "url" and "content" strings',
    );
  }
  return record as unknown as ScrapeResult;
}

// ---------------------------------------------------------------------------
// The call

function window(text: string, offset: number, maxLength: number): {
  content: string;
  next: number | null;
} {
  let start = Math.min(offset, text.length);
  if (start > 0 && /[\udc00-\udfff]/.test(text[start] ?? "")) start--;
  let end = Math.min(start + maxLength, text.length);
  if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1] ?? "")) end--;
  return {
    content: text.slice(start, end),
    next: end < text.length ? end : null,
  };
}

async function scrape(
  rawArgs: unknown,
  context: ToolContext,
): Promise<ScrapeResult> {
  const args = readArgs(rawArgs);
  const env = context.env ?? {};
  const config = readConfig(env);
  const outer = context.signal;
  if (outer?.aborted) throw outer.reason;
  const controller = new AbortController();
  const timedOut = new Error(
    `timed out: "${args.url.href}" did not answer in full within ${config.timeoutMs} ms; try again later or raise BEEUNI_HTTP_TIMEOUT_MS`,
  );
  const timer = setTimeout(() => controller.abort(timedOut), config.timeoutMs);
  const onOuterAbort = (): void => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onOuterAbort, { once: true });
  const signal = controller.signal;
  try {
    if (env.BEEUNI_API_URL && env.BEEUNI_TOKEN) {
      const body: Record<string, unknown> = { url: args.url.href };
      const given = rawArgs as Record<string, unknown>;
      for (const key of ["format", "max_length", "offset"]) {
        if (given[key] !== undefined) body[key] = given[key];
      }
      return await callApi(body, config, signal);
    }
    const page = await fetchPage(args.url, config, signal);
    let kind = textKind(page.contentType);
    if (kind === null) {
      const sniffed = sniffKind(page.bytes);
      if (sniffed === "binary") {
        throw new Error(
          `cannot scrape "${page.url.href}": its content is binary (content type "${
            page.contentType || "none"
          }"); scrape_webpage reads HTML, text and JSON only`,
        );
      }
      kind = sniffed;
    }
    const decoded = decodeBody(page.bytes, page.charset, kind);
    let title = "";
    let full: string;
    if (kind === "html") {
      if (args.format === "html") {
        full = decoded;
        title = documentTitle(parseHtml(decoded));
      } else {
        const converted = htmlToContent(
          decoded,
          page.url,
          args.format === "markdown",
        );
        title = converted.title;
        full = converted.content;
      }
    } else if (kind === "json") {
      try {
        full = JSON.stringify(
          JSON.parse(decoded.replace(/^\ufeff/, "")),
          null,
          2,
        );
      } catch {
        full = decoded;
      }
    } else {
      full = decoded.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n");
    }
    const { content, next } = window(full, args.offset, args.maxLength);
    return {
      url: page.url.href,
      status: page.status,
      title,
      content_type: page.contentType,
      content,
      truncated: page.truncated || next !== null,
      next_offset: next,
    };
  } catch (error) {
    if (signal.aborted && signal.reason === timedOut) throw timedOut;
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
  }
}

/** The `scrape_webpage` tool module (default export, SPEC.md T1). */
const tool = {
  description:
    "Fetch one web page (http or https URL) and return its readable content: Markdown for HTML pages (navigation, scripts and boilerplate dropped), plain text for text files, indented JSON for JSON. Returns the final URL after redirects, the HTTP status, the page title and the content type. Long content is cut at max_length characters; pass next_offset back as offset to read on. Private and local network addresses are refused.",
  parameters: {
    type: "object",
    properties: {
      url: {
        type: "string",
        description: "The absolute http or https URL to fetch.",
      },
      format: {
        type: "string",
        enum: ["markdown", "text", "html"],
        description:
          'How to return an HTML page: "markdown" (default), "text" (plain text, no markup) or "html" (the page source). Text and JSON answers are returned as they are.',
      },
      max_length: {
        type: "integer",
        minimum: 1,
        maximum: MAX_MAX_LENGTH,
        description:
          `Most characters of content to return (default ${DEFAULT_MAX_LENGTH}).`,
      },
      offset: {
        type: "integer",
        minimum: 0,
        description:
          "Characters of content to skip, to read on from a previous call's next_offset (default 0).",
      },
    },
    required: ["url"],
    additionalProperties: false,
  },
  execute: scrape,
} satisfies ToolModule;

export default tool;
