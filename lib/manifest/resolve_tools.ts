/**
 * Which tools a session gets (M3–M6), as `beeuni tools ls` lists them (L1,
 * L2). Pure: reads a parsed {@linkcode Manifest}, never the file system.
 *
 * @module
 */

import { BEEUNI_TOOLS, isBeeuniTool } from "./beeuni_tools.ts";
import { isHarnessTool } from "./harness_tools.ts";
import { checkRepoRelativePath } from "./parse_manifest.ts";
import type {
  AgentEntry,
  Manifest,
  ResolvedTool,
  ToolEntry,
  ToolSet,
} from "./types.ts";

const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const MODULE_EXTENSIONS = [".ts", ".js", ".mts", ".mjs", ".cts", ".cjs"];

/**
 * The normalized repo-relative module path `value` names (`/` separators,
 * no `./`), or `undefined` when it breaks V4's syntax: spaces around it,
 * absolute, a URL, a `..` segment, or no module extension. Whether the file
 * exists or stays inside the repository through symlinks is the validator's
 * business (V4, V5).
 */
function modulePathOf(value: string): string | undefined {
  if (value.trim() !== value) return undefined;
  if (value.split(/[\\/]/).includes("..")) return undefined;
  const checked = checkRepoRelativePath(value);
  if ("error" in checked) return undefined;
  const ok = MODULE_EXTENSIONS.some((ext) =>
    checked.path.endsWith(ext) && checked.path !== ext &&
    !checked.path.endsWith(`/${ext}`)
  );
  return ok ? checked.path : undefined;
}

/** What one `tools:` entry contributes, or `undefined` when it is invalid. */
function entryTool(entry: ToolEntry): ResolvedTool | undefined {
  const { name, value } = entry;
  if (typeof value !== "string") return undefined;
  if (!TOOL_NAME.test(name) || isHarnessTool(name)) return undefined;
  if (value.startsWith("beeuni:")) {
    if (!isBeeuniTool(name) || value !== `beeuni:${name}`) return undefined;
    return {
      name,
      kind: "beeuni",
      source: value,
      declaredAt: entry.namePos,
    };
  }
  const path = modulePathOf(value);
  if (path === undefined) return undefined;
  return {
    name,
    kind: isBeeuniTool(name) ? "beeuni (overridden)" : "project",
    source: path,
    declaredAt: entry.namePos,
  };
}

/**
 * Resolves the tools a session of `manifest` gets.
 *
 * - M4: when no manifest file (root or import) has a `tools:` key, every
 *   Beeuni tool, kind `beeuni`, source `beeuni:<name>`. When any file has
 *   one, even empty or null, only the Beeuni tools listed: as
 *   `beeuni:<name>` (kind `beeuni`) or mapped to a module path (M6, kind
 *   `beeuni (overridden)`, source the path).
 * - M5: project tools (any other valid name mapped to a module path) always,
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
 * @example
 * ```ts ignore
 * const set = resolveTools(manifest);
 * console.log(set.tools.map((tool) => tool.name), set.removed);
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
      const tool = entryTool(entry);
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
 * (root first, then imports in order), or `undefined` when none is.
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

/** Every agent name defined across the manifest's files, first definition first, without repeats. */
export function agentNames(manifest: Manifest): string[] {
  const names: string[] = [];
  for (const file of manifest.files) {
    for (const agent of file.agents) {
      if (!names.includes(agent.name)) names.push(agent.name);
    }
  }
  return names;
}
