// How a message names what was found where a manifest wants something else.

import { spacedEntry } from "./_colon_space.ts";
import { isMap, isScalar, isSeq } from "./_yaml_tree.ts";

/** What kind of YAML value a node is, for messages: `a mapping`, `the string "x"`, … */
export function describeNode(node: unknown): string {
  if (node === null || node === undefined) return "nothing";
  if (isMap(node)) return "a mapping";
  if (isSeq(node)) return "a list";
  if (isScalar(node)) {
    const value = node.value;
    if (value === null) return "nothing";
    if (typeof value === "string") {
      const meant = spacedEntry(value);
      return meant === undefined
        ? `the string "${value}"`
        : `the string "${value}" (a key needs a space after its colon: write \`${meant}\`)`;
    }
    if (typeof value === "number" || typeof value === "bigint") {
      return `the number ${String(value)}`;
    }
    if (typeof value === "boolean") return `the boolean ${value}`;
    return `a ${typeof value}`;
  }
  return "an unsupported value";
}
