// What every request must pass before routing: a loopback Host header (the
// DNS-rebinding guard) and the daemon's bearer token.

import { isLoopbackHostHeader, secretEqual } from "../common/mod.ts";
import { json } from "./_respond.ts";

const encoder = new TextEncoder();

/** The token of an `Authorization` header value `Bearer <token>`, if it is one. */
export function bearerOf(header: string | null): string | undefined {
  if (header === null) return undefined;
  return /^Bearer[ ]+(\S+)[ ]*$/i.exec(header)?.[1];
}

/**
 * A checker of a presented token against `token`. The comparison runs in
 * constant time for the token's content (only a wrong length returns
 * early, and the length of a generated token is no secret).
 */
export function tokenChecker(token: string): (given: string) => boolean {
  const expected = encoder.encode(token);
  return (given) => secretEqual(encoder.encode(given), expected);
}

/** The 421 for a request whose Host header is not a loopback name. */
export function checkHost(request: Request): Response | undefined {
  if (isLoopbackHostHeader(request.headers.get("host"))) return undefined;
  return json(421, {
    error:
      "the Host header must be localhost, 127.0.0.1 or [::1]: this daemon only answers loopback requests",
  });
}

/** The 401 for a request without the right bearer token. */
export function unauthorized(agentToken = false): Response {
  return json(
    401,
    {
      error: agentToken
        ? "unknown, expired or removed agent token: `beeuni tokens ls` lists the project's tokens; make a new one with `beeuni tokens new`"
        : "missing or wrong bearer token: send Authorization: Bearer <token> (the daemon printed its token file's path)",
    },
    { "www-authenticate": 'Bearer realm="beeuni"' },
  );
}
