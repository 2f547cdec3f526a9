/**
 * `beeuni tools migrate` (O1-O3): opencode custom tools become project
 * tools.
 *
 * @module
 */

export {
  addManifestEntries,
  type ManifestEntry,
  type MigratedTool,
  type MigrateNote,
  type MigrateResult,
  migrateSource,
  reexportSource,
} from "./migrate_source.ts";
