// Reads one YAML file within bounds. The `yaml` library's parser and
// composer nest as deep as the input does (its composer recurses once per
// level, its parser slows down on deep input), so the tokens are watched
// on their way in: once the nesting passes the limit, reading stops with
// the offset where it did, before any deep structure exists. Duplicate
// keys are found here in linear time (the library's own check is
// quadratic), and keys that are lists or mappings become findings instead
// of the library's console warning.

import {
  Composer,
  CST,
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  type Node,
  Parser,
  visit,
  YAMLParseError,
} from "yaml";
import type { TreePair, TreeValue } from "./_yaml_tree.ts";
import type { ManifestLimits } from "./limits.ts";
import { errorMessage } from "../common/mod.ts";
import { spacedEntry } from "./_colon_space.ts";
import { type Misplaced, misplacedLine } from "./_indentation.ts";

/** A document and how many nodes it has, or where it passed a limit. */
export type YamlRead =
  | { doc: Document.Parsed; nodes: number; stop?: undefined }
  | { doc?: undefined; nodes: number; stop: YamlStop };

/** Where reading stopped, and which limit it passed. */
export interface YamlStop {
  /** `depth`: nested too deep; `nodes`: too many values. */
  limit: "depth" | "nodes";
  /** Offset of the token that passed it. */
  offset: number;
}

/** A finding about the shape of a parsed document. */
export interface ShapeProblem {
  /** `entries`: a collection over the limit; `duplicate`: a repeated key; `collection-key`: a key that is a list or mapping. */
  kind: "entries" | "duplicate" | "collection-key";
  /** Where: the first entry past the limit, the repeated key, the key. */
  offset: number;
  /** For `duplicate`, the offset of the first occurrence. */
  firstOffset?: number;
  /** For `entries`, whether the collection is a list. */
  list?: boolean;
}

interface Level {
  col: number;
  seq: boolean;
}

/**
 * Tracks how deep the tokens of a YAML stream nest (flow collections by
 * their brackets, block collections by the columns their items start at:
 * a nested block collection starts further right, except a list that is
 * the value of a mapping key, which may start at the key's column) and
 * counts its nodes (scalars, aliases, lists and mappings).
 */
class TokenScan {
  readonly #max: number;
  readonly #maxNodes: number;
  nodes = 0;
  readonly #levels: Level[] = [];
  #flow = 0;
  #offset = 0;
  #lineStart = 0;
  #segment: { col: number; offset: number } | undefined;
  #scalarNext = false;
  stop: YamlStop | undefined;

  constructor(max: number, maxNodes: number) {
    this.#max = max;
    this.#maxNodes = maxNodes;
  }

