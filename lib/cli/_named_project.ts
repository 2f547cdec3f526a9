// What `tools eject` and `tools new` both start with: one tool name, a
// flag of their own, and the project from `--manifest` or the current
// folder.

import { type CommandIo, parseOptions, UsageError } from "./command.ts";
import { loadProject, type Project } from "../project/mod.ts";

/** The tool a command names, the project it acts on, and whether `flag` was given. */
export interface NamedProject {
  /** The tool's name. */
  name: string;
  /** The project. */
  project: Project;
  /** Whether the command's flag was given. */
  flag: boolean;
}

/**
 * Reads `<name> [--<flag>] [--manifest PATH]` from `args` and loads the
 * project; a missing name is a usage error saying `missing`.
 */
export async function namedProject(
  args: string[],
  io: CommandIo,
  flag: string,
  missing: string,
): Promise<NamedProject> {
  const { values, positionals } = parseOptions(args, {
    [flag]: { type: "boolean" },
    manifest: { type: "string" },
  });
  if (positionals.length === 0) throw new UsageError(missing);
  if (positionals.length > 1) {
    throw new UsageError(`unexpected argument "${positionals[1]}"`);
  }
  const manifest = values.manifest as string | undefined;
  if (manifest === "") throw new UsageError("--manifest needs a path");
  const project = await loadProject({ cwd: io.cwd, manifest });
  return { name: positionals[0], project, flag: values[flag] === true };
}
