// A reader of the plain YAML that manifests are written in: block mappings
// and lists indented with spaces, one-line `[…]` and `{…}`, plain and
// quoted one-line scalars, comments, LF or CRLF line ends. It declines
// everything else (anchors
// and aliases, tags, block scalars, scalars over several lines, tabs,
// escapes, explicit keys, documents markers, empty list items, repeated
// keys, input near a limit) and every text it is unsure of; the `yaml`
// library then reads the file, reports its errors and finds what breaks a
// limit. Where this reader does read a file, it reads what the library
// reads: the same values (YAML 1.2 core schema), the same places, the same
// node count. tests/manifest_reader_test.ts checks that over every
// manifest of the tests and thousands of generated ones.
//
// It exists for speed: loading the library and its first, cold parse cost
// several times a `deno run` of an empty file, and `beeuni validate` on a
// plain manifest needs neither.

import type {
  TreeMap,
  TreeNode,
  TreePair,
  TreeScalar,
  TreeSeq,
  TreeValue,
} from "./_yaml_tree.ts";

/** The bounds a read must stay well within (else the library reads the file). */
export interface PlainBounds {
  maxDepth: number;
  maxEntries: number;
  /** Most nodes this file may add (what the manifest's budget has left). */
  maxNodes: number;
}

/** A file read: its top node, how many nodes it has, where its lines start. */
export interface PlainRead {
  root: TreeValue;
  nodes: number;
  lineStarts: number[];
}

/** Thrown inside the reader when the text leaves what it reads. */
class Decline {}
const DECLINE = new Decline();

function decline(): never {
  throw DECLINE;
}

/** A value read from the text, and the offset just past it. */
interface Span {
  node: TreeNode;
  end: number;
}

/** A line with text on it (not blank, not only a comment). */
interface Line {
  /** Offset of its first character. */
  start: number;
  /** Offset of its first character that is not a space. */
  text: number;
  /** Spaces before its text. */
  indent: number;
  /** Offset of its line break (`\n` or `\r\n`), or the end of the file. */
  end: number;
}

const CODE_NEWLINE = 10;
const CODE_CR = 13;
const CODE_SPACE = 32;
const CODE_HASH = 35;

/** Characters no plain scalar or key here may start with (YAML indicators). */
const INDICATORS = new Set("-?:,[]{}#&*!|>'\"%@`");
/** Characters that make a flow collection's plain scalar end. */
const FLOW_ENDS = new Set(",[]{}");

/** Whether a character may not appear in the files this reader reads. */
function unreadable(code: number): boolean {
  return (code < 0x20 && code !== CODE_NEWLINE) || code === 0x7f ||
    (code >= 0x80 && code <= 0x9f) || code === 0x2028 || code === 0x2029 ||
    code === 0xfeff;
}

/** Splits `source` into its lines with text and the offsets lines start at. */
function scanLines(source: string): { lines: Line[]; lineStarts: number[] } {
  const lines: Line[] = [];
  const lineStarts = [0];
  let start = 0;
  const length = source.length;
  while (start <= length) {
    let at = start;
    while (source.charCodeAt(at) === CODE_SPACE) at++;
    let end = at;
    while (end < length) {
      const code = source.charCodeAt(end);
      if (code === CODE_NEWLINE) break;
      if (code === CODE_CR && source.charCodeAt(end + 1) === CODE_NEWLINE) {
        break;
      }
      if (unreadable(code)) decline();
      end++;
    }
    if (at < end && source.charCodeAt(at) !== CODE_HASH) {
      // Document markers and directives start at column 1.
      if (
        at === start &&
        (source.startsWith("---", at) || source.startsWith("...", at))
      ) decline();
      lines.push({ start, text: at, indent: at - start, end });
    }
    if (end >= length) break;
    start = end + (source.charCodeAt(end) === CODE_CR ? 2 : 1);
    lineStarts.push(start);
  }
  return { lines, lineStarts };
}