  /** Takes the next lexeme; false once a limit is passed. */
  next(lexeme: string): boolean {
    if (this.#scalarNext) {
      this.#scalarNext = false;
      this.#content(lexeme, true);
      return this.stop === undefined;
    }
    const type = CST.tokenType(lexeme);
    if (type === "scalar") {
      this.#scalarNext = true;
      return true;
    }
    if (type === "doc-mode" || type === "flow-error-end") return true;
    const col = this.#offset - this.#lineStart;
    switch (type) {
      case "newline":
        this.#advance(lexeme);
        this.#segment = undefined;
        return true;
      case "space":
      case "comment":
      case "byte-order-mark":
      case "directive-line":
        break;
      case "doc-start":
      case "doc-end":
        this.#levels.length = 0;
        this.#flow = 0;
        this.#segment = undefined;
        break;
      case "seq-item-ind":
      case "explicit-key-ind":
        if (this.#flow === 0) {
          this.#open(col, this.#offset, type === "seq-item-ind");
          this.#segment = undefined;
        }
        break;
      case "map-value-ind":
        if (this.#flow === 0) {
          const key = this.#segment ?? { col, offset: this.#offset };
          this.#open(key.col, key.offset, false);
          this.#segment = undefined;
        }
        break;
      case "flow-map-start":
      case "flow-seq-start":
        if (this.#flow === 0) this.#segment ??= { col, offset: this.#offset };
        this.#count();
        this.#flow++;
        this.#check(this.#offset);
        break;
      case "flow-map-end":
      case "flow-seq-end":
        if (this.#flow > 0) this.#flow--;
        break;
      default:
        this.#content(
          lexeme,
          type === "alias" || type?.endsWith("-scalar") === true,
        );
        return this.stop === undefined;
    }
    this.#advance(lexeme);
    return this.stop === undefined;
  }

  #count(): void {
    if (++this.nodes > this.#maxNodes) {
      this.stop ??= { limit: "nodes", offset: this.#offset };
    }
  }

  #content(lexeme: string, node: boolean): void {
    if (node) this.#count();
    if (this.#flow === 0) {
      this.#segment ??= {
        col: this.#offset - this.#lineStart,
        offset: this.#offset,
      };
    }
    this.#advance(lexeme);
  }

  #advance(lexeme: string): void {
    const at = this.#offset;
    this.#offset += lexeme.length;
    const newline = lexeme.lastIndexOf("\n");
    if (newline >= 0) this.#lineStart = at + newline + 1;
  }

  #open(col: number, offset: number, seq: boolean): void {
    const levels = this.#levels;
    let top = levels.at(-1);
    while (top && (top.col > col || (top.col === col && top.seq && !seq))) {
      levels.pop();
      top = levels.at(-1);
    }
    if (top && top.col === col && top.seq === seq) return;
    levels.push({ col, seq });
    this.#count();
    this.#check(offset);
  }

  #check(offset: number): void {
    if (this.#levels.length + this.#flow > this.#max) {
      this.stop ??= { limit: "depth", offset };
    }
  }
}

/**
 * Parses `source` as one YAML document (a second document is an error, as
 * with `parseDocument`), stopping as soon as it nests deeper than
 * `maxDepth` or has more than `maxNodes` nodes. Never logs: the library's
 * warnings stay in the document.
 */
export function readYaml(
  source: string,
  lineCounter: LineCounter,
  maxDepth: number,
  maxNodes: number,
): YamlRead {
  const scan = new TokenScan(maxDepth, maxNodes);
  const parser = new Parser(lineCounter.addNewLine);
  const composer = new Composer({
    prettyErrors: false,
    uniqueKeys: false,
    logLevel: "error",
  });
  function* tokens(): Generator<CST.Token> {
    lineCounter.addNewLine(0);
    for (const lexeme of new Lexer().lex(source)) {
      if (!scan.next(lexeme)) return;
      yield* parser.next(lexeme);
    }
    yield* parser.end();
  }
  let doc: Document.Parsed | undefined;
  for (const next of composer.compose(tokens(), true, source.length)) {
    if (scan.stop) break;
    if (!doc) doc = next;
    else {
      doc.errors.push(
        new YAMLParseError(
          [next.range[0], next.range[1]],
          "MULTIPLE_DOCS",
          "Source contains multiple documents; please use YAML.parseAllDocuments()",
        ),
      );
      break;
    }
  }
  if (scan.stop) return { nodes: scan.nodes, stop: scan.stop };
  return { doc: doc!, nodes: scan.nodes };
}

function start(node: unknown): number | undefined {
  return (node as Node | null)?.range?.[0];
}

/**
 * Walks every mapping and list of `doc` once, without recursion: reports
 * the first entry past `maxEntries` in each, each key repeated in its
 * mapping (keys compare by value, as the library's own check does), and
 * each key that is itself a list or mapping.
 */
