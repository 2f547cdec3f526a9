// @ts-nocheck -- bundled JavaScript; its TypeScript sources are type-checked
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
 * This file is generated: `deno task build:tools` bundles it from
 * builtin_tools/src/show.ts, the shared modules beside it. It imports only
 * node:* modules and reads its configuration from context.env, so a copy runs
 * as it is. In the toolkit, change the sources and rebuild; a copy that
 * `beeuni tools eject` wrote is the project's own to change.
 *
 * @module
 */
// builtin_tools/src/show.ts
import { open, realpath, stat } from "node:fs/promises";
import { extname, isAbsolute, relative as relative2, resolve, sep as sep2 } from "node:path";

// builtin_tools/src/_paths.ts
import { relative, sep } from "node:path";
function refuseAmbiguousPath(text, argName) {
  if (text.includes("\0")) {
    throw new Error(`${argName} "${text.replaceAll("\0", "\\0")}" contains a NUL byte`);
  }
  if ([
    ...text
  ].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127)) {
    throw new Error(`${argName} "${text}" contains a control character`);
  }
  if (text.includes("\\")) {
    throw new Error(`${argName} "${text}" contains a backslash: separate folders with "/"`);
  }
  if (/%[0-9a-fA-F]{2}/.test(text)) {
    throw new Error(`${argName} "${text}" contains a percent-encoded character: write the path plainly`);
  }
}
function isInside(base, target) {
  const rel = relative(base, target);
  return rel === "" || !rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep);
}

