// What `tools eject` and `tools new` both start with: the tool a command
// names, and the project from `--manifest` or the current folder.

import { type CommandIo, UsageError } from "./command.ts";
import { loadProject, type Project } from "../project/mod.ts";

/** The tool a command names, and the project it acts on. */
export interface NamedProject {
  /** The tool's name. */
  name: string;
  /** The project. */
  project: Project;
}

/**
 * The name in `positionals` and the project `manifest` (or the current
 * folder) leads to; a missing name is a usage error saying `missing`.
 */
export async function namedProject(
  positionals: string[],
  manifest: string | undefined,
  io: CommandIo,
  missing: string,
): Promise<NamedProject> {
  if (positionals.length === 0) throw new UsageError(missing);
  if (manifest === "") throw new UsageError("--manifest needs a path");
  const project = await loadProject({ cwd: io.cwd, manifest });
  return { name: positionals[0], project };
}
