/**
 * `beeuni tools migrate` (O1–O3): turns opencode custom tools from the legacy
 * folder `harnesses/opencode/tools/` into project tools, statically, from the
 * source text (nothing is run):
 *
 * - each `tool({ description, args, execute })` call, and each plain
 *   `{ description, args, execute }` export, becomes a plain object whose
 *   `parameters` is the JSON Schema of the zod `args` (`tool.schema.X()` and
 *   `z.X()` chains: string, number, boolean, int, enum, literal, array,
 *   object, any/unknown, optional, nullable, describe, default, min, max,
 *   length, email, url, uuid, regex, positive, nonnegative, negative);
 * - in `execute`, `process.env.X` / `process.env["X"]` become
 *   `context.env.X`, `context.sessionID` becomes `context.sessionId` and
 *   `context.abort` becomes `context.signal` (a `context` parameter is added
 *   when missing);
 * - the `@opencode-ai/plugin` and `zod` imports are removed.
 *
 * A file with a default export becomes `tools/<file>.ts`; each named export
 * `X` of file `f` is the tool `f_X` (opencode's naming, O4), served by a
 * small `tools/f_X.ts` that re-exports it as default. What cannot be
 * converted is reported with its file and line. The originals stay where
 * they are until the user deletes them.
 *
 * @module
 */

import { isMap, isScalar, parseDocument } from "yaml";

/** One thing migrate could not convert, with where it is. */
export interface MigrateNote {
  /** 1-based line in the original file. */
  line: number;
  /** What to do by hand. */
  message: string;
}

/** One tool found in a legacy file. */
export interface MigratedTool {
  /** The tool's name: the file name, or `<file>_<export>`. */
  name: string;
  /** The export it came from: `default` or the export's name. */
  exportName: string;
}

/** The result of converting one legacy file. */
export interface MigrateResult {
  /** The converted module's text (all of the file's tools). */
  source: string;
  /** The tools in the file, in source order. */
  tools: MigratedTool[];
  /** What needs a look by hand. */
  notes: MigrateNote[];
}

// ---------------------------------------------------------------- scanning

/** The index just past the string, template or comment starting at `i`, or `i` if none starts there. */
function skipNonCode(src: string, i: number): number {
  const c = src[i];
  if (c === "/" && src[i + 1] === "/") {
    const end = src.indexOf("\n", i);
    return end < 0 ? src.length : end;
  }
  if (c === "/" && src[i + 1] === "*") {
    const end = src.indexOf("*/", i + 2);
    return end < 0 ? src.length : end + 2;
  }
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < src.length && src[j] !== c) {
      if (src[j] === "\\") j++;
      if (src[j] === "\n") break;
      j++;
    }
    return j + 1;
  }
  if (c === "`") {
    let j = i + 1;
    while (j < src.length && src[j] !== "`") {
      if (src[j] === "\\") j += 2;
      else if (src[j] === "$" && src[j + 1] === "{") {
        j = matchBracket(src, j + 1) + 1;
      } else j++;
    }
    return j + 1;
  }
  return i;
}

