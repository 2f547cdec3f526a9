// A manifest file's `agents:` mapping: each agent's tools, secrets and
// the settings the opencode harness reads.

import { isPlainObject } from "../common/mod.ts";
import type { AgentEntry, NameRef, SourcePos } from "./types.ts";
import { agentNameWarning, agentSettingWarning } from "./_key_warnings.ts";
import { describeNode } from "./_describe_node.ts";
import type { FileContext } from "./_file_context.ts";
import { namedEntries, settingEntries } from "./_named_entries.ts";
import { nameList } from "./_name_list.ts";
import { parseAgentTools } from "./_parse_agent_tools.ts";
import {
  isMap,
  isNothing,
  isScalar,
  isSeq,
  type TreeMap,
  treeToJS,
  type TreeValue,
} from "./_yaml_tree.ts";

/** Reads the `agents:` mapping `value` into `ctx.file.agents`. */
export function parseAgents(
  ctx: FileContext,
  value: TreeValue,
  keyPos: SourcePos,
): void {
  const entries = namedEntries(ctx, value, keyPos, {
    notMapping: "`agents` must be a mapping of agent names to their settings",
    notName: "an agent name under `agents` must be a plain name",
  });
  let previous: string | undefined;
  for (const { name, pos, node } of entries) {
    ctx.warn(pos, agentNameWarning(name, previous));
    previous = name;
    const agent: AgentEntry = {
      name,
      pos,
      tools: { kind: "all" },
      secrets: [],
      raw: {},
    };
    ctx.file.agents.push(agent);
    if (isNothing(node)) continue;
    if (!isMap(node)) {
      ctx.error(
        ctx.nodePos(node, pos),
        `agent "${name}" must be a mapping (tools:, secrets:, …), found ${
          describeNode(node)
        }`,
      );
      continue;
    }
    parseAgentSettings(ctx, agent, node);
  }
}

/** Reads the settings of `agent`, the mapping `node`. */
function parseAgentSettings(
  ctx: FileContext,
  agent: AgentEntry,
  node: TreeMap,
): void {
  const raw = treeToJS(node);
  if (isPlainObject(raw)) agent.raw = raw;
  for (const { key, pos, value } of settingEntries(ctx, node)) {
    if (key === "tools") {
      agent.tools = parseAgentTools(ctx, agent.name, value, pos);
    } else if (key === "secrets") {
      agent.secrets = parseSecrets(ctx, agent.name, value, pos);
    } else if (key !== null) {
      ctx.warn(
        pos,
        agentSettingWarning(agent.name, String(key), ctx.hintBudget),
      );
    }
  }
}

/** An agent's `secrets:`: `all` or a list of secret names. */
function parseSecrets(
  ctx: FileContext,
  agent: string,
  value: TreeValue,
  keyPos: SourcePos,
): "all" | NameRef[] {
  if (isNothing(value)) return [];
  if (isScalar(value) && value.value === "all") return "all";
  if (isSeq(value)) return nameList(ctx, agent, "`secrets`", value);
  ctx.error(
    ctx.nodePos(value, keyPos),
    `agent "${agent}": \`secrets\` must be \`all\` or a list of secret names, found ${
      describeNode(value)
    }`,
  );
  return [];
}
