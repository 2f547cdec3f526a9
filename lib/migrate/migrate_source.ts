/**
 * `beeuni tools migrate`, the pure part: given opencode custom tool
 * files read into syntax trees (and, when importing them worked, the
 * schemas opencode would hand the model), decide what to write: each tool
 * as a plain project tool module under `tools/`, the helpers they import,
 * and the manifest entries that declare them, through the one manifest
 * editor. A file whose tools cannot be declared (bad name, a name already
 * declared, an existing target) is not migrated, and says why; what needs a
 * look by hand is listed with `file:line`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseManifest } from "../manifest/mod.ts";
 * import { loadSourceParser } from "../project/mod.ts";
 * import { planMigrate } from "./migrate_source.ts";
 *
 * const files: Record<string, string> = { "beeuni.yaml": "tools:\n" };
 * const read = (path: string) => files[path];
 * const manifest = await parseManifest("/repo", "beeuni.yaml", read);
 * const parse = await loadSourceParser();
 * const path = "harnesses/opencode/tools/to_ms.ts";
 * const src = `import { tool } from "@opencode-ai/plugin";
 * export default tool({
 *   description: "Converts a duration to milliseconds",
 *   args: {},
 *   execute: async () => "60000",
 * });`;
 * const plan = await planMigrate({
 *   manifest,
 *   files: [{ path, src, parsed: parse(path, src) }],
 *   read,
 *   parse,
 *   force: false,
 * });
 * assert.deepEqual(plan.files[0].tools, [{ name: "to_ms", module: "tools/to_ms.ts" }]);
 * assert.match(plan.manifest!.after, /^  to_ms: tools\/to_ms\.ts/m);
 * ```
 *
 * @module
 */

import { posix } from "node:path";
import {
  BEEUNI_TOOLS,
  editManifestTools,
  isBeeuniTool,
  isHarnessTool,
  type Manifest,
  type ToolsEntry,
} from "../manifest/mod.ts";
import {
  convertSource,
  helperNotes,
  type ImportedSchemas,
  relocateSpecifiers,
} from "./_convert.ts";
import {
  findTools,
  isParseFailure,
  type ParsedSource,
  type ParseFailure,
  type SourceParser,
} from "../project/mod.ts";

export type { ExportSchema, ImportedSchemas } from "./_convert.ts";
export {
  importToolSchemas,
  PLUGIN_VERSION,
  pluginCacheDir,
} from "./_import.ts";

/** One thing to look at by hand. */
export interface MigrateNote {
  /** Repo-relative path of the file it is in (the original, or a helper). */
  file: string;
  /** 1-based line. */
  line: number;
  /** What to do. */
  message: string;
}

/** One file to migrate. */
export interface MigrateFile {
  /** Its repo-relative path. */
  path: string;
  /** Its text. */
  src: string;
  /** Its syntax tree, or why it could not be read. */
  parsed: ParsedSource | ParseFailure;
  /** What importing it gave, when it was imported. */
  schemas?: ImportedSchemas;
}

/** What {@linkcode planMigrate} needs. */
export interface MigrateRequest {
  /** The parsed manifest and its imports. */
  manifest: Manifest;
  /** The files to migrate. */
  files: readonly MigrateFile[];
  /** The text of a repo-relative file, or undefined when it does not exist. */
  read(path: string): string | undefined;
  /** Reads helper files into syntax trees. */
  parse: SourceParser;
  /** `--force`: overwrite existing files under `tools/`. */
  force: boolean;
}

/** A file a migrate writes. */
export interface MigrateWrite {
  /** Repo-relative path. */
  path: string;
  /** Its new text. */
  text: string;
  /** `tool` (a converted file), `reexport` (a named export's module) or `helper` (a copied import). */
  kind: "tool" | "reexport" | "helper";
  /** The repo-relative path of the original it comes from. */
  from: string;
}

/** What happens to one file. */
export interface MigrateOutcome {
  /** The file's repo-relative path. */
  path: string;
  /** Whether it is migrated. */
  migrated: boolean;
  /** Its tools and the modules declaring them. */
  tools: { name: string; module: string }[];
  /** The files written for it. */
  writes: MigrateWrite[];
  /** What needs a look by hand. */
  notes: MigrateNote[];
  /** Why it is not migrated. */
  problems: string[];
  /** Where it is copied to, when it holds no tool but a migrated tool imports it. */
  copiedTo?: string;
}

/** What a migrate writes. */
export interface MigratePlan {
  /** One outcome per file, in order. */
  files: MigrateOutcome[];
  /** The manifest edit, when a tool is migrated. */
  manifest?: {
    /** Repo-relative path of the manifest file that gets the entries. */
    path: string;
    /** Its text before. */
    before: string;
    /** Its text after. */
    after: string;
    /** The entries added. */
    entries: ToolsEntry[];
  };
}

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** Where a tool of the original `path` goes (`tools/<file>`). */
function targetOf(path: string): string {
  return `tools/${posix.basename(path)}`;
}

