/**
 * The errors of a daemon that cannot listen where it was told to.
 *
 * @module
 */

import { errorMessage } from "../common/mod.ts";

/**
 * The daemon could not listen on its address and port. `cause` is the
 * server's own error; the message says what to do.
 *
 * @example Tell a port in use from other failures to listen
 * ```ts
 * import { ListenError, listenError, PortInUseError } from "./listen_error.ts";
 *
 * const inUse = Object.assign(new Error("address in use"), { code: "EADDRINUSE" });
 * const error = listenError({ hostname: "127.0.0.1", port: 8787 }, inUse);
 * console.assert(error instanceof PortInUseError);
 * console.assert(error instanceof ListenError && error.cause === inUse);
 * ```
 */
export class ListenError extends Error {
  /** Always `"ListenError"`. */
  override name = "ListenError";
  /** The address it was to listen on. */
  readonly hostname: string;
  /** The port it was to listen on. */
  readonly port: number;

  /** A failure to listen on `hostname:port`, caused by `options.cause`. */
  constructor(
    message: string,
    where: { hostname: string; port: number },
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.hostname = where.hostname;
    this.port = where.port;
  }
}

/** The port is in use: another daemon or program listens there. */
export class PortInUseError extends ListenError {
  /** Always `"PortInUseError"`. */
  override name = "PortInUseError";
}

/**
 * Why a daemon cannot listen on `where`, from the server's `error`: a
 * {@linkcode PortInUseError} for a port in use, otherwise a
 * {@linkcode ListenError}; either carries `error` as its `cause`.
 *
 * @returns The error to throw, its message saying what to do.
 */
export function listenError(
  where: { hostname: string; port: number },
  error: unknown,
): ListenError {
  const at = `cannot listen on ${where.hostname}:${where.port}`;
  if ((error as { code?: unknown })?.code === "EADDRINUSE") {
    return new PortInUseError(
      `${at}: the port is in use (another daemon or program listens there); pass another --port, or --port 0 to pick a free one`,
      where,
      { cause: error },
    );
  }
  return new ListenError(`${at}: ${errorMessage(error)}`, where, {
    cause: error,
  });
}
