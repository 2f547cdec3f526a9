// @ts-check
/// <reference lib="dom" />
// How a call is shown. The five Beeuni tools each have a view, chosen by
// tool name: `show` and `memory` read the call's arguments,
// `web_search`, `image_search` and `scrape_webpage` read the output JSON.
// A view that does not find the shape it reads (an edited copy) gives way
// to the raw output. Other tools' output shows as JSON or text.

import { bytes, duration, h, image, isObject, link } from "./dom.js";
import { code, jsonTree, markdown, table } from "./render.js";

/** @import { PageCall } from "./api.js" */
/** @import { CallRecord } from "../_history.ts" */

/**
 * What a view needs from the page: `fileDataUrl(path, mime)` loads a file
 * a `show` call named, as a `data:` address.
 * @typedef {{ fileDataUrl(path: string, mime: string): Promise<string> }} ViewContext
 */

/**
 * A call that ended well: the views read its arguments and output.
 * @typedef {PageCall & { outcome: Extract<CallRecord["outcome"], { ok: true }> }} DoneCall
 */

/**
 * A JSON object the views read: every key is checked where it is used.
 * @typedef {Record<string, any>} JsonObject
 */

/**
 * @param {string} text
 * @returns {any}
 */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * @param {unknown} value
 * @returns {value is string}
 */
const isString = (value) => typeof value === "string";
/**
 * @param {unknown} value
 * @param {(value: unknown) => boolean} check
 * @returns {boolean}
 */
const optional = (value, check) => value === undefined || check(value);

// ---- show ----------------------------------------------------------------

/** @type {Record<string, string>} */
const EXTENSION_MIME = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
  avif: "image/avif",
  bmp: "image/bmp",
  ico: "image/x-icon",
};

/**
 * @param {string} path
 * @param {unknown} output
 * @returns {string}
 */
function mimeOf(path, output) {
  if (isObject(output) && isString(output.mime)) return output.mime;
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return EXTENSION_MIME[ext] ?? "application/octet-stream";
}

/**
 * @param {string} path
 * @param {unknown} output
 * @param {ViewContext} ctx
 * @returns {HTMLElement}
 */
function projectImage(path, output, ctx) {
  const box = h(
    "div",
    { class: "show-image" },
    h("p", { class: "note" }, path),
  );
  ctx.fileDataUrl(path, mimeOf(path, output)).then((src) => {
    const img = image(src, path);
    if (img) box.replaceChildren(img, h("p", { class: "note" }, path));
  }).catch((error) => {
    box.append(
      h("p", { class: "error" }, `cannot show ${path}: ${error.message}`),
    );
  });
  return box;
}

/**
 * @param {JsonObject} args
 * @returns {HTMLElement | null}
 */
function tableOf(args) {
  const rows = args.rows;
  if (!Array.isArray(rows)) return null;
  let columns = args.columns;
  if (columns === undefined) {
    columns = [];
    for (const row of rows) {
      if (Array.isArray(row)) {
        for (let i = columns.length; i < row.length; i++) {
          columns.push(`Column ${i + 1}`);
        }
      } else if (isObject(row)) {
        for (const key of Object.keys(row)) {
          if (!columns.includes(key)) columns.push(key);
        }
      } else return null;
    }
  }
  if (!Array.isArray(columns) || !columns.every(isString)) return null;
  return table(columns, rows);
}

/**
 * @param {unknown} items
 * @returns {HTMLElement | null}
 */
function itemsOf(items) {
  if (!Array.isArray(items)) return null;
  return h(
    "ul",
    { class: "items" },
    items.map((item) => {
      if (isString(item)) return h("li", null, item);
      if (!isObject(item)) return h("li", null, JSON.stringify(item));
      return h(
        "li",
        null,
        item.url
          ? link(item.url, item.title ?? item.url)
          : h("strong", null, String(item.title ?? "")),
        item.description ? h("p", null, String(item.description)) : null,
        item.path ? h("p", { class: "note" }, String(item.path)) : null,
      );
    }),
  );
}

/**
 * @param {JsonObject & { path: string }} args
 * @param {unknown} output
 * @param {ViewContext} ctx
 * @returns {HTMLElement}
 */
function fileCard(args, output, ctx) {
  const out = isObject(output) ? output : {};
  const save = h("button", {
    type: "button",
    on: {
      click: async () => {
        const href = await ctx.fileDataUrl(
          args.path,
          "application/octet-stream",
        );
        const a = h("a", { href, download: args.path.split("/").pop() });
        a.click();
      },
    },
  }, "Download");
  return h(
    "div",
    { class: "file-card" },
    h("strong", null, args.path),
    h(
      "span",
      { class: "note" },
      [bytes(out.size), out.mime].filter(Boolean).join(" · "),
    ),
    save,
  );
}

