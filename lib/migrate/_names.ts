/**
 * The name a migrated tool gets. opencode names tools after files and
 * exports, whatever they look like (`github-pr-search`,
 * `team_deleteContext`); a project tool's name follows V1. The name is the
 * user's choice (`--name OLD=NEW`), else opencode's when it is valid, else
 * one made from it: words split at `-`, `.`, spaces and lower-to-upper
 * case changes, joined with `_`, lowercase.
 *
 * @module
 */

import { isToolName } from "../manifest/mod.ts";

/**
 * A valid tool name made from opencode's `name` (`github-pr-search` →
 * `github_pr_search`, `deleteContext` → `delete_context`), or undefined
 * when none can be (a leading digit, a character other than letters,
 * digits, `_`, `-`, `.` and spaces, or over 64 characters).
 */
export function deriveToolName(name: string): string | undefined {
  if (isToolName(name)) return name;
  if (!/^[A-Za-z0-9_. -]+$/.test(name)) return undefined;
  const derived = name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[-. ]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "");
  return isToolName(derived) ? derived : undefined;
}

/** How a tool got its name. */
export type Naming =
  /** opencode's name, valid as it is. */
  | { name: string; how: "same" }
  /** Made from opencode's name. */
  | { name: string; how: "derived" }
  /** Chosen with `--name`. */
  | { name: string; how: "chosen" }
  /** None: opencode's name is invalid and no name can be made from it. */
  | { how: "none" };

/**
 * The name of the tool opencode calls `opencodeName`: `renames` (by
 * opencode's name, or by the name made from it) first. Marks the rename
 * used in `used`.
 */
export function nameTool(
  opencodeName: string,
  renames: ReadonlyMap<string, string>,
  used: Set<string>,
): Naming {
  const derived = deriveToolName(opencodeName);
  for (const key of [opencodeName, derived]) {
    const chosen = key === undefined ? undefined : renames.get(key);
    if (chosen !== undefined) {
      used.add(key!);
      return { name: chosen, how: "chosen" };
    }
  }
  if (derived === undefined) return { how: "none" };
  return { name: derived, how: derived === opencodeName ? "same" : "derived" };
}