export function inspectShape(
  doc: Document.Parsed,
  maxEntries: number,
): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  const pending: unknown[] = [doc.contents];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isSeq(node)) {
      if (node.items.length > maxEntries) {
        const offset = start(node.items[maxEntries]) ?? start(node) ?? 0;
        problems.push({ kind: "entries", offset, list: true });
      }
      for (const item of node.items) pending.push(item);
    } else if (isMap(node)) {
      if (node.items.length > maxEntries) {
        const pair = node.items[maxEntries];
        const offset = start(pair.key) ?? start(pair.value) ?? start(node) ??
          0;
        problems.push({ kind: "entries", offset, list: false });
      }
      const seen = new Map<unknown, number>();
      for (const pair of node.items) {
        const key = pair.key;
        if (isScalar(key)) {
          const first = seen.get(key.value);
          const offset = start(key) ?? 0;
          if (first === undefined) seen.set(key.value, offset);
          else problems.push({ kind: "duplicate", offset, firstOffset: first });
        } else if (isMap(key) || isSeq(key)) {
          problems.push({ kind: "collection-key", offset: start(key) ?? 0 });
          pending.push(key);
        }
        pending.push(pair.value);
      }
    }
  }
  return problems.sort((a, b) => a.offset - b.offset);
}

/** The codes of the library's errors that an indentation mistake causes. */
const INDENTATION_CODES: ReadonlySet<string> = new Set([
  "BAD_INDENT",
  "BLOCK_AS_IMPLICIT_KEY",
  "MULTILINE_IMPLICIT_KEY",
  "MISSING_CHAR",
  "UNEXPECTED_TOKEN",
]);

/** Where the text of the line starting at `lineStart` begins, after its spaces. */
function textStart(source: string, lineStart: number): number {
  let at = lineStart;
  while (source[at] === " ") at++;
  return at;
}

/** The column the previous line with text (not a comment) starts at, 1-based. */
function previousTextColumn(
  source: string,
  lineStart: number,
): number | undefined {
  let end = lineStart - 1;
  while (end > 0) {
    const start = source.lastIndexOf("\n", end - 1) + 1;
    const at = textStart(source, start);
    if (at < end && source[at] !== "#" && source[at] !== "\r") {
      return at - start + 1;
    }
    end = start - 1;
  }
  return undefined;
}

function indentation(
  source: string,
  lineStart: number,
): { offset: number; message: string } | undefined {
  // A comment or blank line is not the badly indented one: the next line is.
  let at = textStart(source, lineStart);
  while (at < source.length && "#\r\n".includes(source[at])) {
    const newline = source.indexOf("\n", at);
    if (newline < 0) return undefined;
    lineStart = newline + 1;
    at = textStart(source, lineStart);
  }
  if (at >= source.length) return undefined;
  const col = at - lineStart + 1;
  const above = previousTextColumn(source, lineStart);
  const message = above !== undefined && col > above
    ? `malformed YAML: bad indentation: this line starts at column ${col}, further right than the line above (column ${above}), so YAML reads it as part of that line; align it with the entries it belongs to`
    : `malformed YAML: bad indentation: this line starts at column ${col}, which lines up with no entry above it; align it with the entries it belongs to`;
  return { offset: at, message };
}

/** What is wrong with a misplaced line, and where it belongs. */
function misplacedMessage(line: Misplaced): string {
  const { col, belongs } = line;
  const where = col > belongs
    ? `further right than the entries it belongs with (column ${belongs})${
      line.joinsAbove ? ", so YAML reads it as part of the line above" : ""
    }`
    : `left of the entries it belongs with (column ${belongs})${
      line.first ? "" : ", so the lines below it no longer fit"
    }`;
  return `malformed YAML: bad indentation: this line starts at column ${col}, ${where}; move it to column ${belongs}`;
}

/**
 * The error for a line like `slug:tools/slug.ts`, a key and its value
 * without the space after the colon, when the line holding `offset` is
 * one: YAML reads it as one string, which then breaks the mapping around
 * it.
 */