/**
 * @param {JsonObject} args
 * @param {unknown} output
 * @param {ViewContext} ctx
 * @returns {HTMLElement | null}
 */
function showBody(args, output, ctx) {
  switch (args.type) {
    case "image":
      if (isString(args.url)) {
        return image(args.url, args.title ?? "", { class: "shown" });
      }
      return isString(args.path) ? projectImage(args.path, output, ctx) : null;
    case "file":
      return isString(args.path)
        ? fileCard({ ...args, path: args.path }, output, ctx)
        : null;
    case "url":
      return isString(args.url)
        ? h("p", { class: "url-card" }, link(args.url, args.title ?? args.url))
        : null;
    case "markdown":
      return isString(args.content) ? markdown(args.content) : null;
    case "code":
      return isString(args.content) && optional(args.language, isString)
        ? code(args.content, args.language)
        : null;
    case "json": {
      if (args.content === undefined) return null;
      const value = isString(args.content)
        ? parseJson(args.content)
        : args.content;
      return value === undefined ? code(args.content, "json") : jsonTree(value);
    }
    case "table":
      return tableOf(args);
    case "items":
      return itemsOf(args.items);
    default:
      return null;
  }
}

/**
 * @param {DoneCall} record
 * @param {ViewContext} ctx
 * @returns {HTMLElement | null}
 */
function showView(record, ctx) {
  const args = record.args;
  if (!isObject(args) || !isString(args.type)) return null;
  const body = showBody(args, parseJson(record.outcome.output), ctx);
  if (body === null) return null;
  return h(
    "div",
    { class: "view show", dataset: { view: `show-${args.type}` } },
    isString(args.title) ? h("h3", null, args.title) : null,
    isString(args.caption) ? h("p", { class: "caption" }, args.caption) : null,
    body,
  );
}

// ---- memory --------------------------------------------------------------

const MEMORY_COMMANDS = [
  "view",
  "create",
  "str_replace",
  "insert",
  "delete",
  "rename",
];

/**
 * The folder listing of `memory view` as nested lists.
 * @param {string} text
 * @returns {HTMLElement}
 */
function tree(text) {
  const [head, ...lines] = text.split("\n");
  const root = h("ul", { class: "tree" });
  const stack = [{ depth: -1, list: root }];
  /** The innermost open list: the stack always keeps the root's. */
  const top = () => stack[stack.length - 1];
  for (const line of lines) {
    const match = /^( *)- (.*)$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 2;
    while (stack.length > 1 && top().depth >= depth) stack.pop();
    const item = h("li", {
      class: match[2].includes("/ ") || match[2].endsWith("/") ? "dir" : "file",
    }, match[2]);
    top().list.append(item);
    const sub = h("ul");
    item.append(sub);
    stack.push({ depth, list: sub });
  }
  return h("div", { class: "memory-tree" }, h("p", null, head), root);
}

/**
 * A line diff of `before` and `after` (longest common subsequence; whole blocks past 400 lines).
 * @param {string} before
 * @param {string} after
 * @returns {HTMLElement}
 */
function diff(before, after) {
  const a = before.split("\n");
  const b = after.split("\n");
  /** @type {["same" | "add" | "del", string][]} */
  const rows = [];
  if (a.length * b.length > 160_000) {
    for (const line of a) rows.push(["del", line]);
    for (const line of b) rows.push(["add", line]);
  } else {
    const lcs = Array.from(
      { length: a.length + 1 },
      () => new Array(b.length + 1).fill(0),
    );
    for (let i = a.length - 1; i >= 0; i--) {
      for (let j = b.length - 1; j >= 0; j--) {
        lcs[i][j] = a[i] === b[j]
          ? lcs[i + 1][j + 1] + 1
          : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    let i = 0, j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i] === b[j]) {
        rows.push(["same", a[i++]]);
        j++;
      } else if (
        i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])
      ) {
        rows.push(["del", a[i++]]);
      } else rows.push(["add", b[j++]]);
    }
  }
  const mark = { same: "  ", add: "+ ", del: "- " };
  return h(
    "pre",
    { class: "diff" },
    rows.map(([kind, line]) =>
      h("span", { class: `diff-${kind}` }, mark[kind] + line + "\n")
    ),
  );
}

/**
 * @param {JsonObject} args
 * @param {string} output
 * @returns {HTMLElement | null}
 */
function memoryBody(args, output) {
  switch (args.command) {
    case "view":
      return /^memory\/[^\n]*: \d+ files?, \d+ folders?/.test(output)
        ? tree(output)
        : h("pre", { class: "memory-file" }, output);
    case "create":
      return isString(args.file_text)
        ? code(args.file_text, args.path?.split(".").pop())
        : null;
    case "str_replace":
      return isString(args.old_str) && optional(args.new_str, isString)
        ? diff(args.old_str, args.new_str ?? "")
        : null;
    case "insert":
      return isString(args.insert_text) ? diff("", args.insert_text) : null;
    default:
      return h("span");
  }
}