const NULL = /^(?:~|[Nn]ull|NULL)$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const INF_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/** The value of a plain scalar under YAML 1.2's core schema. */
export function plainValue(text: string): unknown {
  // Only these can start anything but a string.
  if (!/^[-+.0-9~nNtTfF]/.test(text)) return text;
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === "t" || text[0] === "T";
  if (OCT.test(text)) return parseInt(text.substring(2), 8);
  if (INT.test(text)) return parseInt(text, 10);
  if (HEX.test(text)) return parseInt(text.substring(2), 16);
  if (INF_NAN.test(text)) {
    if (text.slice(-3).toLowerCase() === "nan") return NaN;
    return text[0] === "-" ? -Infinity : Infinity;
  }
  if (FLOAT.test(text)) return parseFloat(text);
  return text;
}

/** Reads one file; see the top of this file for what it reads. */
class PlainReader {
  readonly #src: string;
  readonly #lines: Line[];
  readonly #bounds: PlainBounds;
  #li = 0;
  nodes = 0;

  constructor(src: string, lines: Line[], bounds: PlainBounds) {
    this.#src = src;
    this.#lines = lines;
    this.#bounds = bounds;
  }

  read(): TreeValue {
    const first = this.#lines[0];
    if (!first) return null;
    const root = this.#block(first, 1);
    if (this.#li < this.#lines.length) decline();
    return root;
  }

  #count(): void {
    if (++this.nodes > this.#bounds.maxNodes) decline();
  }

  #enter(depth: number): void {
    if (depth >= this.#bounds.maxDepth) decline();
  }

  #scalar(value: unknown, offset: number): TreeScalar {
    this.#count();
    return { kind: "scalar", value, offset };
  }

  #isItem(at: number, end: number): boolean {
    return this.#src.charCodeAt(at) === 45 /* - */ &&
      (at + 1 === end || this.#src.charCodeAt(at + 1) === CODE_SPACE);
  }

  /** The mapping or list whose first line is `line`. */
  #block(line: Line, depth: number): TreeNode {
    if (this.#isItem(line.text, line.end)) return this.#list(line, depth);
    return this.#mapping(line.text, line.indent, depth);
  }

