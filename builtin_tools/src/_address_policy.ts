/**
 * The address policy of `scrape_webpage` (SSRF): which hosts and addresses
 * may be fetched. A URL's host is resolved and every address it has is
 * checked before any connection; loopback, private, link-local, shared,
 * unspecified, reserved, multicast and cloud metadata addresses are refused.
 *
 * @module
 */

import { lookup as dnsLookup } from "node:dns/promises";
import { messageOf } from "./_tool.ts";

/** What the policy lets through besides public addresses. */
export interface AddressPolicy {
  /** Every address and name may be fetched (`BEEUNI_SCRAPE_ALLOW_PRIVATE=1`). */
  allowPrivate: boolean;
  /** Hosts (and ports) whose URLs skip the policy (`BEEUNI_SCRAPE_ALLOW_HOSTS`). */
  allowHosts: { host: string; port: string | null }[];
}

/** The policy that `env` asks for. */
export function readAddressPolicy(
  env: Readonly<Record<string, string | undefined>>,
): AddressPolicy {
  return {
    allowPrivate: env.BEEUNI_SCRAPE_ALLOW_PRIVATE === "1",
    allowHosts: (env.BEEUNI_SCRAPE_ALLOW_HOSTS ?? "").split(",")
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== "")
      .map(parseHostEntry),
  };
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

/** The port a URL connects to, its scheme's default when it names none. */
export function effectivePort(url: URL): string {
  return url.port !== "" ? url.port : url.protocol === "https:" ? "443" : "80";
}

function isAllowedHost(url: URL, policy: AddressPolicy): boolean {
  const host = stripDot(url.hostname.toLowerCase());
  const port = effectivePort(url);
  return policy.allowHosts.some((entry) =>
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

/** An address the policy let through, to connect to. */
export interface Vetted {
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
export async function vetHost(
  url: URL,
  policy: AddressPolicy,
  signal: AbortSignal,
): Promise<Vetted[]> {
  const enforce = !policy.allowPrivate && !isAllowedHost(url, policy);
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
        messageOf(error)
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

/** `promise`, or a rejection with the signal's reason when it fires first. */
export function abortable<T>(
  promise: Promise<T>,
  signal: AbortSignal,
): Promise<T> {
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