/**
 * @param {DoneCall} record
 * @returns {HTMLElement | null}
 */
function memoryView(record) {
  const args = record.args;
  if (!isObject(args) || !MEMORY_COMMANDS.includes(args.command)) return null;
  if (!optional(args.path, isString) || !optional(args.new_path, isString)) {
    return null;
  }
  const body = memoryBody(args, record.outcome.output);
  if (body === null) return null;
  const where = `memory/${
    (args.path ?? "").replace(/^\/?(memories|memory)\/?/, "")
  }`;
  return h(
    "div",
    { class: "view memory", dataset: { view: `memory-${args.command}` } },
    h(
      "p",
      { class: "memory-head" },
      h("span", { class: "badge" }, args.command),
      " ",
      h("code", null, where),
      isString(args.new_path) ? [" → ", h("code", null, args.new_path)] : null,
    ),
    body,
    args.command === "view" ? null : h(
      "p",
      { class: "note memory-said" },
      record.outcome.output.split("\n")[0],
    ),
  );
}

// ---- web_search and image_search -----------------------------------------

/**
 * The output of a search tool, as the search views read it.
 * @typedef {{ provider?: unknown, searches: { query: string, error?: unknown, results: JsonObject[] }[] }} Searches
 */

/**
 * The output of a search tool, when it has the shape the views read.
 * @param {string} output
 * @param {(result: JsonObject) => boolean} valid
 * @returns {Searches | null}
 */
function searches(output, valid) {
  const data = parseJson(output);
  if (!isObject(data) || !Array.isArray(data.searches)) return null;
  for (const search of data.searches) {
    if (
      !isObject(search) || !isString(search.query) ||
      !Array.isArray(search.results)
    ) return null;
    if (!search.results.every((result) => isObject(result) && valid(result))) {
      return null;
    }
  }
  return /** @type {Searches} */ (data);
}

/**
 * One search of a web or image search: its query, its error, then `body`.
 * @param {Searches["searches"][number]} search
 * @param {...import("./dom.js").Child} body
 * @returns {HTMLElement}
 */
function searchSection(search, ...body) {
  return h(
    "section",
    { class: "search" },
    h("h3", null, search.query),
    isString(search.error) ? h("p", { class: "error" }, search.error) : null,
    ...body,
  );
}

/**
 * @param {DoneCall} record
 * @returns {HTMLElement | null}
 */
function webSearchView(record) {
  const data = searches(
    record.outcome.output,
    (r) =>
      isString(r.title) && isString(r.url) && optional(r.snippet, isString),
  );
  if (data === null) return null;
  return h(
    "div",
    { class: "view web-search", dataset: { view: "web_search" } },
    isString(data.provider)
      ? h("p", { class: "note" }, `from ${data.provider}`)
      : null,
    data.searches.map((search) =>
      searchSection(
        search,
        search.results.length === 0 && !search.error
          ? h("p", { class: "note" }, "no results")
          : null,
        h(
          "ol",
          { class: "results" },
          search.results.map((result) =>
            h(
              "li",
              { class: "result" },
              link(result.url, result.title || result.url, { class: "title" }),
              h("div", { class: "url" }, result.url),
              isString(result.snippet) ? h("p", null, result.snippet) : null,
              isString(result.date)
                ? h("p", { class: "date" }, result.date)
                : null,
            )
          ),
        ),
      )
    ),
  );
}

/**
 * @param {DoneCall} record
 * @returns {HTMLElement | null}
 */
function imageSearchView(record) {
  const data = searches(
    record.outcome.output,
    (r) => isString(r.image_url) && isString(r.thumbnail_url),
  );
  if (data === null) return null;
  return h(
    "div",
    { class: "view image-search", dataset: { view: "image_search" } },
    data.searches.map((search) =>
      searchSection(
        search,
        h(
          "div",
          { class: "grid" },
          search.results.map((result) => {
            const size = typeof result.width === "number" &&
                typeof result.height === "number"
              ? `${result.width} × ${result.height}`
              : "";
            const thumb = image(result.thumbnail_url, result.title ?? "") ??
              h("span", { class: "note" }, "no preview");
            return h(
              "figure",
              { class: "tile" },
              link(result.source_url ?? result.image_url, thumb),
              h(
                "figcaption",
                null,
                result.title ?? "",
                size ? h("span", { class: "size" }, size) : null,
              ),
            );
          }),
        ),
      )
    ),
  );
}

// ---- scrape_webpage ------------------------------------------------------

/**
 * @param {DoneCall} record
 * @returns {HTMLElement | null}
 */
