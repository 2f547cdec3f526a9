/**
 * The `show` Beeuni tool: shows the user something in the web UI. The model
 * passes a `type` and what that type needs (`path`, `url`, `content`,
 * `items`, `columns`/`rows`); the tool checks it (a file exists inside the
 * checkout, a URL is http or https, a table is rectangular, …) and returns
 * a normalised JSON record the UI renders.
 *
 * Types: `image`, `file`, `url`, `markdown`, `code`, `json`, `table`,
 * `items`. Raw HTML is not a type: a UI would have to sandbox it, so HTML is
 * shown as `code` with `language: "html"`. Works offline with no
 * configuration.
 *
 * An image file in the checkout (PNG, JPEG, GIF or WebP, up to 3 MiB, shown
 * as type `image` or `file`) also comes back as an image the model can see:
 * the tool then returns `{ content: [text, image], structuredContent }`, the
 * host's content-block convention, where the text block is the same JSON
 * record. Other callers keep reading the record as text.
 *
 * @module
 */

import { open, realpath, stat } from "node:fs/promises";
import { extname, isAbsolute, relative, resolve, sep } from "node:path";
import { isInside, refuseAmbiguousPath } from "./_paths.ts";
import type { FileToolContext as ToolContext, ToolModule } from "./_tool.ts";

/** A table cell. */
type Cell = string | number | boolean | null;

/** One entry of an `items` list, normalised. */
interface Item {
  title: string;
  description: string | null;
  url: string | null;
  path: string | null;
}

/** What `show` returns: the record the UI renders. */
interface ShowRecord {
  type: string;
  title: string | null;
  caption: string | null;
  [field: string]: unknown;
}

/** The record as text, with the image the model can see (content blocks). */
interface ShowContent {
  content: (
    | { type: "text"; text: string }
    | { type: "image"; data: string; mimeType: string }
  )[];
  structuredContent: ShowRecord;
}

const TYPES = [
  "image",
  "file",
  "url",
  "markdown",
  "code",
  "json",
  "table",
  "items",
] as const;

/** The arguments each type reads, besides `type`, `title` and `caption`. */
const FIELDS: Record<string, string[]> = {
  image: ["path", "url"],
  file: ["path"],
  url: ["url"],
  markdown: ["content"],
  code: ["content", "language"],
  json: ["content"],
  table: ["columns", "rows"],
  items: ["items"],
};

const ALL_FIELDS = [
  "path",
  "url",
  "content",
  "language",
  "columns",
  "rows",
  "items",
];

const ITEM_KEYS = ["title", "description", "url", "path"];

/** Image files up to this size are also sent as an image block. */
const MAX_INLINE_IMAGE = 3 * 1024 * 1024;

/** The first bytes of the image formats model APIs take, by mime type. */
const MAGIC: Record<string, (head: Uint8Array) => boolean> = {
  "image/png": (h) =>
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) =>
      h[i] === b
    ),
  "image/jpeg": (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  "image/gif": (h) => String.fromCharCode(...h.subarray(0, 4)) === "GIF8",
  "image/webp": (h) =>
    String.fromCharCode(...h.subarray(0, 4)) === "RIFF" &&
    String.fromCharCode(...h.subarray(8, 12)) === "WEBP",
};

/** Content larger than this is refused: show a file instead. */
const MAX_CONTENT = 1024 * 1024;
/** At most this many table rows or items. */
const MAX_ROWS = 10_000;

const MIME: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".avif": "image/avif",
  ".bmp": "image/bmp",
  ".ico": "image/x-icon",
  ".pdf": "application/pdf",
  ".json": "application/json",
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".md": "text/markdown",
  ".txt": "text/plain",
  ".log": "text/plain",
  ".html": "text/html",
  ".htm": "text/html",
  ".xml": "application/xml",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".ts": "text/typescript",
  ".js": "text/javascript",
  ".py": "text/x-python",
  ".zip": "application/zip",
  ".gz": "application/gzip",
  ".tar": "application/x-tar",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
};

function fail(message: string): never {
  throw new Error(message);
}

function mimeOf(path: string): string | null {
  return MIME[extname(path).toLowerCase()] ?? null;
}

