// The connection limits' defaults, apart from the guard: the runtime face
// exports them, and it must load no `node:*` module (see mod.ts).

import type { ConnectionLimits } from "./types.ts";

/** The connection limits a server uses when none are given. */
export const DEFAULT_CONNECTION_LIMITS: Readonly<Required<ConnectionLimits>> =
  Object.freeze({
    maxConnections: 512,
    headerTimeoutMs: 10_000,
    idleTimeoutMs: 5_000,
  });
