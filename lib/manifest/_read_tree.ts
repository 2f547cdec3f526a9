// Reading one manifest file's YAML into the tree the parser walks: with the
// reader of plain manifests when it can, else with the `yaml` library.

import type { ManifestLimits } from "./limits.ts";
import { readPlainYaml } from "./_plain_yaml.ts";
import { linePosIn, type TreeValue } from "./_yaml_tree.ts";
import type { FileContext } from "./_file_context.ts";

/** The `yaml` library's reader, loaded when a file first needs it. */
let yamlReader: Promise<typeof import("./_yaml_reader.ts")> | undefined;

/** A file's tree and the nodes it holds; without `root` when the file cannot be used. */
export type TreeRead = { root: TreeValue; nodes: number } | { nodes: number };

/** What bounds one file's read. */
export interface ReadTreeOptions {
  limits: ManifestLimits;
  /** The nodes the manifest may still hold. */
  nodeBudget: number;
  /** Whether the reader of plain manifests may read it. */
  plain: boolean;
}

/**
 * Reads `source`, the text of the file `ctx` parses, within the limits:
 * with the reader of plain manifests when it can (and `plain` allows), else
 * with the `yaml` library, loaded then, whose findings go to `ctx`. Sets
 * `ctx.linePos` for the reader used.
 */
export async function readTree(
  ctx: FileContext,
  source: string,
  options: ReadTreeOptions,
): Promise<TreeRead> {
  const { limits, nodeBudget } = options;
  const { maxDepth, maxEntries } = limits;
  const plain = options.plain
    ? readPlainYaml(source, { maxDepth, maxEntries, maxNodes: nodeBudget })
    : undefined;
  if (plain) {
    ctx.linePos = (offset) => linePosIn(plain.lineStarts, offset);
    return { root: plain.root, nodes: plain.nodes };
  }
  yamlReader ??= import("./_yaml_reader.ts");
  const read = (await yamlReader).readManifestYaml(
    source,
    ctx.path,
    limits,
    nodeBudget,
  );
  ctx.linePos = read.linePos;
  for (const finding of read.findings) {
    ctx.diagnostics.push({
      ...ctx.pos(finding.offset),
      severity: finding.severity,
      rule: "V12",
      message: finding.message,
    });
  }
  return "root" in read
    ? { root: read.root, nodes: read.nodes }
    : { nodes: read.nodes };
}