/** The re-export module serving the named export `exportName` of `./<file>` as a tool. */
export function reexportSource(file: string, exportName: string): string {
  const name = /^[A-Za-z_$][\w$]*$/.test(exportName)
    ? exportName
    : JSON.stringify(exportName);
  return `// The ${exportName} tool of ${file}, as its own module.\nexport { ${name} as default } from "./${file}";\n`;
}

function relativeSpecifier(fromDir: string, to: string): string {
  const rel = posix.relative(fromDir, to);
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** Why the tool name cannot be declared, if it cannot. */
function nameProblem(
  name: string,
  path: string,
  declared: ReadonlyMap<string, unknown>,
  module: string,
): string | undefined {
  if (!NAME.test(name)) {
    return `"${name}" is not a valid tool name (lowercase letters, digits and _, starting with a letter, V1): rename the file or export, then migrate it`;
  }
  if (isHarnessTool(name)) {
    return `"${name}" is a harness tool name (V2): rename the file or export, then migrate it`;
  }
  if (isBeeuniTool(name)) {
    return `"${name}" is a Beeuni tool's name: in the standard harness this file shadows the hosted "${name}" (V11); delete ${path} to use the hosted tool, or rename the file or export and migrate it`;
  }
  if (declared.has(name) && declared.get(name) !== module) {
    return `"${name}" is already declared under tools: (as ${
      JSON.stringify(declared.get(name))
    }): rename the file or export, or remove that entry`;
  }
  return undefined;
}

/** Files a migrated module imports: copied (inside the tool's folder) or pointed at (outside). */
interface Placement {
  writes: MigrateWrite[];
  notes: MigrateNote[];
  problems: string[];
}

/**
 * Follows the relative imports of the file `path`, which moves to
 * `newPath`: a file inside `baseDir` (the migrated tool's folder) is copied
 * to the same place under `tools/`, so its specifier stays; a file outside
 * it stays where it is and gets a specifier that leads there from the new
 * place.
 */
function placer(
  request: MigrateRequest,
  path: string,
  newPath: string,
  baseDir: string,
  migrating: ReadonlySet<string>,
  placement: Placement,
  seen: Set<string>,
): (specifier: string, line: number) => string {
  return (specifier, line) => {
    const target = posix.normalize(
      posix.join(posix.dirname(path), specifier),
    );
    if (target.startsWith("../")) {
      placement.notes.push({
        file: path,
        line,
        message:
          `imports "${specifier}", outside the repository: the module will not find it`,
      });
      return specifier;
    }
    const text = request.read(target);
    if (text === undefined) {
      placement.notes.push({
        file: path,
        line,
        message:
          `imports "${specifier}", which does not exist (write the file name with its extension)`,
      });
      return specifier;
    }
    const fromBase = posix.relative(baseDir, target);
    if (fromBase.startsWith("../")) {
      return relativeSpecifier(posix.dirname(newPath), target);
    }
    const moved = posix.join("tools", fromBase);
    if (!migrating.has(target) && !seen.has(target)) {
      seen.add(target);
      copyHelper(
        request,
        { path: target, moved, baseDir },
        text,
        migrating,
        placement,
        seen,
      );
    }
    return specifier;
  };
}

/** Copies the helper `path` to `moved`, following its own relative imports. */
function copyHelper(
  request: MigrateRequest,
  where: { path: string; moved: string; baseDir: string },
  text: string,
  migrating: ReadonlySet<string>,
  placement: Placement,
  seen: Set<string>,
): void {
  const { path, moved, baseDir } = where;
  let out = text;
  if (/\.(ts|js|mts|mjs|cts|cjs)$/.test(path)) {
    const parsed = request.parse(path, text);
    if (isParseFailure(parsed)) {
      placement.notes.push({
        file: path,
        line: parsed.line,
        message: `cannot read this helper (${parsed.message}): copied as is`,
      });
    } else {
      const relocate = placer(
        request,
        path,
        moved,
        baseDir,
        migrating,
        placement,
        seen,
      );
      out = relocateSpecifiers(text, parsed.program, relocate).text;
      for (const note of helperNotes(text, parsed.program)) {
        placement.notes.push({ file: path, ...note });
      }
    }
  }
  const existing = request.read(moved);
  if (existing === out) return;
  if (existing !== undefined && !request.force) {
    placement.problems.push(
      `${moved} exists (a helper it imports would go there): pass --force to overwrite it`,
    );
    return;
  }
  placement.writes.push({ path: moved, text: out, kind: "helper", from: path });
}

/** Plans one file; adds its names to `declared` when it is migrated. */
function planFile(
  request: MigrateRequest,
  file: MigrateFile,
  migrating: ReadonlySet<string>,
  declared: Map<string, unknown>,
  taken: Set<string>,
): MigrateOutcome {
  const outcome: MigrateOutcome = {
    path: file.path,
    migrated: false,
    tools: [],
    writes: [],
    notes: [],
    problems: [],
  };
  const { parsed } = file;
  if (isParseFailure(parsed)) {
    outcome.problems.push(
      `cannot read ${file.path}:${parsed.line}:${parsed.col}: ${parsed.message}`,
    );
    return outcome;
  }
  const placement: Placement = { writes: [], notes: [], problems: [] };
  const converted = convertSource({
    path: file.path,
    src: file.src,
    parsed,
    schemas: file.schemas,
    relocate: placer(
      request,
      file.path,
      targetOf(file.path),
      posix.dirname(file.path),
      migrating,
      placement,
      new Set(),
    ),
  });
  outcome.notes = [
    ...converted.notes.map((note) => ({ file: file.path, ...note })),
    ...placement.notes,
  ];
  if (converted.tools.length === 0) {
    outcome.problems.push(
      "no tool export found (export default tool({...}), export const x = tool({...}) or a plain { description, args, execute } object): nothing to migrate",
    );
    return outcome;
  }
  const target = targetOf(file.path);
  const ext = posix.extname(target);
  const writes: MigrateWrite[] = [
    { path: target, text: converted.source, kind: "tool", from: file.path },
  ];
  const names = new Set<string>();
  for (const tool of converted.tools) {
    const module = tool.exportName === "default"
      ? target
      : `tools/${tool.name}${ext}`;
    if (tool.exportName !== "default") {
      writes.push({
        path: module,
        text: reexportSource(posix.basename(target), tool.exportName),
        kind: "reexport",
        from: file.path,
      });
    }
    const problem = nameProblem(tool.name, file.path, declared, module) ??
      (names.has(tool.name)
        ? `"${tool.name}" is exported twice in this file`
        : undefined);
    if (problem) outcome.problems.push(problem);
    names.add(tool.name);
    outcome.tools.push({ name: tool.name, module });
  }
  for (const write of writes) {
    if (taken.has(write.path)) {
      outcome.problems.push(
        `another file of this migrate writes ${write.path}`,
      );
    } else if (!request.force && request.read(write.path) !== undefined) {
      outcome.problems.push(
        `${write.path} exists: pass --force to overwrite it`,
      );
    }
  }
  outcome.problems.push(...placement.problems);
  if (outcome.problems.length > 0) return outcome;
  outcome.writes = [
    ...writes,
    ...placement.writes.filter((w) => !taken.has(w.path)),
  ];
  for (const write of outcome.writes) taken.add(write.path);
  for (const tool of outcome.tools) declared.set(tool.name, tool.module);
  outcome.migrated = true;
  return outcome;
}

/** The manifest file new entries go to: as eject does. */
function manifestFileFor(
  manifest: Manifest,
): { path: string; hasKey: boolean } {
  const withKey =
    manifest.files.find((file) =>
      file.path === manifest.manifestPath && file.hasToolsKey
    ) ?? manifest.files.find((file) => file.hasToolsKey);
  return withKey
    ? { path: withKey.path, hasKey: true }
    : { path: manifest.manifestPath, hasKey: false };
}

/**
 * Decides what migrating `request.files` writes. Pure. Rejects with an
 * `Error` only when the manifest cannot be edited safely (its message says
 * what to write by hand); a file that cannot be migrated is an outcome with
 * `problems`.
 */
export async function planMigrate(
  request: MigrateRequest,
): Promise<MigratePlan> {
  const declared = new Map<string, unknown>();
  for (const file of request.manifest.files) {
    for (const entry of file.tools) declared.set(entry.name, entry.value);
  }
  const existing = new Map(declared);
  const migrating = new Set(
    request.files.filter((file) =>
      !isParseFailure(file.parsed) &&
      findTools(file.parsed.program).tools.length > 0
    ).map((file) => file.path),
  );
  const taken = new Set<string>();
  const files = request.files.map((file) =>
    planFile(request, file, migrating, declared, taken)
  );
  // A file without tools that a migrated tool imports is a helper: copied.
  for (const file of files) {
    if (migrating.has(file.path) || file.migrated) continue;
    const copy = files.flatMap((other) => other.writes).find((write) =>
      write.kind === "helper" && write.from === file.path
    );
    if (copy) {
      file.problems = [];
      file.notes = [];
      file.copiedTo = copy.path;
    }
  }
  // A tool declared already with this module (a second migrate) keeps its line.
  const entries: ToolsEntry[] = files.filter((file) => file.migrated)
    .flatMap((file) =>
      file.tools.filter((tool) => existing.get(tool.name) !== tool.module)
        .map((tool) => ({
          name: tool.name,
          value: tool.module,
          comment: `migrated from ${file.path}`,
        }))
    );
  if (entries.length === 0) return { files };
  const target = manifestFileFor(request.manifest);
  const before = request.read(target.path) ?? "";
  const after = await editManifestTools(before, entries, {
    file: target.path,
    newKey: target.hasKey ? undefined : BEEUNI_TOOLS.map((name) => ({
      name,
      value: `beeuni:${name}`,
    })),
  });
  return { files, manifest: { path: target.path, before, after, entries } };
}