/** The index of the bracket closing the one at `open` (`(`, `[` or `{`). */
function matchBracket(src: string, open: number): number {
  const stack: string[] = [];
  const pairs: Record<string, string> = { "(": ")", "[": "]", "{": "}" };
  let i = open;
  while (i < src.length) {
    const skipped = skipNonCode(src, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = src[i];
    if (c in pairs) stack.push(pairs[c]);
    else if (c === ")" || c === "]" || c === "}") {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
    i++;
  }
  return -1;
}

/** Splits `src[start, end)` at top-level commas; each part with its start offset. */
function splitTopLevel(
  src: string,
  start: number,
  end: number,
): { text: string; at: number }[] {
  const parts: { text: string; at: number }[] = [];
  let from = start;
  let i = start;
  while (i < end) {
    const skipped = skipNonCode(src, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = src[i];
    if (c === "(" || c === "[" || c === "{") {
      i = matchBracket(src, i) + 1;
      if (i === 0) break;
      continue;
    }
    if (c === ",") {
      parts.push({ text: src.slice(from, i), at: from });
      from = i + 1;
    }
    i++;
  }
  parts.push({ text: src.slice(from, end), at: from });
  return parts.filter((part) => stripComments(part.text).trim() !== "");
}

function stripComments(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    if (text[i] === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      i = skipNonCode(text, i);
      continue;
    }
    const skipped = skipNonCode(text, i);
    out += text.slice(i, Math.max(skipped, i + 1));
    i = Math.max(skipped, i + 1);
  }
  return out;
}

function lineAt(src: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < src.length; i++) {
    if (src[i] === "\n") line++;
  }
  return line;
}

// ---------------------------------------------------------------- literals

/** A literal value read from source text, or `undefined` when it is not one. */
function readLiteral(text: string): { value: unknown } | undefined {
  const t = stripComments(text).trim();
  if (t === "") return undefined;
  if (/^-?\d[\d_]*(\.\d+)?([eE][+-]?\d+)?$/.test(t)) {
    return { value: Number(t.replaceAll("_", "")) };
  }
  if (t === "true" || t === "false") return { value: t === "true" };
  if (t === "null") return { value: null };
  const q = t[0];
  if ((q === '"' || q === "'" || q === "`") && skipNonCode(t, 0) === t.length) {
    const body = t.slice(1, -1);
    if (q === "`" && body.includes("${")) return undefined;
    try {
      if (q === '"') return { value: JSON.parse(t) };
      return {
        value: JSON.parse(
          `"${
            body.replace(/\\(.)/gs, (_m, ch) => ch === q ? ch : `\\${ch}`)
              .replace(/"/g, '\\"').replace(/\n/g, "\\n")
          }"`,
        ),
      };
    } catch {
      return undefined;
    }
  }
  if (t[0] === "[" && matchBracket(t, 0) === t.length - 1) {
    const items = [];
    for (const part of splitTopLevel(t, 1, t.length - 1)) {
      const item = readLiteral(part.text);
      if (!item) return undefined;
      items.push(item.value);
    }
    return { value: items };
  }
  if (t[0] === "{" && matchBracket(t, 0) === t.length - 1) {
    const obj: Record<string, unknown> = {};
    for (const part of splitTopLevel(t, 1, t.length - 1)) {
      const prop = splitProperty(part.text);
      if (!prop) return undefined;
      const value = readLiteral(prop.value);
      if (!value) return undefined;
      obj[prop.key] = value.value;
    }
    return { value: obj };
  }
  return undefined;
}

/** `key: value` (identifier or quoted key), or undefined. */
function splitProperty(
  text: string,
): { key: string; value: string; valueAt: number } | undefined {
  const lead = text.length - text.trimStart().length;
  const t = text.trimStart();
  let key: string;
  let rest: number;
  const ident = /^[A-Za-z_$][\w$]*/.exec(t);
  if (ident) {
    key = ident[0];
    rest = ident[0].length;
  } else if (t[0] === '"' || t[0] === "'") {
    const end = skipNonCode(t, 0);
    const literal = readLiteral(t.slice(0, end));
    if (!literal || typeof literal.value !== "string") return undefined;
    key = literal.value;
    rest = end;
  } else return undefined;
  const colon = /^\s*:/.exec(t.slice(rest));
  if (!colon) return undefined;
  const valueAt = lead + rest + colon[0].length;
  return { key, value: text.slice(valueAt), valueAt };
}

// ---------------------------------------------------------------- zod

interface Chain {
  base: string;
  baseArgs: string;
  methods: { name: string; args: string; at: number }[];
}

/** Parses `tool.schema.X(...).m(...)...` or `z.X(...)...`; undefined when it is not one. */
function readChain(text: string): Chain | undefined {
  const t = stripComments(text).trim();
  const head = /^(?:tool\.schema|z)\.([A-Za-z]+)\s*\(/.exec(t);
  if (!head) return undefined;
  const open = head[0].length - 1;
  const close = matchBracket(t, open);
  if (close < 0) return undefined;
  const chain: Chain = {
    base: head[1],
    baseArgs: t.slice(open + 1, close),
    methods: [],
  };
  let i = close + 1;
  while (i < t.length) {
    const m = /^\s*\.\s*([A-Za-z]+)\s*\(/.exec(t.slice(i));
    if (!m) return undefined;
    const mOpen = i + m[0].length - 1;
    const mClose = matchBracket(t, mOpen);
    if (mClose < 0) return undefined;
    chain.methods.push({
      name: m[1],
      args: t.slice(mOpen + 1, mClose),
      at: i,
    });
    i = mClose + 1;
    while (i < t.length && /\s/.test(t[i])) i++;
  }
  return chain;
}

interface Converted {
  schema: Record<string, unknown>;
  optional: boolean;
}

type Report = (message: string) => void;

/** The JSON Schema of one zod expression. */
function zodToSchema(text: string, report: Report): Converted | undefined {
  const chain = readChain(text);
  if (!chain) {
    report(
      `cannot read \`${
        stripComments(text).trim().slice(0, 60)
      }\` as a zod schema: write its JSON Schema under parameters by hand`,
    );
    return undefined;
  }
  let schema: Record<string, unknown>;
  const literal = (args: string) => readLiteral(args)?.value;
  switch (chain.base) {
    case "string":
      schema = { type: "string" };
      break;
    case "number":
      schema = { type: "number" };
      break;
    case "int":
      schema = { type: "integer" };
      break;
    case "boolean":
      schema = { type: "boolean" };
      break;
    case "any":
    case "unknown":
      schema = {};
      break;
    case "literal": {
      const value = literal(chain.baseArgs);
      if (value === undefined) {
        report("z.literal() with a value that is not a literal");
        return undefined;
      }
      schema = { const: value };
      break;
    }
    case "enum": {
      const values = literal(chain.baseArgs);
      if (!Array.isArray(values)) {
        report(
          "z.enum() needs an array literal to convert: write the enum by hand",
        );
        return undefined;
      }
      schema = { type: "string", enum: values };
      break;
    }
    case "array": {
      const items = zodToSchema(chain.baseArgs, report);
      if (!items) return undefined;
      schema = { type: "array", items: items.schema };
      break;
    }
    case "object": {
      const t = chain.baseArgs.trim();
      if (!t.startsWith("{") || matchBracket(t, 0) !== t.length - 1) {
        report("z.object() needs an object literal to convert");
        return undefined;
      }
      const inner = objectSchema(t, 0, (message) => report(message));
      if (!inner) return undefined;
      schema = inner;
      break;
    }
    default:
      report(
        `unknown zod type \`${chain.base}()\`: write its JSON Schema by hand`,
      );
      return undefined;
  }
  let optional = false;
  const bound = (key: "min" | "max", value: unknown) => {
    if (typeof value !== "number") return false;
    const type = schema.type;
    const k = type === "string"
      ? (key === "min" ? "minLength" : "maxLength")
      : type === "array"
      ? (key === "min" ? "minItems" : "maxItems")
      : (key === "min" ? "minimum" : "maximum");
    schema[k] = value;
    return true;
  };
  for (const method of chain.methods) {
    const arg = method.args.trim() === "" ? undefined : literal(method.args);
    const first = method.args.trim() === ""
      ? undefined
      : splitTopLevel(method.args, 0, method.args.length)[0];
    const firstValue = first ? literal(first.text) : undefined;
    switch (method.name) {
      case "optional":
        optional = true;
        break;
      case "nullable":
        schema.type = schema.type === undefined
          ? undefined
          : [schema.type, "null"].flat();
        if (schema.type === undefined) delete schema.type;
        if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
        break;
      case "nullish":
        optional = true;
        if (typeof schema.type === "string") {
          schema.type = [schema.type, "null"];
        }
        break;
      case "describe":
        if (typeof arg !== "string") {
          report(".describe() with a text that is not a literal");
        } else schema.description = arg;
        break;
      case "default":
        if (arg === undefined) {
          report(".default() with a value that is not a literal");
        } else schema.default = arg;
        optional = true;
        break;
      case "int":
        schema.type = "integer";
        break;
      case "min":
      case "gte":
        if (!bound("min", firstValue)) {
          report(`.${method.name}() needs a number`);
        }
        break;
      case "max":
      case "lte":
        if (!bound("max", firstValue)) {
          report(`.${method.name}() needs a number`);
        }
        break;
      case "gt":
        if (typeof firstValue === "number") {
          schema.exclusiveMinimum = firstValue;
        } else report(".gt() needs a number");
        break;
      case "lt":
        if (typeof firstValue === "number") {
          schema.exclusiveMaximum = firstValue;
        } else report(".lt() needs a number");
        break;
      case "length":
        if (bound("min", firstValue)) bound("max", firstValue);
        else report(".length() needs a number");
        break;
      case "positive":
        schema.exclusiveMinimum = 0;
        break;
      case "nonnegative":
        schema.minimum = 0;
        break;
      case "negative":
        schema.exclusiveMaximum = 0;
        break;
      case "email":
      case "url":
      case "uuid":
        schema.format = method.name === "url" ? "uri" : method.name;
        break;
      case "regex": {
        const re = /^\s*\/((?:\\.|[^/\\])+)\/[a-z]*\s*$/.exec(
          first?.text ?? "",
        );
        if (re) schema.pattern = re[1];
        else report(".regex() needs a regular expression literal");
        break;
      }
      case "trim":
      case "toLowerCase":
      case "toUpperCase":
        report(
          `.${method.name}() transforms the value: the tool gets the raw text now; do it in execute`,
        );
        break;
      default:
        report(
          `unknown zod method \`.${method.name}()\`: check parameters by hand`,
        );
    }
  }
  return { schema, optional };
}

/** The object schema of a `{ key: zod, ... }` literal at `src[open]`. */
function objectSchema(
  src: string,
  open: number,
  report: (message: string, at: number) => void,
): Record<string, unknown> | undefined {
  const close = matchBracket(src, open);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const part of splitTopLevel(src, open + 1, close)) {
    const prop = splitProperty(part.text);
    if (!prop) {
      report(
        `cannot read \`${
          part.text.trim().slice(0, 40)
        }\` in args: write parameters by hand`,
        part.at,
      );
      return undefined;
    }
    const at = part.at + prop.valueAt;
    const converted = zodToSchema(
      prop.value,
      (message) => report(message, at),
    );
    if (!converted) continue;
    properties[prop.key] = converted.schema;
    if (!converted.optional) required.push(prop.key);
  }
  const schema: Record<string, unknown> = { type: "object", properties };
  if (required.length > 0) schema.required = required;
  return schema;
}

// ---------------------------------------------------------------- files

interface Found {
  exportName: string;
  /** Span of the whole value expression (`tool({...})` or `{...}`). */
  start: number;
  end: number;
  /** The object literal's `{` offset. */
  open: number;
}

/** Finds every `export default tool({...})`, `export const X = tool({...})` and plain-object export. */
function findExports(src: string): Found[] {
  const found: Found[] = [];
  const re =
    /^[ \t]*export\s+(?:default\s+|(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*)/gm;
  let m: RegExpExecArray | null;
  while ((m = re.exec(src)) !== null) {
    let at = m.index + m[0].length;
    const exportName = m[1] ?? "default";
    const call = /^tool\s*\(\s*/.exec(src.slice(at));
    if (call) {
      const paren = at + call[0].indexOf("(");
      const open = at + call[0].length;
      if (src[open] !== "{") continue;
      const close = matchBracket(src, paren);
      if (close < 0) continue;
      found.push({ exportName, start: at, end: close + 1, open });
      continue;
    }
    while (/\s/.test(src[at])) at++;
    if (src[at] !== "{") continue;
    const close = matchBracket(src, at);
    if (close < 0) continue;
    const body = src.slice(at, close + 1);
    if (!/\bargs\b/.test(body) || !/\bexecute\b/.test(body)) continue;
    found.push({ exportName, start: at, end: close + 1, open: at });
  }
  return found;
}

const CONTEXT_RENAMES: [RegExp, string][] = [
  [/\.sessionID\b/g, ".sessionId"],
  [/\.abort\b(?!\s*\()/g, ".signal"],
];

/** Rewrites the `execute` property text; returns the new text. */
function convertExecute(
  text: string,
  at: number,
  src: string,
  notes: MigrateNote[],
): string {
  // Parameters: `execute(a, b)`, `execute: async (a, b) =>`, `execute: function (a, b)`.
  const params =
    /^(\s*(?:async\s+)?(?:execute\s*(?::\s*(?:async\s+)?(?:function\s*)?)?)?)\(/
      .exec(text);
  if (!params) {
    notes.push({
      line: lineAt(src, at),
      message:
        "cannot find execute's parameters: make it execute(args, context) and read secrets from context.env by hand",
    });
    return text;
  }
  const open = params[0].length - 1;
  const close = matchBracket(text, open);
  const list = splitTopLevel(text, open + 1, close).map((p) => p.text.trim());
  let ctxName = "context";
  let out = text;
  if (list.length === 0) {
    out = `${text.slice(0, open + 1)}_args, context${text.slice(close)}`;
  } else if (list.length === 1) {
    out = `${text.slice(0, close)}, context${text.slice(close)}`;
  } else if (/^[A-Za-z_$][\w$]*$/.test(list[1].split(":")[0].trim())) {
    ctxName = list[1].split(":")[0].trim();
  } else {
    notes.push({
      line: lineAt(src, at),
      message:
        "execute destructures its context: read secrets from context.env by hand",
    });
  }
  // process.env reads.
  out = out.replace(
    /\bprocess\.env(\.[A-Za-z_$][\w$]*|\[[^\]]+\])/g,
    `${ctxName}.env$1`,
  ).replace(/\bprocess\.env\b/g, `${ctxName}.env`);
  // opencode's context fields that have another name here.
  const ctxRe = new RegExp(`\\b${ctxName}((?:\\.[A-Za-z]+)+)`, "g");
  out = out.replace(ctxRe, (_whole, path: string) => {
    let renamed = path;
    for (const [re, to] of CONTEXT_RENAMES) renamed = renamed.replace(re, to);
    return `${ctxName}${renamed}`;
  });
  for (
    const field of ["worktree", "messageID", "callID", "metadata", "ask"]
  ) {
    const re = new RegExp(`\\b${ctxName}\\.${field}\\b`);
    const hit = re.exec(text);
    if (hit) {
      notes.push({
        line: lineAt(src, at + hit.index),
        message:
          `context.${field} does not exist for project tools (context is { sessionId, agent, directory, env, signal })${
            field === "worktree" ? ": use context.directory" : ""
          }`,
      });
    }
  }
  return out;
}

/** Converts one tool's object literal at `found` into the plain module object text. */
function convertTool(
  src: string,
  found: Found,
  notes: MigrateNote[],
): string {
  const close = matchBracket(src, found.open);
  const parts = splitTopLevel(src, found.open + 1, close);
  const edits: { start: number; end: number; text: string }[] = [];
  let sawArgs = false;
  for (const part of parts) {
    const text = part.text;
    const prop = splitProperty(text);
    const name = prop?.key ??
      /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)/.exec(text)?.[1];
    const span = { start: part.at, end: part.at + text.length };
    if (prop && prop.key === "args") {
      sawArgs = true;
      const value = prop.value.trim();
      const valueAt = part.at + prop.valueAt +
        (prop.value.length - prop.value.trimStart().length);
      let schema: Record<string, unknown> = { type: "object", properties: {} };
      if (
        !value.startsWith("{") || matchBracket(value, 0) !== value.length - 1
      ) {
        notes.push({
          line: lineAt(src, valueAt),
          message:
            "args is not an object literal (dynamic args): write parameters as JSON Schema by hand",
        });
      } else {
        schema = objectSchema(src, valueAt, (message, at) => {
          notes.push({ line: lineAt(src, at), message });
        }) ?? schema;
      }
      const json = JSON.stringify(schema, null, 2)
        .replace(/^(\s*)"([A-Za-z_$][\w$]*)":/gm, "$1$2:")
        .replace(/\n/g, `\n${indentOf(text)}`);
      edits.push({ ...span, text: `${leading(text)}parameters: ${json}` });
    } else if (name === "execute") {
      edits.push({ ...span, text: convertExecute(text, part.at, src, notes) });
    }
  }
  let out = "";
  let last = found.open;
  for (const edit of edits) {
    out += src.slice(last, edit.start) + edit.text;
    last = edit.end;
  }
  out += src.slice(last, close);
  if (!sawArgs) {
    out = out.trimEnd().replace(/,$/, "") +
      ',\n  parameters: { type: "object", properties: {} },\n';
  }
  return out + "}";
}

function leading(text: string): string {
  return /^\s*/.exec(text)![0];
}

function indentOf(text: string): string {
  const lead = leading(text);
  return lead.slice(lead.lastIndexOf("\n") + 1);
}

/**
 * Converts the legacy tool file `fileName` (its text `src`): every tool
 * export becomes a plain object with `parameters`, imports of
 * `@opencode-ai/plugin` and `zod` go, and what needs a look by hand is
 * listed. Pure.
 */
export function migrateSource(fileName: string, src: string): MigrateResult {
  const base = fileName.replace(/^.*\//, "").replace(/\.(ts|js)$/, "");
  const notes: MigrateNote[] = [];
  const found = findExports(src);
  const tools: MigratedTool[] = found.map((f) => ({
    exportName: f.exportName,
    name: f.exportName === "default" ? base : `${base}_${f.exportName}`,
  }));
  let out = "";
  let last = 0;
  for (const f of found) {
    out += src.slice(last, f.start) + convertTool(src, f, notes);
    last = f.end;
  }
  out += src.slice(last);
  // Imports of the harness packages.
  out = out.replace(
    /^[ \t]*import\s[^;]*?from\s*["'](?:@opencode-ai\/plugin(?:\/[\w/]*)?|zod(?:\/v4)?)["'];?[ \t]*\r?\n/gm,
    "",
  );
  if (/\b(?:tool\.schema|z)\.[A-Za-z]+\(/.test(out)) {
    const hit = /\b(?:tool\.schema|z)\.[A-Za-z]+\(/.exec(out)!;
    notes.push({
      line: lineAt(src, src.indexOf(hit[0])),
      message:
        "zod is still used outside args: a project tool may not import a harness package; rewrite it",
    });
  }
  // Things that need a person.
  const lines = src.split("\n");
  lines.forEach((text, index) => {
    if (/\bBun\.\$/.test(text)) {
      notes.push({
        line: index + 1,
        message:
          "Bun.$ runs only when the daemon runs under Bun: use node:child_process (execFile) to run it anywhere",
      });
    } else if (/\bBun\./.test(text)) {
      notes.push({
        line: index + 1,
        message:
          "Bun APIs run only when the daemon runs under Bun: prefer node:* modules",
      });
    }
  });
  for (const m of out.matchAll(/\bprocess\.env\b/g)) {
    const context = out.slice(m.index!, m.index! + 40).split("\n")[0];
    const at = src.indexOf(context);
    notes.push({
      line: at >= 0 ? lineAt(src, at) : 1,
      message:
        "process.env is read outside execute: move the read into execute and use context.env",
    });
  }
  if (found.length === 0) {
    notes.push({
      line: 1,
      message:
        "no tool export found (export default tool({...}) or export const X = tool({...})): move it by hand",
    });
  }
  notes.sort((a, b) => a.line - b.line);
  return {
    source:
      `// Migrated from the opencode tools folder by \`beeuni tools migrate\`.\n${out}`,
    tools,
    notes,
  };
}

/** The re-export module serving the named export `exportName` of `./<file>` as a tool. */
export function reexportSource(file: string, exportName: string): string {
  return `// The ${exportName} tool of ${file}, as its own module.\nexport { ${exportName} as default } from "./${file}";\n`;
}

/** One `tools:` line to add to the root manifest. */
export interface ManifestEntry {
  /** The tool's name. */
  name: string;
  /** Its repo-relative module path. */
  value: string;
  /** The comment at the end of the line, without `# `. */
  comment: string;
}

/**
 * Adds `entries` under the root manifest's `tools:` key, keeping every other
 * byte: after the last entry of a block mapping (same indent), or under an
 * empty `tools:`. Without a `tools:` key in the file, appends one; when
 * `keepBeeuni` is given (no file of the manifest has a `tools:` key), the
 * new key also lists those Beeuni tools as `beeuni:<name>`, so the session
 * keeps them (M4). Throws when the key is a flow mapping or not a mapping.
 */
export function addManifestEntries(
  text: string,
  entries: readonly ManifestEntry[],
  keepBeeuni: readonly string[] = [],
): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const doc = parseDocument(text, { keepSourceTokens: true });
  const root = doc.contents;
  const lineOf = (entry: ManifestEntry, indent: string) =>
    `${indent}${entry.name}: ${entry.value} # ${entry.comment}`;
  const pair = isMap(root)
    ? root.items.find((item) =>
      isScalar(item.key) && item.key.value === "tools"
    )
    : undefined;
  if (!pair) {
    if (root !== null && root !== undefined && !isMap(root)) {
      throw new Error("the root manifest is not a mapping: add tools: by hand");
    }
    const lines = [
      "tools:",
      ...keepBeeuni.map((name) => `  ${name}: beeuni:${name}`),
      ...entries.map((entry) => lineOf(entry, "  ")),
    ];
    const sep = text === "" || text.endsWith("\n") ? "" : eol;
    return `${text}${sep}${lines.join(eol)}${eol}`;
  }
  const value = pair.value;
  const key = pair.key as { range?: [number, number, number] };
  const keyStart = key.range![0];
  const lineStart = text.lastIndexOf("\n", keyStart - 1) + 1;
  const keyIndent = keyStart - lineStart;
  if (value === null || (isScalar(value) && value.value === null)) {
    const end = lineEndAt(text, keyStart);
    const added = entries.map((entry) =>
      lineOf(entry, " ".repeat(keyIndent + 2))
    );
    return `${text.slice(0, end)}${eol}${added.join(eol)}${text.slice(end)}`;
  }
  if (!isMap(value) || value.flow) {
    throw new Error(
      "tools: in the root manifest is not a block mapping: add the entries by hand",
    );
  }
  const first = value.items[0];
  const firstKey = first?.key as { range?: [number, number, number] };
  const indent = firstKey?.range
    ? firstKey.range[0] - (text.lastIndexOf("\n", firstKey.range[0] - 1) + 1)
    : keyIndent + 2;
  const last = value.items[value.items.length - 1];
  const lastNode = (last?.value ?? last?.key) as {
    range?: [number, number, number];
  };
  const at = lastNode?.range ? lastNode.range[1] : keyStart;
  const end = lineEndAt(text, Math.max(at - 1, keyStart));
  const added = entries.map((entry) => lineOf(entry, " ".repeat(indent)));
  return `${text.slice(0, end)}${eol}${added.join(eol)}${text.slice(end)}`;
}

function lineEndAt(text: string, offset: number): number {
  const end = text.indexOf("\n", offset);
  if (end < 0) return text.length;
  return text[end - 1] === "\r" ? end - 1 : end;
}