function scrapeView(record) {
  const data = parseJson(record.outcome.output);
  if (!isObject(data) || !isString(data.url) || !isString(data.content)) {
    return null;
  }
  const type = isString(data.content_type) ? data.content_type : "";
  const format = isObject(record.args) && isString(record.args.format)
    ? record.args.format
    : "markdown";
  let body;
  if (type === "text/html" && format === "markdown") {
    body = markdown(data.content);
  } else if (type === "text/html" && format === "html") {
    body = code(data.content, "html");
  } else if (type.includes("json")) body = code(data.content, "json");
  else body = h("pre", { class: "plain" }, data.content);
  const facts = [
    typeof data.status === "number" ? `HTTP ${data.status}` : "",
    type,
    data.truncated === true
      ? `cut: read on with offset ${
        data.next_offset ?? "(none: the page was over the size cap)"
      }`
      : "",
  ].filter(Boolean).join(" · ");
  return h(
    "div",
    { class: "view scrape", dataset: { view: "scrape_webpage" } },
    h(
      "h3",
      null,
      isString(data.title) && data.title !== "" ? data.title : data.url,
    ),
    h("p", { class: "url" }, link(data.url, data.url)),
    facts ? h("p", { class: "note" }, facts) : null,
    h("div", { class: "page" }, body),
  );
}

// ---- any call ------------------------------------------------------------

/** @type {Record<string, (record: DoneCall, ctx: ViewContext) => HTMLElement | null>} */
const VIEWS = {
  show: showView,
  memory: memoryView,
  web_search: webSearchView,
  image_search: imageSearchView,
  scrape_webpage: scrapeView,
};

/**
 * @param {DoneCall} record
 * @returns {HTMLElement}
 */
function genericView(record) {
  const value = parseJson(record.outcome.output);
  return h(
    "div",
    { class: "view generic", dataset: { view: "generic" } },
    typeof value === "object" && value !== null
      ? jsonTree(value)
      : h("pre", { class: "plain" }, record.outcome.output),
  );
}

/**
 * @param {DoneCall} record
 * @returns {HTMLElement}
 */
function rawView(record) {
  return h(
    "div",
    { class: "view raw", dataset: { view: "raw" } },
    h(
      "p",
      { class: "note" },
      `The ${record.name} view cannot read these arguments or this output (a changed copy of the tool?): here is the raw output.`,
    ),
    h("pre", { class: "plain" }, record.outcome.output),
  );
}

/**
 * The state word of a call: `running`, `ok`, `ok (truncated)` or the failure's status.
 * @param {Pick<PageCall, "outcome">} record
 * @returns {string}
 */
export function outcomeText(record) {
  if (!record.outcome) return "running";
  if (record.outcome.ok) {
    return record.outcome.truncated ? "ok (truncated)" : "ok";
  }
  return record.outcome.status;
}

/**
 * A call, shown: who ran it, how it ended, its view, and its arguments and
 * output as text. `ctx.fileDataUrl(path, mime)` loads a file a `show` call named.
 * @param {PageCall} record
 * @param {ViewContext} ctx
 * @returns {HTMLElement}
 */
export function renderCall(record, ctx) {
  const outcome = record.outcome;
  const state = outcomeText(record);
  let body;
  if (!outcome) body = h("p", { class: "running" }, "Running…");
  else if (!outcome.ok) {
    body = h("p", { class: "error call-error" }, outcome.error);
  } else {
    const done = /** @type {DoneCall} */ (record);
    const view = VIEWS[record.name];
    let shown = null;
    try {
      shown = view ? view(done, ctx) : genericView(done);
    } catch {
      shown = null;
    }
    body = shown ?? rawView(done);
  }
  return h(
    "article",
    {
      class: "call",
      dataset: {
        tool: record.name,
        state: outcome ? (outcome.ok ? "ok" : "error") : "running",
      },
    },
    h(
      "header",
      null,
      h("strong", null, record.name),
      h("span", {
        class: `badge state-${
          outcome ? (outcome.ok ? "ok" : "error") : "running"
        }`,
      }, state),
      h(
        "span",
        { class: "note" },
        `agent ${record.agent} · session ${record.sessionId}`,
      ),
      h("span", { class: "note duration" }, duration(record.durationMs)),
    ),
    outcome?.ok && outcome.truncated
      ? h(
        "p",
        { class: "note truncated" },
        `Output cut: ${outcome.size} bytes in all, saved to ${outcome.path}`,
      )
      : null,
    body,
    h(
      "details",
      { class: "args" },
      h("summary", null, "Arguments"),
      h("pre", null, JSON.stringify(record.args, null, 2)),
    ),
    outcome?.ok
      ? h(
        "details",
        { class: "output" },
        h("summary", null, "Output as text"),
        h("pre", { class: "raw-output" }, outcome.output),
      )
      : null,
  );
}
