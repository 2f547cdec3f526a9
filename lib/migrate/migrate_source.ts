/**
 * `beeuni tools migrate`, the pure part: given opencode custom tool
 * files read into syntax trees (and, when importing them worked, the
 * schemas opencode would hand the model), decide what to write: each tool
 * as a plain project tool module under `tools/`, the helpers they import,
 * and the manifest entries that declare them, through the one manifest
 * editor. Each tool gets a valid name (opencode's, one made from it, or
 * the user's choice); a tool whose name cannot be declared is left out and
 * says why, the file's other tools still migrate. A file that cannot be
 * written (unreadable, an existing target) is not migrated; a file with no
 * tool is a helper, copied when a migrated tool imports it. What needs a
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
 * assert.deepEqual(
 *   plan.files[0].tools.map((t) => [t.name, t.module]),
 *   [["to_ms", "tools/to_ms.ts"]],
 * );
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
  type ConvertedTool,
  convertSource,
  helperNotes,
  type ImportedSchemas,
} from "./_convert.ts";
import { nameTool } from "./_names.ts";
import { ImportResolver, relativeSpecifier } from "./_resolve.ts";
import { type Relocate, relocateSpecifiers } from "./_specifiers.ts";
import {
  findTools,
  isParseFailure,
  type Node,
  opencodeToolName,
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
export { ImportResolver } from "./_resolve.ts";
export { deriveToolName } from "./_names.ts";
export { exampleArgs } from "./_example_args.ts";

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
  /** `--name OLD=NEW`: a tool's name, by opencode's name (or the name made from it). */
  renames?: ReadonlyMap<string, string>;
  /** Finds imported files; one over `read` and `parse` when not given. */
  resolver?: ImportResolver;
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

/** One tool a file's migration declares. */
export interface MigratedTool {
  /** Its name under `tools:`. */
  name: string;
  /** What opencode calls it. */
  opencodeName: string;
  /** How it got its name: opencode's, made from it, or chosen with `--name`. */
  how: "same" | "derived" | "chosen";
  /** The module declaring it. */
  module: string;
  /** Its `parameters`. */
  parameters: Record<string, unknown>;
}

/** What happens to one file. */
export interface MigrateOutcome {
  /** The file's repo-relative path. */
  path: string;
  /** Whether it is migrated. */
  migrated: boolean;
  /** Its tools that are declared, and the modules declaring them. */
  tools: MigratedTool[];
  /** Its tools that are left out (by opencode's name), and why. */
  refused: { opencodeName: string; problem: string }[];
  /** The files written for it. */
  writes: MigrateWrite[];
  /** What needs a look by hand. */
  notes: MigrateNote[];
  /** Why it is not migrated. */
  problems: string[];
  /** It holds no tool: a helper, copied to `copiedTo` when a migrated tool imports it. */
  helper?: boolean;
  /** Where it is copied to, when it holds no tool but a migrated tool imports it. */
  copiedTo?: string;
}