function unspacedEntry(
  source: string,
  offset: number,
): { offset: number; message: string } | undefined {
  const lineStart = source.lastIndexOf("\n", offset - 1) + 1;
  let at = textStart(source, lineStart);
  if (source.startsWith("- ", at)) at = textStart(source, at + 1);
  const newline = source.indexOf("\n", at);
  const text = source.slice(at, newline < 0 ? source.length : newline)
    .replace(/\s+#.*$/, "").trim();
  const meant = spacedEntry(text);
  if (meant === undefined) return undefined;
  return {
    offset: at,
    message:
      `malformed YAML: "${text}" needs a space after the colon to be a key and its value: write \`${meant}\``,
  };
}

/**
 * The one error to report for a file the library could not parse: the
 * first, since the others mostly follow from it. An indentation mistake
 * is put where the badly indented line's text starts (the library points
 * at the line before, or at column 1) and explained.
 */
export function firstYamlError(
  source: string,
  errors: readonly { code: string; pos: [number, number]; message: string }[],
): { offset: number; message: string } {
  let first = errors[0];
  for (const error of errors) {
    if (error.pos[0] < first.pos[0]) first = error;
  }
  const [offset] = first.pos;
  const unspaced = unspacedEntry(source, offset);
  if (unspaced) return unspaced;
  if (INDENTATION_CODES.has(first.code)) {
    const misplaced = misplacedLine(source);
    if (misplaced) {
      return { offset: misplaced.offset, message: misplacedMessage(misplaced) };
    }
  }
  const joined = errors.find((error) =>
    error.code === "MULTILINE_IMPLICIT_KEY" && error.pos[0] === offset
  );
  if (joined) {
    const newline = source.indexOf("\n", offset);
    if (newline >= 0 && newline < joined.pos[1]) {
      const found = indentation(source, newline + 1);
      if (found) return found;
    }
  }
  if (INDENTATION_CODES.has(first.code) && source[offset] === " ") {
    const lineStart = source.lastIndexOf("\n", offset - 1) + 1;
    if (source.slice(lineStart, offset).trim() === "") {
      const found = indentation(source, lineStart);
      if (found) return found;
    }
  }
  return { offset, message: `malformed YAML: ${first.message}` };
}

/** A finding about one file, at an offset of its text. */
export interface YamlFinding {
  offset: number;
  severity: "error" | "warning";
  message: string;
}

/** One manifest file as the `yaml` library reads it. */
export interface ManifestYaml {
  /** How many nodes it has, or had when a limit stopped the read. */
  nodes: number;
  /** The line and column of an offset, as the library counts lines. */
  linePos(offset: number): { line: number; col: number };
  /** Its findings, in the order they are reported. */
  findings: YamlFinding[];
  /** Its top node, aliases followed; absent when the file cannot be used. */
  root?: TreeValue;
}

/**
 * Reads one manifest file with the library within `limits` (its nodes
 * within `nodeBudget`): the errors that make it unusable (nesting, node
 * count, malformed YAML, entries, repeated keys, an alias bomb), the
 * warnings (keys that are lists or mappings, the library's own warnings),
 * and, when usable, its tree with every alias replaced by what it names.
 */
export function readManifestYaml(
  source: string,
  path: string,
  limits: ManifestLimits,
  nodeBudget: number,
): ManifestYaml {
  const lines = new LineCounter();
  const { maxDepth, maxEntries } = limits;
  const read = readYaml(source, lines, maxDepth, nodeBudget);
  const findings: YamlFinding[] = [];
  const result: ManifestYaml = {
    nodes: read.nodes,
    linePos: lines.linePos,
    findings,
  };
  const error = (offset: number, message: string) =>
    findings.push({ offset, severity: "error", message });
  if (read.stop?.limit === "depth") {
    error(
      read.stop.offset,
      `mappings and lists nest more than ${maxDepth} levels deep here (the limit): flatten this part of ${path}`,
    );
    return result;
  }
  if (read.stop) {
    error(
      read.stop.offset,
      `the manifest files hold more than ${limits.maxNodes} YAML values up to here (keys, values, lists and mappings; the limit): make them smaller`,
    );
    return result;
  }
  const doc = read.doc;
  if (doc.errors.length > 0) {
    const first = firstYamlError(source, doc.errors);
    error(first.offset, first.message);
    return result;
  }
  let usable = true;
  for (const problem of inspectShape(doc, maxEntries)) {
    if (problem.kind === "entries") {
      const what = problem.list ? "list" : "mapping";
      error(
        problem.offset,
        `this ${what} has more than ${maxEntries} entries (the limit): split it across files listed under \`imports:\``,
      );
      usable = false;
    } else if (problem.kind === "duplicate") {
      error(problem.offset, "malformed YAML: Map keys must be unique");
      usable = false;
    } else {
      findings.push({
        offset: problem.offset,
        severity: "warning",
        message:
          "a list or mapping used as a key is read as text: write a plain key",
      });
    }
  }
  if (!usable) return result;
  for (const warning of doc.warnings) {
    findings.push({
      offset: warning.pos[0],
      severity: "warning",
      message: `YAML: ${warning.message}`,
    });
  }
  const bomb = aliasBomb(doc, limits.maxAliasCount);
  if (bomb) {
    findings.push({ ...bomb, severity: "error" });
    return result;
  }
  result.root = toTree(doc, limits.maxAliasCount);
  return result;
}

/** Where an alias bomb starts (the first alias) and why, or undefined. */
function aliasBomb(
  doc: Document.Parsed,
  maxAliasCount: number,
): { offset: number; message: string } | undefined {
  let first: Node | undefined;
  visit(doc, {
    Alias: (_key, node) => {
      first = node;
      return visit.BREAK;
    },
  });
  if (!first) return undefined;
  try {
    doc.toJS({ maxAliasCount });
    return undefined;
  } catch (error) {
    const detail = errorMessage(error);
    return {
      offset: first.range?.[0] ?? 0,
      message:
        `YAML aliases expand too far (more than ${maxAliasCount} alias expansions), which looks like an alias bomb: write the values out instead (${detail})`,
    };
  }
}

/** The node an alias names (followed up to 64 times), or undefined. */
function deref(doc: Document.Parsed, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isAlias(current) && hops < 64; hops++) {
    current = current.resolve(doc);
  }
  return isAlias(current) ? undefined : current;
}

