// The five Beeuni tools as source text inside the single-file bundle, and
// where the bundle writes them out so that they run as modules.

import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";
import { cacheDir } from "../lib/common/mod.ts";
import {
  type BeeuniToolName,
  setBuiltinToolLocator,
} from "../lib/manifest/mod.ts";
import webSearch from "../builtin_tools/web_search.ts" with { type: "text" };
import imageSearch from "../builtin_tools/image_search.ts" with {
  type: "text",
};
import scrapeWebpage from "../builtin_tools/scrape_webpage.ts" with {
  type: "text",
};
import memory from "../builtin_tools/memory.ts" with { type: "text" };
import show from "../builtin_tools/show.ts" with { type: "text" };

const SOURCES: Record<BeeuniToolName, string> = {
  web_search: webSearch,
  image_search: imageSearch,
  scrape_webpage: scrapeWebpage,
  memory,
  show,
};

/** Writes `text` to `path` unless it already holds exactly that, atomically. */
function ensureFile(path: string, text: string): void {
  try {
    if (readFileSync(path, "utf8") === text) return;
  } catch {
    // Missing: written below.
  }
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

/** Writes the five tools into a folder named by their content; returns it. */
function writeOut(): string {
  const hash = createHash("sha256");
  for (const [name, text] of Object.entries(SOURCES)) hash.update(name + text);
  const dir = join(
    cacheDir(process.env),
    "builtin_tools",
    hash.digest("hex").slice(0, 16),
  );
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(SOURCES)) {
    ensureFile(join(dir, `${name}.ts`), text);
  }
  return dir;
}

/**
 * Points the toolkit's Beeuni tool URLs at the written-out copies, which are
 * written when the first URL is asked for.
 */
export function useEmbeddedBuiltinTools(): void {
  let dir: string | undefined;
  setBuiltinToolLocator((name) => {
    dir ??= writeOut();
    return pathToFileURL(join(dir, `${name}.ts`));
  });
}
