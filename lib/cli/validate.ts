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
  defineCommand,
  UsageError,
} from "./command.ts";
import { MANIFEST_OPTION } from "./_options.ts";
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
import {
  isTarget,
  type SchemaFinding,
  shapeSchema,
  type Target,
  TARGETS,
} from "../schema_targets/mod.ts";

const FORMATS: readonly DiagnosticsFormat[] = ["text", "json", "github"];

const OPTIONS = {
  manifest: MANIFEST_OPTION,
  json: {
    type: "boolean",
    help: `print { manifest, valid, errors, warnings,
diagnostics: [{ file, line, col, severity, rule,
message }] } (same as --format json)`,
  },
  format: {
    type: "string",
    value: "FORMAT",
    choices: FORMATS,
    help: `text (default), json, or github (workflow commands
that GitHub Actions shows as annotations)`,
  },
  load: { type: "boolean", help: "also load every tool module" },
  target: {
    type: "string",
    value: "PROVIDER",
    help: `also check every tool's parameters against
openai, openai-strict, anthropic, gemini, or all`,
  },
} as const;

/** Where the `tools:` value that declares `name` is written, the first time. */
function declaredAt(project: Project, name: string): SourcePos | undefined {
  for (const file of project.manifest.files) {
    const entry = file.tools.find((tool) => tool.name === name);
    if (entry) return entry.valuePos;
  }
  return undefined;
}

/** The targets `--target` names: one, a comma-separated list, or `all`. */
function parseTargets(value: string): Target[] {
  const targets: Target[] = [];
  for (const name of value.split(",").map((part) => part.trim())) {
    if (name === "all") targets.push(...TARGETS);
    else if (isTarget(name)) targets.push(name);
    else {
      throw new UsageError(
        `unknown target "${name}": use ${TARGETS.join(", ")} or all`,
      );
    }
  }
  return [...new Set(targets)];
}

/**
 * What each provider of `targets` refuses in the parameters of `tools`, at
 * the `tools:` entry that declares the tool: an error when the daemon has
 * no safe rewrite, a warning when `?target=` serves it rewritten.
 */
function targetDiagnostics(
  project: Project,
  tools: readonly { name: string; parameters: Record<string, unknown> }[],
  targets: readonly Target[],
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const tool of tools) {
    const at = declaredAt(project, tool.name) ??
      { file: project.manifest.manifestPath, line: 1, col: 1 };
    for (const target of targets) {
      // One line per rule: the places it finds are listed together.
      const groups = new Map<string, SchemaFinding[]>();
      for (const finding of shapeSchema(tool.parameters, target).findings) {
        const key = `${finding.rule} ${finding.rewritten} ${finding.problem}`;
        groups.set(key, [...groups.get(key) ?? [], finding]);
      }
      for (const [first, ...more] of groups.values()) {
        const where = [first, ...more].map((f) => `#${f.pointer}`).join(", ");
        const served = first.rewritten
          ? ` (the daemon serves it rewritten with ?target=${target})`
          : "";
        diagnostics.push({
          ...at,
          severity: first.rewritten ? "warning" : "error",
          rule: first.rule,
          message:
            `tool "${tool.name}" at ${where}: ${first.problem}: ${first.fix}${served}`,
        });
      }
    }
  }
  return diagnostics;
}

/**
 * Loads every module the way the daemon does and turns each that does not
 * load into an error: at its syntax error inside the module when there
 * is one, else at the `tools:` entry that declares it. With `targets`,
 * each loaded tool's parameters are checked against those providers too.
 */
async function loadDiagnostics(
  project: Project,
  io: CommandIo,
  targets: readonly Target[],
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
    const loadErrors = host.loadErrors().map((error) => {
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
    return [
      ...loadErrors,
      ...targetDiagnostics(project, host.list(), targets),
    ];
  } finally {
    await host.close();
  }
}

/** `beeuni validate [--manifest PATH] [--json] [--format text|json|github] [--load] [--target T]`. */
export const validateCommand: Command<typeof OPTIONS> = defineCommand({
  synopsis:
    "[--manifest PATH] [--json] [--format text|json|github] [--load] [--target PROVIDER]",
  description:
    `Checks beeuni.yaml and every file it imports: tool names, beeuni:<name>
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

With --target, every tool is loaded as with --load and its parameters
are checked against the function-calling rules each named provider
documents: openai, openai-strict (OpenAI's strict: true), anthropic,
gemini, a comma-separated list of them, or all. Each finding names the
tool, the JSON pointer in its parameters, the provider and the fix. What
the daemon can serve rewritten for that provider (GET /beeuni/tools
?target=PROVIDER) is a warning; the rest is an error.

Exit status: 0 when there is no error (warnings allowed), 1 when there is
an error, 2 for a usage error.`,
  options: OPTIONS,
  helpColumn: 21,
  async run({ values }, io) {
    if (
      values.json && values.format !== undefined && values.format !== "json"
    ) {
      throw new UsageError(
        `--json and --format ${values.format} contradict each other: pick one`,
      );
    }
    const format = values.json ? "json" : values.format ?? "text";
    if (values.manifest === "") {
      throw new UsageError("--manifest needs a path");
    }

    const targetOption = values.target;
    const targets = targetOption === undefined
      ? []
      : parseTargets(targetOption);

    const project = await loadProject({
      cwd: io.cwd,
      manifest: values.manifest,
    });
    const diagnostics = values.load || targets.length > 0
      ? sortDiagnostics(project.manifest, [
        ...project.diagnostics,
        ...await loadDiagnostics(project, io, targets),
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
});
