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

/** Whether `name` is one of the five Beeuni tools. */
export function isBeeuniTool(name: string): name is BeeuniToolName {
  return (BEEUNI_TOOLS as readonly string[]).includes(name);
}

/**
 * The `file:` URL of a Beeuni tool's module in `builtin_tools/`: the file
 * the host runs and `beeuni tools eject` copies (E1).
 */
export function builtinToolUrl(name: BeeuniToolName): URL {
  return new URL(`../../builtin_tools/${name}.ts`, import.meta.url);
}
