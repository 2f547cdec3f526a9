// The entries of a mapping: those whose keys are names (`tools:` and
// `agents:`), and those whose keys are settings (a file's top level, an
// agent's settings).

import type { SourcePos } from "./types.ts";
import { describeNode } from "./_describe_node.ts";
import type { FileContext } from "./_file_context.ts";
import {
  isMap,
  isNothing,
  isScalar,
  type TreeMap,
  type TreeValue,
} from "./_yaml_tree.ts";

/** One entry of a mapping of names: the name, where it is written, its value. */
export interface NamedEntry {
  name: string;
  pos: SourcePos;
  node: TreeValue;
}

/**
 * The entries of the `tools:` or `agents:` mapping whose keys are plain
 * names; reports (V12) a value that is not a mapping and every other key,
 * each message followed by what was found.
 */
export function* namedEntries(
  ctx: FileContext,
  value: TreeValue,
  keyPos: SourcePos,
  messages: { notMapping: string; notName: string },
): Generator<NamedEntry> {
  if (isNothing(value)) return;
  if (!isMap(value)) {
    ctx.error(
      ctx.nodePos(value, keyPos),
      `${messages.notMapping}, found ${describeNode(value)}`,
    );
    return;
  }
  for (const pair of value.items) {
    const key = pair.key;
    if (!isScalar(key) || key.value === null) {
      const valuePos = pair.valueOffset === undefined
        ? keyPos
        : ctx.pos(pair.valueOffset);
      ctx.error(
        ctx.nodePos(key, valuePos),
        `${messages.notName}, found ${describeNode(key)}`,
      );
      continue;
    }
    yield { name: String(key.value), pos: ctx.nodePos(key), node: pair.value };
  }
}

/** One entry of a mapping of settings: the key as written, where, and its value. */
export interface SettingEntry {
  key: unknown;
  pos: SourcePos;
  value: TreeValue;
}

/**
 * The entries of `map` whose keys are scalars, in file order; the others
 * are passed over.
 */
export function* settingEntries(
  ctx: FileContext,
  map: TreeMap,
): Generator<SettingEntry> {
  for (const pair of map.items) {
    const key = pair.key;
    if (!isScalar(key)) continue;
    yield { key: key.value, pos: ctx.nodePos(key), value: pair.value };
  }
}
