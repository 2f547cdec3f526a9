// What `sessions log` and `sessions ls` share: their options and the
// folder holding the sessions of the project they act on.

import { dirname } from "node:path";
import type { CommandIo } from "./command.ts";
import { MANIFEST_OPTION } from "./_options.ts";
import { locateManifest } from "../project/mod.ts";
import { projectStateDir } from "../sessions/mod.ts";

/** The options of `sessions log` and `sessions ls`. */
export const SESSIONS_OPTIONS = {
  json: { type: "boolean", help: "print the records as JSON" },
  manifest: MANIFEST_OPTION,
} as const;

/** The state folder of the project `manifest` (or the current folder) leads to. */
export function sessionsStateDir(
  manifest: string | undefined,
  io: CommandIo,
): string {
  return projectStateDir(dirname(locateManifest(io.cwd, manifest)), io.env);
}
