/**
 * `beeuni tools eject <name>`, the pure part: given the parsed
 * manifest and the texts of its files, decide which file to edit and compute
 * its new text, changing only the line that declares the tool or adding
 * the `tools:` key the manifest lacks. Edits go through
 * {@linkcode editManifestTools}, which keeps every other byte: comments,
 * quoting, CRLF line ends, flow mappings.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { errorMessage } from "../common/mod.ts";
import {
  BEEUNI_TOOLS,
  type BeeuniToolName,
  builtinToolSourceUrl,
  type Diagnostic,
  editManifestTools,
  isBeeuniTool,
  type Manifest,
  manifestErrorsNote,
  type ToolEntry,
  type ToolsEntry,
} from "../manifest/mod.ts";

/** What {@linkcode planEject} needs. */
export interface EjectRequest {
  /** The tool to eject. */
  name: string;
  /** The parsed manifest and its imports. */
  manifest: Manifest;
  /** Every diagnostic of the parser and the validator. */
  diagnostics: readonly Diagnostic[];
  /** The text of a manifest file, by repo-relative path. */
  read(path: string): string;
  /** Whether `tools/<name>.ts` exists already. */
  toolFileExists: boolean;
  /** `--force`: overwrite the file and replace another module path. */
  force: boolean;
}

/** What an eject writes. */
export interface EjectPlan {
  /** The tool. */
  name: BeeuniToolName;
  /** Repo-relative path of the copy: `tools/<name>.ts`. */
  toolFile: string;
  /** Repo-relative path of the manifest file that gets the entry. */
  manifestFile: string;
  /** That file's text before. */
  before: string;
  /** That file's text after (equal to `before` when nothing changes). */
  after: string;
}

/** The comment the changed line ends with. */
export function ejectComment(name: string): string {
  return `# ejected from beeuni:${name}`;
}

/** Repo-relative path of a tool's ejected copy. */
export function ejectedPath(name: string): string {
  return `tools/${name}.ts`;
}

function where(entry: ToolEntry): string {
  return `${entry.valuePos.file}:${entry.valuePos.line}`;
}

/**
 * Decides what ejecting `request.name` writes, or rejects with an `Error`
 * whose message says why it is refused and what to do.
 */
export async function planEject(request: EjectRequest): Promise<EjectPlan> {
  const { name, manifest, force } = request;
  if (!isBeeuniTool(name)) {
    throw new Error(
      `cannot eject "${name}": not a Beeuni tool; eject one of ${
        BEEUNI_TOOLS.join(", ")
      }`,
    );
  }
  const target = ejectedPath(name);
  const entries = manifest.files.flatMap((file) =>
    file.tools.filter((entry) => entry.name === name)
  );
  const entry = entries[0];
  // Errors on the line eject rewrites do not block it: eject replaces it.
  const blocking = request.diagnostics.filter((d) =>
    d.severity === "error" &&
    !(entry && entries.length === 1 && d.file === entry.valuePos.file &&
      (d.line === entry.valuePos.line || d.line === entry.namePos.line))
  );
  if (blocking.length > 0) {
    throw new Error(
      `cannot eject "${name}": ${
        manifestErrorsNote(manifest.manifestPath, blocking)
      }`,
    );
  }
  if (request.toolFileExists && !force) {
    throw new Error(
      `cannot eject "${name}": ${target} exists; pass --force to overwrite it`,
    );
  }
  if (entry) {
    const value = entry.value;
    if (
      typeof value === "string" && value !== `beeuni:${name}` &&
      value !== target && !force
    ) {
      throw new Error(
        `cannot eject "${name}": ${where(entry)} already points it at ${
          JSON.stringify(value)
        }; pass --force to replace that with ${target}`,
      );
    }
  }
  // The file that names the tool, else the first with a `tools:` key (the
  // root's before any import's), else the root.
  const withKey =
    manifest.files.find((file) =>
      file.path === manifest.manifestPath && file.hasToolsKey
    ) ?? manifest.files.find((file) => file.hasToolsKey);
  const manifestFile = entry?.valuePos.file ?? withKey?.path ??
    manifest.manifestPath;
  const before = request.read(manifestFile);
  return {
    name,
    toolFile: target,
    manifestFile,
    before,
    after: await edit(before, name, manifestFile),
  };
}

/**
 * Points `tools.<name>` of the manifest text `before` at the ejected copy,
 * adding the entry, or a `tools:` key listing the four other Beeuni tools
 * when the manifest has none.
 */
async function edit(
  before: string,
  name: BeeuniToolName,
  file: string,
): Promise<string> {
  const entry: ToolsEntry = {
    name,
    value: ejectedPath(name),
    comment: ejectComment(name).slice(2),
  };
  try {
    return await editManifestTools(before, [entry], {
      file,
      newKey: BEEUNI_TOOLS.map((tool) => ({
        name: tool,
        value: `beeuni:${tool}`,
      })),
    });
  } catch (error) {
    throw new Error(`cannot eject "${name}": ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

/** The lines `beeuni tools eject` prints on success. */
export function ejectOutput(plan: EjectPlan, check = "✓"): string {
  const { name, toolFile, manifestFile } = plan;
  return [
    `  ${check}  Ejected ${name}`,
    `  wrote   ${toolFile} (the Beeuni source, now the project's to change)`,
    `  set     ${manifestFile}: tools.${name}: ${toolFile}`,
    ``,
    `Next:`,
    `  1. Edit ${toolFile}. Keep the default export: { description, parameters, execute(args, context) }.`,
    `  2. beeuni validate`,
    `  3. git add ${toolFile} ${manifestFile} && git commit -m "Own the ${name} tool"`,
    `  4. Open a change request: git push origin HEAD && beeuni cr open --title "Own the ${name} tool"`,
    `Sessions load the copy after the change request merges.`,
    ``,
  ].join("\n");
}

/**
 * Reads the bytes of the Beeuni tool `name` as this package ships them in
 * `builtin_tools/`: the same bytes the daemon runs.
 */
export async function readBuiltinSource(
  name: BeeuniToolName,
): Promise<Uint8Array> {
  const url = builtinToolSourceUrl(name);
  try {
    if (url.protocol === "file:") {
      return new Uint8Array(await readFile(fileURLToPath(url)));
    }
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new Error(
      `cannot eject "${name}": cannot read its source ${url.href}: ${
        errorMessage(error)
      }`,
      { cause: error },
    );
  }
}
