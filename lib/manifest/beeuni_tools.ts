/**
 * The five Beeuni tools, maintained upstream and shipped in `builtin_tools/`.
 *
 * @module
 */

/** The Beeuni tool names, in the order the seed lists them. */
export const BEEUNI_TOOLS: readonly BeeuniToolName[] = [
  "web_search",
  "image_search",
  "scrape_webpage",
  "memory",
  "show",
];

/** The name of one Beeuni tool. */
export type BeeuniToolName =
  | "web_search"
  | "image_search"
  | "scrape_webpage"
  | "memory"
  | "show";

/**
 * Whether `name` is one of the five Beeuni tools.
 *
 * @returns `true` for `web_search`, `image_search`, `scrape_webpage`, `memory` and `show`.
 */
export function isBeeuniTool(name: string): name is BeeuniToolName {
  return (BEEUNI_TOOLS as readonly string[]).includes(name);
}

/** Where each Beeuni tool's module is, when set by {@linkcode setBuiltinToolLocator}. */
let locator: ((name: BeeuniToolName) => URL) | undefined;

/**
 * Makes {@linkcode builtinToolUrl} and {@linkcode builtinToolSourceUrl}
 * answer with `locate(name)`: for a build whose Beeuni tools are not in a
 * `builtin_tools/` folder beside its code (the single-file bundle writes
 * them out and points here). `locate` is called when a URL is needed, so
 * commands that run no Beeuni tool never call it.
 */
export function setBuiltinToolLocator(
  locate: (name: BeeuniToolName) => URL,
): void {
  locator = locate;
}

/**
 * The URL of the Beeuni tool module the host runs: `builtin_tools/<name>.ts`
 * beside this package's code, or `<name>.js` in the npm package, whose
 * `.js` files `tsc` emitted from the `.ts` ones by erasing their types.
 */
export function builtinToolUrl(name: BeeuniToolName): URL {
  if (locator) return locator(name);
  const ext = import.meta.url.endsWith(".js") ? "js" : "ts";
  return new URL(`../../builtin_tools/${name}.${ext}`, import.meta.url);
}

/**
 * The URL of a Beeuni tool's TypeScript source, the bytes
 * `beeuni tools eject` copies: the file {@linkcode builtinToolUrl}
 * names, except in the npm package, which ships both and runs the `.js`.
 */
export function builtinToolSourceUrl(name: BeeuniToolName): URL {
  if (locator) return locator(name);
  return new URL(`../../builtin_tools/${name}.ts`, import.meta.url);
}
