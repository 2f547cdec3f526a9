/**
 * The rules of `beeuni validate` (V1–V11) over a parsed manifest and a few
 * facts about the project's files. Pure: the facts are gathered by
 * `loadProject()`.
 *
 * @module
 */

import { BEEUNI_TOOLS, isBeeuniTool } from "./beeuni_tools.ts";
import { HARNESS_TOOLS, isHarnessTool, isPtyTool } from "./harness_tools.ts";
import { classifyEntry, moduleExtension } from "./rules.ts";
import { HINT_BUDGET_CELLS, nearestName } from "./nearest_name.ts";
import { resolveTools } from "./resolve_tools.ts";
import type {
  Diagnostic,
  Manifest,
  NameRef,
  Severity,
  SourcePos,
  ToolEntry,
} from "./types.ts";

/** What the file system and git say about one declared module path. */
export interface ModuleFacts {
  /** Whether the path names a regular file (after following symlinks). */
  exists: boolean;
  /** Whether the file's real path stays inside the repository (V4). */
  insideRepo: boolean;
  /** Whether git tracks the path (V10). */
  tracked: boolean;
}

/** Facts about the project's files that the validator needs, gathered by `loadProject()`. */
export interface ProjectFacts {
  /** Facts per module path, keyed by the normalized path (`modulePath()` of `rules.ts`) of the value written under `tools:`. */
  modules: Record<string, ModuleFacts>;
  /** File names (not paths) found in `harnesses/opencode/tools/` (V11). */
  legacyTools: string[];
  /**
   * The tool names opencode gives the named exports of those files
   * (`<file>_<export>`), by file name, where one may be a Beeuni tool's (V11).
   */
  legacyToolNames?: Record<string, string[]>;
}

/** The folder the standard harness loads its own custom tools from (V11). */
export const LEGACY_TOOLS_DIR = "harnesses/opencode/tools";

/** The text of V7, byte for byte as seed 000 gives it. */
export const V7_MESSAGE: string =
  `Sessions of this project get no Beeuni tool (${
    BEEUNI_TOOLS.join(", ")
  }). Add \`<name>: beeuni:<name>\` to keep one.`;

/**
 * The text of V8 for an agent naming the Beeuni tool `name` that the
 * project does not load, byte for byte as seed 000 gives it.
 */
export function v8Message(name: string): string {
  return `"${name}" is a Beeuni tool this project does not load: add \`${name}: beeuni:${name}\` under the top-level \`tools\`, or remove it here.`;
}

/**
 * Checks `manifest` against every rule of `beeuni validate` (V1–V11; V12
 * and the imports' errors come from the parser and are in
 * `manifest.diagnostics`, which this function does not repeat).
 *
 * Returns the diagnostics sorted by place: files in manifest order (root
 * first, then imports in the order reached), then any other file (such as
 * `harnesses/opencode/tools/…`) by path; within a file by line, then
 * column. Use {@linkcode sortDiagnostics} to merge them with the parser's.
 *
 * @returns The validator's diagnostics, sorted by place; never throws.
 *
 * @example A module path whose file does not exist
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseManifest, validate } from "@beeuni/tools/manifest";
 *
 * const yaml = "tools:\n  lookup_order: tools/lookup_order.ts\n";
 * const manifest = await parseManifest("/repo", "beeuni.yaml", () => yaml);
 * const facts = {
 *   modules: {
 *     "tools/lookup_order.ts": { exists: false, insideRepo: true, tracked: true },
 *   },
 *   legacyTools: [],
 * };
 * const missing = validate(manifest, facts).find((d) => d.rule === "V5");
 * assert.equal(missing?.severity, "error");
 * assert.equal(missing?.line, 2);
 * ```
 */
