/**
 * Parses a project's `beeuni.yaml` and every file it imports into a
 * {@linkcode Manifest}, keeping the file, line and column of every node.
 * Pure over a `read` callback: problems become positioned diagnostics, never
 * exceptions.
 *
 * @module
 */

import { posix } from "node:path";
import { checkRepoRelativePath } from "./rules.ts";
import {
  formatBytes,
  MANIFEST_LIMITS,
  type ManifestLimits,
  manifestLimits,
} from "./limits.ts";
import { readPlainYaml } from "./_plain_yaml.ts";
import {
  type LinePos,
  linePosIn,
  type TreeMap,
  type TreeScalar,
  type TreeSeq,
  treeToJS,
  type TreeValue,
} from "./_yaml_tree.ts";
import type {
  AgentEntry,
  AgentToolsSpec,
  Diagnostic,
  ImportEntry,
  Manifest,
  ManifestFile,
  NameRef,
  SourcePos,
  ToolEntry,
} from "./types.ts";
import { errorMessage } from "../common/mod.ts";
import { spacedEntry } from "./_colon_space.ts";
import {
  HINT_BUDGET_CELLS,
  type HintBudget,
  nearestName,
} from "./nearest_name.ts";
import {
  agentNameWarning,
  agentSettingWarning,
  topLevelKeyWarning,
} from "./_key_warnings.ts";

/** The `yaml` library's reader, loaded when a file first needs it. */
let yamlReader: Promise<typeof import("./_yaml_reader.ts")> | undefined;

function isMap(node: unknown): node is TreeMap {
  return (node as TreeMap | null)?.kind === "map";
}

function isSeq(node: unknown): node is TreeSeq {
  return (node as TreeSeq | null)?.kind === "seq";
}

function isScalar(node: unknown): node is TreeScalar {
  return (node as TreeScalar | null)?.kind === "scalar";
}

/**
 * Reads a repo-relative file: its text, or `undefined` when it does not
 * exist. It may throw an `Error` whose message says why the file cannot be
 * read (for example a symlink that leads outside the repository); that
 * message becomes the diagnostic's detail.
 */
export type ReadFile = (repoRelativePath: string) => string | undefined;

/** Options of {@linkcode parseManifest}. */
export interface ParseManifestOptions {
  /** Bounds over the defaults of {@linkcode MANIFEST_LIMITS}. */
  limits?: Partial<ManifestLimits>;
}

/** How many alias expansions a manifest file may cause before it counts as an alias bomb (V12). */
export const MAX_ALIAS_COUNT: number = MANIFEST_LIMITS.maxAliasCount;

/** What kind of YAML value a node is, for messages. */
function describe(node: unknown): string {
  if (node === null || node === undefined) return "nothing";
  if (isMap(node)) return "a mapping";
  if (isSeq(node)) return "a list";
  if (isScalar(node)) {
    const value = node.value;
    if (value === null) return "nothing";
    if (typeof value === "string") {
      const meant = spacedEntry(value);
      return meant === undefined
        ? `the string "${value}"`
        : `the string "${value}" (a key needs a space after its colon: write \`${meant}\`)`;
    }
    if (typeof value === "number" || typeof value === "bigint") {
      return `the number ${String(value)}`;
    }
    if (typeof value === "boolean") return `the boolean ${value}`;
    return `a ${typeof value}`;
  }
  return "an unsupported value";
}

/** Parses one file of the manifest with positions. */
class FileParser {
  linePos: (offset: number) => LinePos = (offset) => ({
    line: 1,
    col: offset + 1,
  });
  readonly diagnostics: Diagnostic[] = [];
  readonly file: ManifestFile;
  readonly path: string;
  readonly source: string;
  readonly limits: ManifestLimits;

  readonly nodeBudget: number;
  readonly hintBudget: HintBudget;
  nodes = 0;

  constructor(
    path: string,
    source: string,
    limits: ManifestLimits,
    budgets: { nodes: number; hints: HintBudget },
    importedFrom?: SourcePos,
  ) {
    this.nodeBudget = budgets.nodes;
    this.hintBudget = budgets.hints;
    this.path = path;
    this.source = source;
    this.limits = limits;
    this.file = {
      path,
      hasToolsKey: false,
      tools: [],
      agents: [],
      imports: [],
      ...(importedFrom ? { importedFrom } : {}),
    };
  }

  pos(offset: number | undefined): SourcePos {
    const { line, col } = this.linePos(offset ?? 0);
    return { file: this.path, line, col };
  }

  nodePos(node: TreeValue, fallback?: SourcePos): SourcePos {
    return node ? this.pos(node.offset) : fallback ?? this.pos(0);
  }

