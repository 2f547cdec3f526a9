/**
 * The readable part of an HTML page: what is never content (scripts, forms,
 * hidden elements, navigation, tracking pixels) goes first, links and images
 * get absolute URLs, and Readability (Firefox Reader View's library) picks
 * the article of a page that has one; a page without one keeps its `<main>`
 * or its body.
 *
 * @module
 */

import { isProbablyReaderable, Readability } from "@mozilla/readability";
import {
  all,
  type DomDocument,
  type DomElement,
  parseDocument,
} from "./_dom.ts";

/** Elements that never hold readable content. */
const NEVER_CONTENT = [
  "head",
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "math",
  "canvas",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "audio",
  "video",
  "map",
  "link",
  "meta",
  "input",
  "button",
  "select",
  "textarea",
  "datalist",
  "output",
  "progress",
  "meter",
  "noembed",
  "noframes",
  "dialog:not([open])",
  "[hidden]",
  '[aria-hidden="true" i]',
].join(",");

/** Landmarks and widgets around the content, by element or ARIA role. */
const AROUND_CONTENT = [
  "nav",
  "aside",
  "footer",
  "search",
  ...[
    "navigation",
    "banner",
    "contentinfo",
    "complementary",
    "search",
    "menubar",
    "toolbar",
    "dialog",
    "alertdialog",
  ].map((role) => `[role="${role}" i]`),
].join(",");

/** Class or id words of page chrome: banners, sharing, related links. */
const CHROME_WORDS =
  /(^|[\s_-])(nav|navbar|navigation|menu|menubar|sidebar|breadcrumbs?|cookies?|consent|gdpr|share|sharing|social|advert|advertisement|ads|sponsored|promo|newsletter|subscribe|skip-link|skip-to-content|site-header|site-footer|masthead|popup|modal|related-posts|comments?|pagination|pager|editsection)($|[\s_-])/i;

/** Link schemes kept as links; any other link keeps only its text. */
const LINK_SCHEMES = ["http:", "https:", "mailto:", "ftp:", "tel:"];

/** The readable part of a page, ready to become Markdown. */
export interface ReadableContent {
  /** The page's title (see {@linkcode documentTitle}). */
  title: string;
  /** The element holding the content. */
  root: DomElement;
}

function collapse(text: string | null): string {
  return (text ?? "").replace(/[\s\u00a0]+/g, " ").trim();
}

/** The page's title: `<title>`, else `og:title`, else its first `<h1>`. */
export function documentTitle(document: DomDocument): string {
  const title = all(document, "title").find((element) =>
    !element.closest("svg, math")
  );
  if (title && collapse(title.textContent)) return collapse(title.textContent);
  const og = document.querySelector(
    'meta[property="og:title" i], meta[name="og:title" i]',
  );
  const fromOg = collapse(og?.getAttribute("content") ?? "");
  if (fromOg) return fromOg;
  return collapse(document.querySelector("h1")?.textContent ?? "");
}

/** The URL relative links resolve against: `<base href>`, else the page's. */
function baseUrl(document: DomDocument, pageUrl: URL): URL {
  const href = document.querySelector("base[href]")?.getAttribute("href");
  if (!href) return pageUrl;
  try {
    return new URL(href, pageUrl);
  } catch {
    return pageUrl;
  }
}

