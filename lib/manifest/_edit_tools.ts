// The CST edits behind editManifestTools() (edit_manifest.ts), with the
// `yaml` library they need, loaded by the first edit.

import { CST, parseDocument, Parser } from "yaml";
import { isPlainObject } from "../common/mod.ts";
import type { ManifestEditOptions, ToolsEntry } from "./edit_manifest.ts";

/** Does what editManifestTools() says it does. */
export function editTools(
  text: string,
  entries: readonly ToolsEntry[],
  options: ManifestEditOptions = {},
): string {
  const file = options.file ?? "the manifest";
  const names = new Set<string>();
  for (const entry of entries) {
    if (names.has(entry.name)) {
      throw new Error(`"${entry.name}" is listed twice in one edit`);
    }
    names.add(entry.name);
  }
  let out = text;
  if (!toolsItem(parseTokens(text))) {
    out = addToolsKey(text, entries, options.newKey ?? [], file);
  } else {
    for (const entry of entries) {
      const items = mapItems(toolsItem(parseTokens(out))?.value);
      out = items && findItem(items, entry.name)
        ? setEntry(out, entry, file)
        : addEntry(out, entry, file);
    }
  }
  return verify(text, out, entries, file);
}

// ---------------------------------------------------------------------------
// Reading the CST

type Token = CST.Token;
type Item = CST.CollectionItem;

function parseTokens(text: string): Token[] {
  return [...new Parser().parse(text)];
}

function documents(tokens: Token[]): CST.Document[] {
  return tokens.filter((token): token is CST.Document =>
    token.type === "document"
  );
}

function keyName(item: Item): string | undefined {
  if (!item.key) return undefined;
  return CST.resolveAsScalar(item.key)?.value;
}

function mapItems(token: Token | undefined): Item[] | undefined {
  if (!token) return undefined;
  if (token.type === "block-map") return token.items as Item[];
  if (token.type === "flow-collection" && token.start.source === "{") {
    return token.items;
  }
  return undefined;
}

function findItem(items: Item[], name: string): Item | undefined {
  return items.find((item) => keyName(item) === name);
}

/** The top-level `tools` item of the file's first document. */
function toolsItem(tokens: Token[]): Item | undefined {
  const [doc] = documents(tokens);
  const items = mapItems(doc?.value);
  return items && findItem(items, "tools");
}

function isScalar(
  token: Token | undefined,
): token is CST.FlowScalar | CST.BlockScalar {
  return token !== undefined &&
    (token.type === "scalar" || token.type === "single-quoted-scalar" ||
      token.type === "double-quoted-scalar" || token.type === "block-scalar");
}

function offsetOf(token: Token): number {
  return "offset" in token ? token.offset : 0;
}

// ---------------------------------------------------------------------------
// Lines