/**
 * The document as a tree, each alias replaced by the tree of the node it
 * names (shared, so a file's own aliases cost nothing more). Collections
 * keep the library's own conversion to JavaScript.
 */
function toTree(doc: Document.Parsed, maxAliasCount: number): TreeValue {
  const made = new Map<unknown, TreeValue>();
  const convert = (raw: unknown): TreeValue => {
    const node = deref(doc, raw);
    if (node === undefined || node === null) return node as null | undefined;
    const known = made.get(node);
    if (known !== undefined) return known;
    const offset = (node as Node).range?.[0] ?? 0;
    const toJS = () => {
      try {
        return (node as { toJS(doc: Document, options: object): unknown })
          .toJS(doc, { maxAliasCount });
      } catch {
        return undefined;
      }
    };
    if (isMap(node)) {
      const items: TreePair[] = [];
      made.set(node, { kind: "map", items, offset, toJS });
      for (const pair of node.items) {
        const valueAt = (pair.value as Node | null)?.range?.[0];
        items.push({
          key: convert(pair.key),
          value: convert(pair.value),
          ...(valueAt === undefined ? {} : { valueOffset: valueAt }),
        });
      }
    } else if (isSeq(node)) {
      const items: TreeValue[] = [];
      made.set(node, { kind: "seq", items, offset, toJS });
      for (const item of node.items) items.push(convert(item));
    } else if (isScalar(node)) {
      made.set(node, { kind: "scalar", value: node.value, offset });
    } else return undefined;
    return made.get(node);
  };
  return convert(doc.contents);
}
