/**
 * The web UI the daemon serves: a page to pick an agent, see its
 * tools, call them from a form generated from their JSON Schema, watch
 * every call the daemon runs, and see the Beeuni tools' output in their own
 * views.
 *
 * The page lives under a secret path, new at each start
 * (`/w/<32 hex>/`), and everything it calls with its session is under that
 * path too. The daemon prints the page's address with a one-time code in
 * its fragment (`/w/…/#code=…`, never sent to a server); the page trades
 * the code for a session cookie (`HttpOnly`, `SameSite=Strict`, named
 * after the port, `Path` the secret path), so the daemon's token never
 * reaches the browser, and a browser sends the cookie to no other server
 * of 127.0.0.1 (cookies ignore ports, not paths). The code works once,
 * within a minute; a bearer mints fresh ones. The cookie opens the page's
 * API and the daemon's `/beeuni/` routes under the secret path only, from
 * the daemon's own page only (its `Origin`), until the daemon stops. `/`
 * says where the address is. Every response of the UI carries a strict
 * Content-Security-Policy and `Referrer-Policy: no-referrer`.
 *
 * | method | path | answer | credential |
 * | --- | --- | --- | --- |
 * | GET | `/` | a page saying to open the printed address or run `beeuni web` | none |
 * | GET | `/w/…/` | the page | none |
 * | GET | `/w/…/ui/<file>`, `/w/…/ui/vendor/<file>` | its scripts, styles and libraries | none |
 * | POST | `/w/…/beeuni/web/session` | `{ "code": C }` → 204 and the session cookie | the code |
 * | GET | `/w/…/ui/api/tools?agent=A` | `{ agents, defaultAgent, agent, tools, hidden, loadErrors, diagnostics }` | token or cookie |
 * | GET | `/w/…/ui/api/events` | the history, then each call and reload, as server-sent events | token or cookie |
 * | GET | `/w/…/ui/api/file?path=P` | a file a `show` call in the history named | token or cookie |
 * | any | `/w/…/beeuni/…` | the daemon's routes, less `/beeuni/web/…` | token or cookie |
 * | GET | `/ui/api/…` | the same API | token |
 * | POST | `/beeuni/web/code` | `{ url, code, expiresInSeconds }`: a fresh one-time address | token |
 *
 * @example Serve the UI beside the daemon's routes
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { createHost } from "../host/mod.ts";
 * import { createHandler } from "../http/mod.ts";
 * import { createWebHandler, webMounts, webScope } from "./mod.ts";
 *
 * const host = await createHost({ directory: "/workspace" });
 * const token = "a-long-random-token";
 * const web = createWebHandler({ host });
 * const handler = createHandler({
 *   host,
 *   token,
 *   mounts: webMounts(web),
 *   scope: webScope(web),
 * });
 * console.log(`web ui: ${web.address("http://127.0.0.1:8787")}`);
 * ```
 *
 * @module
 */

import { Assets } from "./_assets.ts";
import {
  eventsAnswer,
  fileAnswer,
  jsonResponse,
  toolsAnswer,
  type WebHost,
} from "./_api.ts";
import { sessionAnswer, sessionsAnswer } from "./_sessions.ts";
import { History } from "./_history.ts";
import {
  checkOwnPage,
  CODE_LIFETIME_MS,
  cookieName,
  cookieValues,
  pagePrefix,
  sessionCookie,
  WebSessions,
} from "./_session.ts";
import {
  DAEMON_PRINCIPAL,
  decodeSegment,
  HttpError,
  type Mount,
  type Principal,
  type Scope,
} from "../http/mod.ts";
import {
  callerStringProblem,
  readBodyText,
  type StreamPool,
} from "../common/mod.ts";

export type { WebHost } from "./_api.ts";
export { setWebFiles, type WebFileName, type WebFiles } from "./web_files.ts";

/**
 * The Content-Security-Policy of every response of the UI: scripts and
 * styles from the daemon only (no inline script, no eval), images only from
 * `data:` and http(s) addresses, no frames, no plugins, no forms, and
 * Trusted Types so that no string reaches the DOM as HTML except through
 * DOMPurify.
 */