  error(at: SourcePos, rule: string, message: string): void {
    this.diagnostics.push({ ...at, severity: "error", rule, message });
  }

  /** A warning (V12) at `at`, when there is one to give. */
  warn(at: SourcePos, message: string | undefined): void {
    if (message === undefined) return;
    this.diagnostics.push({ ...at, severity: "warning", rule: "V12", message });
  }

  isNull(node: TreeValue): boolean {
    return node === null || node === undefined ||
      (isScalar(node) && node.value === null);
  }

  /**
   * Reads the file's YAML within the limits: with the reader of plain
   * manifests when it can (and `plain` allows), else with the `yaml`
   * library, loaded then. Undefined when the file cannot be used.
   */
  async read(plain: boolean): Promise<{ root: TreeValue } | undefined> {
    const { maxDepth, maxEntries } = this.limits;
    const read = plain
      ? readPlainYaml(this.source, {
        maxDepth,
        maxEntries,
        maxNodes: this.nodeBudget,
      })
      : undefined;
    if (read) {
      this.nodes = read.nodes;
      this.linePos = (offset) => linePosIn(read.lineStarts, offset);
      return { root: read.root };
    }
    return await this.readWithYaml();
  }

  async readWithYaml(): Promise<{ root: TreeValue } | undefined> {
    yamlReader ??= import("./_yaml_reader.ts");
    const read = (await yamlReader).readManifestYaml(
      this.source,
      this.path,
      this.limits,
      this.nodeBudget,
    );
    this.nodes = read.nodes;
    this.linePos = read.linePos;
    for (const finding of read.findings) {
      this.diagnostics.push({
        ...this.pos(finding.offset),
        severity: finding.severity,
        rule: "V12",
        message: finding.message,
      });
    }
    return "root" in read ? { root: read.root } : undefined;
  }

  async parse(plain: boolean): Promise<ManifestFile> {
    const read = await this.read(plain);
    if (!read) return this.file;
    const top = read.root;
    if (this.isNull(top)) return this.file;
    if (!isMap(top)) {
      this.error(
        this.nodePos(top),
        "V12",
        `the top level of ${this.path} must be a mapping (tools:, agents:, imports:), found ${
          describe(top)
        }`,
      );
      return this.file;
    }
    for (const pair of top.items) {
      const key = pair.key;
      if (!isScalar(key)) continue;
      const keyPos = this.nodePos(key);
      const value = pair.value;
      if (key.value === "tools") {
        this.file.hasToolsKey = true;
        this.file.toolsKeyPos = keyPos;
        this.parseTools(value, keyPos);
      } else if (key.value === "agents") {
        this.parseAgents(value, keyPos);
      } else if (key.value === "imports") {
        this.parseImports(value, keyPos);
      } else if (key.value !== null) {
        this.warn(
          keyPos,
          topLevelKeyWarning(
            String(key.value),
            isScalar(value) ? value.value : undefined,
            this.hintBudget,
          ),
        );
      }
    }
    return this.file;
  }

  /**
   * The entries of the `tools:` or `agents:` mapping whose keys are plain
   * names; reports (V12) a value that is not a mapping and every other key,
   * each message followed by what was found.
   */
  *namedEntries(
    value: TreeValue,
    keyPos: SourcePos,
    messages: { notMapping: string; notName: string },
  ): Generator<{ name: string; pos: SourcePos; node: TreeValue }> {
    if (this.isNull(value)) return;
    if (!isMap(value)) {
      this.error(
        this.nodePos(value, keyPos),
        "V12",
        `${messages.notMapping}, found ${describe(value)}`,
      );
      return;
    }
    for (const pair of value.items) {
      const key = pair.key;
      if (!isScalar(key) || key.value === null) {
        const valuePos = pair.valueOffset === undefined
          ? keyPos
          : this.pos(pair.valueOffset);
        this.error(
          this.nodePos(key, valuePos),
          "V12",
          `${messages.notName}, found ${describe(key)}`,
        );
        continue;
      }
      yield {
        name: String(key.value),
        pos: this.nodePos(key),
        node: pair.value,
      };
    }
  }