/** An absolute link URL with one of `schemes`, or null. */
function absolute(
  href: string | null,
  base: URL,
  schemes: string[],
): string | null {
  const text = href?.trim() ?? "";
  if (text === "" || text.startsWith("#")) return null;
  try {
    const url = new URL(text, base);
    return schemes.includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/** Replaces `element` by its children. */
function unwrap(element: DomElement): void {
  element.replaceWith(...Array.from(element.childNodes));
}

/** Whether an inline style hides the element. */
function styledHidden(element: DomElement): boolean {
  const style = (element.getAttribute("style") ?? "").toLowerCase()
    .replace(/\s+/g, "");
  return style.includes("display:none") || style.includes("visibility:hidden");
}

/** The number of letters in an element's text, white space aside. */
function textSize(element: DomElement): number {
  return (element.textContent ?? "").replace(/\s+/g, "").length;
}

/** Drops what is never content, and page chrome that is small. */
function dropNonContent(document: DomDocument, body: DomElement): void {
  for (const element of all(document, NEVER_CONTENT)) element.remove();
  for (const element of all(document, "[style]")) {
    if (styledHidden(element)) element.remove();
  }
  const total = textSize(body);
  for (const element of all(body, AROUND_CONTENT)) element.remove();
  for (const element of all(body, "header")) {
    if (!element.closest("article, main, section, [role=main]")) {
      element.remove();
    }
  }
  for (const element of all(body, "form")) {
    if (!element.querySelector("main, article") && textSize(element) < 200) {
      element.remove();
    }
  }
  for (const element of all(body, "[id], [class]")) {
    const words = `${element.getAttribute("id") ?? ""} ${
      element.getAttribute("class") ?? ""
    }`;
    if (
      CHROME_WORDS.test(words) && !element.querySelector("h1") &&
      textSize(element) < total * 0.4
    ) element.remove();
  }
}

/**
 * Gives links and images absolute URLs: a link elsewhere than the web or
 * mail keeps only its text, as does a link within the page; an image that
 * is not on the web keeps its description, a 1×1 tracking pixel goes.
 */
function absoluteLinks(document: DomDocument, base: URL): void {
  for (const link of all(document, "a")) {
    const href = absolute(link.getAttribute("href"), base, LINK_SCHEMES);
    if (href) link.setAttribute("href", href);
    else if (/^[\s¶#§🔗]*$/u.test(link.textContent ?? "")) link.remove();
    else unwrap(link);
  }
  for (const image of all(document, "img")) {
    const tiny = (size: string | null) => /^[01](px)?$/.test(size ?? "");
    const src = absolute(image.getAttribute("src"), base, ["http:", "https:"]);
    if (
      tiny(image.getAttribute("width")) && tiny(image.getAttribute("height"))
    ) {
      image.remove();
    } else if (src) image.setAttribute("src", src);
    else {image.replaceWith(
        document.createTextNode(image.getAttribute("alt") ?? ""),
      );}
  }
}

/** Keeps each heading's level through Readability, which turns h1 into h2. */
function markHeadings(document: DomDocument): void {
  for (const heading of all(document, "h1, h2, h3, h4, h5, h6")) {
    heading.setAttribute("data-level", heading.localName.slice(1));
  }
}

/** The content root of a page Readability finds no article in. */
function mainOrBody(body: DomElement): DomElement {
  const total = textSize(body);
  const main = all(body, "main, [role=main i]").find((element) =>
    textSize(element) >= Math.min(50, total * 0.5)
  );
  return main ?? body;
}

/** A page parsed and cleaned of what is never its content. */
function prepare(
  html: string,
  pageUrl: URL,
): { document: DomDocument; body: DomElement; title: string } {
  const document = parseDocument(html);
  const title = documentTitle(document);
  const base = baseUrl(document, pageUrl);
  const body = document.body ?? document.createElement("body");
  dropNonContent(document, body);
  absoluteLinks(document, base);
  markHeadings(document);
  return { document, body, title };
}

/** The DOM type Readability declares, which linkedom's document fills. */
type ReadabilityDocument = Parameters<typeof isProbablyReaderable>[0];

/** Parses `html` (fetched from `pageUrl`) and finds its readable part. */
export function readableContent(
  html: string,
  pageUrl: URL,
): ReadableContent {
  const { document, body, title } = prepare(html, pageUrl);
  const page = document as unknown as ReadabilityDocument;
  if (!isProbablyReaderable(page)) return { title, root: mainOrBody(body) };
  const heading = collapse(body.querySelector("h1")?.textContent ?? "");
  const article = new Readability(page, {
    keepClasses: true,
    serializer: (element) => element as unknown as DomElement,
  }).parse();
  const root = article?.content;
  if (root && collapse(root.textContent) !== "") {
    // Readability drops the heading that repeats the title; keep it.
    if (heading && !root.querySelector('[data-level="1"]')) {
      const h1 = document.createElement("h1");
      h1.appendChild(document.createTextNode(heading));
      root.insertBefore(h1, root.firstChild);
    }
    return { title, root };
  }
  // Readability changed the page on its way: read it afresh.
  return { title, root: mainOrBody(prepare(html, pageUrl).body) };
}
