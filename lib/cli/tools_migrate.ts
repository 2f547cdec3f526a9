/**
 * `beeuni tools migrate [FILE…] [--force]` (O1–O3): moves opencode custom
 * tools from `harnesses/opencode/tools/` into the project as plain tool
 * modules under `tools/`, declares them under `tools:` in the root
 * `beeuni.yaml`, and lists what needs converting by hand. The originals stay
 * in place until the user deletes them.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import {
  BEEUNI_TOOLS,
  isBeeuniTool,
  isHarnessTool,
  LEGACY_TOOLS_DIR,
} from "../manifest/mod.ts";
import {
  type Command,
  type CommandIo,
  parseOptions,
  UsageError,
} from "./command.ts";
import {
  addManifestEntries,
  type ManifestEntry,
  migrateSource,
  reexportSource,
} from "../migrate/mod.ts";
import { loadProject } from "../project/mod.ts";

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

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

const USAGE = `Usage: beeuni tools migrate [FILE...] [--force] [--manifest PATH]

Moves opencode custom tools from ${LEGACY_TOOLS_DIR}/ into the project so
both harnesses run them (O1-O3). For each file (default: every .ts and .js
file directly in that folder):
  - tool({ description, args, execute }) and plain { description, args,
    execute } exports become plain objects whose parameters is the JSON
    Schema of the zod args;
  - process.env.X in execute becomes context.env.X;
  - the @opencode-ai/plugin and zod imports go;
  - the file goes to tools/<file>.ts (a named export X becomes the tool
    <file>_X, served by tools/<file>_X.ts), declared under tools: in the
    root beeuni.yaml.
What it cannot convert is listed with file:line. The originals stay where
they are: delete them once the tools work (until then opencode loads them and
they win over the hosted tools, O2).

Options:
  --force            overwrite existing files under tools/
  --manifest PATH    the root manifest (default: found from the current folder)
`;

/** `beeuni tools migrate`: legacy opencode tools into project tools (O1–O3). */
export const toolsMigrateCommand: Command = {
  name: "tools migrate",
  summary:
    "Move opencode tools from harnesses/opencode/tools/ into the project",
  usage: USAGE,
  async run(args: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseOptions(args, {
      force: { type: "boolean" },
      manifest: { type: "string" },
    });
    const project = await loadProject({
      cwd: io.cwd,
      manifest: values.manifest as string | undefined,
    });
    const root = project.root;
    const legacyDir = join(root, LEGACY_TOOLS_DIR);
    let files: string[];
    if (positionals.length > 0) {
      files = positionals.map((file) => resolve(io.cwd, file));
    } else {
      let entries: string[] = [];
      try {
        entries = readdirSync(legacyDir).sort();
      } catch {
        // No folder.
      }
      files = entries.filter((entry) => /\.(ts|js)$/.test(entry)).map((
        entry,
      ) => join(legacyDir, entry));
      if (files.length === 0) {
        io.stdout(`nothing to migrate: ${LEGACY_TOOLS_DIR}/ has no tools\n`);
        return 0;
      }
    }
    const declared = new Set<string>();
    let toolsKey = false;
    for (const file of project.manifest.files) {
      if (file.hasToolsKey) toolsKey = true;
      for (const entry of file.tools) declared.add(entry.name);
    }
    const rel = (path: string) => relative(root, path).split(sep).join("/");
    const entries: ManifestEntry[] = [];
    const out: string[] = [];
    const originals: string[] = [];
    const written: string[] = [];
    let failed = 0;
    const planned: { path: string; text: string }[] = [];
    for (const file of files) {
      const shown = rel(file);
      if (shown.startsWith("..")) {
        throw new UsageError(`"${file}" is outside the project`);
      }
      let src: string;
      try {
        src = readFileSync(file, "utf8");
      } catch {
        io.stderr(`  ✗  cannot read "${shown}": file not found\n`);
        failed++;
        continue;
      }
      const ext = file.endsWith(".js") ? ".js" : ".ts";
      const base = basename(file).replace(/\.(ts|js)$/, "");
      const result = migrateSource(basename(file), src);
      const problems: string[] = [];
      const files: { path: string; text: string }[] = [
        { path: join(root, "tools", base + ext), text: result.source },
      ];
      const fileEntries: ManifestEntry[] = [];
      for (const tool of result.tools) {
        const module = tool.exportName === "default"
          ? `tools/${base}${ext}`
          : `tools/${tool.name}${ext}`;
        if (tool.exportName !== "default") {
          files.push({
            path: join(root, module),
            text: reexportSource(base + ext, tool.exportName),
          });
        }
        if (!NAME.test(tool.name)) {
          problems.push(
            `"${tool.name}" is not a valid tool name (lowercase letters, digits and _, starting with a letter, V1): rename the file or export`,
          );
        } else if (isHarnessTool(tool.name)) {
          problems.push(
            `"${tool.name}" is a harness tool name (V2): rename the file or export`,
          );
        } else if (declared.has(tool.name)) {
          problems.push(
            `"${tool.name}" is already declared under tools:${
              isBeeuniTool(tool.name)
                ? ` (a copy of a Beeuni tool: delete ${shown} instead, V11)`
                : ""
            }`,
          );
        }
        fileEntries.push({
          name: tool.name,
          value: module,
          comment: `migrated from ${shown}`,
        });
      }
      if (result.tools.length === 0) {
        problems.push(
          "no tool export found (export default tool({...}) or export const X = tool({...})): move it by hand",
        );
      }
      if (!values.force) {
        for (const target of files) {
          if (existsSync(target.path)) {
            problems.push(
              `${rel(target.path)} exists: pass --force to overwrite it`,
            );
          }
        }
      }
      if (problems.length > 0) {
        failed++;
        io.stderr(`  ✗  Not migrated ${shown}\n`);
        for (const problem of problems) io.stderr(`  ${problem}\n`);
        continue;
      }
      for (const entry of fileEntries) declared.add(entry.name);
      planned.push(...files);
      entries.push(...fileEntries);
      originals.push(shown);
      out.push(`  ✓  Migrated ${shown}`);
      for (const target of files) out.push(`  wrote   ${rel(target.path)}`);
      for (const entry of fileEntries) {
        out.push(
          `  set     ${project.manifest.manifestPath}: tools.${entry.name}: ${entry.value}`,
        );
      }
      for (const note of result.notes) {
        out.push(`  check   ${shown}:${note.line}: ${note.message}`);
      }
    }
    if (entries.length > 0) {
      const manifestFile = join(root, project.manifest.manifestPath);
      const text = readFileSync(manifestFile, "utf8");
      const updated = addManifestEntries(
        text,
        entries,
        toolsKey ? [] : BEEUNI_TOOLS,
      );
      for (const target of planned) {
        writeAtomic(target.path, target.text);
        written.push(rel(target.path));
      }
      writeAtomic(manifestFile, updated);
      const first = entries[0].name;
      io.stdout(
        [
          ...out,
          "",
          "Next:",
          "  1. Review the files above; each check line needs a look by hand.",
          `  2. beeuni validate && beeuni tools call ${first} --args '{}'`,
          `  3. Delete the originals once the tools work: git rm ${
            originals.join(" ")
          }`,
          "     (until then opencode still loads them, and they win over the hosted tools: O2)",
          "",
        ].join("\n"),
      );
    }
    return failed > 0 ? 1 : 0;
  },
};
