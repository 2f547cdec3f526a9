// What holds for all five Beeuni tools together: each shipped file is the
// current build of its sources in builtin_tools/src/, one self-contained file
// that imports only node:* modules (B1, E1), runs under every runtime, and
// whose sources fit the toolkit's Tool type.

import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL as toFileUrl } from "node:url";
import type { Tool } from "../mod.ts";
import { BEEUNI_TOOLS, type BeeuniToolName } from "../manifest.ts";
import { REPO_ROOT } from "./_helpers.ts";
import { plainDir, toolSource } from "./_builtin.ts";
import { bunBin, NODE_22, nodeBin, runArgv } from "./_runtimes.ts";
import {
  BUILD_COMMAND,
  buildBuiltinTools,
  staleTools,
} from "../scripts/build_builtin_tools.ts";
import imageSearch from "../builtin_tools/src/image_search.ts";
import memory from "../builtin_tools/src/memory.ts";
import scrapeWebpage from "../builtin_tools/src/scrape_webpage.ts";
import show from "../builtin_tools/src/show.ts";
import webSearch from "../builtin_tools/src/web_search.ts";

Deno.test("every Beeuni tool imports only node:* modules, types included, so a copy needs nothing installed (B1, E1)", async () => {
  for (const name of BEEUNI_TOOLS) {
    const { specifiers, typeSpecifiers } = await toolSource(name);
    for (const specifier of [...specifiers, ...typeSpecifiers]) {
      assert.match(specifier, /^node:/, `${name} imports "${specifier}"`);
    }
  }
});

Deno.test("the committed builtin_tools/<name>.ts files are what `deno task build:tools` builds from builtin_tools/src/, byte for byte (E1, B1)", async () => {
  const built = await buildBuiltinTools();
  const stale = await staleTools(built);
  assert.deepEqual(
    stale,
    [],
    `stale: ${
      stale.map((name) => `builtin_tools/${name}.ts`).join(", ")
    }: run \`${BUILD_COMMAND}\` and commit the files it writes`,
  );
  for (const name of BEEUNI_TOOLS) {
    assert.match(built[name], /^\/\/ @ts-nocheck[^\n]*\n\/\*\*\n/, name);
    assert.ok(built[name].includes(`builtin_tools/src/${name}.ts`), name);
  }
});

Deno.test("every Beeuni tool's source default export is assignable to the toolkit's Tool type (T1, B1)", () => {
  // The sources declare the shape they satisfy instead of importing `Tool`;
  // `deno check` of this test fails when that shape drifts from `Tool`.
  const tools: Record<BeeuniToolName, Tool> = {
    web_search: webSearch,
    image_search: imageSearch,
    scrape_webpage: scrapeWebpage,
    memory,
    show,
  };
  for (const name of BEEUNI_TOOLS) {
    assert.equal(typeof tools[name].description, "string", name);
  }
});

/** A script that imports every shipped tool and prints each one's shape. */
const SHAPES = `
const names = ${JSON.stringify(BEEUNI_TOOLS)};
const folder = ${
  JSON.stringify(toFileUrl(join(REPO_ROOT, "builtin_tools")).href)
};
const shapes = {};
for (const name of names) {
  const { default: tool } = await import(folder + "/" + name + ".ts");
  shapes[name] = [typeof tool.description, tool.parameters.type, typeof tool.execute];
}
console.log(JSON.stringify(shapes));
`;

Deno.test("every shipped Beeuni tool loads under Deno, Node.js 22 (type stripping) and Bun with the same shape (B1, N1)", async () => {
  await using box = await plainDir({ "shapes.mjs": SHAPES });
  const script = join(box.dir, "shapes.mjs");
  {
    const expected = Object.fromEntries(
      BEEUNI_TOOLS.map((name) => [name, ["string", "object", "function"]]),
    );
    const runtimes: [string, string[]][] = [
      ["Deno", [Deno.execPath(), "run", "-A", "--quiet"]],
      [`Node.js ${NODE_22}`, [await nodeBin(NODE_22)]],
      ["Bun", [await bunBin()]],
    ];
    for (const [label, argv] of runtimes) {
      const out = await runArgv([...argv, script], box.dir);
      assert.equal(out.code, 0, `${label}: ${out.stderr}`);
      assert.deepEqual(JSON.parse(out.stdout), expected, label);
    }
  }
});
