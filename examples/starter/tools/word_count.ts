// Counts lines, words and characters of a text or of a file in the checkout,
// and names the most frequent words.

import { readFile } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import type { Tool, ToolContext } from "@beeuni/tools";

interface Args {
  text?: string;
  path?: string;
  top?: number;
}

export default {
  description:
    "Count the lines, words and characters of a text, or of a file in the project, and list its most frequent words. Give either `text` or `path`.",
  parameters: {
    type: "object",
    properties: {
      text: { type: "string", description: "The text to count" },
      path: {
        type: "string",
        description:
          'A file to count, relative to the project folder, e.g. "README.md"',
      },
      top: {
        type: "integer",
        minimum: 0,
        maximum: 50,
        description: "How many of the most frequent words to list (default 5)",
      },
    },
  },
  async execute(args: Args, context: ToolContext) {
    if ((args.text === undefined) === (args.path === undefined)) {
      throw new Error("give exactly one of `text` or `path`");
    }
    let text = args.text ?? "";
    if (args.path !== undefined) {
      const full = resolve(context.directory, args.path);
      const inside = relative(context.directory, full);
      if (inside.startsWith("..") || isAbsolute(inside)) {
        throw new Error(
          `cannot read "${args.path}": the path leads outside the project folder`,
        );
      }
      text = await readFile(full, { encoding: "utf8", signal: context.signal });
    }
    const words = text.toLowerCase().match(/[\p{L}\p{N}'’-]+/gu) ?? [];
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    const top = [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, args.top ?? 5)
      .map(([word, count]) => ({ word, count }));
    const lines = text === "" ? 0 : text.split(/\r\n|\r|\n/).length -
      (/(\r\n|\r|\n)$/.test(text) ? 1 : 0);
    return {
      ...(args.path !== undefined ? { path: args.path } : {}),
      lines,
      words: words.length,
      characters: [...text].length,
      bytes: new TextEncoder().encode(text).length,
      distinct_words: counts.size,
      top_words: top,
    };
  },
} satisfies Tool;
