// What holds for all five Beeuni tools together: each is one file that
// imports only node:* modules (B1) and fits the toolkit's Tool type, and the provider code web_search and
// image_search each carry stays the same in both copies.

import assert from "node:assert/strict";
import type { Tool } from "../mod.ts";
import { BEEUNI_TOOLS, type BeeuniToolName } from "../manifest.ts";
import { toolSource } from "./_builtin.ts";
import imageSearch from "../builtin_tools/image_search.ts";
import memory from "../builtin_tools/memory.ts";
import scrapeWebpage from "../builtin_tools/scrape_webpage.ts";
import show from "../builtin_tools/show.ts";
import webSearch from "../builtin_tools/web_search.ts";

Deno.test("every Beeuni tool imports only node:* modules, types included, so a copy needs nothing installed (B1, E1)", async () => {
  for (const name of BEEUNI_TOOLS) {
    const { specifiers, typeSpecifiers } = await toolSource(name);
    for (const specifier of [...specifiers, ...typeSpecifiers]) {
      assert.match(specifier, /^node:/, `${name} imports "${specifier}"`);
    }
  }
});

Deno.test("every Beeuni tool's default export stays assignable to the toolkit's Tool type (T1, B1)", () => {
  // Each file declares the shape it satisfies instead of importing `Tool`;
  // `deno check` of this test fails when that shape drifts from `Tool`.
  const tools: Record<BeeuniToolName, Tool> = {
    web_search: webSearch,
    image_search: imageSearch,
    scrape_webpage: scrapeWebpage,
    memory,
    show,
  };
  for (const name of BEEUNI_TOOLS) {
    const tool = tools[name];
    assert.equal(typeof tool.description, "string", name);
    assert.equal(tool.parameters.type, "object", name);
    assert.equal(typeof tool.execute, "function", name);
  }
});

/**
 * The top-level declarations of a module's source, by name: each function
 * and const from its first line to the line that closes it.
 */
function declarations(source: string): Map<string, string> {
  const found = new Map<string, string>();
  const pattern =
    /^(?:export )?(?:async )?(?:function\*? (\w+)[\s\S]*?^\}|const (\w+)\b[\s\S]*?;$)/gm;
  for (const match of source.matchAll(pattern)) {
    found.set(match[1] ?? match[2], match[0]);
  }
  return found;
}

// The provider code both search tools need. Each tool stays one
// self-contained file (E1: eject copies that file alone), so the code is
// written twice; this list keeps the copies the same.
const SHARED = [
  "setting",
  "trimSlash",
  "pickProvider",
  "timeoutMs",
  "checkQueries",
  "readCount",
  "plainText",
  "isObject",
  "shownUrl",
  "providerMessage",
  "retryAfter",
  "requestJson",
  "malformed",
  "redact",
  "MAX_QUERIES",
  "DEFAULT_TIMEOUT_MS",
  "BRAVE_DEFAULT_URL",
  "TAVILY_DEFAULT_URL",
  "ENTITIES",
];

Deno.test("web_search and image_search carry the same provider helpers, byte for byte", async () => {
  const web = declarations((await toolSource("web_search")).source);
  const image = declarations((await toolSource("image_search")).source);
  for (const name of SHARED) {
    assert.ok(web.has(name), `web_search has no "${name}"`);
    assert.ok(image.has(name), `image_search has no "${name}"`);
    assert.equal(
      image.get(name),
      web.get(name),
      `"${name}" differs between web_search.ts and image_search.ts: change both`,
    );
  }
});