function optionalText(
  args: Record<string, unknown>,
  key: string,
): string | null {
  const value = args[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") fail(`${key} must be a string`);
  return value.trim() === "" ? null : value;
}

/** Checks a path argument: exists, is a file, stays inside the checkout. */
async function checkPath(
  context: ToolContext,
  raw: unknown,
  argName: string,
): Promise<{ path: string; size: number; mime: string | null; real: string }> {
  if (typeof raw !== "string" || raw.trim() === "") {
    fail(
      `${argName} must be a non-empty string: a file path relative to the checkout, e.g. "out/chart.png"`,
    );
  }
  const text = raw.trim();
  refuseAmbiguousPath(text, argName);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    fail(`${argName} "${text}" is a URL: pass it as url`);
  }
  if (typeof context?.directory !== "string" || context.directory === "") {
    fail(
      "context.directory is missing: the host must pass the checkout folder",
    );
  }
  const root = await realpath(context.directory).catch(() =>
    fail(`the checkout folder "${context.directory}" does not exist`)
  );
  const full = isAbsolute(text) ? text : resolve(context.directory, text);
  const outsideOf = (base: string, target: string) => !isInside(base, target);
  const outside = (target: string) => outsideOf(root, target);
  // The literal path must stay inside, and so must where it really leads.
  if (outside(full) && outsideOf(resolve(context.directory), full)) {
    fail(`${argName} "${text}" is outside the checkout: show files inside it`);
  }
  let real: string;
  try {
    real = await realpath(full);
  } catch {
    fail(
      `${argName} "${text}" does not exist: write the file first, or check the path`,
    );
  }
  if (outside(real)) {
    fail(
      `${argName} "${text}" leads outside the checkout through a symlink: show files inside it`,
    );
  }
  const info = await stat(real);
  if (info.isDirectory()) fail(`${argName} "${text}" is a folder: show a file`);
  const shown = relative(root, real).split(sep).join("/");
  return { path: shown, size: info.size, mime: mimeOf(shown), real };
}

function checkUrl(raw: unknown, argName: string): string {
  if (typeof raw !== "string" || raw.trim() === "") {
    fail(`${argName} must be a non-empty string: an http or https URL`);
  }
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    fail(
      `${argName} "${raw}" is not a URL: give an absolute http or https URL, e.g. "https://example.com/page"`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    fail(
      `${argName} "${raw}" uses ${
        url.protocol.slice(0, -1)
      }: only http and https URLs can be shown`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    fail(
      `${argName} "${raw}" holds a user name or password: remove them from the URL`,
    );
  }
  return url.href;
}

function checkContent(args: Record<string, unknown>, type: string): string {
  const content = args.content;
  if (typeof content !== "string" || content.trim() === "") {
    fail(`type "${type}" needs content: a non-empty string`);
  }
  if (content.length > MAX_CONTENT) {
    fail(
      `content is ${content.length} characters, over the ${MAX_CONTENT} limit: write it to a file and show it with type "file"`,
    );
  }
  return content;
}

function checkCell(value: unknown, where: string): Cell {
  if (
    value === null || typeof value === "string" || typeof value === "boolean"
  ) return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) fail(`${where} is not a finite number`);
    return value;
  }
  if (value === undefined) return null;
  fail(
    `${where} is ${
      Array.isArray(value) ? "a list" : "an object"
    }: cells are strings, numbers, booleans or null`,
  );
}

function checkTable(
  args: Record<string, unknown>,
): { columns: string[]; rows: Cell[][] } {
  const { rows } = args;
  let columns: string[] | null = null;
  if (args.columns !== undefined && args.columns !== null) {
    if (!Array.isArray(args.columns) || args.columns.length === 0) {
      fail(
        `columns must be a non-empty list of column names, e.g. ["name", "price"]`,
      );
    }
    columns = args.columns.map((name, index) => {
      if (typeof name !== "string" && typeof name !== "number") {
        fail(`columns[${index}] must be a string`);
      }
      return String(name);
    });
    const seen = new Set<string>();
    for (const name of columns) {
      if (seen.has(name)) {
        fail(`columns has "${name}" twice: column names must differ`);
      }
      seen.add(name);
    }
  }
  if (!Array.isArray(rows)) {
    fail(
      `type "table" needs rows: a list of rows, each a list of cells or an object keyed by column`,
    );
  }
  if (rows.length > MAX_ROWS) {
    fail(
      `rows has ${rows.length} rows, over the ${MAX_ROWS} limit: show a file instead`,
    );
  }
  const allArrays = rows.every((row) => Array.isArray(row));
  const allObjects = rows.every((row) =>
    row !== null && typeof row === "object" && !Array.isArray(row)
  );
  if (!allArrays && !allObjects) {
    fail(`rows must all be lists of cells, or all objects keyed by column`);
  }
  if (rows.length > 0 && allObjects) {
    const names: string[] = columns ?? [];
    if (columns === null) {
      for (const row of rows as Record<string, unknown>[]) {
        for (const key of Object.keys(row)) {
          if (!names.includes(key)) names.push(key);
        }
      }
    } else {
      rows.forEach((row, index) => {
        for (const key of Object.keys(row as object)) {
          if (!names.includes(key)) {
            fail(
              `rows[${index}] has key "${key}", which is not in columns: add it to columns or remove it`,
            );
          }
        }
      });
    }
    return {
      columns: names,
      rows: (rows as Record<string, unknown>[]).map((row, index) =>
        names.map((name) => checkCell(row[name], `rows[${index}].${name}`))
      ),
    };
  }
  const width = columns?.length ?? (rows[0] as unknown[] | undefined)?.length ??
    0;
  if (columns === null && rows.length === 0) {
    fail(`type "table" needs columns or at least one row`);
  }
  (rows as unknown[][]).forEach((row, index) => {
    if (row.length !== width) {
      fail(
        `rows[${index}] has ${row.length} cells but the table has ${width} columns: give every row ${width} cells`,
      );
    }
  });
  return {
    columns: columns ??
      Array.from({ length: width }, (_, i) => `Column ${i + 1}`),
    rows: (rows as unknown[][]).map((row, index) =>
      row.map((cell, col) => checkCell(cell, `rows[${index}][${col}]`))
    ),
  };
}

