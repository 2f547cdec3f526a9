// What holds for all five Beeuni tools together: each is one file that
// loads only node:* modules (B1), and the provider code web_search and
// image_search each carry stays the same in both copies.

import assert from "node:assert/strict";
import { BEEUNI_TOOLS } from "../lib/manifest/mod.ts";
import { toolSource } from "./_builtin.ts";

Deno.test("every Beeuni tool loads only node:* modules and takes only types from @beeuni/tools (B1, E1)", async () => {
  for (const name of BEEUNI_TOOLS) {
    const { specifiers, typeSpecifiers } = await toolSource(name);
    for (const specifier of specifiers) {
      assert.match(specifier, /^node:/, `${name} imports "${specifier}"`);
    }
    const types = typeSpecifiers.filter((s) => !s.startsWith("node:"));
    assert.deepEqual(types, ["@beeuni/tools"], name);
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
