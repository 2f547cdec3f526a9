/**
 * The one editor of `beeuni.yaml` texts: sets or adds `<name>: <value>`
 * entries under the top-level `tools:` key and keeps every other byte
 * (comments, quoting, CRLF line ends, flow mappings). Edits go through the
 * `yaml` package's CST; the result is parsed again and compared with the
 * input, so an edit that would change anything else, or give invalid YAML,
 * is refused with a message saying what to write by hand.
 *
 * @example Declare a migrated tool
 * ```ts
 * import { editManifestTools } from "./edit_manifest.ts";
 *
 * const text = "tools:\n  memory: beeuni:memory # notes\n";
 * const after = await editManifestTools(text, [
 *   { name: "lookup", value: "tools/lookup.ts", comment: "migrated" },
 * ]);
 * // "tools:\n  memory: beeuni:memory # notes\n  lookup: tools/lookup.ts # migrated\n"
 * ```
 *
 * @module
 */

/** One `<name>: <value>` entry to set or add under `tools:`. */
export interface ToolsEntry {
  /** The tool's name (the key). */
  name: string;
  /** `beeuni:<name>` or a repo-relative module path. */
  value: string;
  /** Text of a comment to end the entry's line with, without `# `. */
  comment?: string;
}

/** Options of {@linkcode editManifestTools}. */
export interface ManifestEditOptions {
  /** The file's repo-relative path, for messages (default "the manifest"). */
  file?: string;
  /**
   * When the text has no `tools:` key: the entries the new key lists, in
   * order. An entry of `entries` with the same name takes its place; the
   * others follow. Without it a missing key gets `entries` alone.
   */
  newKey?: readonly ToolsEntry[];
}

/**
 * Sets or adds each of `entries` under the top-level `tools:` key of the
 * YAML `text` and returns the new text; every byte outside the changed
 * entries stays as it was. An existing entry keeps its quoting and gets its
 * comment appended (unless its line ends with it already); a new entry goes
 * after the last one of a block mapping (same indent), before the `}` of a
 * flow mapping, or under an empty `tools:`; a missing key is added at the
 * end (see {@linkcode ManifestEditOptions.newKey}). Pure. Rejects with an
 * `Error` saying what to write by hand when it cannot edit the text safely.
 */
export async function editManifestTools(
  text: string,
  entries: readonly ToolsEntry[],
  options: ManifestEditOptions = {},
): Promise<string> {
  // The `yaml` library loads with the first edit, not with the manifest
  // stage: reading manifests does not need it.
  const { editTools } = await import("./_edit_tools.ts");
  return editTools(text, entries, options);
}