  /** A block mapping whose first key starts at `at`, in column `col` (0-based). */
  #mapping(at: number, col: number, depth: number): TreeMap {
    this.#enter(depth);
    this.#count();
    const node: TreeMap = { kind: "map", items: [], offset: at };
    const seen = new Set<unknown>();
    const src = this.#src;
    while (true) {
      const line = this.#lines[this.#li];
      const key = this.#key(at, line.end);
      if (!key) decline();
      if (seen.has(key.value)) decline();
      seen.add(key.value);
      if (node.items.length >= this.#bounds.maxEntries) decline();
      const keyNode = this.#scalar(key.value, at);
      let q = key.colon + 1;
      while (src.charCodeAt(q) === CODE_SPACE) q++;
      let value: TreeNode;
      if (q === line.end || src.charCodeAt(q) === CODE_HASH) {
        // Nothing after the colon: the value is on the lines below, or empty.
        const next = this.#lines[++this.#li];
        if (next && next.indent > col) value = this.#block(next, depth + 1);
        else if (
          next && next.indent === col && this.#isItem(next.text, next.end)
        ) {
          value = this.#list(next, depth + 1);
        } else value = { kind: "scalar", value: null, offset: q };
      } else {
        const inline = this.#inline(q, line.end, depth + 1);
        value = inline.node;
        this.#lineEnd(inline.end, line.end);
        this.#li++;
      }
      const pair: TreePair = {
        key: keyNode,
        value,
        valueOffset: value.offset,
      };
      node.items.push(pair);
      const next = this.#lines[this.#li];
      if (!next || next.indent < col) return node;
      if (next.indent > col || this.#isItem(next.text, next.end)) decline();
      at = next.text;
    }
  }

  /** A block list whose first item is on `first`. */
  #list(first: Line, depth: number): TreeSeq {
    this.#enter(depth);
    this.#count();
    const node: TreeSeq = { kind: "seq", items: [], offset: first.text };
    const col = first.indent;
    const src = this.#src;
    while (true) {
      const line = this.#lines[this.#li];
      if (node.items.length >= this.#bounds.maxEntries) decline();
      let q = line.text + 1;
      while (src.charCodeAt(q) === CODE_SPACE) q++;
      // An empty item, or one written on the lines below: declined.
      if (q === line.end || src.charCodeAt(q) === CODE_HASH) decline();
      if (this.#isItem(q, line.end)) decline();
      if (this.#key(q, line.end)) {
        node.items.push(this.#mapping(q, q - line.start, depth + 1));
      } else {
        const inline = this.#inline(q, line.end, depth + 1);
        node.items.push(inline.node);
        this.#lineEnd(inline.end, line.end);
        this.#li++;
      }
      const next = this.#lines[this.#li];
      if (!next || next.indent < col) return node;
      if (next.indent > col) decline();
      // Same column, no dash: a key of the mapping this list is a value in.
      if (!this.#isItem(next.text, next.end)) return node;
    }
  }

  /**
   * The key of a block mapping entry starting at `at` (`name: …` or
   * `name:` at the end of the line), or undefined when the text there is
   * no such entry.
   */
  #key(
    at: number,
    end: number,
  ): { value: unknown; colon: number } | undefined {
    const src = this.#src;
    const first = src[at];
    if (first === "'" || first === '"') {
      const quoted = this.#quoted(at, end);
      const colon = quoted.end;
      if (
        src.charCodeAt(colon) === 58 /* : */ &&
        (colon + 1 === end || src.charCodeAt(colon + 1) === CODE_SPACE)
      ) {
        if (colon - at > 1000) decline();
        return { value: quoted.value, colon };
      }
      return undefined;
    }
    if (INDICATORS.has(first)) return undefined;
    for (let r = at; r < end; r++) {
      const code = src.charCodeAt(r);
      if (code === 58 /* : */) {
        if (r + 1 !== end && src.charCodeAt(r + 1) !== CODE_SPACE) continue;
        if (src.charCodeAt(r - 1) === CODE_SPACE || r - at > 1000) decline();
        return { value: plainValue(src.slice(at, r)), colon: r };
      }
      if (code === CODE_SPACE && src.charCodeAt(r + 1) === CODE_HASH) {
        return undefined;
      }
      if (FLOW_ENDS.has(src[r]) && src[r] !== ",") decline();
    }
    return undefined;
  }

  /** Checks that only spaces and a comment follow `at` on the line. */
  #lineEnd(at: number, end: number): void {
    const src = this.#src;
    let r = at;
    while (src.charCodeAt(r) === CODE_SPACE) r++;
    if (r === end) return;
    if (src.charCodeAt(r) === CODE_HASH && r > at) return;
    decline();
  }

  /**
   * The quoted or flow value that starts at `at`; undefined when it is a
   * plain scalar. Declines a value that starts with another indicator.
   */
  #quotedOrFlow(at: number, end: number, depth: number): Span | undefined {
    const first = this.#src[at];
    if (first === "'" || first === '"') return this.#quotedNode(at, end);
    if (first === "[" || first === "{") return this.#flow(at, end, depth);
    if (INDICATORS.has(first)) decline();
    return undefined;
  }

  /** A one-line value in block context: plain, quoted, `[…]` or `{…}`. */
  #inline(at: number, end: number, depth: number): Span {
    return this.#quotedOrFlow(at, end, depth) ??
      this.#plain(at, this.#plainEnd(at, end));
  }

