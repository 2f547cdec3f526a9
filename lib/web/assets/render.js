// @ts-check
/// <reference lib="dom" />
// Renderers the views share: Markdown (marked, then DOMPurify), code,
// collapsible JSON and tables. Tool output is untrusted: Markdown's HTML is
// sanitized into a fragment, everything else goes in as text.

import { h, image, isObject, link, webUrl } from "./dom.js";
import { highlight } from "./highlight.js";

/** @import { Config } from "dompurify" */

/**
 * The two libraries Markdown needs, served from `vendor/`.
 * @typedef {object} MarkdownLibraries
 * @property {typeof import("marked").marked} marked
 * @property {typeof import("dompurify").default} purify
 */

/** @type {Promise<MarkdownLibraries | null> | undefined} */
let libraries;

/**
 * marked and DOMPurify, loaded once; `null` when the daemon does not have them.
 * @returns {Promise<MarkdownLibraries | null>}
 */
function markdownLibraries() {
  libraries ??= Promise.all([
    import("./vendor/marked.js"),
    import("./vendor/purify.js"),
  ]).then(([marked, purify]) => ({
    marked: marked.marked,
    purify: purify.default,
  })).catch(() => null);
  return libraries;
}

/** @type {Config & { RETURN_DOM_FRAGMENT: true }} */
const PURIFY = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    "style",
    "form",
    "input",
    "button",
    "textarea",
    "select",
    "option",
  ],
  FORBID_ATTR: ["style", "id", "name", "class"],
  ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
  RETURN_DOM_FRAGMENT: true,
};

/**
 * Links open in a new tab without a referrer; images only from http(s) or `data:image/`.
 * @param {DocumentFragment} fragment
 * @returns {DocumentFragment}
 */
function tidy(fragment) {
  for (const a of fragment.querySelectorAll("a")) {
    const href = a.getAttribute("href");
    if (href !== null && href.startsWith("#")) a.removeAttribute("href");
    a.setAttribute("target", "_blank");
    a.setAttribute("rel", "noopener noreferrer");
    a.setAttribute("referrerpolicy", "no-referrer");
  }
  for (const img of fragment.querySelectorAll("img")) {
    const safe = image(img.getAttribute("src"), img.getAttribute("alt"));
    if (safe === null) img.replaceWith(img.getAttribute("alt") ?? "");
    else img.replaceWith(safe);
  }
  return fragment;
}

/**
 * Markdown rendered to sanitized HTML (plain text until the libraries load, or if they cannot).
 * @param {string} text
 * @returns {HTMLElement}
 */
export function markdown(text) {
  const box = h("div", { class: "markdown", dataset: { state: "loading" } });
  box.append(h("pre", { class: "plain" }, text));
  markdownLibraries().then((libs) => {
    if (libs === null) {
      box.dataset.state = "plain";
      return;
    }
    const html = libs.marked.parse(text, { async: false, gfm: true });
    box.replaceChildren(tidy(libs.purify.sanitize(html, PURIFY)));
    box.dataset.state = "rendered";
  });
  return box;
}

/**
 * Code with its syntax highlighted.
 * @param {unknown} text
 * @param {string} [language]
 * @returns {HTMLElement}
 */
export function code(text, language) {
  return h(
    "pre",
    { class: "code", dataset: { language: language ?? "" } },
    h("code", null, highlight(String(text), language)),
  );
}

/**
 * @param {unknown} value
 * @returns {HTMLElement}
 */
function leaf(value) {
  if (typeof value === "string") {
    const url = webUrl(value);
    return url !== null && url === value
      ? h("span", { class: "json-string" }, '"', link(value), '"')
      : h("span", { class: "json-string" }, JSON.stringify(value));
  }
  const kind = value === null ? "null" : typeof value;
  return h("span", { class: `json-${kind}` }, String(value));
}

/**
 * @param {unknown} value
 * @param {number} depth
 * @returns {HTMLElement}
 */
function jsonNode(value, depth) {
  if (!Array.isArray(value) && !isObject(value)) return leaf(value);
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (entries.length === 0) return h("span", null, open + close);
  const count = Array.isArray(value)
    ? `${entries.length} item${entries.length === 1 ? "" : "s"}`
    : `${entries.length} key${entries.length === 1 ? "" : "s"}`;
  const shown = entries.slice(0, 2000);
  const list = h(
    "ul",
    null,
    shown.map(([key, item]) =>
      h(
        "li",
        null,
        Array.isArray(value) ? null : h("span", { class: "json-key" }, key),
        Array.isArray(value) ? null : ": ",
        jsonNode(item, depth + 1),
      )
    ),
    entries.length > shown.length
      ? h("li", { class: "note" }, `… ${entries.length - shown.length} more`)
      : null,
  );
  return h(
    "details",
    { class: "json-node", open: depth < 2 },
    h("summary", null, `${open} ${count} ${close}`),
    list,
  );
}

/**
 * A JSON value as a tree whose objects and arrays fold.
 * @param {unknown} value
 * @returns {HTMLElement}
 */
export function jsonTree(value) {
  return h("div", { class: "json" }, jsonNode(value, 0));
}

/**
 * @param {unknown} value
 * @returns {HTMLElement}
 */
function cell(value) {
  if (value === null || value === undefined) {
    return h("td", { class: "null" }, "");
  }
  if (typeof value === "string") return h("td", null, value);
  return h("td", { class: "num" }, JSON.stringify(value));
}

/**
 * A table of `rows` (lists or objects) under `columns`.
 * @param {string[]} columns
 * @param {unknown[][] | Record<string, unknown>[]} rows
 * @returns {HTMLElement}
 */
export function table(columns, rows) {
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      null,
      h("thead", null, h("tr", null, columns.map((c) => h("th", null, c)))),
      h(
        "tbody",
        null,
        rows.map((row) =>
          h(
            "tr",
            null,
            columns.map((column, index) =>
              cell(Array.isArray(row) ? row[index] : row[column])
            ),
          )
        ),
      ),
    ),
  );
}
