/**
 * `beeuni tools migrate [FILE…] [--force]` (O1–O4): moves opencode custom
 * tools from `harnesses/opencode/tools/` into the project as plain tool
 * modules under `tools/`, declares them under `tools:` in the manifest, and
 * lists what needs converting by hand. The originals stay in place until
 * the user deletes them.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import process from "node:process";
import {
  type Command,
  type CommandIo,
  defineCommand,
  UsageError,
} from "./command.ts";
import {
  importToolSchemas,
  type MigrateFile,
  type MigrateOutcome,
  type MigratePlan,
  planMigrate,
} from "../migrate/mod.ts";
import {
  loadProject,
  loadSourceParser,
  MAX_SOURCE_BYTES,
  type SourceParser,
} from "../project/mod.ts";
import { LEGACY_TOOLS_DIR } from "../manifest/mod.ts";

/** Writes `text` to `path` through a temporary file in the same folder and a rename. */
function writeAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = join(
    dirname(path),
    `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`,
  );
  writeFileSync(temp, text, { flag: "wx", mode: 0o644 });
  try {
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The files to migrate: the positionals, or every tool file of the legacy folder. */
function filesToMigrate(
  root: string,
  cwd: string,
  positionals: string[],
): string[] {
  if (positionals.length > 0) {
    return positionals.map((file) => resolve(cwd, file));
  }
  const legacyDir = join(root, LEGACY_TOOLS_DIR);
  let entries: string[] = [];
  try {
    entries = readdirSync(legacyDir).sort();
  } catch {
    // No folder.
  }
  return entries.filter((entry) => /\.(ts|js)$/.test(entry))
    .map((entry) => join(legacyDir, entry))
    .filter((path) => statSync(path).isFile());
}

/** Reads a repo-relative file, or undefined when it is not a readable file. */
function reader(root: string): (path: string) => string | undefined {
  return (path) => {
    try {
      const full = join(root, path);
      if (!statSync(full).isFile()) return undefined;
      return readFileSync(full, "utf8");
    } catch {
      return undefined;
    }
  };
}

/** The lines printed for one file. */
function outcomeLines(
  outcome: MigrateOutcome,
  manifestFile: string | undefined,
): { out: string[]; err: string[] } {
  const checks = outcome.notes.map((note) =>
    `  check   ${note.file}:${note.line}: ${note.message}`
  );
  if (outcome.copiedTo) {
    return {
      out: [
        `  ✓  Copied ${outcome.path} to ${outcome.copiedTo} (a helper the migrated tools import)`,
      ],
      err: [],
    };
  }
  if (!outcome.migrated) {
    return {
      out: [],
      err: [
        `  ✗  Not migrated ${outcome.path}`,
        ...outcome.problems.map((problem) => `  ${problem}`),
        ...checks,
      ],
    };
  }
  return {
    out: [
      `  ✓  Migrated ${outcome.path}`,
      ...outcome.writes.map((write) =>
        write.kind === "helper"
          ? `  copied  ${write.path} (a helper it imports, from ${write.from})`
          : `  wrote   ${write.path}`
      ),
      ...outcome.tools.map((tool) =>
        `  set     ${manifestFile}: tools.${tool.name}: ${tool.module}`
      ),
      ...checks,
    ],
    err: [],
  };
}

/** Writes the plan's files, then the manifest, each atomically. */
function writePlan(root: string, plan: MigratePlan): void {
  for (const outcome of plan.files) {
    for (const write of outcome.writes) {
      writeAtomic(join(root, write.path), write.text);
    }
  }
  if (plan.manifest && plan.manifest.after !== plan.manifest.before) {
    writeAtomic(join(root, plan.manifest.path), plan.manifest.after);
  }
}

/** Reads and parses each file; the paths are repo-relative from here on. */
function readFiles(
  root: string,
  paths: string[],
  parse: SourceParser,
): MigrateFile[] {
  const realRoot = resolve(root);
  return paths.map((full) => {
    const path = relative(realRoot, full).split(sep).join("/");
    if (path.startsWith("..")) {
      throw new UsageError(`"${full}" is outside the project`);
    }
    let src: string;
    try {
      if (statSync(full).size > MAX_SOURCE_BYTES) {
        return {
          path,
          src: "",
          parsed: {
            line: 1,
            col: 1,
            message: `the file is over ${MAX_SOURCE_BYTES} bytes`,
          },
        };
      }
      src = readFileSync(full, "utf8");
    } catch {
      return {
        path,
        src: "",
        parsed: { line: 1, col: 1, message: "file not found" },
      };
    }
    return { path, src, parsed: parse(path, src) };
  });
}

const OPTIONS = {
  force: { type: "boolean", help: "overwrite existing files under tools/" },
  manifest: {
    type: "string",
    value: "PATH",
    help: "the root manifest (default: found from the current folder)",
  },
} as const;

/** `beeuni tools migrate`: legacy opencode tools into project tools (O1–O4). */
export const toolsMigrateCommand: Command<typeof OPTIONS> = defineCommand({
  synopsis: "[FILE...] [--force] [--manifest PATH]",
  description:
    `Moves opencode custom tools from ${LEGACY_TOOLS_DIR}/ into the project so
both harnesses run them (O1-O4). For each file (default: every .ts and .js
file directly in that folder):
  - tool({ description, args, execute }) and plain { description, args,
    execute } exports become plain objects whose parameters is the JSON
    Schema opencode hands the model for the zod args; to compute it the file
    is imported with opencode's plugin package (the project's, or one npm
    installs once into the toolkit's cache folder);
  - in execute, opencode's context fields become the project tool's
    (sessionID -> sessionId, abort -> signal, worktree -> directory),
    process.env becomes context.env, and a { title, output, metadata }
    result becomes its output;
  - the @opencode-ai/plugin and zod imports go; relative imports still work
    (helpers in the same folder are copied beside the tool);
  - the file goes to tools/<file>.ts (a named export X becomes the tool
    <file>_X, served by tools/<file>_X.ts), declared under tools: in the
    manifest.
What it cannot convert is listed with file:line. The originals stay where
they are: delete them once the tools work (until then opencode loads them and
they win over the hosted tools, O2).`,
  options: OPTIONS,
  helpColumn: 21,
  positionals: Infinity,
  async run({ values, positionals }, io) {
    const project = await loadProject({
      cwd: io.cwd,
      manifest: values.manifest,
    });
    const root = project.root;
    const paths = filesToMigrate(root, io.cwd, positionals);
    if (paths.length === 0) {
      io.stdout(`nothing to migrate: ${LEGACY_TOOLS_DIR}/ has no tools\n`);
      return 0;
    }
    const parse = await loadSourceParser();
    const files = readFiles(root, paths, parse);
    await importToolSchemas(root, files, {
      env: process.env,
      say: (line) => io.stderr(`  ${line}\n`),
    });
    const plan = await planMigrate({
      manifest: project.manifest,
      files,
      read: reader(root),
      parse,
      force: values.force,
    });
    writePlan(root, plan);
    const out: string[] = [];
    const err: string[] = [];
    for (const outcome of plan.files) {
      const lines = outcomeLines(outcome, plan.manifest?.path);
      out.push(...lines.out);
      err.push(...lines.err);
    }
    if (err.length > 0) io.stderr(err.join("\n") + "\n");
    const migrated = plan.files.filter((file) => file.migrated);
    if (migrated.length > 0) {
      out.push(
        ...await nextSteps(io, values.manifest, migrated),
      );
    }
    if (out.length > 0) io.stdout(out.join("\n") + "\n");
    return plan.files.some((file) => file.problems.length > 0) ? 1 : 0;
  },
});

/** The closing lines: what is left to do, and how to check the result. */
async function nextSteps(
  io: CommandIo,
  manifest: string | undefined,
  migrated: MigrateOutcome[],
): Promise<string[]> {
  const after = await loadProject({ cwd: io.cwd, manifest });
  const errors = after.diagnostics.filter((d) => d.severity === "error");
  const first = migrated[0].tools[0].name;
  return [
    "",
    ...(errors.length > 0
      ? [
        "Left to do (beeuni validate reports these errors):",
        ...errors.map((d) => `  ${d.file}:${d.line}:${d.col}: ${d.message}`),
        "",
      ]
      : []),
    "Next:",
    "  1. Review the files above; each check line needs a look by hand.",
    `  2. beeuni validate && beeuni tools call ${first} --args '{}'`,
    `  3. Delete the originals once the tools work: git rm ${
      migrated.map((file) => file.path).join(" ")
    }`,
    "     (until then opencode still loads them, and they win over the hosted tools: O2)",
  ];
}
