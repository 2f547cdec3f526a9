/**
 * Loopback names: where the daemon may listen by default, and which
 * `Host` headers it accepts (the DNS-rebinding guard).
 *
 * @module
 */

const LISTEN_NAMES = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
const HOST_HEADER_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether `hostname` is a loopback address the daemon may listen on by default. */
export function isLoopbackHostname(hostname: string): boolean {
  return LISTEN_NAMES.has(hostname.toLowerCase());
}

/**
 * Whether a `Host` header names a loopback host: `localhost`, `127.0.0.1` or
 * `[::1]`, with or without a port.
 */
export function isLoopbackHostHeader(value: string | null): boolean {
  if (value === null) return false;
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!match) return false;
  return HOST_HEADER_NAMES.has(match[1].toLowerCase());
}
