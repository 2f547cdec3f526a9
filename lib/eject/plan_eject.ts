/**
 * `beeuni tools eject <name>` (E1–E6), the pure part: given the parsed
 * manifest and the texts of its files, decide which file to edit and compute
 * its new text, changing only the line that declares the tool (E2) or adding
 * the `tools:` key the manifest lacks (E3). Edits go through the `yaml`
 * package's CST, which keeps every other byte: comments, quoting, CRLF line
 * ends, flow mappings.
 *
 * @module
 */

import { CST, parseDocument, Parser } from "yaml";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import {
  BEEUNI_TOOLS,
  type BeeuniToolName,
  builtinToolSourceUrl,
  type Diagnostic,
  isBeeuniTool,
  type Manifest,
  type ToolEntry,
} from "../manifest/mod.ts";
import { errorMessage } from "../common/mod.ts";

/** What {@linkcode planEject} needs. */
export interface EjectRequest {
  /** The tool to eject. */
  name: string;
  /** The parsed manifest and its imports. */
  manifest: Manifest;
  /** Every diagnostic of the parser and the validator. */
  diagnostics: readonly Diagnostic[];
  /** The text of a manifest file, by repo-relative path. */
  read(path: string): string;
  /** Whether `tools/<name>.ts` exists already. */
  toolFileExists: boolean;
  /** `--force`: overwrite the file and replace another module path. */
  force: boolean;
}

/** What an eject writes. */
export interface EjectPlan {
  /** The tool. */
  name: BeeuniToolName;
  /** Repo-relative path of the copy: `tools/<name>.ts`. */
  toolFile: string;
  /** Repo-relative path of the manifest file that gets the entry. */
  manifestFile: string;
  /** That file's text before. */
  before: string;
  /** That file's text after (equal to `before` when nothing changes). */
  after: string;
}

/** The comment the changed line ends with (E2). */
export function ejectComment(name: string): string {
  return `# ejected from beeuni:${name}`;
}

/** Repo-relative path of a tool's ejected copy (E1). */
export function ejectedPath(name: string): string {
  return `tools/${name}.ts`;
}

function where(entry: ToolEntry): string {
  return `${entry.valuePos.file}:${entry.valuePos.line}`;
}

/**
 * Decides what ejecting `request.name` writes, or throws an `Error` whose
 * message says why it is refused (E4) and what to do.
 */
export function planEject(request: EjectRequest): EjectPlan {
  const { name, manifest, force } = request;
  if (!isBeeuniTool(name)) {
    throw new Error(
      `cannot eject "${name}": not a Beeuni tool; eject one of ${
        BEEUNI_TOOLS.join(", ")
      }`,
    );
  }
  const target = ejectedPath(name);
  const entries = manifest.files.flatMap((file) =>
    file.tools.filter((entry) => entry.name === name)
  );
  const entry = entries[0];
  // Errors on the line eject rewrites do not block it: eject replaces it.
  const blocking = request.diagnostics.filter((d) =>
    d.severity === "error" &&
    !(entry && entries.length === 1 && d.file === entry.valuePos.file &&
      (d.line === entry.valuePos.line || d.line === entry.namePos.line))
  );
  if (blocking.length > 0) {
    const first = blocking[0];
    throw new Error(
      `cannot eject "${name}": ${manifest.manifestPath} has ${blocking.length} ${
        blocking.length === 1 ? "error" : "errors"
      } (first: ${first.file}:${first.line}:${first.col}: ${first.message}); run beeuni validate and fix ${
        blocking.length === 1 ? "it" : "them"
      } first`,
    );
  }
  if (request.toolFileExists && !force) {
    throw new Error(
      `cannot eject "${name}": ${target} exists; pass --force to overwrite it`,
    );
  }
  if (entry) {
    const value = entry.value;
    if (
      typeof value === "string" && value !== `beeuni:${name}` &&
      value !== target && !force
    ) {
      throw new Error(
        `cannot eject "${name}": ${where(entry)} already points it at ${
          JSON.stringify(value)
        }; pass --force to replace that with ${target}`,
      );
    }
    const before = request.read(entry.valuePos.file);
    return {
      name,
      toolFile: target,
      manifestFile: entry.valuePos.file,
      before,
      after: setToolValue(before, name, target, entry.valuePos.file),
    };
  }
  const withKey =
    manifest.files.find((file) =>
      file.path === manifest.manifestPath && file.hasToolsKey
    ) ?? manifest.files.find((file) => file.hasToolsKey);
  if (withKey) {
    const before = request.read(withKey.path);
    return {
      name,
      toolFile: target,
      manifestFile: withKey.path,
      before,
      after: addToolEntry(before, name, target, withKey.path),
    };
  }
  const before = request.read(manifest.manifestPath);
  return {
    name,
    toolFile: target,
    manifestFile: manifest.manifestPath,
    before,
    after: addToolsKey(before, name, manifest.manifestPath),
  };
}

