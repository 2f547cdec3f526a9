/**
 * The two outputs of `beeuni tools ls`: the aligned table and the
 * `--json` document.
 *
 * @module
 */

import { escapeControl } from "../common/mod.ts";
import type { Harness, ToolKind, ToolSet } from "./types.ts";

/** Which agent a listing is filtered for (`beeuni tools ls --agent NAME`). */
export interface AgentView {
  /** The agent's name. */
  agent: string;
  /** Whether the manifest defines it (an agent it does not define sees every tool). */
  defined: boolean;
  /** The harness whose rules were applied. */
  harness: Harness;
  /** The session agent that started it with `task`, when given. */
  parent?: string;
  /** The session's tools the agent does not see, in the session's order. */
  hidden: string[];
}

/** One row of the `--json` document. */
export interface ToolsJsonTool {
  /** The tool's name. */
  name: string;
  /** `beeuni`, `beeuni (overridden)` or `project`. */
  kind: ToolKind;
  /** `beeuni:<name>` or the repo-relative module path. */
  source: string;
}

/** The `beeuni tools ls --json` document. */
export interface ToolsJson {
  /** Repo-relative path of the root manifest. */
  manifest: string;
  /** Whether any manifest file has a `tools:` key. */
  tools_key: boolean;
  /** The tools listed. */
  tools: ToolsJsonTool[];
  /** The Beeuni tools the session does not get. */
  removed: string[];
  /** With `--agent`: the agent's name. */
  agent?: string;
  /** With `--agent`: whether the manifest defines it (an agent it does not define sees every tool). */
  agent_defined?: boolean;
  /** With `--agent`: the harness whose rules were applied. */
  harness?: Harness;
  /** With `--parent`: the parent agent's name. */
  parent?: string;
  /** With `--agent`: the session's tools the agent does not see. */
  hidden?: string[];
}

/**
 * Lays out `rows` as columns, each as wide as its longest cell, two spaces
 * apart, without trailing spaces.
 */
function columns(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row.map((cell, i) => i === row.length - 1 ? cell : cell.padEnd(widths[i]))
      .join("  ").trimEnd()
  );
}

/**
 * Formats `set` as `beeuni tools ls` prints it: a `NAME`, `KIND`,
 * `SOURCE` table, then, only when some Beeuni tool is removed, a blank line,
 * `Removed Beeuni tools: a, b` and
 * ``Add `<name>: beeuni:<name>` under `tools:` to get one back.``
 *
 * With `view` (a listing filtered for one agent, `set.tools` holding only
 * what it sees), a blank line and `Hidden from agent "<name>": a, b` follow
 * the table when the agent misses some of the session's tools.
 *
 * Every line ends with `\n`; control characters in names and paths are
 * escaped (`\n`, `\x1b`, …).
 */
export function formatToolsTable(set: ToolSet, view?: AgentView): string {
  const rows = [
    ["NAME", "KIND", "SOURCE"],
    ...set.tools.map((tool) => [tool.name, tool.kind, tool.source]),
  ].map((row) => row.map((cell) => escapeControl(cell)));
  const lines = columns(rows);
  if (view && view.hidden.length > 0) {
    lines.push(
      "",
      escapeControl(
        `Hidden from agent "${view.agent}": ${view.hidden.join(", ")}`,
      ),
    );
  }
  if (set.removed.length > 0) {
    lines.push(
      "",
      `Removed Beeuni tools: ${set.removed.join(", ")}`,
      "Add `<name>: beeuni:<name>` under `tools:` to get one back.",
    );
  }
  return lines.map((line) => `${line}\n`).join("");
}

/**
 * The `--json` document of `beeuni tools ls` for `set`: `{ manifest,
 * tools_key, tools: [{ name, kind, source }], removed }`, plus `agent`,
 * `agent_defined`, `harness`, `hidden` (and `parent` when given) for a
 * listing filtered by `view`.
 *
 * @returns The document, ready for `JSON.stringify`.
 */
export function toolsJson(set: ToolSet, view?: AgentView): ToolsJson {
  const doc: ToolsJson = {
    manifest: set.manifest,
    tools_key: set.tools_key,
    tools: set.tools.map(({ name, kind, source }) => ({ name, kind, source })),
    removed: [...set.removed],
  };
  if (view) {
    doc.agent = view.agent;
    doc.agent_defined = view.defined;
    doc.harness = view.harness;
    if (view.parent !== undefined) doc.parent = view.parent;
    doc.hidden = [...view.hidden];
  }
  return doc;
}
