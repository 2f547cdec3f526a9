/**
 * The daemon's HTTP interface as one runtime-neutral function from a web
 * `Request` to a `Response`, over a tool host. Every runtime adapter
 * (`Deno.serve`, `Bun.serve`, `node:http`) serves the same function.
 *
 * Every request must come with a loopback `Host` header and the daemon's
 * bearer token, or an agent token (`agentTokens`), which acts only as its
 * agents: another agent asked for gets 403 naming them. Under a secret
 * path prefix (`scope`, the web UI's), another credential may stand in
 * for the token (the web UI's session cookie). Routes:
 *
 * | method | path | answer |
 * | --- | --- | --- |
 * | GET | `/beeuni/health` | `{ ok, tools, running }` |
 * | GET | `/beeuni/tools?agent=A&parentAgent=P&target=T` | `{ tools: [{ name, description, parameters, problems? }] }` |
 * | POST | `/beeuni/tools/<name>?target=T` | `{ output }` or `{ error }` |
 *
 * With `target` (`openai`, `openai-strict`, `anthropic` or `gemini`), the
 * schemas are shaped for that provider and a call's arguments mapped back
 * and checked against the tool's own schema.
 * | POST | `/beeuni/sessions/<id>/stop` | `{ stopped }` |
 *
 * Other handlers mount under a path prefix (`mounts`), behind the same
 * checks.
 *
 * Names a caller sends (a tool name or session id in the path, a query
 * parameter, the call body's `sessionId`, `agent` and `parentAgent`) are
 * at most 400 characters: a longer one gets 400 with an error naming it.
 *
 * @example Call a tool of an in-memory host through the handler
 * ```ts
 * import assert from "node:assert/strict";
 * import { createHandler, type DaemonHost } from "@beeuni/tools/http";
 *
 * const host: DaemonHost = {
 *   list: () => [{ name: "echo", description: "Echoes", parameters: { type: "object" } }],
 *   call: (request) => Promise.resolve({ ok: true, output: JSON.stringify(request.args) }),
 *   stopSession: () => 0,
 *   running: () => 0,
 * };
 * const handler = createHandler({ host, token: "a-long-random-token" });
 * const call = (token: string) =>
 *   handler(
 *     new Request("http://127.0.0.1:8787/beeuni/tools/echo", {
 *       method: "POST",
 *       headers: { host: "127.0.0.1:8787", authorization: `Bearer ${token}` },
 *       body: JSON.stringify({ args: { text: "hi" }, sessionId: "s1", agent: "beeuni" }),
 *     }),
 *   );
 * assert.equal((await call("not-the-token")).status, 401);
 * assert.deepEqual(await (await call("a-long-random-token")).json(), {
 *   output: '{"text":"hi"}',
 * });
 * ```
 *
 * @module
 */

import { basename } from "node:path";
import { BodyTextError, errorMessage, escapeControl } from "../common/mod.ts";
import { agentNames } from "../manifest/mod.ts";
import { callerWatch } from "./_caller_watch.ts";
import { bearerOf, checkHost, tokenChecker, unauthorized } from "./_guard.ts";
import { checkQuery, json } from "./_respond.ts";
import { beeuniRoutes, type DaemonHost, dispatch } from "./_routes.ts";
import { HttpError } from "./call_body.ts";
import {
  type AgentTokenPrincipal,
  type AgentTokens,
  DAEMON_PRINCIPAL,
  orphanedAgentProblem,
  type Principal,
} from "./principal.ts";
import { endWithToken } from "./_token_streams.ts";

export type {
  DaemonHost,
  HostCall,
  HostOutcome,
  ListedTool,
} from "./_routes.ts";

/** The default largest request body accepted: 10 MiB. */
export const DEFAULT_MAX_BODY_BYTES: number = 10 * 1024 * 1024;