export const CONTENT_SECURITY_POLICY: string = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src data: http: https:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types dompurify",
].join("; ");

/** Options of {@linkcode createWebHandler}. */
export interface WebOptions {
  /** The host whose tools and calls the page shows. */
  host: WebHost;
  /** How many calls the history keeps (default 200). */
  historyLimit?: number;
  /** How long a one-time code stays valid, in milliseconds (default one minute). */
  codeLifetimeMs?: number;
  /** The clock codes expire by, in milliseconds (default `Date.now`). */
  now?: () => number;
  /**
   * The pool that caps open event streams, shared with the server's other
   * event streams (MCP's); when it is full, the least recently used
   * stream is closed to make room. Default: a pool of 32 of their own.
   */
  streams?: StreamPool;
  /** The project's state folder, whose sessions the page lists and shows (none when absent). */
  sessionsDir?: string;
}

/**
 * The UI's routes, as the daemon's handler asks for them. Paths under the
 * page's secret prefix reach {@linkcode WebHandler.page},
 * {@linkcode WebHandler.signIn}, {@linkcode WebHandler.api} and
 * {@linkcode WebHandler.authorize} without it (`/w/…/ui/app.js` as
 * `/ui/app.js`).
 */
export interface WebHandler {
  /** The page's secret path, new at each start: `/w/<32 hex>/`. */
  readonly prefix: string;
  /**
   * The page and its static files under the secret prefix (answered
   * without a credential), or `undefined` when `url` is not one of them.
   */
  page(request: Request, url: URL): Promise<Response> | undefined;
  /**
   * `GET /` outside the secret prefix (answered without a credential): a
   * page saying to open the printed address or run `beeuni web`;
   * `undefined` for other paths.
   */
  notice(request: Request, url: URL): Promise<Response> | undefined;
  /**
   * The page's API under `/ui/api/` (answered after the credential check),
   * or `undefined` when `url` is not under it. With an agent token
   * (`principal`), it shows only the token's agents and their calls.
   */
  api(
    request: Request,
    url: URL,
    principal?: Principal,
  ): Promise<Response> | undefined;
  /**
   * `POST /beeuni/web/session` under the secret prefix (answered without a
   * credential): trades a one-time code for the session cookie; `undefined`
   * for other paths.
   */
  signIn(request: Request, url: URL): Promise<Response> | undefined;
  /**
   * `POST /beeuni/web/code` (answered after the token check): a fresh
   * one-time address, whose session acts as `principal` (an agent token's
   * session shows only its agents); `undefined` for other paths.
   */
  mintCode(
    request: Request,
    url: URL,
    principal?: Principal,
  ): Promise<Response> | undefined;
  /**
   * Whom `request` acts as when, under the secret prefix, it carries a live
   * session cookie of this daemon for a path the cookie opens (the page's
   * API and the `/beeuni/` routes, but not `/beeuni/web/code`); else
   * `undefined`. Throws a 403 {@linkcode HttpError} when it does but comes
   * from another page than the daemon's.
   */
  authorize(request: Request, url: URL): Principal | undefined;
  /** A fresh one-time code, valid once within its lifetime; its session acts as `principal` (default: every agent). */
  issueCode(principal?: Principal): string;
  /**
   * The page's address on `origin` (`http://127.0.0.1:8787`) with a fresh
   * one-time code: `<origin>/w/<32 hex>/#code=<code>`.
   */
  address(origin: string): string;
  /** Stops recording, ends the open event streams and forgets every session (call before the server shuts down). */
  close(): void;
}

/**
 * Headers every response of the UI carries: its Content-Security-Policy,
 * and no `Referer` to wherever a link out of the page leads (the page's
 * path is a secret).
 */
export const UI_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "x-frame-options": "DENY",
});

/** `response` with {@linkcode UI_HEADERS}. */
function secured(response: Response): Response {
  for (const [name, value] of Object.entries(UI_HEADERS)) {
    response.headers.set(name, value);
  }
  return response;
}

