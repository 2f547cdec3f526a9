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
import {
  type DiagnosticsFormat,
  formatGithub,
  formatJson,
  formatText,
} from "../manifest/mod.ts";
import { loadProject } from "../project/mod.ts";

const FORMATS: readonly DiagnosticsFormat[] = ["text", "json", "github"];

/** `beeuni validate [--manifest PATH] [--json] [--format text|json|github]`. */
export const validateCommand: Command = {
  name: "validate",
  summary: "Check beeuni.yaml and its imports against every rule",
  usage:
    `Usage: beeuni validate [--manifest PATH] [--json] [--format text|json|github]

Checks beeuni.yaml and every file it imports: tool names, beeuni:<name>
values, module paths (repo-relative, existing, tracked by git), tools
declared twice, agents' tools lists, copies of Beeuni tools in
harnesses/opencode/tools/, and the YAML itself. Prints one line per
finding, path:line:col: error|warning: message, in file order, then a
summary line.

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
`,
  async run(args: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseOptions(args, {
      manifest: { type: "string" },
      json: { type: "boolean" },
      format: { type: "string" },
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
    const { diagnostics } = project;
    const manifest = project.manifest.manifestPath;
    if (format === "json") io.stdout(formatJson(manifest, diagnostics));
    else if (format === "github") io.stdout(formatGithub(diagnostics));
    else io.stdout(formatText(manifest, diagnostics, io.color));
    return diagnostics.some((d) => d.severity === "error") ? 1 : 0;
  },
};