/** Another handler, asked about the paths under `prefix`. */
export interface Mount {
  /** The path prefix it is asked about, e.g. `/mcp` (that path and those below it; `/` is every path). */
  prefix: string;
  /**
   * Answers the request, or gives `undefined` for a path that is not its
   * own. `principal` is whom the request acts as (`undefined` for a mount
   * asked without a credential).
   */
  handler: (
    request: Request,
    url: URL,
    principal: Principal | undefined,
  ) => Promise<Response> | undefined;
  /** Whether its requests need the bearer token; default true. */
  bearer?: boolean;
}

/**
 * A secret path prefix (the web UI's `/w/<random>/`) whose requests another
 * credential than the bearer token may open: that credential works there
 * and nowhere else. Under the prefix, `mounts` and then the `/beeuni/`
 * routes answer, each seeing the path without the prefix
 * (`/w/…/beeuni/health` is `/beeuni/health`); the handler's own `mounts`
 * are not asked.
 */
export interface Scope {
  /** The prefix: starts and ends with `/`, e.g. `/w/0f3a…/`. */
  prefix: string;
  /** Handlers asked, in order, about paths under the prefix (seen without it). */
  mounts: Mount[];
  /**
   * Another credential, asked about a request under the prefix that lacks
   * the bearer token: whom it acts as when it carries one valid for its
   * path (seen without the prefix), else `undefined`. An agent token's
   * holder is checked again against the handler's `agentTokens`, so a
   * removed token stops working at once. It may throw an
   * {@linkcode HttpError} to refuse the request with that status (a session
   * cookie sent from a foreign page).
   */
  authorize: (request: Request, url: URL) => Principal | undefined;
  /** Headers set on every response under the prefix, refusals included. */
  headers?: Record<string, string>;
}

/** How the handler behaves. */
export interface HandlerOptions {
  /** The host that runs the tools. */
  host: DaemonHost;
  /** The daemon's bearer token: it acts as every agent. */
  token: string;
  /** Agent tokens accepted beside it, each acting only as its agents. */
  agentTokens?: AgentTokens;
  /** The largest request body accepted, in bytes (default 10 MiB). */
  maxBodyBytes?: number;
  /** Skip the loopback `Host` header check (only with `--allow-remote`). */
  allowAnyHost?: boolean;
  /** Handlers of other paths, checked in order before the `/beeuni/` routes (not under `scope`). */
  mounts?: Mount[];
  /** A secret path prefix where another credential may stand in for the token. */
  scope?: Scope;
  /** Receives one line per refused request (no token, argument or secret in it). */
  log?: (line: string) => void;
}

/** The path as logs show it: a scope's secret prefix stays out of them. */
function logPath(url: URL, scope: Scope | undefined): string {
  return scope ? `<secret prefix>${url.pathname}` : url.pathname;
}

