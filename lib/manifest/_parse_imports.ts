// A manifest file's `imports:` list: the files it imports.

import type { SourcePos } from "./types.ts";
import { describeNode } from "./_describe_node.ts";
import type { FileContext } from "./_file_context.ts";
import { isNothing, isScalar, isSeq, type TreeValue } from "./_yaml_tree.ts";

/** Reads the `imports:` list `value` into `ctx.file.imports`; reports (V12) what is not a path. */
export function parseImports(
  ctx: FileContext,
  value: TreeValue,
  keyPos: SourcePos,
): void {
  if (isNothing(value)) return;
  if (!isSeq(value)) {
    ctx.error(
      ctx.nodePos(value, keyPos),
      `\`imports\` must be a list of repo-relative YAML file paths, found ${
        describeNode(value)
      }`,
    );
    return;
  }
  for (const node of value.items) {
    const pos = ctx.nodePos(node, keyPos);
    if (!isScalar(node) || typeof node.value !== "string") {
      ctx.error(
        pos,
        `an entry of \`imports\` must be a repo-relative path, found ${
          describeNode(node)
        }`,
      );
      continue;
    }
    ctx.file.imports.push({ path: node.value, pos });
  }
}
