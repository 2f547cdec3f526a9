// A project made with `npm init -y` (npm 11 writes "type": "commonjs"):
// its `.ts` tools and its `.js` tools written with import and export load
// as ES modules under every runtime, as the tool contract says (T1, T7),
// and its CommonJS tools still load as CommonJS.

import assert from "node:assert/strict";
import { CLI, runProgram, tempRepo } from "./_helpers.ts";
import { bunBin, NODE_22, NODE_LATEST, nodeBin } from "./_runtimes.ts";
import { testCacheEnv } from "./_npm_cache.ts";

const TOOLS: Record<string, string> = {
  "tools/typed.ts": `import { greeting } from "./lib/greet.ts";
export default {
  description: "A TypeScript tool",
  parameters: { type: "object" },
  execute: (): string => greeting("ts"),
};
`,
  "tools/lib/greet.ts":
    `export const greeting = (who: string): string => "hello " + who;\n`,
  "tools/plain.js": `export default {
  description: "A JavaScript module",
  parameters: { type: "object" },
  execute: () => "hello js",
};
`,
  "tools/common.js": `module.exports = {
  description: "A CommonJS tool",
  parameters: { type: "object" },
  execute: () => "hello cjs",
};
`,
};

const MANIFEST =
  "tools:\n  typed: tools/typed.ts\n  plain: tools/plain.js\n  common: tools/common.js\n";

Deno.test("in a project made with npm init -y, .ts and import/export .js tools load as modules and CommonJS tools as CommonJS, under Deno, Node.js and Bun (T1, T7)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST, ...TOOLS });
  const init = await runProgram("npm", ["init", "-y"], {
    cwd: repo.dir,
    env: testCacheEnv(),
  });
  assert.equal(init.code, 0, init.stderr);
  const pkg = JSON.parse(await Deno.readTextFile(`${repo.dir}/package.json`));
  assert.equal(pkg.type, "commonjs", 'npm init -y wrote no "type": "commonjs"');
  const runtimes: [string, string[]][] = [
    ["Deno", [Deno.execPath(), "run", "-A", "--quiet"]],
    [`Node.js ${NODE_22}`, [await nodeBin(NODE_22)]],
    [`Node.js ${NODE_LATEST}`, [await nodeBin(NODE_LATEST)]],
    ["Bun", [await bunBin()]],
  ];
  for (const [label, [program, ...args]] of runtimes) {
    for (
      const [tool, output] of [
        ["typed", "hello ts"],
        ["plain", "hello js"],
        ["common", "hello cjs"],
      ]
    ) {
      const out = await runProgram(
        program,
        [...args, CLI, "tools", "call", tool],
        { cwd: repo.dir, env: { ...testCacheEnv(), TMPDIR: repo.dir } },
      );
      assert.equal(out.code, 0, `${label} ${tool}: ${out.stderr}`);
      assert.equal(out.stdout, `${output}\n`, `${label} ${tool}`);
    }
  }
});
