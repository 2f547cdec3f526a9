// @ts-check
/// <reference lib="dom" />
// Building the page's elements. Text always goes in as text (textContent),
// never as HTML; links and images take only http(s) addresses.

/**
 * One child of an element: text (a string, a number) or a node; `null`,
 * `undefined` and `false` are skipped.
 * @typedef {string | number | Node | null | undefined | false} Leaf
 */

/**
 * What an element takes as children: leaves, and lists of them (two deep).
 * @typedef {Leaf | Leaf[] | Leaf[][]} Child
 */

/**
 * What {@linkcode h} sets on an element: attributes by name, and `on`
 * (listeners by event type), `class`, `dataset`, `text`, `value`,
 * `checked` and `disabled`; `null`, `undefined` and `false` are skipped.
 * @typedef {Record<string, any>} Props
 */

/**
 * An element: `h("a", { href, class: "x", on: { click } }, "text", child)`.
 * Attribute names are the page's own; values are set as plain attributes or
 * properties, never parsed.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props | null} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "on") {
      for (const [type, listener] of Object.entries(value)) {
        element.addEventListener(type, listener);
      }
    } else if (key === "class") element.className = value;
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key === "text") element.textContent = String(value);
    else if (key === "value" || key === "checked" || key === "disabled") {
      Object.assign(element, { [key]: value });
    } else element.setAttribute(key, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

/**
 * Appends strings (as text) and nodes, skipping empty ones, flattening lists.
 * @template {Element | DocumentFragment} T
 * @param {T} parent
 * @param {Child[]} children
 * @returns {T}
 */
export function append(parent, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.append(child);
    else parent.append(document.createTextNode(String(child)));
  }
  return parent;
}

/**
 * Replaces `parent`'s children with `children` (as {@linkcode append} takes them).
 * @template {Element} T
 * @param {T} parent
 * @param {...Child} children
 * @returns {T}
 */
export function fill(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/**
 * `value` as an absolute http(s) address, or `null`.
 * @param {unknown} value
 * @returns {string | null}
 */
export function webUrl(value) {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:"
      ? url.href
      : null;
  } catch {
    return null;
  }
}

/**
 * A link that opens in a new tab without telling the target where it came from; plain text when `url` is not http(s).
 * @param {unknown} url
 * @param {Child} [text]
 * @param {Props} [props]
 * @returns {HTMLElement}
 */
export function link(url, text, props = {}) {
  const href = webUrl(url);
  const label = text === undefined || text === null || text === ""
    ? String(url ?? "")
    : text;
  if (href === null) return h("span", { class: "bad-link" }, label);
  return h("a", {
    href,
    target: "_blank",
    rel: "noopener noreferrer",
    referrerpolicy: "no-referrer",
    ...props,
  }, label);
}

/**
 * An image from an http(s) address or a `data:image/` one; `null` for anything else.
 * @param {unknown} src
 * @param {unknown} [alt]
 * @param {Props} [props]
 * @returns {HTMLImageElement | null}
 */
export function image(src, alt, props = {}) {
  const ok = webUrl(src) ??
    (typeof src === "string" && /^data:image\/[\w.+-]+[;,]/i.test(src)
      ? src
      : null);
  if (ok === null) return null;
  return h("img", {
    src: ok,
    alt: alt ?? "",
    loading: "lazy",
    referrerpolicy: "no-referrer",
    ...props,
  });
}

/**
 * A byte count for people: `512 B`, `2.0 KB`, `3.4 MB`.
 * @param {unknown} n
 * @returns {string}
 */
export function bytes(n) {
  if (typeof n !== "number" || !Number.isFinite(n)) return "";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A duration for people: `85 ms`, `2.4 s`.
 * @param {unknown} ms
 * @returns {string}
 */
export function duration(ms) {
  if (typeof ms !== "number") return "";
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Whether `value` is a plain JSON object (whose keys are read where they
 * are used, each checked there).
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
export function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
