// What a runner is confined to (H2), as pure functions of the project:
// which links to deny, and what governs the tools.

import assert from "node:assert/strict";
import { join } from "node:path";
import { linksToDeny } from "../lib/host/_confinement.ts";
import { governedPaths } from "../lib/host/_governed.ts";
import { localFiles } from "../lib/host/_module_graph.ts";
import { tempRepo } from "./_helpers.ts";

const link = (path: string, target?: string, folder = true) => ({
  path,
  target,
  folder,
});

Deno.test("linksToDeny() denies links past the grant, and every folder link through which one is reached (H2)", () => {
  const links = [
    link("/p/out", "/secret"),
    link("/p/self", "/p"),
    link("/p/a/up", "/p/a"),
    link("/p/docs", "/p/docs_real"),
    link("/p/b/alias", "/p/b"),
    link("/p/gone", undefined, false),
  ];
  const denied = linksToDeny(links, { allowed: ["/p"], denied: [] })
    .map((l) => l.path).sort();
  // self holds out; a/up and b/alias hold nothing denied; docs leads inside.
  assert.deepEqual(denied, ["/p/gone", "/p/out", "/p/self"]);
});

Deno.test("linksToDeny() follows chains of folder links to a denied path (H2)", () => {
  const links = [
    link("/p/x/y/z/deep", "/secret"),
    link("/p/one", "/p/x"),
    link("/p/two", "/p/x/y"),
    link("/p/q/three", "/p/q"),
    link("/p/q/four", "/p/two"),
  ];
  const denied = linksToDeny(links, { allowed: ["/p"], denied: [] })
    .map((l) => l.path).sort();
  assert.deepEqual(denied, [
    "/p/one",
    "/p/q/four",
    "/p/q/three",
    "/p/two",
    "/p/x/y/z/deep",
  ]);
});

Deno.test("linksToDeny() denies links to, into and around denied paths inside the grant (H2)", () => {
  const links = [
    link("/p/cfg", "/p/beeuni.yaml", false),
    link("/p/t", "/p/tools"),
    link("/p/in", "/p/tools/x.ts", false),
    link("/p/ok", "/p/data"),
  ];
  const denied = linksToDeny(links, {
    allowed: ["/p"],
    denied: ["/p/beeuni.yaml", "/p/tools"],
  }).map((l) => l.path).sort();
  assert.deepEqual(denied, ["/p/cfg", "/p/in", "/p/t"]);
});

Deno.test("governedPaths() names the manifest, the modules and what they import, the folders holding them, and the project's governing files (H2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "imports:\n  - config/more.yaml\n",
    "config/more.yaml": "tools:\n  a: src/tools/a.ts\n",
    "src/tools/a.ts":
      `import { b } from "../lib/b.ts";\nexport default { description: "a", parameters: { type: "object" }, execute: () => b };\n`,
    "src/lib/b.ts": `export { c as b } from "./c.ts";\n`,
    "src/lib/c.ts": `export const c = 1;\n`,
    "src/app/main.ts": `console.log(1);\n`,
  });
  const dir = repo.dir;
  const modules = [join(dir, "src/tools/a.ts")];
  const paths = new Set(governedPaths({
    directory: dir,
    manifestFiles: [join(dir, "beeuni.yaml"), join(dir, "config/more.yaml")],
    modules,
    imports: localFiles(modules),
  }));
  for (
    const path of [
      "beeuni.yaml",
      "config/more.yaml",
      "config",
      "src/tools/a.ts",
      "src/tools",
      "src/lib/b.ts",
      "src/lib/c.ts",
      "src/lib",
      "src",
      ".git",
      ".opencode",
      "harnesses",
      "node_modules",
      "package.json",
      "deno.json",
      "tsconfig.json",
    ]
  ) assert.ok(paths.has(join(dir, path)), path);
  // Neither the project itself nor what no tool imports.
  assert.ok(!paths.has(dir));
  assert.ok(!paths.has(join(dir, "src/app/main.ts")));
});
