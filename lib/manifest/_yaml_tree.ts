// The YAML values of one manifest file as the manifest parser walks them,
// whichever reader read the file: the small reader of plain manifests
// (_plain_yaml.ts) or the `yaml` library (_yaml_reader.ts), whose aliases
// are already followed here. Offsets are UTF-16 indexes into the file's
// text, where each node's text starts.

/** A scalar: a string, number, boolean or null, as YAML's core schema reads it. */
export interface TreeScalar {
  kind: "scalar";
  value: unknown;
  offset: number;
}

/** A mapping: its entries in file order. */
export interface TreeMap {
  kind: "map";
  items: TreePair[];
  offset: number;
  /** The value as JavaScript, when a reader computes it its own way. */
  toJS?: () => unknown;
}

/** A list: its items in file order. */
export interface TreeSeq {
  kind: "seq";
  items: TreeValue[];
  offset: number;
  /** The value as JavaScript, when a reader computes it its own way. */
  toJS?: () => unknown;
}

/** A node of the tree. */
export type TreeNode = TreeScalar | TreeMap | TreeSeq;

/**
 * What a key, value or list item holds: a node, `null` when nothing is
 * written there (not even an empty value), or `undefined` for an alias
 * that leads nowhere.
 */
export type TreeValue = TreeNode | null | undefined;

/** One `key: value` entry of a mapping. */
export interface TreePair {
  key: TreeValue;
  value: TreeValue;
  /** Where the value is written (an alias's own place, not its target's). */
  valueOffset?: number;
}

/** A 1-based line and column. */
export interface LinePos {
  line: number;
  col: number;
}

/**
 * The line and column of `offset`, given the offsets where lines start
 * (ascending, the first 0): the same answer as the `yaml` library's
 * `LineCounter` gives for the same line starts.
 */
export function linePosIn(
  lineStarts: readonly number[],
  offset: number,
): LinePos {
  let low = 0;
  let high = lineStarts.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (lineStarts[mid] < offset) low = mid + 1;
    else high = mid;
  }
  if (lineStarts[low] === offset) return { line: low + 1, col: 1 };
  if (low === 0) return { line: 0, col: offset };
  return { line: low, col: offset - lineStarts[low - 1] + 1 };
}

/**
 * The JavaScript value of `node` as the `yaml` library's `toJS()` gives it
 * for plain data (mappings to objects with string keys, lists to arrays),
 * or the reader's own conversion when it has one.
 */
export function treeToJS(node: TreeValue): unknown {
  if (node === null || node === undefined) return node;
  if (node.kind === "scalar") return node.value;
  if (node.toJS) return node.toJS();
  if (node.kind === "seq") return node.items.map(treeToJS);
  const object: Record<string, unknown> = {};
  for (const pair of node.items) {
    const key = treeToJS(pair.key);
    const name = key === null ? "" : String(key);
    const value = treeToJS(pair.value);
    // As the library does: a name the object has already (`__proto__`,
    // `constructor`) becomes an own property instead of a setter call.
    if (name in object) {
      Object.defineProperty(object, name, {
        value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    } else object[name] = value;
  }
  return object;
}

/** Whether `node` is a mapping. */
export function isMap(node: unknown): node is TreeMap {
  return (node as TreeMap | null)?.kind === "map";
}

/** Whether `node` is a list. */
export function isSeq(node: unknown): node is TreeSeq {
  return (node as TreeSeq | null)?.kind === "seq";
}

/** Whether `node` is a scalar. */
export function isScalar(node: unknown): node is TreeScalar {
  return (node as TreeScalar | null)?.kind === "scalar";
}

/** Whether nothing is written at `node`: no node, or a null scalar. */
export function isNothing(node: TreeValue): boolean {
  return node === null || node === undefined ||
    (isScalar(node) && node.value === null);
}