async function checkItems(context: ToolContext, raw: unknown): Promise<Item[]> {
  if (!Array.isArray(raw)) {
    fail(
      `type "items" needs items: a list of strings or of objects with "title"`,
    );
  }
  if (raw.length === 0) fail(`items is empty: give at least one item`);
  if (raw.length > MAX_ROWS) {
    fail(`items has ${raw.length} entries, over the ${MAX_ROWS} limit`);
  }
  const items: Item[] = [];
  for (const [index, entry] of raw.entries()) {
    if (typeof entry === "string" || typeof entry === "number") {
      items.push({
        title: String(entry),
        description: null,
        url: null,
        path: null,
      });
      continue;
    }
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      fail(`items[${index}] must be a string or an object with "title"`);
    }
    const record = entry as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (!ITEM_KEYS.includes(key)) {
        fail(
          `items[${index}] has unknown key "${key}": use ${
            ITEM_KEYS.join(", ")
          }`,
        );
      }
    }
    if (typeof record.title !== "string" || record.title.trim() === "") {
      fail(`items[${index}].title must be a non-empty string`);
    }
    if (
      record.description !== undefined && record.description !== null &&
      typeof record.description !== "string"
    ) {
      fail(`items[${index}].description must be a string`);
    }
    items.push({
      title: record.title,
      description: (record.description as string | undefined) ?? null,
      url: record.url === undefined || record.url === null
        ? null
        : checkUrl(record.url, `items[${index}].url`),
      path: record.path === undefined || record.path === null
        ? null
        : (await checkPath(context, record.path, `items[${index}].path`)).path,
    });
  }
  return items;
}

/**
 * The file's bytes as base64, when it is a PNG, JPEG, GIF or WebP image
 * (checked by its first bytes, not only its name) of at most 3 MiB;
 * `undefined` otherwise.
 */