/** The lines `beeuni tools eject` prints on success (E5). */
export function ejectOutput(plan: EjectPlan, check = "✓"): string {
  const { name, toolFile, manifestFile } = plan;
  return [
    `  ${check}  Ejected ${name}`,
    `  wrote   ${toolFile} (the Beeuni source, now the project's to change)`,
    `  set     ${manifestFile}: tools.${name}: ${toolFile}`,
    ``,
    `Next:`,
    `  1. Edit ${toolFile}. Keep the default export: { description, parameters, execute(args, context) }.`,
    `  2. beeuni validate`,
    `  3. git add ${toolFile} ${manifestFile} && git commit -m "Own the ${name} tool"`,
    `  4. Open a change request: git push origin HEAD && beeuni cr open --title "Own the ${name} tool"`,
    `Sessions load the copy after the change request merges.`,
    ``,
  ].join("\n");
}

/**
 * Reads the bytes of the Beeuni tool `name` as this package ships them in
 * `builtin_tools/`: the same bytes the daemon runs (E1).
 */
export async function readBuiltinSource(
  name: BeeuniToolName,
): Promise<Uint8Array> {
  const url = builtinToolSourceUrl(name);
  try {
    if (url.protocol === "file:") {
      return new Uint8Array(await readFile(fileURLToPath(url)));
    }
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw new Error(
      `cannot eject "${name}": cannot read its source ${url.href}: ${
        errorMessage(error)
      }`,
    );
  }
}

// ---------------------------------------------------------------------------
// CST editing

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

/** Appends ` # ejected from beeuni:<name>` to the line holding `at`, unless it ends with it already. */
function appendComment(text: string, at: number, name: string): string {
  const end = lineEnd(text, at);
  const line = text.slice(lineStart(text, at), end);
  const comment = ejectComment(name);
  if (line.trimEnd().endsWith(comment)) return text;
  const trimmed = line.trimEnd();
  const cut = end - (line.length - trimmed.length);
  return `${text.slice(0, cut)} ${comment}${text.slice(end)}`;
}

function scalarOffset(token: Token): number {
  return "offset" in token ? token.offset : 0;
}

function isScalar(
  token: Token | undefined,
): token is CST.FlowScalar | CST.BlockScalar {
  return token !== undefined &&
    (token.type === "scalar" || token.type === "single-quoted-scalar" ||
      token.type === "double-quoted-scalar" || token.type === "block-scalar");
}

/** Throws unless `text` parses cleanly and has `tools.<name>` set to `value`. */
function verify(
  text: string,
  name: string,
  value: string,
  file: string,
): string {
  const doc = parseDocument(text, { prettyErrors: false });
  const got = doc.errors.length === 0 ? doc.getIn(["tools", name]) : undefined;
  if (got !== value) {
    throw new Error(
      `cannot eject "${name}": editing ${file} would not give valid YAML${
        doc.errors.length > 0
          ? ` (${doc.errors[0].message.split("\n")[0]})`
          : ""
      }; set \`${name}: ${value}\` under tools: by hand`,
    );
  }
  return text;
}

/**
 * Sets `tools.<name>` to `value` in `text`, keeping the scalar's quoting
 * and every other byte, and appends `# ejected from beeuni:<name>` to the
 * line (after any comment already there). In a flow mapping the comment goes
 * at the end of the line the value is on.
 */
export function setToolValue(
  text: string,
  name: string,
  value: string,
  file = "the manifest",
): string {
  const tokens = parseTokens(text);
  const tools = toolsItem(tokens);
  const items = mapItems(tools?.value);
  const item = items && findItem(items, name);
  const token = item?.value;
  if (item && (token === undefined || token === null)) {
    // `<name>:` with no value (YAML reads null): write one after the colon.
    const colon = item.sep?.find((t) => t.type === "map-value-ind");
    if (colon) {
      const at = colon.offset + colon.source.length;
      const edited = `${text.slice(0, at)} ${value}${text.slice(at)}`;
      return verify(appendComment(edited, at, name), name, value, file);
    }
  }
  if (!isScalar(token)) {
    throw new Error(
      `cannot eject "${name}": ${file} has no plain \`${name}:\` value under tools: to replace; set \`${name}: ${value}\` by hand`,
    );
  }
  const inFlow = tools?.value?.type === "flow-collection";
  CST.setScalarValue(token, value, {
    inFlow,
    ...(token.type === "block-scalar" ? { type: "PLAIN" as const } : {}),
  });
  const edited = tokens.map((t) => CST.stringify(t)).join("");
  return verify(
    appendComment(edited, scalarOffset(token), name),
    name,
    value,
    file,
  );
}