function methodNotAllowed(use: string, allow: string): Response {
  const response = jsonResponse(405, {
    error: `method not allowed: use ${use}`,
  });
  response.headers.set("allow", allow);
  return response;
}

/** The largest body `POST /beeuni/web/session` reads. */
const MAX_SIGN_IN_BYTES = 1024;

/** The `code` of a sign-in's JSON body. */
async function readCode(request: Request): Promise<string> {
  const text = await readBodyText(request, MAX_SIGN_IN_BYTES);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const code = (body as { code?: unknown } | null)?.code;
  if (typeof code !== "string") {
    throw new HttpError(
      400,
      'the body must be {"code": "<the one-time code>"}',
    );
  }
  return code;
}

/** `ms` in words: `a minute`, `2 minutes`, `30 seconds`. */
function duration(ms: number): string {
  if (ms === 60_000) return "a minute";
  if (ms % 60_000 === 0) return `${ms / 60_000} minutes`;
  return `${Math.round(ms / 1000)} seconds`;
}

/** Paths the session cookie opens: the page's API and the daemon's routes, less minting codes. */
function cookieOpens(path: string): boolean {
  return path.startsWith("/ui/api/") ||
    (path.startsWith("/beeuni/") && !path.startsWith("/beeuni/web/"));
}

/**
 * Builds the UI's routes over `options.host`. It records the host's calls
 * from now on (for the history) until {@linkcode WebHandler.close}.
 *
 * @returns The UI's routes, for {@linkcode webMounts} and {@linkcode webScope}.
 */
export function createWebHandler(options: WebOptions): WebHandler {
  const { host } = options;
  const prefix = pagePrefix();
  const assets = new Assets();
  const history = new History(options.historyLimit ?? 200, options.streams);
  const unsubscribe = host.subscribe((event) => history.add(event));
  const sessions = new WebSessions(
    options.codeLifetimeMs ?? CODE_LIFETIME_MS,
    options.now ?? Date.now,
  );
  /** The page's address on `origin` carrying `code`. */
  const addressOf = (origin: string, code: string) =>
    `${origin}${prefix}#code=${code}`;
  const refused = `one-time code refused: it was used already, is over ${
    duration(sessions.lifetimeMs)
  } old, or is not this daemon's; run \`beeuni web\` in the project for a fresh address`;

  async function signIn(request: Request): Promise<Response> {
    if (request.method !== "POST") return methodNotAllowed("POST", "POST");
    checkOwnPage(request, true);
    const session = sessions.redeem(await readCode(request));
    if (session === undefined) throw new HttpError(401, refused);
    const response = new Response(null, { status: 204 });
    response.headers.set(
      "set-cookie",
      sessionCookie(request, session, prefix),
    );
    response.headers.set("cache-control", "no-store");
    return response;
  }

  function mintCode(
    request: Request,
    url: URL,
    principal: Principal,
  ): Response {
    if (request.method !== "POST") return methodNotAllowed("POST", "POST");
    const code = sessions.issueCode(principal);
    return jsonResponse(200, {
      url: addressOf(url.origin, code),
      code,
      expiresInSeconds: Math.round(sessions.lifetimeMs / 1000),
    });
  }

  async function servePage(request: Request, name: string): Promise<Response> {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return secured(methodNotAllowed("GET", "GET, HEAD"));
    }
    const long = callerStringProblem("the file name in the path", name);
    if (long !== undefined) return secured(jsonResponse(400, { error: long }));
    const asset = await assets.get(name).catch(() => undefined);
    if (asset === undefined) {
      return secured(jsonResponse(404, { error: `no web UI file "${name}"` }));
    }
    const response = new Response(
      request.method === "HEAD" ? null : asset.body,
      {
        headers: {
          "content-type": asset.type,
          "cache-control": "no-cache",
        },
      },
    );
    return secured(response);
  }

  async function serveApi(
    request: Request,
    url: URL,
    principal: Principal,
  ): Promise<Response> {
    if (request.method !== "GET") return methodNotAllowed("GET", "GET, HEAD");
    // An agent token's page sees only its agents' calls and sessions.
    const agents = principal.kind === "daemon" ? undefined : principal.agents;
    switch (url.pathname) {
      case "/ui/api/tools":
        return toolsAnswer(host, url, principal);
      case "/ui/api/events":
        return eventsAnswer(history, agents);
      case "/ui/api/file":
        return await fileAnswer(host, history, url, agents);
      case "/ui/api/sessions":
        return sessionsAnswer(options.sessionsDir, agents);
      default:
        if (url.pathname.startsWith("/ui/api/sessions/")) {
          return sessionAnswer(
            options.sessionsDir,
            decodeSegment(url.pathname.slice("/ui/api/sessions/".length)),
            request.signal,
            agents,
          );
        }
        return jsonResponse(404, {
          error: `no route for ${request.method} ${url.pathname}`,
        });
    }
  }

  return {
    prefix,
    page(request, url) {
      const path = url.pathname;
      if (path === "/") return servePage(request, "index.html");
      if (!path.startsWith("/ui/") || path.startsWith("/ui/api/")) {
        return undefined;
      }
      return servePage(request, path.slice("/ui/".length));
    },
    notice(request, url) {
      if (url.pathname !== "/") return undefined;
      return servePage(request, "notice.html");
    },
    api(request, url, principal = DAEMON_PRINCIPAL) {
      if (!url.pathname.startsWith("/ui/api/")) return undefined;
      return serveApi(request, url, principal).then(secured);
    },
    signIn(request, url) {
      if (url.pathname !== "/beeuni/web/session") return undefined;
      return signIn(request).then(secured);
    },
    mintCode(request, url, principal = DAEMON_PRINCIPAL) {
      if (url.pathname !== "/beeuni/web/code") return undefined;
      return Promise.resolve(secured(mintCode(request, url, principal)));
    },
    authorize(request, url) {
      if (!cookieOpens(url.pathname)) return undefined;
      const values = cookieValues(request, cookieName(request));
      const principal = sessions.sessionOf(values);
      if (principal === undefined) return undefined;
      checkOwnPage(
        request,
        request.method !== "GET" && request.method !== "HEAD",
      );
      return principal;
    },
    issueCode(principal) {
      return sessions.issueCode(principal);
    },
    address(origin) {
      return addressOf(origin, sessions.issueCode());
    },
    close() {
      unsubscribe();
      history.close();
      sessions.clear();
    },
  };
}

