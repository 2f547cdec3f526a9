/**
 * What Streamable HTTP checks before a message reaches the MCP core: the
 * path's agent, `Origin`, `Accept` and `Content-Type`, the length of the
 * MCP headers, the body's size and JSON, and the stateless revision's
 * headers against its body. A check that fails throws a
 * {@linkcode Refusal}: an HTTP status with a JSON-RPC error body.
 *
 * @module
 */

import {
  BodyTextError,
  callerStringProblem,
  isLoopbackHostname,
  readBodyText,
} from "../common/mod.ts";
import {
  errorResponse,
  HEADER_MISMATCH,
  PARSE_ERROR,
  type RequestId,
  type RpcRequest,
  type RpcResponse,
  TRANSPORT_ERROR,
} from "./_jsonrpc.ts";
import { decodeNameHeader } from "./_protocol.ts";
import {
  agentRefusal,
  type AgentTokenPrincipal,
  mayActAs,
  type Principal,
} from "../http/mod.ts";

/** An HTTP refusal carrying a JSON-RPC error body. */
export class Refusal extends Error {
  /** The HTTP status. */
  status: number;
  /** The body. */
  response: RpcResponse;
  /** Headers to add (`Allow`). */
  headers: Record<string, string>;

  /** A refusal with `status` and `response`. */
  constructor(
    status: number,
    response: RpcResponse,
    headers: Record<string, string> = {},
  ) {
    super("error" in response ? response.error.message : "refused");
    this.status = status;
    this.response = response;
    this.headers = headers;
  }
}

/** Throws a {@linkcode Refusal}. */
export function refuse(
  status: number,
  code: number,
  message: string,
  id: RequestId | null = null,
  headers?: Record<string, string>,
): never {
  throw new Refusal(status, errorResponse(id, code, message), headers);
}

/** A JSON response. */
export function json(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): Response {
  // Response.json costs less than a Response with its header set by hand.
  const response = status === 200
    ? Response.json(body)
    : Response.json(body, { status });
  if (headers) {
    for (const [key, value] of Object.entries(headers)) {
      response.headers.set(key, value);
    }
  }
  return response;
}

/** Refuses (403) a browser `Origin` other than a loopback one, or (when allowed) the server's own. */
export function checkOrigin(request: Request, sameOrigin: boolean): void {
  const origin = request.headers.get("origin");
  if (origin === null || originAllowed(origin, request, sameOrigin)) return;
  refuse(
    403,
    TRANSPORT_ERROR,
    `Forbidden: Origin "${
      origin.slice(0, 200)
    }" is not allowed: only loopback pages may call this server`,
  );
}

function originAllowed(
  origin: string,
  request: Request,
  sameOrigin: boolean,
): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (isLoopbackHostname(url.hostname)) return true;
  return sameOrigin && url.host === request.headers.get("host");
}

/**
 * The agent a path names: `beeuni` for `/mcp`, the decoded segment of
 * `/mcp/<agent>`. A path that names none is refused (404), a name over the
 * caller-string limit too (400). With an agent token (`principal`), `/mcp`
 * is the token's first agent, and an agent it does not hold is refused
 * (403, naming the token's agents).
 */
export function agentOf(path: string, principal?: Principal): string {
  if (path === "/mcp" || path === "/mcp/") {
    return principal?.kind === "agent-token" ? principal.agents[0] : "beeuni";
  }
  const match = /^\/mcp\/([^/]+)\/?$/.exec(path);
  let name: string | undefined;
  try {
    name = match ? decodeURIComponent(match[1]) : undefined;
  } catch {
    name = undefined;
  }
  // deno-lint-ignore no-control-regex
  if (name === undefined || /[\x00-\x1f\x7f/]/.test(name)) {
    refuse(
      404,
      TRANSPORT_ERROR,
      "Not Found: MCP is served at /mcp (agent beeuni) and /mcp/<agent>",
    );
  }
  checkLength("the agent in the path", name);
  if (principal !== undefined && !mayActAs(principal, name)) {
    refuse(
      403,
      TRANSPORT_ERROR,
      `Forbidden: ${
        agentRefusal((principal as AgentTokenPrincipal).agents, name)
      }`,
    );
  }
  return name;
}