export function validate(
  manifest: Manifest,
  facts: ProjectFacts,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const report = (
    at: SourcePos,
    severity: Severity,
    rule: string,
    message: string,
  ): void => {
    out.push({ ...at, severity, rule, message });
  };

  // Tool entries: V1–V6, V10.
  const firstDeclared = new Map<string, ToolEntry>();
  for (const file of manifest.files) {
    for (const entry of file.tools) {
      checkEntry(entry, facts, report);
      const first = firstDeclared.get(entry.name);
      if (first) {
        report(
          entry.namePos,
          "error",
          "V6",
          `tool "${entry.name}" is declared twice: in ${
            place(first.namePos)
          } and in ${place(entry.namePos)}; keep one of them`,
        );
      } else firstDeclared.set(entry.name, entry);
    }
  }

  // V7: a tools: key that lists no Beeuni tool.
  const keyFile = manifest.files.find((file) => file.hasToolsKey);
  if (keyFile && ![...firstDeclared.keys()].some(isBeeuniTool)) {
    report(
      keyFile.toolsKeyPos ?? { file: keyFile.path, line: 1, col: 1 },
      "warning",
      "V7",
      V7_MESSAGE,
    );
  }

  // Agents: V8, V9.
  const toolSet = resolveTools(manifest);
  const loaded = new Set(toolSet.tools.map((tool) => tool.name));
  const projectNames = [...firstDeclared.keys()].filter((name) =>
    !isBeeuniTool(name)
  );
  // In the order hints prefer at equal distance: the project's own names,
  // then the Beeuni tools, then the harness's.
  const known = new Set<string>([
    ...projectNames,
    ...BEEUNI_TOOLS,
    ...Object.keys(HARNESS_TOOLS),
  ]);
  const isKnown = (name: string) =>
    known.has(name) || isHarnessTool(name) || isPtyTool(name);
  // One budget for every hint of this run, so hints stay linear.
  const hintBudget = { cells: HINT_BUDGET_CELLS };
  for (const file of manifest.files) {
    for (const agent of file.agents) {
      const spec = agent.tools;
      const unknown = (ref: NameRef, how: "list" | "exclude" | "map") => {
        const near = nearestName(ref.name, known, { budget: hintBudget });
        const hint = near === undefined ? "" : ` (did you mean "${near}"?)`;
        const what =
          `which is neither a harness, Beeuni nor project tool${hint}`;
        const text = how === "list"
          ? `agent "${agent.name}" lists "${ref.name}", ${what}: the agent gets no such tool; fix the name or remove it`
          : how === "exclude"
          ? `agent "${agent.name}" excludes "${ref.name}", ${what}: this excludes nothing, so the tool you meant stays enabled; fix the name`
          : `agent "${agent.name}" maps "${ref.name}", ${what}: the entry has no effect; fix the name or remove it`;
        report(ref.pos, "warning", "V9", text);
      };
      const notLoaded = (ref: NameRef) => {
        if (isBeeuniTool(ref.name) && !loaded.has(ref.name)) {
          report(ref.pos, "warning", "V8", v8Message(ref.name));
        }
      };
      if (spec.kind === "list") {
        for (const ref of spec.names) {
          if (ref.name === "*") continue;
          if (!isKnown(ref.name)) unknown(ref, "list");
          else notLoaded(ref);
        }
      } else if (spec.kind === "exclude") {
        for (const ref of spec.names) {
          if (!isKnown(ref.name)) unknown(ref, "exclude");
        }
      } else if (spec.kind === "map") {
        for (const entry of spec.entries) {
          const ref = { name: entry.name, pos: entry.pos };
          if (!isKnown(entry.name)) unknown(ref, "map");
          else if (entry.enabled) notLoaded(ref);
        }
      }
    }
  }

  // V11: tool files in the standard harness's own folder.
  for (const name of [...facts.legacyTools].sort()) {
    const ext = moduleExtension(name);
    if (!ext) continue;
    const base = name.slice(0, -ext.length);
    const at = { file: `${LEGACY_TOOLS_DIR}/${name}`, line: 1, col: 1 };
    if (isBeeuniTool(base)) {
      report(
        at,
        "warning",
        "V11",
        `a copy of the Beeuni tool "${base}": in the standard harness it shadows the hosted "${base}" tool, so sessions run this copy; delete it (the daemon hosts every tool listed in beeuni.yaml for both harnesses)`,
      );
    } else {
      report(
        at,
        "warning",
        "V11",
        `only the standard harness loads "${name}": \`beeuni tools migrate\` turns its tools into project tools that both harnesses run; once they load (\`beeuni validate --load\`), delete this file, which opencode would otherwise keep loading`,
      );
    }
    for (const tool of facts.legacyToolNames?.[name] ?? []) {
      if (tool === base || !isBeeuniTool(tool)) continue;
      report(
        at,
        "warning",
        "V11",
        `"${name}" exports the tool "${tool}" (opencode names each named export <file>_<export>): in the standard harness it shadows the hosted "${tool}" tool, so sessions run this copy; delete or rename that export`,
      );
    }
  }

  return sortDiagnostics(manifest, out);
}

function place(pos: SourcePos): string {
  return `${pos.file}:${pos.line}:${pos.col}`;
}

function checkEntry(
  entry: ToolEntry,
  facts: ProjectFacts,
  report: (
    at: SourcePos,
    severity: Severity,
    rule: string,
    message: string,
  ) => void,
): void {
  const { name, value } = entry;
  const checked = classifyEntry(entry);
  for (const problem of checked.problems) {
    report(problem.at, "error", problem.rule, problem.message);
  }
  const path = checked.modulePath;
  if (
    path === undefined || checked.problems.some((p) => p.at === entry.valuePos)
  ) {
    return;
  }
  const module = facts.modules[path];
  if (!module || !module.exists) {
    report(
      entry.valuePos,
      "error",
      "V5",
      `cannot find module "${value}" for tool "${name}": file not found; create it or fix the path`,
    );
    return;
  }
  if (!module.insideRepo) {
    report(
      entry.valuePos,
      "error",
      "V4",
      `invalid module path "${value}" for tool "${name}": a symlink leads outside the repository; put the module inside the repository`,
    );
    return;
  }
  if (!module.tracked) {
    report(
      entry.valuePos,
      "warning",
      "V10",
      `module "${value}" of tool "${name}" is not tracked by git: a config release carries only tracked files, so sessions would not see it; run \`git add ${path}\``,
    );
  }
}

/**
 * Sorts diagnostics by place: files in `manifest.files` order, then other
 * files by path, then line and column; the sort is stable, so diagnostics
 * at the same place keep their order.
 *
 * @returns A new array; `diagnostics` is left as it was.
 */
export function sortDiagnostics(
  manifest: Manifest,
  diagnostics: readonly Diagnostic[],
): Diagnostic[] {
  const order = new Map(
    manifest.files.map((file, index) => [file.path, index]),
  );
  const rank = (d: Diagnostic) => order.get(d.file) ?? order.size;
  return [...diagnostics].sort((a, b) =>
    rank(a) - rank(b) ||
    (rank(a) === order.size && a.file !== b.file
      ? (a.file < b.file ? -1 : 1)
      : 0) ||
    a.line - b.line ||
    a.col - b.col
  );
}
