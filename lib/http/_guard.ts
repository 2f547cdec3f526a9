// What every request must pass before routing: a loopback Host header (the
// DNS-rebinding guard) and the daemon's bearer token.

import { isLoopbackHostHeader, secretEqual } from "../common/mod.ts";
import { json } from "./_respond.ts";

const encoder = new TextEncoder();

/**
 * A checker for `Authorization` header values carrying `Bearer <token>`.
 * The comparison runs in constant time for the token's content (only a
 * wrong length returns early, and the length of a generated token is no
 * secret).
 */
export function bearerChecker(
  token: string,
): (header: string | null) => boolean {
  const expected = encoder.encode(token);
  return (header) => {
    if (header === null) return false;
    const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
    if (!match) return false;
    return secretEqual(encoder.encode(match[1]), expected);
  };
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
export function unauthorized(): Response {
  return json(
    401,
    {
      error:
        "missing or wrong bearer token: send Authorization: Bearer <token> (the daemon printed its token file's path)",
    },
    { "www-authenticate": 'Bearer realm="beeuni"' },
  );
}
