/**
 * `beeuni tools migrate [FILE…] [--force]`: moves opencode custom
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
  exampleArgs,
  ImportResolver,
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
import { isToolName, LEGACY_TOOLS_DIR } from "../manifest/mod.ts";
import { shellQuote } from "../common/mod.ts";

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

/** The `--name OLD=NEW` options as a map, each NEW a valid tool name. */
function parseRenames(values: readonly string[]): Map<string, string> {
  const renames = new Map<string, string>();
  for (const text of values) {
    const at = text.indexOf("=");
    if (at <= 0 || at === text.length - 1) {
      throw new UsageError(
        `--name "${text}": write OLD=NEW, e.g. --name github-pr-search=pr_search`,
      );
    }
    const [from, to] = [text.slice(0, at), text.slice(at + 1)];
    if (!isToolName(to)) {
      throw new UsageError(
        `--name "${text}": "${to}" is not a valid tool name (lowercase letters, digits and _, starting with a letter, at most 64 characters, V1)`,
      );
    }
    if (renames.has(from) && renames.get(from) !== to) {
      throw new UsageError(`--name "${from}" is given twice`);
    }
    renames.set(from, to);
  }
  return renames;
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

/** The line saying which name a tool got, when it is not opencode's. */
function nameLine(tool: MigrateOutcome["tools"][number]): string[] {
  if (tool.how === "same") return [];
  const why = tool.how === "chosen"
    ? "chosen with --name"
    : `opencode's name is not a valid tool name; --name ${tool.opencodeName}=NEW chooses another`;
  return [`  name    ${tool.opencodeName} → ${tool.name} (${why})`];
}

/** The lines printed for one file. */
function outcomeLines(
  outcome: MigrateOutcome,
  manifestFile: string | undefined,
): { out: string[]; err: string[] } {
  const checks = outcome.notes.map((note) =>
    `  check   ${note.file}:${note.line}: ${note.message}`
  );
  if (outcome.helper) {
    return {
      out: [
        outcome.copiedTo
          ? `  ✓  Copied ${outcome.path} to ${outcome.copiedTo} (a helper the migrated tools import)`
          : `  ·  Left ${outcome.path}: it holds no tool (a helper no migrated tool imports)`,
      ],
      err: [],
    };
  }
  const refused = outcome.refused.map((tool) => `  ${tool.problem}`);
  if (!outcome.migrated) {
    return {
      out: [],
      err: [
        `  ✗  Not migrated ${outcome.path}`,
        ...outcome.problems.map((problem) => `  ${problem}`),
        ...refused,
        ...checks,
      ],
    };
  }
  return {
    out: [
      `  ✓  Migrated ${outcome.path}`,
      ...outcome.tools.flatMap(nameLine),
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
    err: outcome.refused.length === 0 ? [] : [
      `  ✗  Not migrated ${
        outcome.refused.map((tool) => `"${tool.opencodeName}"`).join(", ")
      } of ${outcome.path}`,
      ...refused,
    ],
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
  name: {
    type: "string",
    value: "OLD=NEW",
    multiple: true,
    help: "migrate the tool opencode calls OLD as NEW (repeatable)",
  },
  force: { type: "boolean", help: "overwrite existing files under tools/" },
  manifest: {
    type: "string",
    value: "PATH",
    help: "the root manifest (default: found from the current folder)",
  },
} as const;

/** `beeuni tools migrate`: legacy opencode tools into project tools. */
export const toolsMigrateCommand: Command<typeof OPTIONS> = defineCommand({
  synopsis: "[FILE...] [--name OLD=NEW]... [--force] [--manifest PATH]",
  description:
    `Moves opencode custom tools from ${LEGACY_TOOLS_DIR}/ into the project so
both harnesses run them. For each file (default: every .ts and .js file
directly in that folder):
  - tool({ description, args, execute }) and plain { description, args,
    execute } exports become plain objects whose parameters is the JSON
    Schema opencode hands the model for the zod args; to compute it the file
    is imported with opencode's plugin package (the project's, or one npm
    installs once into the toolkit's cache folder);
  - each tool keeps opencode's name (the file's name; <file>_<export> for a
    named export) when it is a valid tool name, else gets one made from it
    (github-pr-search -> github_pr_search, deleteContext -> delete_context);
    each such name is printed, and --name chooses another;
  - in execute, opencode's context fields become the project tool's
    (sessionID -> sessionId, abort -> signal, worktree -> directory),
    process.env becomes context.env, and a { title, output, metadata }
    result becomes its output;
  - the @opencode-ai/plugin and zod imports go; imports are found as Bun
    finds them ("./x.js" for x.ts, "./x", "./dir" for dir/index.ts, tsconfig
    path aliases) and written with the file's real extension; helpers in the
    tools folder are copied beside the tool, others are imported from where
    they are; require(), __dirname and __filename work under every runtime;
  - the file goes to tools/<name>.ts (a named export becomes its own tool,
    served by tools/<its name>.ts), declared under tools: in the manifest.
What it cannot convert is listed with file:line. The originals stay where
they are: delete them once the migrated tools load (until then opencode
loads them, and in the standard harness they win over hosted tools of the
same name).
`,
  options: OPTIONS,
  helpColumn: 21,
  positionals: Infinity,
  async run({ values, positionals }, io) {
    const renames = parseRenames(values.name);
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
    const read = reader(root);
    const resolver = new ImportResolver(read, parse);
    await importToolSchemas(root, files, {
      env: process.env,
      say: (line) => io.stderr(`  ${line}\n`),
      resolver,
    });
    const plan = await planMigrate({
      manifest: project.manifest,
      files,
      read,
      parse,
      force: values.force,
      renames,
      resolver,
    });
    if (plan.unusedRenames.length > 0) {
      const key = plan.unusedRenames[0];
      throw new UsageError(
        `--name "${key}=${
          renames.get(key)
        }": no tool of the files migrated is called "${key}" (give opencode's name, e.g. github-pr-search or team_deleteContext)`,
      );
    }
    writePlan(root, plan);
    const out: string[] = [];
    const err: string[] = [];
    for (const outcome of plan.files) {
      const lines = outcomeLines(outcome, plan.manifest?.path);
      out.push(...lines.out);
      err.push(...lines.err);
    }
    if (err.length > 0) io.stderr(err.join("\n") + "\n");
    if (plan.files.some((file) => file.migrated)) {
      out.push(
        ...await nextSteps(io, values.manifest, plan),
      );
    }
    if (out.length > 0) io.stdout(out.join("\n") + "\n");
    return plan.files.some((file) =>
        file.problems.length > 0 || file.refused.length > 0
      )
      ? 1
      : 0;
  },
});

/** The closing lines: what is left to do, and how to check the result. */
async function nextSteps(
  io: CommandIo,
  manifest: string | undefined,
  plan: MigratePlan,
): Promise<string[]> {
  const after = await loadProject({ cwd: io.cwd, manifest });
  const errors = after.diagnostics.filter((d) => d.severity === "error");
  const first = plan.files.find((file) => file.migrated)!.tools[0];
  // The originals, and the helpers copied from opencode's tools folder
  // (opencode would load those as tool files too).
  const originals = plan.files.filter((file) =>
    file.migrated ||
    (file.copiedTo && file.path.startsWith(`${LEGACY_TOOLS_DIR}/`))
  ).map((file) => file.path);
  const args = JSON.stringify(exampleArgs(first.parameters));
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
    `  2. beeuni validate --load && beeuni tools call ${first.name} --args ${
      shellQuote(args)
    }`,
    `  3. Delete the originals once the migrated tools load: git rm ${
      originals.join(" ")
    }`,
    "     (until then opencode still loads them, and in the standard harness they win over hosted tools of the same name)",
  ];
}
