// One manifest file being parsed: what it declares so far, its findings,
// and where its nodes stand in its text.

import type { HintBudget } from "./nearest_name.ts";
import type { Diagnostic, ManifestFile, SourcePos } from "./types.ts";
import type { LinePos, TreeValue } from "./_yaml_tree.ts";

/** One file of the manifest as its parts are read: the result, the findings, the positions. */
export class FileContext {
  /** The line and column of an offset in the file's text; set by the reader that read it. */
  linePos: (offset: number) => LinePos = (offset) => ({
    line: 1,
    col: offset + 1,
  });
  /** The file's errors and warnings, in the order found. */
  readonly diagnostics: Diagnostic[] = [];
  /** What the file declares. */
  readonly file: ManifestFile;
  /** Its repo-relative path. */
  readonly path: string;
  /** The budget every "did you mean" hint of the manifest draws on. */
  readonly hintBudget: HintBudget;

  /** A file at `path`, imported at `importedFrom` unless it is the root. */
  constructor(path: string, hintBudget: HintBudget, importedFrom?: SourcePos) {
    this.path = path;
    this.hintBudget = hintBudget;
    this.file = {
      path,
      hasToolsKey: false,
      tools: [],
      agents: [],
      imports: [],
      ...(importedFrom ? { importedFrom } : {}),
    };
  }

  /** The position of `offset` (the file's start when undefined). */
  pos(offset: number | undefined): SourcePos {
    const { line, col } = this.linePos(offset ?? 0);
    return { file: this.path, line, col };
  }

  /** Where `node` is written, or `fallback` (else the file's start) when nothing is. */
  nodePos(node: TreeValue, fallback?: SourcePos): SourcePos {
    return node ? this.pos(node.offset) : fallback ?? this.pos(0);
  }

  /** An error (V12) at `at`. */
  error(at: SourcePos, message: string): void {
    this.diagnostics.push({ ...at, severity: "error", rule: "V12", message });
  }

  /** A warning (V12) at `at`, when there is one to give. */
  warn(at: SourcePos, message: string | undefined): void {
    if (message === undefined) return;
    this.diagnostics.push({ ...at, severity: "warning", rule: "V12", message });
  }
}
