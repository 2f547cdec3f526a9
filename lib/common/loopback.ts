/**
 * The loopback names: where the daemon may listen by default, which
 * `Host` headers it accepts (the DNS-rebinding guard), and which browser
 * origins may call its MCP endpoint. One set serves all three.
 *
 * @module
 */

/** This machine's loopback, as names and addresses: `localhost`, `127.0.0.1` and `::1`. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set([
  "localhost",
  "127.0.0.1",
  "::1",
]);

/**
 * Whether `hostname` names this machine's loopback: `localhost`,
 * `127.0.0.1` or `::1`, in any case, an IPv6 address with or without its
 * brackets (`[::1]`, as a URL's `hostname` writes it).
 */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase();
  const bare = name.startsWith("[") && name.endsWith("]")
    ? name.slice(1, -1)
    : name;
  return LOOPBACK_NAMES.has(bare);
}

/**
 * Whether a `Host` header names a loopback host: `localhost`, `127.0.0.1` or
 * `[::1]`, with or without a port.
 */
export function isLoopbackHostHeader(value: string | null): boolean {
  if (value === null) return false;
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(value.trim());
  return match !== null && isLoopbackHostname(match[1]);
}

/**
 * Why the daemon may not listen on `hostname`, or `undefined` when it may:
 * a name other than loopback needs `allowRemote`.
 */
export function listenProblem(
  hostname: string,
  allowRemote: boolean,
): string | undefined {
  if (allowRemote || isLoopbackHostname(hostname)) return undefined;
  return `refusing to listen on "${hostname}": the daemon listens on loopback only (127.0.0.1, ::1, localhost); pass --allow-remote to listen there anyway`;
}