/** What a migrate writes. */
export interface MigratePlan {
  /** One outcome per file, in order. */
  files: MigrateOutcome[];
  /** The `--name` keys that name no tool of the files. */
  unusedRenames: string[];
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

/** The re-export module serving the named export `exportName` of `./<file>` as a tool. */
export function reexportSource(file: string, exportName: string): string {
  const name = /^[A-Za-z_$][\w$]*$/.test(exportName)
    ? exportName
    : JSON.stringify(exportName);
  return `// The ${exportName} tool of ${file}, as its own module.\nexport { ${name} as default } from "./${file}";\n`;
}

/** What planning every file shares. */
interface Shared {
  request: MigrateRequest;
  resolver: ImportResolver;
  renames: ReadonlyMap<string, string>;
  /** `--name` keys used. */
  used: Set<string>;
  /** Where each file with tools goes, by its path. */
  targets: ReadonlyMap<string, string>;
  /** Names under `tools:`: the manifest's, then this migrate's. */
  declared: Map<string, unknown>;
  /** The file of this migrate that declares a name. */
  claimedBy: Map<string, string>;
  /** Paths written by this migrate. */
  taken: Set<string>;
}

/** Why the tool name cannot be declared, if it cannot. */
function nameProblem(
  shared: Shared,
  tool: { name: string; opencodeName: string; module: string },
  path: string,
): string | undefined {
  const { name, opencodeName, module } = tool;
  const choose = `pass --name ${opencodeName}=NEW to choose another`;
  if (isHarnessTool(name)) {
    return `"${name}" is a harness tool name (V2): ${choose}`;
  }
  if (isBeeuniTool(name)) {
    return `"${name}" is a Beeuni tool's name: in the standard harness this file shadows the hosted "${name}" (V11); delete ${path} to use the hosted tool, or pass --name ${opencodeName}=NEW to migrate it under another name`;
  }
  const other = shared.claimedBy.get(name);
  if (other !== undefined) {
    return other === path
      ? `"${name}" is the name of two tools of this file: ${choose}`
      : `"${name}" is also the name of a tool of ${other} in this migrate: ${choose}`;
  }
  if (shared.declared.has(name) && shared.declared.get(name) !== module) {
    return `"${name}" is already declared under tools: (as ${
      JSON.stringify(shared.declared.get(name))
    }): ${choose}, or remove that entry`;
  }
  return undefined;
}

/** Files a migrated module imports: copied (inside the tool's folder) or pointed at (outside). */
interface Placement {
  writes: MigrateWrite[];
  notes: MigrateNote[];
  problems: string[];
}

/** Where one file's imports are placed from. */
interface Place {
  /** The original's repo-relative path. */
  path: string;
  /** Where it goes. */
  newPath: string;
  /** The migrated tool's folder: files inside it are copied, the rest stay. */
  baseDir: string;
}

const SCRIPT = /\.(tsx?|jsx?|mts|mjs|cts|cjs)$/;
const COMMONJS = /\.c[jt]s$/;

/**
 * Places the imports of the file `at.path`, which moves to `at.newPath`:
 * a file another tool of this migrate is (moving too) is imported from its
 * new place; a file inside `baseDir` is copied to the same place under
 * `tools/`; a file outside it stays where it is. Each gets a specifier
 * with its real extension, as Deno and Node.js need.
 */
function placer(
  shared: Shared,
  at: Place,
  placement: Placement,
  seen: Set<string>,
): Relocate {
  return (specifier, line) => {
    const found = shared.resolver.resolve(at.path, specifier);
    if (found.kind === "package") return specifier;
    if (found.kind !== "file") {
      placement.notes.push({
        file: at.path,
        line,
        message: found.kind === "missing"
          ? found.message
          : `imports "${specifier}", outside the repository: the module will not find it`,
      });
      return specifier;
    }
    const target = found.path;
    const fromDir = posix.dirname(at.newPath);
    const moving = shared.targets.get(target);
    if (moving !== undefined) return relativeSpecifier(fromDir, moving);
    const fromBase = posix.relative(at.baseDir, target);
    if (fromBase.startsWith("../")) {
      if (!seen.has(target)) {
        seen.add(target);
        checkStaying(shared, target, placement, seen);
      }
      return relativeSpecifier(fromDir, target);
    }
    const moved = posix.join("tools", fromBase);
    if (!seen.has(target)) {
      seen.add(target);
      copyHelper(
        shared,
        { ...at, path: target, newPath: moved },
        placement,
        seen,
      );
    }
    return relativeSpecifier(fromDir, moved);
  };
}

/** The helper's syntax tree, or undefined (with a note) when it is not a script or cannot be read. */
function parseHelper(
  shared: Shared,
  path: string,
  text: string,
  placement: Placement,
  what: string,
): Node | undefined {
  if (!SCRIPT.test(path)) return undefined;
  const parsed = shared.request.parse(path, text);
  if (!isParseFailure(parsed)) return parsed.program;
  placement.notes.push({
    file: path,
    line: parsed.line,
    message: `cannot read this helper (${parsed.message}): ${what}`,
  });
  return undefined;
}

/** Copies the helper `at.path` to `at.newPath`, following its own imports. */
function copyHelper(
  shared: Shared,
  at: Place,
  placement: Placement,
  seen: Set<string>,
): void {
  const { request } = shared;
  const text = request.read(at.path)!;
  let out = text;
  const program = parseHelper(shared, at.path, text, placement, "copied as is");
  if (program) {
    const relocated = relocateSpecifiers(
      text,
      program,
      placer(shared, at, placement, seen),
      { commonjs: COMMONJS.test(at.path), moved: at.newPath },
    );
    out = relocated.text;
    for (const note of [...relocated.notes, ...helperNotes(text, program)]) {
      placement.notes.push({ file: at.path, ...note });
    }
  }
  const existing = request.read(at.newPath);
  if (existing === out) return;
  if (existing !== undefined && !request.force) {
    placement.problems.push(
      `${at.newPath} exists (a helper it imports would go there): pass --force to overwrite it`,
    );
    return;
  }
  placement.writes.push({
    path: at.newPath,
    text: out,
    kind: "helper",
    from: at.path,
  });
}

/**
 * Checks a file that stays where it is (outside the tool's folder) and is
 * imported from there, and what it imports in turn: what would keep it
 * from loading outside Bun is reported (migrate does not change it).
 */
function checkStaying(
  shared: Shared,
  path: string,
  placement: Placement,
  seen: Set<string>,
): void {
  const text = shared.request.read(path)!;
  const program = parseHelper(
    shared,
    path,
    text,
    placement,
    "check it by hand",
  );
  if (!program) return;
  const relocate: Relocate = (specifier, line) => {
    const found = shared.resolver.resolve(path, specifier);
    const note = (message: string) =>
      placement.notes.push({ file: path, line, message });
    if (found.kind === "missing") note(found.message);
    if (found.kind !== "file") return specifier;
    const exact = relativeSpecifier(posix.dirname(path), found.path);
    if (exact !== specifier) {
      note(
        `imports "${specifier}", which only Bun and TypeScript find (as ${found.path}): write "${exact}" so the migrated tool, which imports this file, loads under Deno and Node.js too`,
      );
    }
    if (!seen.has(found.path)) {
      seen.add(found.path);
      checkStaying(shared, found.path, placement, seen);
    }
    return specifier;
  };
  const checked = relocateSpecifiers(text, program, relocate, {
    commonjs: COMMONJS.test(path),
    stays: true,
  });
  for (const note of [...checked.notes, ...helperNotes(text, program)]) {
    placement.notes.push({ file: path, ...note });
  }
}

/** Where the tools of the file `path` go (`tools/<name>.<ext>`), by the name of its default tool or of the file. */
function targetOf(
  path: string,
  exports: readonly string[],
  renames: ReadonlyMap<string, string>,
): string {
  const fileName = posix.basename(path);
  const ext = posix.extname(fileName);
  const naming = nameTool(
    opencodeToolName(fileName, "default"),
    exports.includes("default") ? renames : new Map(),
    new Set(),
  );
  const stem = "name" in naming ? naming.name : fileName.slice(0, -ext.length);
  return `tools/${stem}${ext}`;
}

/** Names the file's tools into `outcome` (declared or refused); returns the re-export modules the declared ones need. */
function nameTools(
  shared: Shared,
  file: MigrateFile,
  tools: readonly ConvertedTool[],
  outcome: MigrateOutcome,
): MigrateWrite[] {
  const target = shared.targets.get(file.path)!;
  const ext = posix.extname(target);
  const writes: MigrateWrite[] = [];
  for (const tool of tools) {
    const opencodeName = tool.name;
    const naming = nameTool(opencodeName, shared.renames, shared.used);
    if (!("name" in naming)) {
      outcome.refused.push({
        opencodeName,
        problem:
          `"${opencodeName}" is not a valid tool name (lowercase letters, digits and _, starting with a letter, at most 64 characters, V1) and none can be made from it: pass --name ${opencodeName}=NEW to choose one`,
      });
      continue;
    }
    const module = tool.exportName === "default"
      ? target
      : `tools/${naming.name}${ext}`;
    const named = {
      name: naming.name,
      opencodeName,
      how: naming.how,
      module,
      parameters: tool.parameters,
    };
    const problem = nameProblem(shared, named, file.path);
    if (problem) {
      outcome.refused.push({ opencodeName, problem });
      continue;
    }
    shared.claimedBy.set(naming.name, file.path);
    outcome.tools.push(named);
    if (tool.exportName !== "default") {
      writes.push({
        path: module,
        text: reexportSource(posix.basename(target), tool.exportName),
        kind: "reexport",
        from: file.path,
      });
    }
  }
  return writes;
}

/** Plans one file; adds its names to `shared.declared` when it is migrated. */
function planFile(shared: Shared, file: MigrateFile): MigrateOutcome {
  const outcome: MigrateOutcome = {
    path: file.path,
    migrated: false,
    tools: [],
    refused: [],
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
  const target = shared.targets.get(file.path);
  if (target === undefined) {
    outcome.helper = true;
    return outcome;
  }
  const placement: Placement = { writes: [], notes: [], problems: [] };
  const place = {
    path: file.path,
    newPath: target,
    baseDir: posix.dirname(file.path),
  };
  const converted = convertSource({
    path: file.path,
    src: file.src,
    parsed,
    schemas: file.schemas,
    target,
    relocate: placer(shared, place, placement, new Set()),
  });
  // The original's notes by line, then each helper's.
  const order = (note: MigrateNote) => note.file === file.path ? "" : note.file;
  outcome.notes = [
    ...converted.notes.map((note) => ({ file: file.path, ...note })),
    ...placement.notes,
  ].sort((a, b) => order(a).localeCompare(order(b)) || a.line - b.line);
  const writes: MigrateWrite[] = [
    { path: target, text: converted.source, kind: "tool", from: file.path },
    ...nameTools(shared, file, converted.tools, outcome),
  ];
  if (outcome.tools.length === 0) return outcome;
  for (const write of writes) {
    if (shared.taken.has(write.path)) {
      outcome.problems.push(
        `another file of this migrate writes ${write.path}`,
      );
    } else if (
      !shared.request.force && shared.request.read(write.path) !== undefined
    ) {
      outcome.problems.push(
        `${write.path} exists: pass --force to overwrite it`,
      );
    }
  }
  outcome.problems.push(...placement.problems);
  if (outcome.problems.length > 0) {
    for (const tool of outcome.tools) shared.claimedBy.delete(tool.name);
    return outcome;
  }
  outcome.writes = [
    ...writes,
    ...placement.writes.filter((w) => !shared.taken.has(w.path)),
  ];
  for (const write of outcome.writes) shared.taken.add(write.path);
  for (const tool of outcome.tools) shared.declared.set(tool.name, tool.module);
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
 * what to write by hand); a file or tool that cannot be migrated is an
 * outcome with `problems` or `refused`.
 */
export async function planMigrate(
  request: MigrateRequest,
): Promise<MigratePlan> {
  const declared = new Map<string, unknown>();
  for (const file of request.manifest.files) {
    for (const entry of file.tools) declared.set(entry.name, entry.value);
  }
  const existing = new Map(declared);
  const renames = request.renames ?? new Map();
  const targets = new Map<string, string>();
  for (const file of request.files) {
    if (isParseFailure(file.parsed)) continue;
    const exports = findTools(file.parsed.program).tools.map((tool) =>
      tool.exportName
    );
    if (exports.length > 0) {
      targets.set(file.path, targetOf(file.path, exports, renames));
    }
  }
  const shared: Shared = {
    request,
    resolver: request.resolver ??
      new ImportResolver(request.read, request.parse),
    renames,
    used: new Set(),
    targets,
    declared,
    claimedBy: new Map(),
    taken: new Set(),
  };
  const files = request.files.map((file) => planFile(shared, file));
  // A file without tools that a migrated tool imports is a helper: copied.
  for (const file of files) {
    if (!file.helper) continue;
    file.copiedTo = files.flatMap((other) => other.writes).find((write) =>
      write.kind === "helper" && write.from === file.path
    )?.path;
  }
  const unusedRenames = [...renames.keys()].filter((key) =>
    !shared.used.has(key)
  );
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
  if (entries.length === 0) return { files, unusedRenames };
  const target = manifestFileFor(request.manifest);
  const before = request.read(target.path) ?? "";
  const after = await editManifestTools(before, entries, {
    file: target.path,
    newKey: target.hasKey ? undefined : BEEUNI_TOOLS.map((name) => ({
      name,
      value: `beeuni:${name}`,
    })),
  });
  return {
    files,
    unusedRenames,
    manifest: { path: target.path, before, after, entries },
  };
}