  parseTools(value: TreeValue, keyPos: SourcePos): void {
    const entries = this.namedEntries(value, keyPos, {
      notMapping:
        "`tools` must be a mapping of tool names to `beeuni:<name>` or module paths",
      notName: "a tool name under `tools` must be a plain name",
    });
    for (const { name, pos: namePos, node } of entries) {
      const valuePos = this.isNull(node)
        ? namePos
        : this.nodePos(node, namePos);
      const entry: ToolEntry = {
        name,
        value: isScalar(node) ? node.value : treeToJS(node),
        namePos,
        valuePos,
      };
      this.file.tools.push(entry);
      if (this.isNull(node)) {
        this.error(
          namePos,
          "V12",
          `tool "${name}" has no value: write \`beeuni:${name}\` for a Beeuni tool or a repo-relative module path (e.g. \`tools/${name}.ts\`)`,
        );
      } else if (!isScalar(node) || typeof node.value !== "string") {
        this.error(
          valuePos,
          "V12",
          `tool "${name}" must map to \`beeuni:<name>\` or a repo-relative module path, found ${
            describe(node)
          }`,
        );
      }
    }
  }

  parseImports(value: TreeValue, keyPos: SourcePos): void {
    if (this.isNull(value)) return;
    if (!isSeq(value)) {
      this.error(
        this.nodePos(value, keyPos),
        "V12",
        `\`imports\` must be a list of repo-relative YAML file paths, found ${
          describe(value)
        }`,
      );
      return;
    }
    for (const item of value.items) {
      const node = item;
      const pos = this.nodePos(node, keyPos);
      if (!isScalar(node) || typeof node.value !== "string") {
        this.error(
          pos,
          "V12",
          `an entry of \`imports\` must be a repo-relative path, found ${
            describe(node)
          }`,
        );
        continue;
      }
      const entry: ImportEntry = { path: node.value, pos };
      this.file.imports.push(entry);
    }
  }

  parseAgents(value: TreeValue, keyPos: SourcePos): void {
    const entries = this.namedEntries(value, keyPos, {
      notMapping: "`agents` must be a mapping of agent names to their settings",
      notName: "an agent name under `agents` must be a plain name",
    });
    let previous: string | undefined;
    for (const { name, pos, node } of entries) {
      this.warn(pos, agentNameWarning(name, previous));
      previous = name;
      const agent: AgentEntry = {
        name,
        pos,
        tools: { kind: "all" },
        secrets: [],
        raw: {},
      };
      this.file.agents.push(agent);
      if (this.isNull(node)) continue;
      if (!isMap(node)) {
        this.error(
          this.nodePos(node, pos),
          "V12",
          `agent "${name}" must be a mapping (tools:, secrets:, …), found ${
            describe(node)
          }`,
        );
        continue;
      }
      const raw = treeToJS(node);
      if (raw && typeof raw === "object" && !Array.isArray(raw)) {
        agent.raw = raw as Record<string, unknown>;
      }
      for (const field of node.items) {
        const fieldKey = field.key;
        if (!isScalar(fieldKey)) continue;
        const fieldPos = this.nodePos(fieldKey);
        const fieldValue = field.value;
        if (fieldKey.value === "tools") {
          agent.tools = this.parseAgentTools(name, fieldValue, fieldPos);
        } else if (fieldKey.value === "secrets") {
          agent.secrets = this.parseSecrets(name, fieldValue, fieldPos);
        } else if (fieldKey.value !== null) {
          this.warn(
            fieldPos,
            agentSettingWarning(name, String(fieldKey.value), this.hintBudget),
          );
        }
      }
    }
  }

  /** Reads a list of names; reports items that are not plain names. */
  nameList(agent: string, what: string, list: TreeValue): NameRef[] {
    const names: NameRef[] = [];
    if (!isSeq(list)) return names;
    for (const item of list.items) {
      const node = item;
      const pos = this.nodePos(node, this.nodePos(list));
      if (
        !isScalar(node) || node.value === null || typeof node.value === "object"
      ) {
        this.error(
          pos,
          "V12",
          `agent "${agent}": each entry of ${what} must be a name, found ${
            describe(node)
          }`,
        );
        continue;
      }
      names.push({ name: String(node.value), pos });
    }
    return names;
  }

