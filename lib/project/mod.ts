/**
 * The project stage: finds a project's root manifest (M1), reads it and
 * its imports from disk, gathers what the validator needs to know about the
 * files (existence, symlinks, git), and validates and resolves it.
 *
 * @module
 */

export {
  findManifest,
  locateManifest,
  MANIFEST_NAME,
} from "./locate_manifest.ts";
export {
  loadProject,
  type LoadProjectOptions,
  type Project,
} from "./load_project.ts";
