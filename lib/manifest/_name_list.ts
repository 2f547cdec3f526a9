// A list of names under an agent: its tools, what it excludes, its secrets.

import type { NameRef } from "./types.ts";
import { describeNode } from "./_describe_node.ts";
import type { FileContext } from "./_file_context.ts";
import { isScalar, isSeq, type TreeValue } from "./_yaml_tree.ts";

/**
 * The names of `list`, an agent's `what`; reports (V12) each item that is
 * not a plain name. Nothing when `list` is not a list.
 */
export function nameList(
  ctx: FileContext,
  agent: string,
  what: string,
  list: TreeValue,
): NameRef[] {
  const names: NameRef[] = [];
  if (!isSeq(list)) return names;
  for (const node of list.items) {
    const pos = ctx.nodePos(node, ctx.nodePos(list));
    if (
      !isScalar(node) || node.value === null || typeof node.value === "object"
    ) {
      ctx.error(
        pos,
        `agent "${agent}": each entry of ${what} must be a name, found ${
          describeNode(node)
        }`,
      );
      continue;
    }
    names.push({ name: String(node.value), pos });
  }
  return names;
}