/** Refuses (400) a caller string over the length limit; `what` names it. */
function checkLength(what: string, value: string): void {
  const problem = callerStringProblem(what, value);
  if (problem !== undefined) {
    refuse(400, TRANSPORT_ERROR, `Bad Request: ${problem}`);
  }
}

/** The MCP headers a client names things with: each is a caller string. */
const NAMING_HEADERS = [
  "Mcp-Session-Id",
  "MCP-Protocol-Version",
  "Mcp-Method",
  "Mcp-Name",
];

/** Refuses (400) a request whose MCP header is over the length limit. */
export function checkHeaders(request: Request): void {
  for (const name of NAMING_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) checkLength(`the ${name} header`, value);
  }
}

/** An `Accept` header in lower case, or "" when absent. */
export function accepted(header: string | null): string {
  return header === null ? "" : header.toLowerCase();
}

/** Whether an `Accept` value (lower case) takes JSON. */
export function acceptsJson(accept: string): boolean {
  return accept.includes("application/json") ||
    accept.includes("application/*") || accept.includes("*/*");
}

/** Whether an `Accept` value (lower case) takes an event stream. */
export function acceptsSse(accept: string): boolean {
  return accept.includes("text/event-stream") || accept.includes("text/*") ||
    accept.includes("*/*");
}

/** Refuses a `POST` whose `Accept` takes no JSON (406) or whose body is not declared JSON (415). */
export function checkPostHeaders(request: Request, accept: string): void {
  if (!acceptsJson(accept)) {
    refuse(
      406,
      TRANSPORT_ERROR,
      "Not Acceptable: the Accept header must list application/json and text/event-stream",
    );
  }
  const type = request.headers.get("content-type");
  if (
    type === null || type.split(";")[0].trim().toLowerCase() !==
      "application/json"
  ) {
    refuse(
      415,
      TRANSPORT_ERROR,
      "Unsupported Media Type: Content-Type must be application/json",
    );
  }
}

/** The body of `request` as JSON, refusing one over `limit` bytes (413) or not JSON (400). */
export async function readJson(
  request: Request,
  limit: number,
): Promise<unknown> {
  const text = await readBody(request, limit);
  try {
    return JSON.parse(text);
  } catch {
    return refuse(
      400,
      PARSE_ERROR,
      text.trim() === ""
        ? "Parse error: the body is empty"
        : "Parse error: the body is not valid JSON",
    );
  }
}

/** The body as text: over `limit` bytes a 413, not UTF-8 a parse error. */
async function readBody(request: Request, limit: number): Promise<string> {
  try {
    return await readBodyText(request, limit);
  } catch (error) {
    if (!(error instanceof BodyTextError)) throw error;
    return error.status === 413
      ? refuse(413, TRANSPORT_ERROR, error.message)
      : refuse(400, PARSE_ERROR, `Parse error: ${error.message}`);
  }
}

/**
 * Refuses (400, -32020) a stateless-revision request whose headers
 * disagree with its body: `MCP-Protocol-Version`, `Mcp-Method`, and
 * `Mcp-Name` for a `tools/call`.
 */
export function checkModernHeaders(
  request: Request,
  message: RpcRequest,
  version: string,
): void {
  const mismatch = (detail: string) =>
    refuse(
      400,
      HEADER_MISMATCH,
      `Bad Request: the request headers and body disagree: ${detail}`,
      message.id,
    );
  const versionHeader = request.headers.get("mcp-protocol-version");
  if (versionHeader === null) {
    mismatch("the MCP-Protocol-Version header is missing");
  } else if (versionHeader.trim() !== version) {
    mismatch(
      `MCP-Protocol-Version is "${versionHeader}" but the body names ${version}`,
    );
  }
  const method = request.headers.get("mcp-method");
  if (method === null) mismatch("the Mcp-Method header is missing");
  else if (method.trim() !== message.method) {
    mismatch(
      `Mcp-Method is "${method}" but the body's method is "${message.method}"`,
    );
  }
  const name = message.params?.name;
  if (message.method === "tools/call" && typeof name === "string") {
    const header = request.headers.get("mcp-name");
    if (header === null) mismatch("the Mcp-Name header is missing");
    else if (decodeNameHeader(header) !== name) {
      mismatch(`Mcp-Name does not name the tool "${name}"`);
    }
  }
}