// builtin_tools/src/show.ts
var TYPES = [
  "image",
  "file",
  "url",
  "markdown",
  "code",
  "json",
  "table",
  "items"
];
var FIELDS = {
  image: [
    "path",
    "url"
  ],
  file: [
    "path"
  ],
  url: [
    "url"
  ],
  markdown: [
    "content"
  ],
  code: [
    "content",
    "language"
  ],
  json: [
    "content"
  ],
  table: [
    "columns",
    "rows"
  ],
  items: [
    "items"
  ]
};
var ALL_FIELDS = [
  "path",
  "url",
  "content",
  "language",
  "columns",
  "rows",
  "items"
];
var ITEM_KEYS = [
  "title",
  "description",
  "url",
  "path"
];
var MAX_INLINE_IMAGE = 3 * 1024 * 1024;
var MAGIC = {
  "image/png": (h) => [
    137,
    80,
    78,
    71,
    13,
    10,
    26,
    10
  ].every((b, i) => h[i] === b),
  "image/jpeg": (h) => h[0] === 255 && h[1] === 216 && h[2] === 255,
  "image/gif": (h) => String.fromCharCode(...h.subarray(0, 4)) === "GIF8",
  "image/webp": (h) => String.fromCharCode(...h.subarray(0, 4)) === "RIFF" && String.fromCharCode(...h.subarray(8, 12)) === "WEBP"
};
var MAX_CONTENT = 1024 * 1024;
var MAX_ROWS = 1e4;
var MIME = {
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
  ".webm": "video/webm"
};
function fail(message) {
  throw new Error(message);
}
function mimeOf(path) {
  return MIME[extname(path).toLowerCase()] ?? null;
}
function optionalText(args, key) {
  const value = args[key];
  if (value === void 0 || value === null) return null;
  if (typeof value !== "string") fail(`${key} must be a string`);
  return value.trim() === "" ? null : value;
}
async function checkPath(context, raw, argName) {
  if (typeof raw !== "string" || raw.trim() === "") {
    fail(`${argName} must be a non-empty string: a file path relative to the checkout, e.g. "out/chart.png"`);
  }
  const text = raw.trim();
  refuseAmbiguousPath(text, argName);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    fail(`${argName} "${text}" is a URL: pass it as url`);
  }
  if (typeof context?.directory !== "string" || context.directory === "") {
    fail("context.directory is missing: the host must pass the checkout folder");
  }
  const root = await realpath(context.directory).catch(() => fail(`the checkout folder "${context.directory}" does not exist`));
  const full = isAbsolute(text) ? text : resolve(context.directory, text);
  const outsideOf = (base, target) => !isInside(base, target);
  const outside = (target) => outsideOf(root, target);
  if (outside(full) && outsideOf(resolve(context.directory), full)) {
    fail(`${argName} "${text}" is outside the checkout: show files inside it`);
  }
  let real;
  try {
    real = await realpath(full);
  } catch {
    fail(`${argName} "${text}" does not exist: write the file first, or check the path`);
  }
  if (outside(real)) {
    fail(`${argName} "${text}" leads outside the checkout through a symlink: show files inside it`);
  }
  const info = await stat(real);
  if (info.isDirectory()) fail(`${argName} "${text}" is a folder: show a file`);
  const shown = relative2(root, real).split(sep2).join("/");
  return {
    path: shown,
    size: info.size,
    mime: mimeOf(shown),
    real
  };
}
function checkUrl(raw, argName) {
  if (typeof raw !== "string" || raw.trim() === "") {
    fail(`${argName} must be a non-empty string: an http or https URL`);
  }
  let url;
  try {
    url = new URL(raw.trim());
  } catch {
    fail(`${argName} "${raw}" is not a URL: give an absolute http or https URL, e.g. "https://example.com/page"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    fail(`${argName} "${raw}" uses ${url.protocol.slice(0, -1)}: only http and https URLs can be shown`);
  }
  if (url.username !== "" || url.password !== "") {
    fail(`${argName} "${raw}" holds a user name or password: remove them from the URL`);
  }
  return url.href;
}
function checkContent(args, type) {
  const content = args.content;
  if (typeof content !== "string" || content.trim() === "") {
    fail(`type "${type}" needs content: a non-empty string`);
  }
  if (content.length > MAX_CONTENT) {
    fail(`content is ${content.length} characters, over the ${MAX_CONTENT} limit: write it to a file and show it with type "file"`);
  }
  return content;
}
function checkCell(value, where) {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) fail(`${where} is not a finite number`);
    return value;
  }
  if (value === void 0) return null;
  fail(`${where} is ${Array.isArray(value) ? "a list" : "an object"}: cells are strings, numbers, booleans or null`);
}
function checkTable(args) {
  const { rows } = args;
  let columns = null;
  if (args.columns !== void 0 && args.columns !== null) {
    if (!Array.isArray(args.columns) || args.columns.length === 0) {
      fail(`columns must be a non-empty list of column names, e.g. ["name", "price"]`);
    }
    columns = args.columns.map((name, index) => {
      if (typeof name !== "string" && typeof name !== "number") {
        fail(`columns[${index}] must be a string`);
      }
      return String(name);
    });
    const seen = /* @__PURE__ */ new Set();
    for (const name of columns) {
      if (seen.has(name)) {
        fail(`columns has "${name}" twice: column names must differ`);
      }
      seen.add(name);
    }
  }
  if (!Array.isArray(rows)) {
    fail(`type "table" needs rows: a list of rows, each a list of cells or an object keyed by column`);
  }
  if (rows.length > MAX_ROWS) {
    fail(`rows has ${rows.length} rows, over the ${MAX_ROWS} limit: show a file instead`);
  }
  const allArrays = rows.every((row) => Array.isArray(row));
  const allObjects = rows.every((row) => row !== null && typeof row === "object" && !Array.isArray(row));
  if (!allArrays && !allObjects) {
    fail(`rows must all be lists of cells, or all objects keyed by column`);
  }
  if (rows.length > 0 && allObjects) {
    const names = columns ?? [];
    if (columns === null) {
      for (const row of rows) {
        for (const key of Object.keys(row)) {
          if (!names.includes(key)) names.push(key);
        }
      }
    } else {
      rows.forEach((row, index) => {
        for (const key of Object.keys(row)) {
          if (!names.includes(key)) {
            fail(`rows[${index}] has key "${key}", which is not in columns: add it to columns or remove it`);
          }
        }
      });
    }
    return {
      columns: names,
      rows: rows.map((row, index) => names.map((name) => checkCell(row[name], `rows[${index}].${name}`)))
    };
  }
  const width = columns?.length ?? rows[0]?.length ?? 0;
  if (columns === null && rows.length === 0) {
    fail(`type "table" needs columns or at least one row`);
  }
  rows.forEach((row, index) => {
    if (row.length !== width) {
      fail(`rows[${index}] has ${row.length} cells but the table has ${width} columns: give every row ${width} cells`);
    }
  });
  return {
    columns: columns ?? Array.from({
      length: width
    }, (_, i) => `Column ${i + 1}`),
    rows: rows.map((row, index) => row.map((cell, col) => checkCell(cell, `rows[${index}][${col}]`)))
  };
}
async function checkItems(context, raw) {
  if (!Array.isArray(raw)) {
    fail(`type "items" needs items: a list of strings or of objects with "title"`);
  }
  if (raw.length === 0) fail(`items is empty: give at least one item`);
  if (raw.length > MAX_ROWS) {
    fail(`items has ${raw.length} entries, over the ${MAX_ROWS} limit`);
  }
  const items = [];
  for (const [index, entry] of raw.entries()) {
    if (typeof entry === "string" || typeof entry === "number") {
      items.push({
        title: String(entry),
        description: null,
        url: null,
        path: null
      });
      continue;
    }
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      fail(`items[${index}] must be a string or an object with "title"`);
    }
    const record = entry;
    for (const key of Object.keys(record)) {
      if (!ITEM_KEYS.includes(key)) {
        fail(`items[${index}] has unknown key "${key}": use ${ITEM_KEYS.join(", ")}`);
      }
    }
    if (typeof record.title !== "string" || record.title.trim() === "") {
      fail(`items[${index}].title must be a non-empty string`);
    }
    if (record.description !== void 0 && record.description !== null && typeof record.description !== "string") {
      fail(`items[${index}].description must be a string`);
    }
    items.push({
      title: record.title,
      description: record.description ?? null,
      url: record.url === void 0 || record.url === null ? null : checkUrl(record.url, `items[${index}].url`),
      path: record.path === void 0 || record.path === null ? null : (await checkPath(context, record.path, `items[${index}].path`)).path
    });
  }
  return items;
}
async function inlineImage(file) {
  const looksRight = file.mime === null ? void 0 : MAGIC[file.mime];
  if (!looksRight || file.size > MAX_INLINE_IMAGE || file.size < 12) {
    return void 0;
  }
  const handle = await open(file.real, "r").catch(() => void 0);
  if (!handle) return void 0;
  try {
    const bytes = new Uint8Array(Math.min(file.size, MAX_INLINE_IMAGE + 1));
    let read = 0;
    while (read < bytes.length) {
      const { bytesRead } = await handle.read(bytes, read, bytes.length - read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    if (read > MAX_INLINE_IMAGE || !looksRight(bytes)) return void 0;
    let binary = "";
    for (let i = 0; i < read; i += 32768) {
      binary += String.fromCharCode(...bytes.subarray(i, Math.min(read, i + 32768)));
    }
    return btoa(binary);
  } finally {
    await handle.close();
  }
}
async function withImage(record, file) {
  const data = await inlineImage(file);
  if (data === void 0) return record;
  return {
    content: [
      {
        type: "text",
        text: JSON.stringify(record, null, 2)
      },
      {
        type: "image",
        data,
        mimeType: file.mime
      }
    ],
    structuredContent: record
  };
}
async function show(args, context) {
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    fail(`arguments must be an object with "type"`);
  }
  const type = args.type;
  if (typeof type !== "string" || !TYPES.includes(type)) {
    fail(`unknown type ${JSON.stringify(type ?? null)}: use one of ${TYPES.join(", ")}${type === "html" ? ' (show HTML as type "code" with language "html")' : ""}`);
  }
  for (const field of ALL_FIELDS) {
    if (args[field] !== void 0 && args[field] !== null && !FIELDS[type].includes(field)) {
      fail(`${field} is not used by type "${type}": remove it${field === "path" ? ' or use type "file"' : field === "url" ? ' or use type "url"' : ""}`);
    }
  }
  const base = {
    type,
    title: optionalText(args, "title"),
    caption: optionalText(args, "caption")
  };
  switch (type) {
    case "image": {
      const hasPath = args.path !== void 0 && args.path !== null;
      const hasUrl = args.url !== void 0 && args.url !== null;
      if (hasPath === hasUrl) {
        fail(`type "image" needs exactly one of path (a file in the checkout) or url (http or https)`);
      }
      if (hasPath) {
        const file = await checkPath(context, args.path, "path");
        if (!file.mime?.startsWith("image/")) {
          fail(`path "${file.path}" is not an image (${extname(file.path) || "no extension"}): show png, jpg, gif, webp, svg, avif, bmp or ico files, or use type "file"`);
        }
        return await withImage({
          ...base,
          path: file.path,
          url: null,
          size: file.size,
          mime: file.mime
        }, file);
      }
      const url = checkUrl(args.url, "url");
      return {
        ...base,
        path: null,
        url,
        size: null,
        mime: mimeOf(new URL(url).pathname)
      };
    }
    case "file": {
      if (args.path === void 0 || args.path === null) {
        fail(`type "file" needs path: a file in the checkout, e.g. "out/report.pdf"`);
      }
      const file = await checkPath(context, args.path, "path");
      return await withImage({
        ...base,
        path: file.path,
        size: file.size,
        mime: file.mime ?? "application/octet-stream"
      }, file);
    }
    case "url": {
      if (args.url === void 0 || args.url === null) {
        fail(`type "url" needs url: an http or https URL`);
      }
      return {
        ...base,
        url: checkUrl(args.url, "url")
      };
    }
    case "markdown":
      return {
        ...base,
        content: checkContent(args, type)
      };
    case "code":
      return {
        ...base,
        language: optionalText(args, "language")?.trim().toLowerCase() ?? null,
        content: checkContent(args, type)
      };
    case "json": {
      const content = args.content;
      if (content === void 0 || content === null) {
        fail(`type "json" needs content: a JSON value, or a string holding JSON`);
      }
      if (typeof content === "string") {
        try {
          return {
            ...base,
            content: JSON.parse(content)
          };
        } catch (error) {
          fail(`content is not valid JSON (${error instanceof Error ? error.message : error}): pass the value itself or fix the text`);
        }
      }
      return {
        ...base,
        content
      };
    }
    case "table":
      return {
        ...base,
        ...checkTable(args)
      };
    default:
      return {
        ...base,
        items: await checkItems(context, args.items)
      };
  }
}
var showTool = {
  description: "Show the user something in their view: an image (path in the checkout or http(s) url), a file, a url, markdown, code, json, a table (columns and rows) or a list of items. Use it for results the user should look at; the arguments are checked and the tool returns what will be shown.",
  parameters: {
    type: "object",
    properties: {
      type: {
        type: "string",
        enum: [
          ...TYPES
        ],
        description: "What to show."
      },
      title: {
        type: "string",
        description: "Optional heading."
      },
      caption: {
        type: "string",
        description: "Optional line under it."
      },
      path: {
        type: "string",
        description: 'image, file: a file inside the checkout, e.g. "out/chart.png".'
      },
      url: {
        type: "string",
        description: "image, url: an http or https URL."
      },
      content: {
        type: "string",
        description: "markdown, code: the text; json: a string holding JSON (a JSON value works too)."
      },
      language: {
        type: "string",
        description: 'code: the language, e.g. "ts", "python", "html".'
      },
      columns: {
        type: "array",
        items: {
          type: "string"
        },
        description: "table: the column names."
      },
      rows: {
        type: "array",
        items: {
          anyOf: [
            {
              type: "array"
            },
            {
              type: "object"
            }
          ]
        },
        description: "table: rows, each a list of cells (as many as columns) or an object keyed by column name."
      },
      items: {
        type: "array",
        items: {
          anyOf: [
            {
              type: "string"
            },
            {
              type: "object",
              properties: {
                title: {
                  type: "string"
                },
                description: {
                  type: "string"
                },
                url: {
                  type: "string"
                },
                path: {
                  type: "string"
                }
              },
              required: [
                "title"
              ]
            }
          ]
        },
        description: "items: a list of strings or of { title, description?, url?, path? }."
      }
    },
    required: [
      "type"
    ]
  },
  execute(args, context) {
    return show(args, context);
  }
};
var show_default = showTool;
export {
  show_default as default
};