/**
 * Adds `<name>: <value> # ejected from beeuni:<name>` to the existing
 * `tools:` key of `text`: a new line after the last entry of a block
 * mapping (same indent), a line under an empty `tools:`, or a new pair before
 * the `}` of a flow mapping.
 */
export function addToolEntry(
  text: string,
  name: string,
  value: string,
  file = "the manifest",
): string {
  const tokens = parseTokens(text);
  const tools = toolsItem(tokens);
  if (!tools) {
    throw new Error(
      `cannot eject "${name}": ${file} has no top-level tools: key`,
    );
  }
  const eol = eolOf(text);
  const pair = `${name}: ${value}`;
  const comment = ejectComment(name);
  const map = tools.value;
  if (map?.type === "block-map") {
    const items = map.items as Item[];
    const last = items[items.length - 1];
    const first = items[0];
    const anchor = last.value ?? last.key;
    const at = anchor && "offset" in anchor
      ? anchor.offset + ("source" in anchor ? anchor.source.length : 0)
      : map.offset;
    const end = lineEnd(text, at);
    const indent = first.key && "offset" in first.key
      ? first.key.offset - lineStart(text, first.key.offset)
      : map.indent;
    const newline = text.slice(end).startsWith("\r\n")
      ? 2
      : text[end] === "\n"
      ? 1
      : 0;
    const insertAt = end + newline;
    const line = `${" ".repeat(indent)}${pair} ${comment}`;
    const result = newline === 0
      ? `${text.slice(0, end)}${eol}${line}${text.slice(end)}`
      : `${text.slice(0, insertAt)}${line}${eol}${text.slice(insertAt)}`;
    return verify(result, name, value, file);
  }
  if (map?.type === "flow-collection" && map.start.source === "{") {
    const close = map.end.find((t) => t.source === "}");
    if (!close) {
      throw new Error(
        `cannot eject "${name}": the tools: mapping in ${file} is not closed`,
      );
    }
    let p = close.offset - 1;
    while (p >= 0 && /\s/.test(text[p])) p--;
    let insert: string;
    if (map.items.length === 0) {
      insert = ` ${pair}${text[p + 1] === "}" ? " " : ""}`;
    } else if (text[p] === ",") insert = ` ${pair}`;
    else insert = `, ${pair}`;
    const result = text.slice(0, p + 1) + insert + text.slice(p + 1);
    return verify(appendComment(result, p + 1, name), name, value, file);
  }
  if (map === undefined || map === null) {
    // `tools:` with nothing after it (YAML reads null): add the first entry
    // on the next line.
    const keyToken = tools.key as Token;
    const keyAt = scalarOffset(keyToken);
    const end = lineEnd(text, keyAt);
    const indent = keyAt - lineStart(text, keyAt) + 2;
    const line = `${" ".repeat(indent)}${pair} ${comment}`;
    const newline = text.slice(end).startsWith("\r\n")
      ? 2
      : text[end] === "\n"
      ? 1
      : 0;
    const result = newline === 0
      ? `${text.slice(0, end)}${eol}${line}${text.slice(end)}`
      : `${text.slice(0, end + newline)}${line}${eol}${
        text.slice(end + newline)
      }`;
    return verify(result, name, value, file);
  }
  throw new Error(
    `cannot eject "${name}": tools: in ${file} is not a mapping; add \`${name}: ${value}\` under it by hand`,
  );
}

/**
 * Adds a `tools:` key at the end of the root manifest listing the five
 * Beeuni tools in their canonical order: `beeuni:<tool>` for the four others
 * and `<name>: <tools/name.ts> # ejected from beeuni:<name>` (E3).
 */
export function addToolsKey(
  text: string,
  name: string,
  file = "beeuni.yaml",
): string {
  const tokens = parseTokens(text);
  const docs = documents(tokens);
  if (docs.length > 1) {
    throw new Error(
      `cannot eject "${name}": ${file} holds ${docs.length} YAML documents; add a tools: key to the first by hand`,
    );
  }
  const top = docs[0]?.value;
  if (
    top && top.type !== "block-map" && !(isScalar(top) && top.source === "")
  ) {
    throw new Error(
      `cannot eject "${name}": the top level of ${file} is not a block mapping; add a tools: key by hand`,
    );
  }
  const eol = eolOf(text);
  const target = ejectedPath(name);
  const lines = [
    "tools:",
    ...BEEUNI_TOOLS.map((tool) =>
      tool === name
        ? `  ${tool}: ${target} ${ejectComment(tool)}`
        : `  ${tool}: beeuni:${tool}`
    ),
  ];
  const prefix = text === "" || text.endsWith("\n") ? text : text + eol;
  return verify(prefix + lines.join(eol) + eol, name, target, file);
}
