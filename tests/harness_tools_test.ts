import assert from "node:assert/strict";
import {
  BEEUNI_TOOLS,
  HARNESS_TOOLS,
  isBeeuniTool,
  isHarnessTool,
} from "../lib/manifest/mod.ts";

Deno.test("isHarnessTool() knows current and past opencode built-ins", () => {
  for (const name of ["bash", "apply_patch", "plan_exit", "multiedit"]) {
    assert.equal(isHarnessTool(name), true, name);
  }
  assert.equal(isHarnessTool("lookup_order"), false);
  assert.equal(isHarnessTool("toString"), false);
  assert.equal(Object.keys(HARNESS_TOOLS).length, 21);
});

Deno.test("isBeeuniTool() accepts exactly the five Beeuni tools", () => {
  assert.deepEqual([...BEEUNI_TOOLS], [
    "web_search",
    "image_search",
    "scrape_webpage",
    "memory",
    "show",
  ]);
  assert.equal(isBeeuniTool("memory"), true);
  assert.equal(isBeeuniTool("bash"), false);
});
