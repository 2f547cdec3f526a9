/**
 * Which tools an agent sees (docs/agents.md). Pure functions over an
 * {@linkcode AgentEntry}: no manifest reading, no I/O.
 *
 * `agents.<name>.tools` takes five forms:
 *
 * | value | the agent sees |
 * | --- | --- |
 * | omitted or `all` | every tool |
 * | `none` | no tool |
 * | a list | only those; a list containing `*` sees every tool |
 * | `{ exclude: [...] }` | every tool but those; `*` in it hides every tool |
 * | `{ bash: false, … }` | legacy map: `false` hides, `true` changes nothing |
 *
 * In the standard harness `bash` also covers the terminal plugin's
 * `pty_*` tools, and `write`, `edit` and `apply_patch` share one permission.
 * In the experimental harness every name stands for itself.
 *
 * Visibility is all these functions decide: the agent's `permission`
 * rules still decide allow / ask / deny, and connector tools follow
 * `agents.<name>.connectors` instead.
 *
 * @module
 */

import { isPtyTool } from "./harness_tools.ts";
import type { AgentEntry, AgentToolsSpec, Harness } from "./types.ts";

/** The tools that share the `edit` permission in the standard harness. */
export const EDIT_TOOLS: readonly string[] = ["write", "edit", "apply_patch"];

/** What {@linkcode agentTools} and {@linkcode agentMaySee} are told. */
export interface AgentToolsOptions {
  /** The agent; `undefined` sees every tool (the default `all`). */
  agent?: AgentEntry;
  /** The harness running the agent: `standard` (opencode) or `experimental`. */
  harness: Harness;
  /**
   * The session agent that started `agent` as a subagent with `task`;
   * absent for a session agent.
   */
  parent?: AgentEntry;
}

/**
 * Whether `names` (written in an agent's list, exclude list or map) speak
 * for `tool`: the name itself, and in the standard harness `bash` for any
 * `pty_*` tool and any of `write` / `edit` / `apply_patch` for all three.
 */
function speaksFor(
  written: Iterable<string>,
  tool: string,
  harness: Harness,
): boolean {
  const set = new Set(written);
  if (set.has(tool)) return true;
  if (harness !== "standard") return false;
  if (isPtyTool(tool) && set.has("bash")) return true;
  if (EDIT_TOOLS.includes(tool)) {
    return EDIT_TOOLS.some((name) => set.has(name));
  }
  return false;
}

/**
 * Whether an agent whose `tools` is `spec` sees `tool` on `harness`,
 * ignoring any parent agent.
 */
function specAllows(
  spec: AgentToolsSpec,
  tool: string,
  harness: Harness,
): boolean {
  switch (spec.kind) {
    case "all":
      return true;
    case "none":
      return false;
    case "list": {
      const written = spec.names.map((ref) => ref.name);
      return written.includes("*") || speaksFor(written, tool, harness);
    }
    case "exclude": {
      const written = spec.names.map((ref) => ref.name);
      return !written.includes("*") && !speaksFor(written, tool, harness);
    }
    case "map": {
      const off = spec.entries.filter((entry) => !entry.enabled).map((entry) =>
        entry.name
      );
      return !speaksFor(off, tool, harness);
    }
  }
}

/**
 * Whether the agent described by `options` may see, and so call, `tool`
 * (a call to a tool the agent may not see is refused).
 *
 * - No agent: every tool (the default `all`).
 * - `all` / `none` / a list (with `*` meaning all) / `{ exclude }` /
 *   the legacy `{ name: false }` map, as in the module table.
 * - Standard harness only: listing `bash` shows `pty_*` tools and
 *   excluding `bash` (or `bash: false`) hides them; listing any of `write`,
 *   `edit`, `apply_patch` shows all three, excluding (or mapping to `false`)
 *   any of them hides all three. A `pty_*` name speaks only for itself.
 * - A subagent started by `task` (`parent` given): in the experimental
 *   harness it sees a tool only when both its own `tools` and the parent's
 *   allow it; in the standard harness its own `tools` alone decide. Only one
 *   level of parent is considered.
 *
 * @returns `true` when the agent sees `tool`.
 *
 * @example Listing `edit` shows `write` too, in the standard harness
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentMaySee, findAgent, parseManifest } from "@beeuni/tools/manifest";
 *
 * const yaml = "agents:\n  support:\n    tools: [edit]\n";
 * const manifest = await parseManifest("/repo", "beeuni.yaml", () => yaml);
 * const support = findAgent(manifest, "support");
 * assert.equal(agentMaySee("write", { agent: support, harness: "standard" }), true);
 * assert.equal(agentMaySee("bash", { agent: support, harness: "standard" }), false);
 * ```
 */
export function agentMaySee(tool: string, options: AgentToolsOptions): boolean {
  const { agent, harness, parent } = options;
  const own = agent ? specAllows(agent.tools, tool, harness) : true;
  if (!own) return false;
  if (parent && harness === "experimental") {
    return specAllows(parent.tools, tool, harness);
  }
  return true;
}

/**
 * The subset of `options.tools` the agent sees, in the order given.
 *
 * `tools` is the universe of names on offer: the session's hosted tools
 * (Beeuni and project tools, so an agent's list can never add a Beeuni tool
 * the project does not load), plus harness tool names when the caller
 * includes them. Each name is decided by {@linkcode agentMaySee}; see there
 * for every case (`all`, `none`, lists with `*`, `{ exclude }`, the legacy
 * map, subagents, the standard harness's couplings). Repeated names are
 * kept once.
 *
 * @returns The names the agent sees, in the order of `options.tools`, each once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentTools, findAgent, parseManifest } from "@beeuni/tools/manifest";
 *
 * const yaml = "agents:\n  researcher:\n    tools: [web_search, bash]\n";
 * const manifest = await parseManifest("/repo", "beeuni.yaml", () => yaml);
 * const visible = agentTools({
 *   tools: ["web_search", "lookup_order", "bash", "pty_spawn"],
 *   agent: findAgent(manifest, "researcher"),
 *   harness: "standard",
 * });
 * assert.deepEqual(visible, ["web_search", "bash", "pty_spawn"]);
 * ```
 */
export function agentTools(
  options: AgentToolsOptions & { tools: readonly string[] },
): string[] {
  const visible: string[] = [];
  for (const tool of options.tools) {
    if (!visible.includes(tool) && agentMaySee(tool, options)) {
      visible.push(tool);
    }
  }
  return visible;
}

/**
 * Whether `agent` may start subagents: whether it sees the harness tool
 * `task` (an agent without it cannot delegate). An undefined agent sees
 * every tool and so may delegate.
 *
 * @returns `true` when the agent sees `task`.
 */
export function mayDelegate(
  agent: AgentEntry | undefined,
  harness: Harness,
): boolean {
  return agent ? specAllows(agent.tools, "task", harness) : true;
}
