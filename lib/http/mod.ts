/**
 * The HTTP stage: the daemon's routes as one runtime-neutral function
 * from a web `Request` to a `Response`, over a tool host.
 *
 * @module
 */

export {
  createHandler,
  type DaemonHost,
  DEFAULT_MAX_BODY_BYTES,
  type HandlerOptions,
  type HostCall,
  type HostOutcome,
  type ListedTool,
  type Mount,
  type Scope,
} from "./create_handler.ts";
export { type CallBody, HttpError, parseCallBody } from "./call_body.ts";
export { isLoopbackHostHeader } from "../common/mod.ts";
export { decodeSegment, json, methodNotAllowed } from "./_respond.ts";
export {
  actingAgent,
  agentRefusal,
  type AgentTokenPrincipal,
  type AgentTokens,
  DAEMON_PRINCIPAL,
  mayActAs,
  type Principal,
} from "./principal.ts";
