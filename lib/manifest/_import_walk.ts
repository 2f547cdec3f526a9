// Following a manifest's imports from its root file, depth first in
// file order, within the limits on files, bytes, nodes and depth.

import { errorMessage, utf8Length } from "../common/mod.ts";
import { formatBytes, type ManifestLimits } from "./limits.ts";
import { HINT_BUDGET_CELLS, type HintBudget } from "./nearest_name.ts";
import { checkRepoRelativePath } from "./rules.ts";
import type { ImportEntry, Manifest, SourcePos } from "./types.ts";
import { parseFile } from "./_parse_file.ts";

/**
 * Reads a repo-relative file: its text, or `undefined` when it does not
 * exist. It may throw an `Error` whose message says why the file cannot be
 * read (for example a symlink that leads outside the repository); that
 * message becomes the diagnostic's detail.
 */
export type ReadFile = (repoRelativePath: string) => string | undefined;

/** One file whose imports are being followed. */
interface Frame {
  /** The chain of files from the root down to this one. */
  chain: string[];
  imports: ImportEntry[];
  next: number;
}

function fileTooLarge(bytes: number, limit: number): string {
  return `it is ${formatBytes(bytes)}, more than the limit of ${
    formatBytes(limit)
  } for one manifest file: split it into smaller files listed under \`imports:\``;
}

/** The read of one manifest: its files in the order loaded, and its findings. */
export class ImportWalk {
  /** The manifest as read so far. */
  readonly manifest: Manifest;
  readonly #read: ReadFile;
  readonly #limits: ManifestLimits;
  readonly #plain: boolean;
  readonly #seen = new Set<string>();
  #imported = 0;
  #totalBytes = 0;
  #nodes = 0;
  // One budget for every "did you mean" hint of this read, so hints stay linear.
  readonly #hints: HintBudget = { cells: HINT_BUDGET_CELLS };
  #stopped = false;

  /** A read of the manifest at `manifestPath` in `root`, through `read`. */
  constructor(
    root: string,
    manifestPath: string,
    read: ReadFile,
    options: { limits: ManifestLimits; plain: boolean },
  ) {
    this.manifest = { root, manifestPath, files: [], diagnostics: [] };
    this.#read = read;
    this.#limits = options.limits;
    this.#plain = options.plain;
  }

  /** Loads the root file and every file it imports, recursively. */
  async run(): Promise<Manifest> {
    const rootPath = this.manifest.manifestPath;
    // Depth first, in file order, with an explicit stack: a long import
    // chain costs no call stack.
    const stack: Frame[] = [{
      chain: [rootPath],
      imports: await this.#load(rootPath, []),
      next: 0,
    }];
    while (stack.length > 0) {
      const frame = stack.at(-1)!;
      if (frame.next >= frame.imports.length) {
        stack.pop();
        continue;
      }
      const entry = frame.imports[frame.next++];
      const next = this.#follow(entry, frame.chain);
      if (next === undefined) continue;
      const imports = await this.#load(next, frame.chain, entry.pos);
      stack.push({ chain: [...frame.chain, next], imports, next: 0 });
    }
    return this.manifest;
  }

  #fail(at: SourcePos, rule: string, message: string): void {
    this.manifest.diagnostics.push({ ...at, severity: "error", rule, message });
  }

  /** The text of `path`, or why it cannot be loaded. */
  #source(path: string): { text: string } | { problem: string } {
    let text: string | undefined;
    try {
      text = this.#read(path);
    } catch (error) {
      return { problem: errorMessage(error) };
    }
    if (text === undefined) return { problem: "file not found" };
    const bytes = utf8Length(text);
    const limits = this.#limits;
    if (bytes > limits.maxFileBytes) {
      return { problem: fileTooLarge(bytes, limits.maxFileBytes) };
    }
    this.#totalBytes += bytes;
    if (this.#totalBytes > limits.maxTotalBytes) {
      this.#stopped = true;
      return {
        problem: `the manifest files read so far come to more than ${
          formatBytes(limits.maxTotalBytes)
        } (the limit for all of them together): make them smaller`,
      };
    }
    return { text };
  }

  /** Reads and parses one file; its imports, when it has any, to follow. */
  async #load(
    path: string,
    chain: string[],
    importedFrom?: SourcePos,
  ): Promise<ImportEntry[]> {
    const source = this.#source(path);
    if ("problem" in source) {
      const imported = chain.length > 0;
      this.#fail(
        importedFrom ?? { file: path, line: 1, col: 1 },
        imported ? "M2" : "M1",
        `cannot ${imported ? "import" : "read"} "${path}": ${source.problem}${
          imported ? ` (import chain: ${[...chain, path].join(" -> ")})` : ""
        }`,
      );
      return [];
    }
    this.#seen.add(path);
    const parsed = await parseFile(path, source.text, {
      limits: this.#limits,
      nodeBudget: this.#limits.maxNodes - this.#nodes,
      hints: this.#hints,
      plain: this.#plain,
      importedFrom,
    });
    this.#nodes += parsed.nodes;
    if (this.#nodes > this.#limits.maxNodes) this.#stopped = true;
    this.manifest.files.push(parsed.file);
    for (const found of parsed.diagnostics) {
      this.manifest.diagnostics.push(found);
    }
    return parsed.file.imports;
  }

  /** The file `entry` of the file at the end of `chain` imports, when it is one to load now. */
  #follow(entry: ImportEntry, chain: string[]): string | undefined {
    const checked = checkRepoRelativePath(entry.path);
    if ("error" in checked) {
      this.#fail(
        entry.pos,
        "M2",
        `cannot import "${entry.path}": ${checked.error}`,
      );
      return undefined;
    }
    const next = checked.path;
    const index = chain.indexOf(next);
    if (index >= 0) {
      this.#fail(
        entry.pos,
        "M2",
        `import cycle: ${[...chain.slice(index), next].join(" -> ")}`,
      );
      return undefined;
    }
    if (this.#seen.has(next) || this.#stopped) return undefined;
    const { maxImportDepth, maxImports } = this.#limits;
    if (chain.length > maxImportDepth) {
      this.#fail(
        entry.pos,
        "M2",
        `cannot import "${next}": it would sit ${chain.length} imports below the root, deeper than the limit of ${maxImportDepth}: import it from a file nearer the root (import chain: ${
          [...chain, next].join(" -> ")
        })`,
      );
      return undefined;
    }
    if (this.#imported >= maxImports) {
      this.#stopped = true;
      this.#fail(
        entry.pos,
        "M2",
        `cannot import "${next}": the manifest already imports ${maxImports} files (the limit): merge some of them`,
      );
      return undefined;
    }
    this.#imported++;
    return next;
  }
}