/**
 * The UI's routes outside the secret prefix, as mounts of the daemon's
 * handler: minting codes and the page's API behind the token, and at `/` a
 * page saying where the address is. Give the handler
 * {@linkcode webScope} too.
 *
 * @returns The mounts, in the order the handler checks them.
 */
export function webMounts(web: WebHandler): Mount[] {
  return [
    {
      prefix: "/beeuni/web/code",
      handler: (request, url, principal) =>
        web.mintCode(request, url, principal),
    },
    {
      prefix: "/ui/api",
      handler: (request, url, principal) => web.api(request, url, principal),
    },
    {
      prefix: "/",
      bearer: false,
      handler: (request, url) => web.notice(request, url),
    },
  ];
}

/**
 * The UI's secret prefix, as the daemon's handler's scope: the page, its
 * files and signing in without a credential; the page's API and the
 * daemon's `/beeuni/` routes with the token or the session cookie; every
 * response with {@linkcode UI_HEADERS}.
 *
 * @returns The scope, for the daemon handler's `scope` option.
 */
export function webScope(web: WebHandler): Scope {
  return {
    prefix: web.prefix,
    mounts: [
      {
        prefix: "/beeuni/web/session",
        bearer: false,
        handler: (request, url) => web.signIn(request, url),
      },
      {
        prefix: "/ui/api",
        handler: (request, url, principal) => web.api(request, url, principal),
      },
      {
        prefix: "/",
        bearer: false,
        handler: (request, url) => web.page(request, url),
      },
    ],
    authorize: (request, url) => web.authorize(request, url),
    headers: { ...UI_HEADERS },
  };
}
