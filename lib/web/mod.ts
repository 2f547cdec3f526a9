/**
 * The web UI the daemon serves at `/` (W1–W3): a page to pick an agent, see
 * its tools, call them from a form generated from their JSON Schema, watch
 * every call the daemon runs, and see the Beeuni tools' output in their own
 * views.
 *
 * The page and its static files are served without the token: the token
 * reaches the page in the URL's fragment (`/#token=…`), which browsers never
 * send, and the page sends it back as a bearer header on every API call.
 * Every response carries a strict Content-Security-Policy.
 *
 * | method | path | answer | token |
 * | --- | --- | --- | --- |
 * | GET | `/` | the page | no |
 * | GET | `/ui/<file>`, `/ui/vendor/<file>` | its scripts, styles and libraries | no |
 * | GET | `/ui/api/tools?agent=A` | `{ agents, agent, tools, hidden, loadErrors, diagnostics }` | yes |
 * | GET | `/ui/api/events` | the history, then each call and reload, as server-sent events | yes |
 * | GET | `/ui/api/file?path=P` | a file a `show` call in the history named | yes |
 *
 * @example Serve the UI beside the daemon's routes
 * ```ts ignore
 * import { createHandler } from "../http/mod.ts";
 * import { createWebHandler } from "./mod.ts";
 *
 * const web = createWebHandler({ host });
 * const handler = createHandler({ host, token, mounts: webMounts(web) });
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
import { History } from "./_history.ts";
import type { Mount } from "../http/mod.ts";
import { callerStringProblem, type StreamPool } from "../common/mod.ts";

export type { WebHost } from "./_api.ts";

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
  /**
   * The pool that caps open event streams, shared with the server's other
   * event streams (MCP's); when it is full, the least recently used
   * stream is closed to make room. Default: a pool of 32 of their own.
   */
  streams?: StreamPool;
}

/** The UI's routes, as the daemon's handler asks for them. */
export interface WebHandler {
  /**
   * The page and its static files (answered before the token check), or
   * `undefined` when `url` is not one of them.
   */
  page(request: Request, url: URL): Promise<Response> | undefined;
  /**
   * The page's API under `/ui/api/` (answered after the token check), or
   * `undefined` when `url` is not under it.
   */
  api(request: Request, url: URL): Promise<Response> | undefined;
  /** Stops recording and ends the open event streams (call before the server shuts down). */
  close(): void;
}

/** Headers every response of the UI carries. */
function secured(response: Response): Response {
  const headers = response.headers;
  headers.set("content-security-policy", CONTENT_SECURITY_POLICY);
  headers.set("x-content-type-options", "nosniff");
  headers.set("referrer-policy", "no-referrer");
  headers.set("cross-origin-opener-policy", "same-origin");
  headers.set("cross-origin-resource-policy", "same-origin");
  headers.set("x-frame-options", "DENY");
  return response;
}

function methodNotAllowed(): Response {
  const response = jsonResponse(405, { error: "method not allowed: use GET" });
  response.headers.set("allow", "GET, HEAD");
  return response;
}

/**
 * Builds the UI's routes over `options.host`. It records the host's calls
 * from now on (for the history) until {@linkcode WebHandler.close}.
 */
export function createWebHandler(options: WebOptions): WebHandler {
  const { host } = options;
  const assets = new Assets();
  const history = new History(options.historyLimit ?? 200, options.streams);
  const unsubscribe = host.subscribe((event) => history.add(event));

  async function servePage(request: Request, name: string): Promise<Response> {
    if (request.method !== "GET" && request.method !== "HEAD") {
      return secured(methodNotAllowed());
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

  async function serveApi(request: Request, url: URL): Promise<Response> {
    if (request.method !== "GET") return methodNotAllowed();
    switch (url.pathname) {
      case "/ui/api/tools":
        return toolsAnswer(host, url);
      case "/ui/api/events":
        return eventsAnswer(history);
      case "/ui/api/file":
        return await fileAnswer(host, history, url);
      default:
        return jsonResponse(404, {
          error: `no route for ${request.method} ${url.pathname}`,
        });
    }
  }

  return {
    page(request, url) {
      const path = url.pathname;
      if (path === "/") return servePage(request, "index.html");
      if (!path.startsWith("/ui/") || path.startsWith("/ui/api/")) {
        return undefined;
      }
      return servePage(request, path.slice("/ui/".length));
    },
    api(request, url) {
      if (!url.pathname.startsWith("/ui/api/")) return undefined;
      return serveApi(request, url).then(secured);
    },
    close() {
      unsubscribe();
      history.close();
    },
  };
}

/**
 * The UI as mounts of the daemon's handler: the page's API under `/ui/api`
 * behind the token, the page and its files without it.
 */
export function webMounts(web: WebHandler): Mount[] {
  return [
    { prefix: "/ui/api", handler: (request, url) => web.api(request, url) },
    {
      prefix: "/",
      bearer: false,
      handler: (request, url) => web.page(request, url),
    },
  ];
}