  /** Where the plain scalar at `at` in block context ends, its trailing spaces left out. */
  #plainEnd(at: number, end: number): number {
    const src = this.#src;
    let r = at;
    let last = at;
    while (r < end) {
      const code = src.charCodeAt(r);
      if (code === CODE_SPACE) {
        if (src.charCodeAt(r + 1) === CODE_HASH) break;
      } else {
        if (
          code === 58 /* : */ &&
          (r + 1 === end || src.charCodeAt(r + 1) === CODE_SPACE)
        ) decline();
        if (FLOW_ENDS.has(src[r]) && src[r] !== ",") decline();
        last = r + 1;
      }
      r++;
    }
    return last;
  }

  /** Where the plain scalar at `at` in a flow collection ends, its trailing spaces left out. */
  #flowPlainEnd(at: number, end: number): number {
    const src = this.#src;
    let r = at;
    let last = at;
    while (r < end) {
      const char = src[r];
      if (FLOW_ENDS.has(char)) break;
      if (char === ":") {
        const after = src[r + 1];
        if (r + 1 === end || after === " " || FLOW_ENDS.has(after)) break;
      }
      if (char === " ") {
        if (src[r + 1] === "#") decline();
      } else last = r + 1;
      r++;
    }
    if (r >= end) decline();
    return last;
  }

  /** The plain scalar written from `at` to `last`. */
  #plain(at: number, last: number): Span {
    const value = plainValue(this.#src.slice(at, last));
    return { node: this.#scalar(value, at), end: last };
  }

  /** The text of a one-line single- or double-quoted scalar (no escapes). */
  #quoted(at: number, end: number): { value: string; end: number } {
    const src = this.#src;
    if (src[at] === '"') {
      const close = src.indexOf('"', at + 1);
      if (close < 0 || close >= end) decline();
      const value = src.slice(at + 1, close);
      if (value.includes("\\")) decline();
      return { value, end: close + 1 };
    }
    let value = "";
    let r = at + 1;
    while (true) {
      const close = src.indexOf("'", r);
      if (close < 0 || close >= end) decline();
      value += src.slice(r, close);
      if (src[close + 1] !== "'") return { value, end: close + 1 };
      value += "'";
      r = close + 2;
    }
  }

  #quotedNode(at: number, end: number): { node: TreeScalar; end: number } {
    const quoted = this.#quoted(at, end);
    return { node: this.#scalar(quoted.value, at), end: quoted.end };
  }

  #skipSpaces(at: number): number {
    while (this.#src.charCodeAt(at) === CODE_SPACE) at++;
    return at;
  }

  /** A one-line flow collection: `[a, b]`, `{ key: value }`, nested. */
  #flow(at: number, end: number, depth: number): Span {
    this.#enter(depth);
    this.#count();
    const src = this.#src;
    const list = src[at] === "[";
    const close = list ? "]" : "}";
    const node: TreeSeq | TreeMap = list
      ? { kind: "seq", items: [], offset: at }
      : { kind: "map", items: [], offset: at };
    const seen = new Set<unknown>();
    let r = this.#skipSpaces(at + 1);
    if (src[r] === close) return { node, end: r + 1 };
    while (true) {
      if (node.items.length >= this.#bounds.maxEntries) decline();
      if (node.kind === "seq") {
        const item = this.#flowItem(r, end, depth + 1);
        node.items.push(item.node);
        r = this.#skipSpaces(item.end);
      } else {
        const key = this.#flowItem(r, end, depth + 1);
        if (key.node.kind !== "scalar") decline();
        if (src[key.end] !== ":" || src[key.end + 1] !== " ") decline();
        if (key.end - r > 1000 || seen.has(key.node.value)) decline();
        seen.add(key.node.value);
        const valueAt = this.#skipSpaces(key.end + 1);
        const value = this.#flowItem(valueAt, end, depth + 1);
        node.items.push({
          key: key.node,
          value: value.node,
          valueOffset: value.node.offset,
        });
        r = this.#skipSpaces(value.end);
      }
      if (src[r] === ",") {
        r = this.#skipSpaces(r + 1);
        if (src[r] === close) decline();
        continue;
      }
      if (src[r] === close) return { node, end: r + 1 };
      decline();
    }
  }

  /** A value inside a flow collection; a plain one ends before `,[]{}` or `: `. */
  #flowItem(at: number, end: number, depth: number): Span {
    if (at >= end) decline();
    return this.#quotedOrFlow(at, end, depth) ??
      this.#plain(at, this.#flowPlainEnd(at, end));
  }
}

/**
 * Reads `source` when it is plain YAML of the kind manifests are written
 * in, well within `bounds`; `undefined` when the `yaml` library must read
 * it instead.
 */
export function readPlainYaml(
  source: string,
  bounds: PlainBounds,
): PlainRead | undefined {
  try {
    const { lines, lineStarts } = scanLines(source);
    const reader = new PlainReader(source, lines, bounds);
    const root = reader.read();
    return { root, nodes: reader.nodes, lineStarts };
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}