function under(prefix: string, path: string): boolean {
  if (prefix === "/") return true;
  return path === prefix ||
    path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`);
}

/**
 * Builds the daemon's request handler over `options.host`. The handler
 * never throws: every failure is a JSON `{ "error": "..." }` response.
 */
export function createHandler(
  options: HandlerOptions,
): (request: Request) => Promise<Response> {
  // Reasons may quote what the request sent: escape control characters.
  const sink = options.log ?? (() => {});
  const log = (line: string) => sink(escapeControl(line));
  const isDaemonToken = tokenChecker(options.token);
  const agentTokens = options.agentTokens;
  /** Refuses an agent token one of whose agents the manifest lost (403). */
  const checkAgents = (holder: AgentTokenPrincipal): AgentTokenPrincipal => {
    const manifest = options.host.manifest?.();
    if (manifest === undefined) return holder;
    const problem = orphanedAgentProblem(
      holder,
      agentNames(manifest),
      basename(manifest.manifestPath),
    );
    if (problem !== undefined) throw new HttpError(403, problem);
    return holder;
  };
  /**
   * Whom the request acts as; `undefined` when no credential holds.
   *
   * @throws {HttpError} A 403 for an agent token one of whose agents the
   * manifest no longer defines.
   */
  const principalOf = (
    request: Request,
    url: URL,
    scope: Scope | undefined,
  ): Principal | undefined => {
    const bearer = bearerOf(request.headers.get("authorization"));
    if (bearer !== undefined) {
      if (isDaemonToken(bearer)) return DAEMON_PRINCIPAL;
      const holder = agentTokens?.verify(bearer);
      if (holder !== undefined) {
        return checkAgents({ kind: "agent-token", ...holder });
      }
    }
    const scoped = scope?.authorize(request, url);
    if (scoped?.kind !== "agent-token") return scoped;
    if (!(agentTokens?.holds(scoped) ?? false)) return undefined;
    return checkAgents(scoped);
  };
  /** `response`, whose event stream ends when the agent token behind it goes. */
  const ending = (
    response: Response,
    principal: Principal | undefined,
  ): Response =>
    principal?.kind === "agent-token" && agentTokens !== undefined
      ? endWithToken(response, principal, agentTokens)
      : response;
  const mounts = options.mounts ?? [];
  const routes = beeuniRoutes(
    options.host,
    options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    callerWatch(),
  );

  async function answer(
    request: Request,
    url: URL,
    scope: Scope | undefined,
  ): Promise<Response> {
    let checked: { principal: Principal | undefined } | undefined;
    const authed = () =>
      (checked ??= { principal: principalOf(request, url, scope) }).principal;
    const refuse = () => {
      // An agent token's shape is no secret; the token never reaches a log.
      const prefix = agentTokens?.prefix;
      const agentToken = prefix !== undefined &&
        (bearerOf(request.headers.get("authorization"))?.startsWith(prefix) ??
          false);
      log(
        `[http] 401 ${request.method} ${logPath(url, scope)}: ${
          agentToken
            ? "unknown, expired or removed agent token"
            : "missing or wrong bearer token"
        }`,
      );
      return unauthorized(agentToken);
    };
    for (const mount of scope?.mounts ?? mounts) {
      if (!under(mount.prefix, url.pathname)) continue;
      const principal = mount.bearer === false ? undefined : authed();
      if (mount.bearer !== false && principal === undefined) return refuse();
      const response = mount.handler(request, url, principal);
      if (response) return ending(await response, principal);
    }
    const principal = authed();
    if (principal === undefined) return refuse();
    return ending(
      await dispatch(routes, request, url, principal) ??
        json(404, { error: `no route for ${request.method} ${url.pathname}` }),
      principal,
    );
  }

  async function respond(
    request: Request,
    url: URL,
    scope: Scope | undefined,
  ): Promise<Response> {
    const where = `${request.method} ${logPath(url, scope)}`;
    if (!options.allowAnyHost) {
      const refused = checkHost(request);
      if (refused) {
        log(`[http] 421 ${where}: Host header is not a loopback name`);
        return refused;
      }
    }
    try {
      // No route takes a long query parameter: none reaches a log or a reply.
      checkQuery(url);
      return await answer(request, url, scope);
    } catch (error) {
      if (error instanceof HttpError || error instanceof BodyTextError) {
        log(`[http] ${error.status} ${where}: ${error.message}`);
        return json(error.status, { error: error.message });
      }
      const message = errorMessage(error);
      log(`[http] 500 ${where}: ${message}`);
      return json(500, { error: `internal error: ${message}` });
    }
  }

  return async function handle(request: Request): Promise<Response> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return json(400, { error: "malformed request URL" });
    }
    const scope = options.scope !== undefined &&
        url.pathname.startsWith(options.scope.prefix)
      ? options.scope
      : undefined;
    if (scope) {
      url = new URL(url);
      url.pathname = url.pathname.slice(scope.prefix.length - 1);
    }
    const response = await respond(request, url, scope);
    for (const [name, value] of Object.entries(scope?.headers ?? {})) {
      response.headers.set(name, value);
    }
    return response;
  };
}
