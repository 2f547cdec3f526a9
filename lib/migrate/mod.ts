/**
 * `beeuni tools migrate`: opencode custom tools become project
 * tools, read with a real TypeScript parser, their `parameters` computed
 * with real zod as opencode does.
 *
 * @module
 */

export {
  deriveToolName,
  exampleArgs,
  type ExportSchema,
  type ImportedSchemas,
  ImportResolver,
  importToolSchemas,
  type MigratedTool,
  type MigrateFile,
  type MigrateNote,
  type MigrateOutcome,
  type MigratePlan,
  type MigrateRequest,
  type MigrateWrite,
  planMigrate,
  PLUGIN_VERSION,
  pluginCacheDir,
  reexportSource,
} from "./migrate_source.ts";
