/**
 * Which tools a session gets, as `beeuni tools ls` lists them. Pure: reads a parsed {@linkcode Manifest}, never the file system.
 *
 * @module
 */

import { BEEUNI_TOOLS } from "./beeuni_tools.ts";
import { classifyEntry } from "./rules.ts";
import { nearestName } from "./nearest_name.ts";
import type { AgentEntry, Manifest, ResolvedTool, ToolSet } from "./types.ts";

/**
 * Resolves the tools a session of `manifest` gets.
 *
 * - Beeuni tools: when no manifest file (root or import) has a `tools:` key, every
 *   Beeuni tool, kind `beeuni`, source `beeuni:<name>`. When any file has
 *   one, even empty or null, only the Beeuni tools listed: as
 *   `beeuni:<name>` (kind `beeuni`) or mapped to a module path (kind
 *   `beeuni (overridden)`, source the path).
 * - Project tools (any other valid name mapped to a module path) always,
 *   kind `project`. A module path's source is normalized (`/` separators,
 *   no `./`): `./tools/x.ts` lists as `tools/x.ts`.
 * - Order: Beeuni tools in canonical order (`web_search`, `image_search`,
 *   `scrape_webpage`, `memory`, `show`), then project tools in declaration
 *   order across files (root first, then imports in `manifest.files` order).
 * - `removed`: the Beeuni tools not in the set, in canonical order.
 *
 * Invalid entries are skipped, never thrown on: a value that is not a
 * string, a name that breaks V1, a harness tool name (V2), a `beeuni:<x>`
 * that does not equal the key or under a non-Beeuni key (V3), a path that
 * is absolute or a URL, escapes with `..` or lacks a module extension (V4), and every
 * declaration of a name after its first one (V6: the first declaration
 * decides, even when it is itself invalid). The validator
 * reports each of them.
 *
 * @returns The tool set: the tools in order, whether a `tools:` key exists,
 * and the Beeuni tools left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseManifest, resolveTools } from "@beeuni/tools/manifest";
 *
 * const yaml = "tools:\n  web_search: beeuni:web_search\n  to_ms: tools/to_ms.ts\n";
 * const manifest = await parseManifest("/repo", "beeuni.yaml", () => yaml);
 * const set = resolveTools(manifest);
 * assert.deepEqual(set.tools.map((tool) => tool.name), ["web_search", "to_ms"]);
 * assert.ok(set.removed.includes("memory"));
 * ```
 */
export function resolveTools(manifest: Manifest): ToolSet {
  const toolsKey = manifest.files.some((file) => file.hasToolsKey);
  const chosen = new Map<string, ResolvedTool>();
  const seen = new Set<string>();
  for (const file of manifest.files) {
    for (const entry of file.tools) {
      if (seen.has(entry.name)) continue;
      seen.add(entry.name);
      const tool = classifyEntry(entry).tool;
      if (tool) chosen.set(entry.name, tool);
    }
  }
  const beeuni: ResolvedTool[] = [];
  const removed: string[] = [];
  for (const name of BEEUNI_TOOLS) {
    const tool = chosen.get(name);
    if (tool) beeuni.push(tool);
    else if (!toolsKey) {
      beeuni.push({ name, kind: "beeuni", source: `beeuni:${name}` });
    } else removed.push(name);
  }
  const project = [...chosen.values()].filter((tool) =>
    tool.kind === "project"
  );
  return {
    manifest: manifest.manifestPath,
    tools_key: toolsKey,
    tools: [...beeuni, ...project],
    removed,
  };
}

/**
 * The first `agents.<name>` entry named `name` across the manifest's files
 * (root first, then imports in order).
 *
 * @returns The entry, or `undefined` when no file defines the agent.
 */
export function findAgent(
  manifest: Manifest,
  name: string,
): AgentEntry | undefined {
  for (const file of manifest.files) {
    const agent = file.agents.find((entry) => entry.name === name);
    if (agent) return agent;
  }
  return undefined;
}

/**
 * The agent a call or session is made for when its caller names none:
 * every project has it, defined in the manifest or not.
 */
export const DEFAULT_AGENT = "beeuni";

/**
 * Every agent name defined across the manifest's files.
 *
 * @returns The names, first definition first, without repeats.
 */
export function agentNames(manifest: Manifest): string[] {
  const names: string[] = [];
  for (const file of manifest.files) {
    for (const agent of file.agents) {
      if (!names.includes(agent.name)) names.push(agent.name);
    }
  }
  return names;
}

/**
 * What an agent the manifest does not define gets, in words for a note, or
 * `undefined` when `name` is defined. The rule, the same in every command
 * and transport: such an agent sees every tool (the default `all`) and gets
 * no secret. The note names the nearest defined agent, for a typo.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseManifest } from "../manifest/mod.ts";
 * import { undefinedAgentNote } from "./resolve_tools.ts";
 *
 * const yaml = "agents:\n  writer:\n    tools: all\n";
 * const manifest = await parseManifest("/repo", "beeuni.yaml", () => yaml);
 * assert.equal(
 *   undefinedAgentNote(manifest, "wirter"),
 *   'agent "wirter" is not defined in the manifest, so it sees every tool (the default `all`) and gets no secret (did you mean "writer"?)',
 * );
 * assert.equal(undefinedAgentNote(manifest, "writer"), undefined);
 * ```
 */
export function undefinedAgentNote(
  manifest: Manifest,
  name: string,
): string | undefined {
  if (findAgent(manifest, name)) return undefined;
  const near = nearestName(name, agentNames(manifest));
  return `agent "${name}" is not defined in the manifest, so it sees every tool (the default \`all\`) and gets no secret${
    near === undefined ? "" : ` (did you mean "${near}"?)`
  }`;
}
