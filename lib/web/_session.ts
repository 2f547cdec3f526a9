// How a browser signs in to the web UI without the daemon's token ever
// reaching it: the daemon prints (or mints for a bearer) a one-time code,
// the page trades it for a session value held in an HttpOnly cookie scoped
// to the page's secret path, and the cookie then opens the page's routes
// under that path, from the daemon's own page only.

import { randomBytes } from "node:crypto";
import { secretEqual } from "../common/mod.ts";
import { DAEMON_PRINCIPAL, HttpError, type Principal } from "../http/mod.ts";

/** How long a one-time code stays valid: one minute. */
export const CODE_LIFETIME_MS = 60_000;
/** Live codes kept at most; minting more drops the oldest. */
const MAX_CODES = 16;
/** Sessions kept at most; signing in more drops the oldest. */
const MAX_SESSIONS = 64;

const encoder = new TextEncoder();

interface Code {
  bytes: Uint8Array;
  expiresAt: number;
  /** Whom the session it opens acts as: whoever minted the code. */
  principal: Principal;
}

interface Session {
  bytes: Uint8Array;
  principal: Principal;
}

/**
 * A fresh secret path for the page: `/w/<32 hex>/` (16 random bytes).
 * Browsers send a cookie to every server of a host whatever its port, but
 * only for the paths under the cookie's `Path`: another server on
 * 127.0.0.1 gets the session cookie only if it knows this path.
 */
export function pagePrefix(): string {
  return `/w/${randomBytes(16).toString("hex")}/`;
}

/** The index in `held` of the value equal to `given`, comparing with each in constant time. */
function find(held: readonly Uint8Array[], given: string): number {
  const bytes = encoder.encode(given);
  let found = -1;
  for (let i = 0; i < held.length; i++) {
    if (secretEqual(bytes, held[i])) found = i;
  }
  return found;
}

/** The one-time codes and the sessions of one daemon, in memory: they die with it. */
export class WebSessions {
  #codes: Code[] = [];
  #sessions: Session[] = [];
  #lifetimeMs: number;
  #now: () => number;

  constructor(lifetimeMs: number, now: () => number) {
    this.#lifetimeMs = lifetimeMs;
    this.#now = now;
  }

  /** How long a code lasts, in milliseconds. */
  get lifetimeMs(): number {
    return this.#lifetimeMs;
  }

  /**
   * A fresh code (32 random bytes, hex), valid once within the lifetime;
   * its session acts as `principal`.
   */
  issueCode(principal: Principal = DAEMON_PRINCIPAL): string {
    const now = this.#now();
    this.#codes = this.#codes.filter((code) => code.expiresAt > now);
    if (this.#codes.length >= MAX_CODES) this.#codes.shift();
    const code = randomBytes(32).toString("hex");
    this.#codes.push({
      bytes: encoder.encode(code),
      expiresAt: now + this.#lifetimeMs,
      principal,
    });
    return code;
  }

  /**
   * A new session's value for a live code, which dies here; `undefined`
   * for a code that was used, expired or never issued.
   */
  redeem(code: string): string | undefined {
    const index = find(this.#codes.map((each) => each.bytes), code);
    if (index === -1) return undefined;
    const [used] = this.#codes.splice(index, 1);
    if (used.expiresAt <= this.#now()) return undefined;
    if (this.#sessions.length >= MAX_SESSIONS) this.#sessions.shift();
    const session = randomBytes(32).toString("hex");
    this.#sessions.push({
      bytes: encoder.encode(session),
      principal: used.principal,
    });
    return session;
  }

  /** Whom the live session among `values` acts as; `undefined` when none is one. */
  sessionOf(values: readonly string[]): Principal | undefined {
    let found: Principal | undefined;
    const held = this.#sessions.map((session) => session.bytes);
    for (const value of values) {
      const index = find(held, value);
      if (index !== -1) found = this.#sessions[index].principal;
    }
    return found;
  }

  /** Forgets every code and session. */
  clear(): void {
    this.#codes = [];
    this.#sessions = [];
  }
}

/** The request's `Host`, as a URL's `host` writes it; `undefined` when malformed. */
function hostOf(request: Request): string | undefined {
  try {
    return new URL(
      `http://${request.headers.get("host") ?? new URL(request.url).host}`,
    ).host;
  } catch {
    return undefined;
  }
}

/**
 * The session cookie's name: `beeuni_session_<port>`. Browsers keep one
 * cookie jar for every port of a host, so each daemon names its own.
 */
export function cookieName(request: Request): string {
  const host = hostOf(request);
  const port = host === undefined ? "" : new URL(`http://${host}`).port;
  return `beeuni_session_${port || "80"}`;
}

/**
 * The `Set-Cookie` value holding `session`, sent only to paths under
 * `path` (the page's secret prefix): HttpOnly, SameSite=Strict, for the
 * browser's session only.
 */
export function sessionCookie(
  request: Request,
  session: string,
  path: string,
): string {
  return `${
    cookieName(request)
  }=${session}; Path=${path}; HttpOnly; SameSite=Strict`;
}

/** Every value the request's `Cookie` header gives the cookie `name`. */
export function cookieValues(request: Request, name: string): string[] {
  const header = request.headers.get("cookie");
  if (header === null) return [];
  const values: string[] = [];
  for (const part of header.split(";")) {
    const equals = part.indexOf("=");
    if (equals !== -1 && part.slice(0, equals).trim() === name) {
      values.push(part.slice(equals + 1).trim());
    }
  }
  return values;
}

function refuse(what: string): never {
  throw new HttpError(
    403,
    `the web UI's session works only from the daemon's own page, not ${what}: other clients send Authorization: Bearer <token>`,
  );
}

/**
 * Throws a 403 unless the request comes from the daemon's own page: an
 * `Origin` that is the daemon's (required when `originRequired`, as for
 * every request that changes something), and a `Sec-Fetch-Site`, when
 * sent, of `same-origin`.
 */
export function checkOwnPage(request: Request, originRequired: boolean): void {
  const origin = request.headers.get("origin");
  if (origin === null) {
    if (originRequired) refuse("a request without an Origin header");
  } else {
    let host: string | undefined;
    try {
      const url = new URL(origin);
      if (url.protocol === "http:" || url.protocol === "https:") {
        host = url.host;
      }
    } catch {
      // Not an address: refused below.
    }
    if (host === undefined || host !== hostOf(request)) {
      refuse(`from Origin "${origin.slice(0, 200)}"`);
    }
  }
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") {
    refuse(`from a "${site.slice(0, 40)}" request`);
  }
}
