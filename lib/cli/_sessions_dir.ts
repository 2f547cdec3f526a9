// What `sessions log` and `sessions ls` share: their options and the
// folder holding the sessions of the project they act on.

import { dirname } from "node:path";
import { type CommandIo, type ParsedArgs, parseOptions } from "./command.ts";
import { locateManifest } from "../project/mod.ts";
import { projectStateDir } from "../sessions/mod.ts";

/** The parsed `--json` and `--manifest` options and the project's state folder. */
export function sessionsArgs(
  args: string[],
  io: CommandIo,
): { parsed: ParsedArgs; json: boolean; stateDir: string } {
  const parsed = parseOptions(args, {
    json: { type: "boolean" },
    manifest: { type: "string" },
  });
  const manifest = parsed.values.manifest as string | undefined;
  const root = dirname(locateManifest(io.cwd, manifest));
  return {
    parsed,
    json: parsed.values.json === true,
    stateDir: projectStateDir(root, io.env),
  };
}
