// Warnings about keys that are likely slips: a misspelled top-level key or
// agent setting, a tool entry dedented to the top level, an agent setting
// dedented into an agent of its own. Keys Beeuni does not read are kept and
// never an error; only those near a known key are reported, so the
// keys of other tools stay quiet.

import { type HintBudget, nearestName } from "./nearest_name.ts";
import { moduleExtension } from "./rules.ts";
import {
  AGENT_SETTINGS,
  isAgentSetting,
  TOP_LEVEL_KEYS,
} from "./known_keys.ts";

/** A hint is at most this many edits away ("one or two edits"). */
const MAX_EDITS = 2;

/** What a top-level key that goes unread costs. */
const LOST: Record<string, string> = {
  tools: "it declares no tool",
  agents: "it defines no agent",
  imports: "it imports no file",
  record: "the call record holds no arguments or outputs",
};

/** What an agent setting that goes unread costs. */
const SETTING_LOST: Record<string, string> = {
  tools: ", so the agent sees every tool",
  secrets: ", so the agent gets no secret",
};

/** Whether `value` reads like the value of a `tools:` entry. */
function isToolValue(value: unknown): value is string {
  return typeof value === "string" &&
    (value.startsWith("beeuni:") || moduleExtension(value) !== undefined);
}

/**
 * The warning for a top-level key Beeuni does not read, whose scalar value
 * (when it has one) is `value`: a tool entry that sits at the top level,
 * or a key one or two edits from `tools`, `agents`, `imports` or
 * `record`; otherwise
 * `undefined`.
 */
export function topLevelKeyWarning(
  key: string,
  value: unknown,
  budget: HintBudget,
): string | undefined {
  if (isToolValue(value)) {
    return `"${key}: ${value}" is a tool entry at the top level, where it declares no tool: indent it under \`tools:\``;
  }
  const near = nearestName(key, TOP_LEVEL_KEYS, {
    budget,
    maxDistance: MAX_EDITS,
  });
  if (near === undefined) return undefined;
  return `unknown top-level key "${key}" (did you mean "${near}"?): ${
    LOST[near]
  }; rename it to \`${near}\``;
}

/**
 * The warning for an agent named like an agent setting (`tools`,
 * `secrets`, `model`, …), most likely a setting of the agent above that
 * lost its indentation; otherwise `undefined`. `previous` is the agent
 * defined just before it in the same mapping.
 */
export function agentNameWarning(
  name: string,
  previous: string | undefined,
): string | undefined {
  if (!isAgentSetting(name)) return undefined;
  const under = previous === undefined
    ? "the agent it belongs to"
    : `"${previous}"`;
  return `agent "${name}" is named like an agent setting: as written, \`${name}:\` defines an agent of its own; to make it a setting, indent it under ${under}`;
}

/**
 * The warning for a key of agent `agent` that is not an agent setting but
 * is one or two edits from one; otherwise `undefined`.
 */
export function agentSettingWarning(
  agent: string,
  key: string,
  budget: HintBudget,
): string | undefined {
  if (isAgentSetting(key)) return undefined;
  const near = nearestName(key, Object.keys(AGENT_SETTINGS), {
    budget,
    maxDistance: MAX_EDITS,
  });
  if (near === undefined) return undefined;
  return `agent "${agent}": "${key}" is not an agent setting (did you mean "${near}"?)${
    SETTING_LOST[near] ?? ""
  }: rename it to \`${near}\``;
}
