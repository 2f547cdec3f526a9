// One manifest file, from its text to what it declares and its findings.

import type { HintBudget } from "./nearest_name.ts";
import type { ManifestLimits } from "./limits.ts";
import type { Diagnostic, ManifestFile, SourcePos } from "./types.ts";
import { topLevelKeyWarning } from "./_key_warnings.ts";
import { describeNode } from "./_describe_node.ts";
import { FileContext } from "./_file_context.ts";
import { settingEntries } from "./_named_entries.ts";
import { parseAgents } from "./_parse_agents.ts";
import { parseImports } from "./_parse_imports.ts";
import { parseRecord } from "./_parse_record.ts";
import { parseTools } from "./_parse_tools.ts";
import { readTree } from "./_read_tree.ts";
import { isMap, isNothing, isScalar } from "./_yaml_tree.ts";

/** What bounds one file's parse, and where it comes from. */
export interface ParseFileOptions {
  limits: ManifestLimits;
  /** The nodes the manifest may still hold. */
  nodeBudget: number;
  /** The budget every "did you mean" hint of the manifest draws on. */
  hints: HintBudget;
  /** Whether the reader of plain manifests may read it. */
  plain: boolean;
  /** Where the file is imported, unless it is the root. */
  importedFrom?: SourcePos;
}

/** One file parsed: what it declares, its findings, and the YAML nodes it held. */
export interface ParsedFile {
  file: ManifestFile;
  diagnostics: Diagnostic[];
  nodes: number;
}

/**
 * Parses the manifest file `path` whose text is `source`: its `tools:`,
 * `agents:`, `imports:` and `record:`, with a warning (V12) for any other top-level
 * key. Problems are positioned findings, never exceptions.
 */
export async function parseFile(
  path: string,
  source: string,
  options: ParseFileOptions,
): Promise<ParsedFile> {
  const ctx = new FileContext(path, options.hints, options.importedFrom);
  const read = await readTree(ctx, source, options);
  const done = { file: ctx.file, diagnostics: ctx.diagnostics };
  if (!("root" in read) || isNothing(read.root)) {
    return { ...done, nodes: read.nodes };
  }
  const top = read.root;
  if (!isMap(top)) {
    ctx.error(
      ctx.nodePos(top),
      `the top level of ${path} must be a mapping (tools:, agents:, imports:), found ${
        describeNode(top)
      }`,
    );
    return { ...done, nodes: read.nodes };
  }
  for (const { key, pos: keyPos, value } of settingEntries(ctx, top)) {
    if (key === "tools") {
      ctx.file.hasToolsKey = true;
      ctx.file.toolsKeyPos = keyPos;
      parseTools(ctx, value, keyPos);
    } else if (key === "agents") {
      parseAgents(ctx, value, keyPos);
    } else if (key === "imports") {
      parseImports(ctx, value, keyPos);
    } else if (key === "record") {
      parseRecord(ctx, value, keyPos);
    } else if (key !== null) {
      ctx.warn(
        keyPos,
        topLevelKeyWarning(
          String(key),
          isScalar(value) ? value.value : undefined,
          ctx.hintBudget,
        ),
      );
    }
  }
  return { ...done, nodes: read.nodes };
}
