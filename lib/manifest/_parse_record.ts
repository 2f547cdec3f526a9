// A manifest file's `record:` mapping: what the call record may hold
// besides each call's facts (its arguments, its outputs).

import type { RecordSettings, SourcePos } from "./types.ts";
import { describeNode } from "./_describe_node.ts";
import type { FileContext } from "./_file_context.ts";
import { settingEntries } from "./_named_entries.ts";
import { isMap, isNothing, isScalar, type TreeValue } from "./_yaml_tree.ts";

/** The settings `record:` holds, each a boolean. */
const RECORD_KEYS: readonly (keyof RecordSettings)[] = ["arguments", "outputs"];

/**
 * Reads the `record:` mapping `value` into `ctx.file.record`; reports
 * (V12) a value that is not a mapping, an unknown key and a setting that
 * is not `true` or `false`, and warns about `record:` in an imported file.
 */
export function parseRecord(
  ctx: FileContext,
  value: TreeValue,
  keyPos: SourcePos,
): void {
  const record: RecordSettings = { pos: keyPos };
  ctx.file.record = record;
  if (ctx.file.importedFrom !== undefined) {
    ctx.warn(
      keyPos,
      `\`record\` is read from the root manifest only: in ${ctx.path} it changes nothing; move it to the root manifest`,
    );
  }
  if (isNothing(value)) return;
  if (!isMap(value)) {
    ctx.error(
      ctx.nodePos(value, keyPos),
      `\`record\` must be a mapping such as \`{ arguments: true, outputs: true }\`, found ${
        describeNode(value)
      }`,
    );
    return;
  }
  for (const entry of settingEntries(ctx, value)) {
    const key = String(entry.key);
    if (!(RECORD_KEYS as readonly string[]).includes(key)) {
      ctx.error(
        entry.pos,
        `unknown setting "record.${key}": use ${
          RECORD_KEYS.map((name) => `"${name}"`).join(" or ")
        }`,
      );
      continue;
    }
    const node = entry.value;
    if (!isScalar(node) || typeof node.value !== "boolean") {
      ctx.error(
        ctx.nodePos(node, entry.pos),
        `\`record.${key}\` must be true or false, found ${describeNode(node)}`,
      );
      continue;
    }
    record[key as "arguments" | "outputs"] = node.value;
  }
}