function eolOf(text: string): string {
  return text.includes("\r\n") ? "\r\n" : "\n";
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf("\n", from);
  if (nl === -1) return text.length;
  return nl > 0 && text[nl - 1] === "\r" ? nl - 1 : nl;
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

/** The length of the line break at `at`: 2 for CRLF, 1 for LF, 0 at the end. */
function breakAt(text: string, at: number): number {
  if (text.startsWith("\r\n", at)) return 2;
  return text[at] === "\n" ? 1 : 0;
}

/** Inserts the line `line` after the line ending at `end`. */
function insertLineAfter(text: string, end: number, line: string): string {
  const eol = eolOf(text);
  const newline = breakAt(text, end);
  if (newline === 0) return `${text.slice(0, end)}${eol}${line}`;
  const at = end + newline;
  return `${text.slice(0, at)}${line}${eol}${text.slice(at)}`;
}

/** Appends ` # <comment>` to the line holding `at`, unless it ends with it already. */
function appendComment(text: string, at: number, comment?: string): string {
  if (comment === undefined) return text;
  const end = lineEnd(text, at);
  const line = text.slice(lineStart(text, at), end);
  const mark = `# ${comment}`;
  const trimmed = line.trimEnd();
  if (trimmed.endsWith(mark)) return text;
  const cut = end - (line.length - trimmed.length);
  return `${text.slice(0, cut)} ${mark}${text.slice(end)}`;
}

/** A scalar as YAML writes it in a new line: plain when safe, else double-quoted. */
function scalar(value: string): string {
  return /^[A-Za-z0-9_][A-Za-z0-9_./@+-]*(?::[A-Za-z0-9_./@+-]+)?$/.test(value)
    ? value
    : JSON.stringify(value);
}

function pairText(entry: ToolsEntry): string {
  return `${scalar(entry.name)}: ${scalar(entry.value)}`;
}

function lineText(entry: ToolsEntry, indent: number): string {
  const comment = entry.comment === undefined ? "" : ` # ${entry.comment}`;
  return `${" ".repeat(indent)}${pairText(entry)}${comment}`;
}

// ---------------------------------------------------------------------------
// Edits

function byHand(entry: ToolsEntry, file: string, why: string): Error {
  return new Error(
    `${why}; set \`${pairText(entry)}\` under tools: in ${file} by hand`,
  );
}

/** Replaces the value of the existing entry `entry.name`. */
function setEntry(text: string, entry: ToolsEntry, file: string): string {
  const tokens = parseTokens(text);
  const tools = toolsItem(tokens);
  const items = mapItems(tools?.value);
  const item = items && findItem(items, entry.name);
  const token = item?.value;
  if (item && (token === undefined || token === null)) {
    // `<name>:` with no value (YAML reads null): write one after the colon.
    const colon = item.sep?.find((t) => t.type === "map-value-ind");
    if (colon) {
      const at = colon.offset + colon.source.length;
      const edited = `${text.slice(0, at)} ${scalar(entry.value)}${
        text.slice(at)
      }`;
      return appendComment(edited, at, entry.comment);
    }
  }
  if (!isScalar(token)) {
    throw byHand(
      entry,
      file,
      `${file} has no plain \`${entry.name}:\` value under tools: to replace`,
    );
  }
  CST.setScalarValue(token, entry.value, {
    inFlow: tools?.value?.type === "flow-collection",
    ...(token.type === "block-scalar" ? { type: "PLAIN" as const } : {}),
  });
  const edited = tokens.map((t) => CST.stringify(t)).join("");
  return appendComment(edited, offsetOf(token), entry.comment);
}

/** Adds `entry` to the existing `tools:` key. */
function addEntry(text: string, entry: ToolsEntry, file: string): string {
  const tools = toolsItem(parseTokens(text))!;
  const map = tools.value;
  if (map?.type === "block-map") {
    const items = map.items as Item[];
    const last = items[items.length - 1];
    const first = items[0];
    const anchor = last.value ?? last.key;
    const at = anchor && "offset" in anchor
      ? anchor.offset + ("source" in anchor ? anchor.source.length : 0)
      : map.offset;
    const indent = first.key && "offset" in first.key
      ? first.key.offset - lineStart(text, first.key.offset)
      : map.indent;
    return insertLineAfter(text, lineEnd(text, at), lineText(entry, indent));
  }
  if (map?.type === "flow-collection" && map.start.source === "{") {
    const close = map.end.find((t) => t.source === "}");
    if (!close) {
      throw byHand(entry, file, `the tools: mapping in ${file} is not closed`);
    }
    let p = close.offset - 1;
    while (p >= 0 && /\s/.test(text[p])) p--;
    const pair = pairText(entry);
    let insert: string;
    if (map.items.length === 0) {
      insert = ` ${pair}${text[p + 1] === "}" ? " " : ""}`;
    } else if (text[p] === ",") insert = ` ${pair}`;
    else insert = `, ${pair}`;
    const result = text.slice(0, p + 1) + insert + text.slice(p + 1);
    return appendComment(result, p + 1, entry.comment);
  }
  if (map === undefined || map === null) {
    // `tools:` with nothing after it (YAML reads null): the first entry goes
    // on the next line.
    const keyAt = offsetOf(tools.key as Token);
    const indent = keyAt - lineStart(text, keyAt) + 2;
    return insertLineAfter(text, lineEnd(text, keyAt), lineText(entry, indent));
  }
  throw byHand(entry, file, `tools: in ${file} is not a mapping`);
}

/** Adds a `tools:` key at the end of `text` listing `newKey`, then `entries`. */
function addToolsKey(
  text: string,
  entries: readonly ToolsEntry[],
  newKey: readonly ToolsEntry[],
  file: string,
): string {
  const docs = documents(parseTokens(text));
  const first = entries[0] ?? newKey[0];
  if (docs.length > 1) {
    throw new Error(
      `${file} holds ${docs.length} YAML documents; add a tools: key to the first by hand${
        first ? ` with \`${pairText(first)}\`` : ""
      }`,
    );
  }
  const top = docs[0]?.value;
  if (
    top && top.type !== "block-map" && !(isScalar(top) && top.source === "")
  ) {
    throw new Error(
      `the top level of ${file} is not a block mapping; add a tools: key by hand${
        first ? ` with \`${pairText(first)}\`` : ""
      }`,
    );
  }
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const listed = newKey.map((entry) => byName.get(entry.name) ?? entry);
  const inKey = new Set(newKey.map((entry) => entry.name));
  listed.push(...entries.filter((entry) => !inKey.has(entry.name)));
  const eol = eolOf(text);
  const lines = ["tools:", ...listed.map((entry) => lineText(entry, 2))];
  const prefix = text === "" || text.endsWith("\n") ? text : text + eol;
  return prefix + lines.join(eol) + eol;
}

// ---------------------------------------------------------------------------
// Checking the result

function canonical(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v) =>
      isPlainObject(v)
        ? Object.fromEntries(
          Object.entries(v).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
        )
        : v,
  );
}

/**
 * Returns `after` when it parses without errors, holds each entry, and
 * means the same as `before` apart from those entries; throws otherwise.
 */
function verify(
  before: string,
  after: string,
  entries: readonly ToolsEntry[],
  file: string,
): string {
  const doc = parseDocument(after, { prettyErrors: false });
  const first = entries[0];
  const fail = (why: string) =>
    first ? byHand(first, file, why) : new Error(why);
  if (doc.errors.length > 0) {
    throw fail(
      `editing ${file} would not give valid YAML (${
        doc.errors[0].message.split("\n")[0]
      })`,
    );
  }
  for (const entry of entries) {
    if (doc.getIn(["tools", entry.name]) !== entry.value) {
      throw fail(`editing ${file} would not set tools.${entry.name}`);
    }
  }
  const old = parseDocument(before, { prettyErrors: false });
  if (old.errors.length > 0) return after;
  let expected: Record<string, unknown>;
  let got: Record<string, unknown>;
  try {
    expected = old.toJS() ?? {};
    got = doc.toJS() ?? {};
  } catch {
    // Too many aliases to compare: the checks above stand.
    return after;
  }
  if (!isPlainObject(expected)) return after;
  const tools: Record<string, unknown> = {
    ...(expected.tools as Record<string, unknown> ?? {}),
  };
  for (const entry of entries) tools[entry.name] = entry.value;
  const { tools: gotTools, ...gotRest } = got;
  const { tools: _old, ...expectedRest } = expected;
  const added = Object.keys(gotTools ?? {}).filter((name) => !(name in tools));
  const sameTools = Object.entries(tools).every(([name, value]) =>
    canonical((gotTools as Record<string, unknown>)?.[name]) ===
      canonical(value)
  );
  if (
    canonical(gotRest) !== canonical(expectedRest) || !sameTools ||
    (added.length > 0 && _old !== undefined)
  ) {
    throw fail(`editing ${file} would change more than tools:`);
  }
  return after;
}