async function inlineImage(
  file: { size: number; mime: string | null; real: string },
): Promise<string | undefined> {
  const looksRight = file.mime === null ? undefined : MAGIC[file.mime];
  if (!looksRight || file.size > MAX_INLINE_IMAGE || file.size < 12) {
    return undefined;
  }
  const handle = await open(file.real, "r").catch(() => undefined);
  if (!handle) return undefined;
  try {
    const bytes = new Uint8Array(Math.min(file.size, MAX_INLINE_IMAGE + 1));
    let read = 0;
    while (read < bytes.length) {
      const { bytesRead } = await handle.read(bytes, read, bytes.length - read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    if (read > MAX_INLINE_IMAGE || !looksRight(bytes)) return undefined;
    let binary = "";
    for (let i = 0; i < read; i += 0x8000) {
      binary += String.fromCharCode(
        ...bytes.subarray(i, Math.min(read, i + 0x8000)),
      );
    }
    return btoa(binary);
  } finally {
    await handle.close();
  }
}

/** The record, with the image file it names as an image block when it is one. */
async function withImage(
  record: ShowRecord,
  file: { size: number; mime: string | null; real: string },
): Promise<ShowRecord | ShowContent> {
  const data = await inlineImage(file);
  if (data === undefined) return record;
  return {
    content: [
      { type: "text", text: JSON.stringify(record, null, 2) },
      { type: "image", data, mimeType: file.mime! },
    ],
    structuredContent: record,
  };
}

/** Validates the arguments and builds the record the UI renders. */
async function show(
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<ShowRecord | ShowContent> {
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    fail(`arguments must be an object with "type"`);
  }
  const type = args.type;
  if (
    typeof type !== "string" || !(TYPES as readonly string[]).includes(type)
  ) {
    fail(
      `unknown type ${JSON.stringify(type ?? null)}: use one of ${
        TYPES.join(", ")
      }${
        type === "html"
          ? ' (show HTML as type "code" with language "html")'
          : ""
      }`,
    );
  }
  for (const field of ALL_FIELDS) {
    if (
      args[field] !== undefined && args[field] !== null &&
      !FIELDS[type].includes(field)
    ) {
      fail(
        `${field} is not used by type "${type}": remove it${
          field === "path"
            ? ' or use type "file"'
            : field === "url"
            ? ' or use type "url"'
            : ""
        }`,
      );
    }
  }
  const base: ShowRecord = {
    type,
    title: optionalText(args, "title"),
    caption: optionalText(args, "caption"),
  };
  switch (type) {
    case "image": {
      const hasPath = args.path !== undefined && args.path !== null;
      const hasUrl = args.url !== undefined && args.url !== null;
      if (hasPath === hasUrl) {
        fail(
          `type "image" needs exactly one of path (a file in the checkout) or url (http or https)`,
        );
      }
      if (hasPath) {
        const file = await checkPath(context, args.path, "path");
        if (!file.mime?.startsWith("image/")) {
          fail(
            `path "${file.path}" is not an image (${
              extname(file.path) || "no extension"
            }): show png, jpg, gif, webp, svg, avif, bmp or ico files, or use type "file"`,
          );
        }
        return await withImage({
          ...base,
          path: file.path,
          url: null,
          size: file.size,
          mime: file.mime,
        }, file);
      }
      const url = checkUrl(args.url, "url");
      return {
        ...base,
        path: null,
        url,
        size: null,
        mime: mimeOf(new URL(url).pathname),
      };
    }
    case "file": {
      if (args.path === undefined || args.path === null) {
        fail(
          `type "file" needs path: a file in the checkout, e.g. "out/report.pdf"`,
        );
      }
      const file = await checkPath(context, args.path, "path");
      return await withImage({
        ...base,
        path: file.path,
        size: file.size,
        mime: file.mime ?? "application/octet-stream",
      }, file);
    }
    case "url": {
      if (args.url === undefined || args.url === null) {
        fail(`type "url" needs url: an http or https URL`);
      }
      return { ...base, url: checkUrl(args.url, "url") };
    }
    case "markdown":
      return { ...base, content: checkContent(args, type) };
    case "code":
      return {
        ...base,
        language: optionalText(args, "language")?.trim().toLowerCase() ?? null,
        content: checkContent(args, type),
      };
    case "json": {
      const content = args.content;
      if (content === undefined || content === null) {
        fail(
          `type "json" needs content: a JSON value, or a string holding JSON`,
        );
      }
      if (typeof content === "string") {
        try {
          return { ...base, content: JSON.parse(content) };
        } catch (error) {
          fail(
            `content is not valid JSON (${
              error instanceof Error ? error.message : error
            }): pass the value itself or fix the text`,
          );
        }
      }
      return { ...base, content };
    }
    case "table":
      return { ...base, ...checkTable(args) };
    default:
      return { ...base, items: await checkItems(context, args.items) };
  }
}

/** The `show` tool module: `{ description, parameters, execute }`. */
const showTool = {
  description:
    "Show the user something in their view: an image (path in the checkout or " +
    "http(s) url), a file, a url, markdown, code, json, a table (columns and " +
    "rows) or a list of items. Use it for results the user should look at; " +
    "the arguments are checked and the tool returns what will be shown.",
  parameters: {
    type: "object",
    properties: {
      type: {
        type: "string",
        enum: [...TYPES],
        description: "What to show.",
      },
      title: { type: "string", description: "Optional heading." },
      caption: { type: "string", description: "Optional line under it." },
      path: {
        type: "string",
        description:
          'image, file: a file inside the checkout, e.g. "out/chart.png".',
      },
      url: { type: "string", description: "image, url: an http or https URL." },
      content: {
        type: "string",
        description:
          "markdown, code: the text; json: a string holding JSON (a JSON value works too).",
      },
      language: {
        type: "string",
        description: 'code: the language, e.g. "ts", "python", "html".',
      },
      columns: {
        type: "array",
        items: { type: "string" },
        description: "table: the column names.",
      },
      rows: {
        type: "array",
        items: { anyOf: [{ type: "array" }, { type: "object" }] },
        description:
          "table: rows, each a list of cells (as many as columns) or an object keyed by column name.",
      },
      items: {
        type: "array",
        items: {
          anyOf: [
            { type: "string" },
            {
              type: "object",
              properties: {
                title: { type: "string" },
                description: { type: "string" },
                url: { type: "string" },
                path: { type: "string" },
              },
              required: ["title"],
            },
          ],
        },
        description:
          "items: a list of strings or of { title, description?, url?, path? }.",
      },
    },
    required: ["type"],
  },
  execute(
    args: Record<string, unknown>,
    context: ToolContext,
  ): Promise<ShowRecord | ShowContent> {
    return show(args, context);
  },
} satisfies ToolModule;

export default showTool;
