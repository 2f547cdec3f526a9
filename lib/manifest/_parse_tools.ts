// A manifest file's `tools:` mapping: tool names to `beeuni:<name>` or
// module paths.

import type { SourcePos, ToolEntry } from "./types.ts";
import { describeNode } from "./_describe_node.ts";
import type { FileContext } from "./_file_context.ts";
import { namedEntries } from "./_named_entries.ts";
import { isNothing, isScalar, treeToJS, type TreeValue } from "./_yaml_tree.ts";

/** Reads the `tools:` mapping `value` into `ctx.file.tools`; reports (V12) entries without a string value. */
export function parseTools(
  ctx: FileContext,
  value: TreeValue,
  keyPos: SourcePos,
): void {
  const entries = namedEntries(ctx, value, keyPos, {
    notMapping:
      "`tools` must be a mapping of tool names to `beeuni:<name>` or module paths",
    notName: "a tool name under `tools` must be a plain name",
  });
  for (const { name, pos: namePos, node } of entries) {
    const valuePos = isNothing(node) ? namePos : ctx.nodePos(node, namePos);
    const entry: ToolEntry = {
      name,
      value: isScalar(node) ? node.value : treeToJS(node),
      namePos,
      valuePos,
    };
    ctx.file.tools.push(entry);
    if (isNothing(node)) {
      ctx.error(
        namePos,
        `tool "${name}" has no value: write \`beeuni:${name}\` for a Beeuni tool or a repo-relative module path (e.g. \`tools/${name}.ts\`)`,
      );
    } else if (!isScalar(node) || typeof node.value !== "string") {
      ctx.error(
        valuePos,
        `tool "${name}" must map to \`beeuni:<name>\` or a repo-relative module path, found ${
          describeNode(node)
        }`,
      );
    }
  }
}
