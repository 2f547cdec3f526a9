/**
 * `beeuni validate`: checks `beeuni.yaml` and its imports against every
 * rule (V1–V12) and prints the findings like a compiler, as JSON, or as
 * GitHub Actions annotations.
 *
 * @module
 */

import {
  type Command,
  type CommandIo,
  parseOptions,
  UsageError,
} from "./command.ts";
import { join, relative } from "node:path";
import {
  type Diagnostic,
  type DiagnosticsFormat,
  formatGithub,
  formatJson,
  formatText,
  sortDiagnostics,
  type SourcePos,
} from "../manifest/mod.ts";
import { loadProject, type Project } from "../project/mod.ts";

const FORMATS: readonly DiagnosticsFormat[] = ["text", "json", "github"];

/** Where the `tools:` value that declares `name` is written, the first time. */
function declaredAt(project: Project, name: string): SourcePos | undefined {
  for (const file of project.manifest.files) {
    const entry = file.tools.find((tool) => tool.name === name);
    if (entry) return entry.valuePos;
  }
  return undefined;
}

/**
 * Loads every module the way the daemon does and turns each that does not
 * load into an error: at its syntax error inside the module when there
 * is one, else at the `tools:` entry that declares it.
 */
async function loadDiagnostics(
  project: Project,
  io: CommandIo,
): Promise<Diagnostic[]> {
  const { createHost } = await import("../host/mod.ts");
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(io.env)) {
    if (value !== undefined && key !== "BEEUNI_DAEMON_TOKEN") env[key] = value;
  }
  const host = await createHost({
    directory: project.root,
    manifest: join(project.root, project.manifest.manifestPath),
    env,
    log: () => {},
  });
  try {
    return host.loadErrors().map((error) => {
      const inModule =
        error.at && !relative(project.root, error.at.file).startsWith("..")
          ? {
            file: relative(project.root, error.at.file).replaceAll("\\", "/"),
            line: error.at.line,
            col: error.at.col,
          }
          : undefined;
      const at = inModule ?? declaredAt(project, error.name) ??
        { file: project.manifest.manifestPath, line: 1, col: 1 };
      return {
        ...at,
        severity: "error" as const,
        rule: "T8",
        message: `tool "${error.name}" did not load: ${error.reason}`,
      };
    });
  } finally {
    await host.close();
  }
}

/** `beeuni validate [--manifest PATH] [--json] [--format text|json|github] [--load]`. */
export const validateCommand: Command = {
  name: "validate",
  summary: "Check beeuni.yaml and its imports against every rule",
  usage:
    `Usage: beeuni validate [--manifest PATH] [--json] [--format text|json|github] [--load]

Checks beeuni.yaml and every file it imports: tool names, beeuni:<name>
values, module paths (repo-relative, existing, tracked by git), tools
declared twice, agents' tools lists, copies of Beeuni tools in
harnesses/opencode/tools/, and the YAML itself. Prints one line per
finding, path:line:col: error|warning: message, in file order, then a
summary line.

With --load, every tool module is also loaded the way the daemon loads it
(in a runner process, with its timeout), and each one that does not load
is an error: a syntax error (at its line and column), no default
export, parameters that are not an object schema, a package that does not
resolve.

Exit status: 0 when there is no error (warnings allowed), 1 when there is
an error, 2 for a usage error.

Options:
  --manifest PATH    the project's beeuni.yaml (default: found from the
                     current folder upwards)
  --json             print { manifest, valid, errors, warnings,
                     diagnostics: [{ file, line, col, severity, rule,
                     message }] } (same as --format json)
  --format FORMAT    text (default), json, or github (workflow commands
                     that GitHub Actions shows as annotations)
  --load             also load every tool module
`,
  async run(args: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseOptions(args, {
      manifest: { type: "string" },
      json: { type: "boolean" },
      format: { type: "string" },
      load: { type: "boolean" },
    });
    if (positionals.length > 0) {
      throw new UsageError(`unexpected argument "${positionals[0]}"`);
    }
    const requested = values.format as string | undefined;
    if (
      requested !== undefined &&
      !(FORMATS as readonly string[]).includes(requested)
    ) {
      throw new UsageError(
        `unknown format "${requested}": use text, json or github`,
      );
    }
    if (values.json && requested !== undefined && requested !== "json") {
      throw new UsageError(
        `--json and --format ${requested} contradict each other: pick one`,
      );
    }
    const format: DiagnosticsFormat = values.json
      ? "json"
      : (requested as DiagnosticsFormat | undefined) ?? "text";
    const manifestOption = values.manifest as string | undefined;
    if (manifestOption === "") {
      throw new UsageError("--manifest needs a path");
    }

    const project = await loadProject({
      cwd: io.cwd,
      manifest: manifestOption,
    });
    const diagnostics = values.load
      ? sortDiagnostics(project.manifest, [
        ...project.diagnostics,
        ...await loadDiagnostics(project, io),
      ])
      : project.diagnostics;
    const manifest = project.manifest.manifestPath;
    if (format === "json") io.stdout(formatJson(manifest, diagnostics));
    else if (format === "github") io.stdout(formatGithub(diagnostics));
    else {
      // Only findings are coloured: a clean project never asks the terminal.
      const color = diagnostics.length > 0 && io.color;
      io.stdout(formatText(manifest, diagnostics, color));
    }
    return diagnostics.some((d) => d.severity === "error") ? 1 : 0;
  },
};
