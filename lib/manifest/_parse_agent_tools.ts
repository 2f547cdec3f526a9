// An agent's `tools:` setting: `all`, `none`, a list of tool names,
// `{ exclude: [...] }`, or a map of tool names to true/false.

import type { AgentToolsSpec, SourcePos } from "./types.ts";
import { nearestName } from "./nearest_name.ts";
import { describeNode } from "./_describe_node.ts";
import type { FileContext } from "./_file_context.ts";
import { nameList } from "./_name_list.ts";
import {
  isMap,
  isNothing,
  isScalar,
  isSeq,
  type TreeMap,
  type TreePair,
  type TreeValue,
} from "./_yaml_tree.ts";

const SHAPES =
  "`all`, `none`, a list of tool names, `{ exclude: [...] }` or a map of tool names to true/false";

/**
 * Reads agent `agent`'s `tools:` setting `value`, written after the key at
 * `keyPos`; reports (V12) any other shape, and reads it as `all`.
 */
export function parseAgentTools(
  ctx: FileContext,
  agent: string,
  value: TreeValue,
  keyPos: SourcePos,
): AgentToolsSpec {
  const pos = ctx.nodePos(value, keyPos);
  if (isNothing(value)) return { kind: "all", pos: keyPos };
  if (isScalar(value)) {
    if (value.value === "all") return { kind: "all", pos };
    if (value.value === "none") return { kind: "none", pos };
  } else if (isSeq(value)) {
    return { kind: "list", names: nameList(ctx, agent, "`tools`", value), pos };
  } else if (isMap(value)) {
    const exclude = value.items.find((pair) =>
      isScalar(pair.key) && pair.key.value === "exclude"
    );
    return exclude
      ? excludeSpec(ctx, agent, value, exclude, pos)
      : mapSpec(ctx, agent, value, pos);
  }
  ctx.error(
    pos,
    `agent "${agent}": \`tools\` must be ${SHAPES}, found ${
      describeNode(value)
    }`,
  );
  return { kind: "all", pos };
}

/** `tools: { exclude: [...] }`, whose `exclude` entry is `pair`. */
function excludeSpec(
  ctx: FileContext,
  agent: string,
  value: TreeMap,
  pair: TreePair,
  pos: SourcePos,
): AgentToolsSpec {
  if (value.items.length > 1) {
    ctx.error(
      pos,
      `agent "${agent}": \`tools\` with \`exclude\` takes no other key; use \`{ exclude: [...] }\` alone`,
    );
  }
  const list = pair.value;
  if (isNothing(list)) return { kind: "exclude", names: [], pos };
  if (!isSeq(list)) {
    ctx.error(
      ctx.nodePos(list, pos),
      `agent "${agent}": \`exclude\` must be a list of tool names, found ${
        describeNode(list)
      }`,
    );
    return { kind: "exclude", names: [], pos };
  }
  return {
    kind: "exclude",
    names: nameList(ctx, agent, "`exclude`", list),
    pos,
  };
}

/** `tools: { name: true|false, … }`. */
function mapSpec(
  ctx: FileContext,
  agent: string,
  value: TreeMap,
  pos: SourcePos,
): AgentToolsSpec {
  const entries: { name: string; enabled: boolean; pos: SourcePos }[] = [];
  for (const pair of value.items) {
    const key = pair.key;
    const entryPos = ctx.nodePos(key, pos);
    if (!isScalar(key) || key.value === null) {
      ctx.error(
        entryPos,
        `agent "${agent}": a key of the \`tools\` map must be a tool name, found ${
          describeNode(key)
        }`,
      );
      continue;
    }
    const name = String(key.value);
    const flag = pair.value;
    if (!isScalar(flag) || typeof flag.value !== "boolean") {
      const meant = isSeq(flag)
        ? nearestName(name, ["exclude"], { maxDistance: 2 })
        : undefined;
      ctx.error(
        ctx.nodePos(flag, entryPos),
        `agent "${agent}": \`tools.${name}\` must be true or false, found ${
          describeNode(flag)
        }${meant === undefined ? "" : ` (did you mean \`exclude: [...]\`?)`}`,
      );
      continue;
    }
    entries.push({ name, enabled: flag.value, pos: entryPos });
  }
  return { kind: "map", entries, pos };
}
