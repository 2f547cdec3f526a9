/**
 * The names of the web UI's files, and where a one-file build that carries
 * them as text hands them over. A small module of its own, so that a build
 * sets its files without loading the web UI.
 *
 * @module
 */

/** The files of `assets/` the page loads, by the name they are served under, and the notice served at `/`. */
export const ASSET_NAMES = [
  "index.html",
  "notice.html",
  "style.css",
  "app.js",
  "api.js",
  "dom.js",
  "form.js",
  "history.js",
  "sessions.js",
  "render.js",
  "highlight.js",
  "views.js",
] as const;

/** Library files served under `/ui/vendor/<name>`: npm package and file inside it. */
export const VENDOR = {
  "marked.js": { pkg: "marked", file: "lib/marked.esm.js" },
  "purify.js": { pkg: "dompurify", file: "dist/purify.es.mjs" },
} as const;

/**
 * The name a file of the page is served under, below `/w/…/ui/`: one of
 * `assets/`, or a library as `vendor/<file>`.
 */
export type WebFileName =
  | (typeof ASSET_NAMES)[number]
  | `vendor/${keyof typeof VENDOR}`;

/** Every file of the page as text, by the name it is served under. */
export type WebFiles = Readonly<Record<WebFileName, string>>;

let embedded: (() => Promise<WebFiles>) | undefined;

/**
 * Makes the web UI serve the texts `load` gives instead of reading its
 * files: for a build with no `assets/` folder beside its code and no
 * `node_modules` (the single-file bundle). `load` is called when the page
 * first asks for a file, so commands that serve no page never call it.
 */
export function setWebFiles(load: () => Promise<WebFiles>): void {
  embedded = load;
}

/** The loader {@linkcode setWebFiles} set, if any. */
export function embeddedWebFiles(): (() => Promise<WebFiles>) | undefined {
  return embedded;
}
