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
  isLoopbackHostHeader,
  type ListedTool,
} from "./create_handler.ts";