  parseAgentTools(
    agent: string,
    value: TreeValue,
    keyPos: SourcePos,
  ): AgentToolsSpec {
    const pos = this.nodePos(value, keyPos);
    const shapes =
      "`all`, `none`, a list of tool names, `{ exclude: [...] }` or a map of tool names to true/false";
    if (this.isNull(value)) return { kind: "all", pos: keyPos };
    if (isScalar(value)) {
      if (value.value === "all") return { kind: "all", pos };
      if (value.value === "none") return { kind: "none", pos };
      this.error(
        pos,
        "V12",
        `agent "${agent}": \`tools\` must be ${shapes}, found ${
          describe(value)
        }`,
      );
      return { kind: "all", pos };
    }
    if (isSeq(value)) {
      return {
        kind: "list",
        names: this.nameList(agent, "`tools`", value),
        pos,
      };
    }
    if (isMap(value)) {
      const pair = value.items.find((pair) => {
        const key = pair.key;
        return isScalar(key) && key.value === "exclude";
      });
      if (pair) {
        if (value.items.length > 1) {
          this.error(
            pos,
            "V12",
            `agent "${agent}": \`tools\` with \`exclude\` takes no other key; use \`{ exclude: [...] }\` alone`,
          );
        }
        const list = pair.value;
        if (this.isNull(list)) return { kind: "exclude", names: [], pos };
        if (!isSeq(list)) {
          this.error(
            this.nodePos(list, pos),
            "V12",
            `agent "${agent}": \`exclude\` must be a list of tool names, found ${
              describe(list)
            }`,
          );
          return { kind: "exclude", names: [], pos };
        }
        return {
          kind: "exclude",
          names: this.nameList(agent, "`exclude`", list),
          pos,
        };
      }
      const entries: { name: string; enabled: boolean; pos: SourcePos }[] = [];
      for (const pair of value.items) {
        const key = pair.key;
        const entryPos = this.nodePos(key, pos);
        if (!isScalar(key) || key.value === null) {
          this.error(
            entryPos,
            "V12",
            `agent "${agent}": a key of the \`tools\` map must be a tool name, found ${
              describe(key)
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
          this.error(
            this.nodePos(flag, entryPos),
            "V12",
            `agent "${agent}": \`tools.${name}\` must be true or false, found ${
              describe(flag)
            }${
              meant === undefined ? "" : ` (did you mean \`exclude: [...]\`?)`
            }`,
          );
          continue;
        }
        entries.push({ name, enabled: flag.value, pos: entryPos });
      }
      return { kind: "map", entries, pos };
    }
    this.error(
      pos,
      "V12",
      `agent "${agent}": \`tools\` must be ${shapes}, found ${describe(value)}`,
    );
    return { kind: "all", pos };
  }

  parseSecrets(
    agent: string,
    value: TreeValue,
    keyPos: SourcePos,
  ): "all" | NameRef[] {
    if (this.isNull(value)) return [];
    if (isScalar(value) && value.value === "all") return "all";
    if (isSeq(value)) return this.nameList(agent, "`secrets`", value);
    this.error(
      this.nodePos(value, keyPos),
      "V12",
      `agent "${agent}": \`secrets\` must be \`all\` or a list of secret names, found ${
        describe(value)
      }`,
    );
    return [];
  }
}

/** The UTF-8 size of `text`, counted without copying it. */
function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code < 0xdc00 && i + 1 < text.length) {
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** One file whose imports are being followed. */
interface Frame {
  /** The chain of files from the root down to this one. */
  chain: string[];
  imports: ImportEntry[];
  next: number;
}

/**
 * Parses the root manifest at `manifestPath` (repo-relative) and every file
 * it imports, recursively, through `read`. Never rejects: malformed
 * YAML, wrong types, alias bombs, import cycles, missing imports, import
 * paths that leave the repository and input past {@linkcode MANIFEST_LIMITS}
 * (file size, entries, nesting, imports) are positioned errors in
 * {@linkcode Manifest.diagnostics}. Time and memory grow with the input
 * read, which the limits bound. Asynchronous only because the `yaml`
 * library is loaded on the first file that needs it: plain manifests
 * (block mappings and lists, one-line values and `[…]`/`{…}`) are read
 * without it.
 *
 * @returns The manifest: its files, their entries with positions, and the
 * parser's diagnostics.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseManifest } from "@beeuni/tools/manifest";
 *
 * const files: Record<string, string> = {
 *   "beeuni.yaml": "tools:\n  web_search: beeuni:web_search\n",
 * };
 * const manifest = await parseManifest(
 *   "/repo",
 *   "beeuni.yaml",
 *   (path) => files[path],
 * );
 * assert.equal(manifest.files[0].tools[0].name, "web_search");
 * ```
 */
export function parseManifest(
  root: string,
  manifestPath: string,
  read: ReadFile,
  options: ParseManifestOptions = {},
): Promise<Manifest> {
  return parseManifestWith(root, manifestPath, read, options, true);
}

/**
 * {@linkcode parseManifest}, with the reader of plain manifests (`plain`)
 * or with the `yaml` library alone: what tests/manifest_reader_test.ts
 * compares.
 */
export async function parseManifestWith(
  root: string,
  manifestPath: string,
  read: ReadFile,
  options: ParseManifestOptions,
  plain: boolean,
): Promise<Manifest> {
  const limits = manifestLimits(options.limits);
  const rootPath = posix.normalize(manifestPath.replaceAll("\\", "/"));
  const manifest: Manifest = {
    root,
    manifestPath: rootPath,
    files: [],
    diagnostics: [],
  };
  const diagnostics = manifest.diagnostics;
  const seen = new Set<string>();
  let imported = 0;
  let totalBytes = 0;
  let nodes = 0;
  // One budget for every "did you mean" hint of this read, so hints stay linear.
  const hints: HintBudget = { cells: HINT_BUDGET_CELLS };
  let stopped = false;
  const fail = (at: SourcePos, rule: string, message: string) => {
    diagnostics.push({ ...at, severity: "error", rule, message });
  };

  /** Reads and parses one file; its imports, when it has any, to follow. */
  const load = async (
    path: string,
    chain: string[],
    importedFrom?: SourcePos,
  ): Promise<ImportEntry[]> => {
    const at = importedFrom ?? { file: path, line: 1, col: 1 };
    const verb = chain.length > 0 ? "import" : "read";
    const rule = chain.length > 0 ? "M2" : "M1";
    const via = chain.length > 0
      ? ` (import chain: ${[...chain, path].join(" -> ")})`
      : "";
    let source: string | undefined;
    let failure: string | undefined;
    try {
      source = read(path);
    } catch (error) {
      failure = errorMessage(error);
    }
    if (failure !== undefined || source === undefined) {
      fail(
        at,
        rule,
        `cannot ${verb} "${path}": ${failure ?? "file not found"}${via}`,
      );
      return [];
    }
    const bytes = utf8Bytes(source);
    if (bytes > limits.maxFileBytes) {
      fail(
        at,
        rule,
        `cannot ${verb} "${path}": ${
          fileTooLarge(bytes, limits.maxFileBytes)
        }${via}`,
      );
      return [];
    }
    totalBytes += bytes;
    if (totalBytes > limits.maxTotalBytes) {
      stopped = true;
      fail(
        at,
        rule,
        `cannot ${verb} "${path}": the manifest files read so far come to more than ${
          formatBytes(limits.maxTotalBytes)
        } (the limit for all of them together): make them smaller${via}`,
      );
      return [];
    }
    seen.add(path);
    const parser = new FileParser(
      path,
      source,
      limits,
      { nodes: limits.maxNodes - nodes, hints },
      importedFrom,
    );
    const file = await parser.parse(plain);
    nodes += parser.nodes;
    if (nodes > limits.maxNodes) stopped = true;
    manifest.files.push(file);
    for (const diagnostic of parser.diagnostics) diagnostics.push(diagnostic);
    return file.imports;
  };

  /** Whether `entry` of the file at the end of `chain` is a file to load now. */
  const follow = (entry: ImportEntry, chain: string[]): string | undefined => {
    const checked = checkRepoRelativePath(entry.path);
    if ("error" in checked) {
      fail(entry.pos, "M2", `cannot import "${entry.path}": ${checked.error}`);
      return undefined;
    }
    const next = checked.path;
    const index = chain.indexOf(next);
    if (index >= 0) {
      fail(
        entry.pos,
        "M2",
        `import cycle: ${[...chain.slice(index), next].join(" -> ")}`,
      );
      return undefined;
    }
    if (seen.has(next) || stopped) return undefined;
    if (chain.length > limits.maxImportDepth) {
      fail(
        entry.pos,
        "M2",
        `cannot import "${next}": it would sit ${chain.length} imports below the root, deeper than the limit of ${limits.maxImportDepth}: import it from a file nearer the root (import chain: ${
          [...chain, next].join(" -> ")
        })`,
      );
      return undefined;
    }
    if (imported >= limits.maxImports) {
      stopped = true;
      fail(
        entry.pos,
        "M2",
        `cannot import "${next}": the manifest already imports ${limits.maxImports} files (the limit): merge some of them`,
      );
      return undefined;
    }
    imported++;
    return next;
  };

  // Depth first, in file order, with an explicit stack: a long import
  // chain costs no call stack.
  const stack: Frame[] = [{
    chain: [rootPath],
    imports: await load(rootPath, []),
    next: 0,
  }];
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    if (frame.next >= frame.imports.length) {
      stack.pop();
      continue;
    }
    const entry = frame.imports[frame.next++];
    const next = follow(entry, frame.chain);
    if (next === undefined) continue;
    const imports = await load(next, frame.chain, entry.pos);
    stack.push({ chain: [...frame.chain, next], imports, next: 0 });
  }
  return manifest;
}

function fileTooLarge(bytes: number, limit: number): string {
  return `it is ${formatBytes(bytes)}, more than the limit of ${
    formatBytes(limit)
  } for one manifest file: split it into smaller files listed under \`imports:\``;
}
