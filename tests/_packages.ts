// A monorepo of real npm packages for the package-resolution tests (T7,
// T9), installed with npm once into the test cache and reused: the project
// sits two folders below the monorepo's root.
//
//   mono/                      node_modules: is-number (CommonJS only)
//   mono/packages/app/         the project: beeuni.yaml, data/, tools/
//     node_modules/            zod 4, nanoid 3 (conditional exports), @hapi/hoek (scoped)
//     tools/v3/node_modules/   zod 3, beside the tool that uses it

import { existsSync } from "node:fs";
import { join } from "node:path";
import { npmCacheDir } from "./_npm_cache.ts";

const INSTALLS: Record<string, string[]> = {
  ".": ["is-number@7.0.0"],
  "packages/app": ["zod@4.1.8", "nanoid@3.3.11", "@hapi/hoek@11.0.7"],
  "packages/app/tools/v3": ["zod@3.25.76"],
};

const TOOL = (body: string, parameters = `{ type: "object" }`) => `
export default {
  description: "A tool that uses a package",
  parameters: ${parameters},
  execute(args) {
${body}
  },
};
`;

/** The project's files, by path under `packages/app/`. */
export const APP_FILES: Record<string, string> = {
  "beeuni.yaml": `tools:
  zod4: tools/zod4.ts
  zod3: tools/v3/zod3.ts
  cjs_only: tools/cjs_only.ts
  conditional: tools/conditional.ts
  scoped: tools/scoped.ts
  missing: tools/missing.ts
  reads_data: tools/reads_data.ts
  format_mts: tools/formats/a.mts
  format_cts: tools/formats/b.cts
  format_mjs: tools/formats/c.mjs
  format_cjs: tools/formats/d.cjs
  format_js_esm: tools/formats/e.js
  format_js_cjs: tools/formats/cjs/f.js
`,
  "data/x.txt": "data from the project root",
  "tools/zod4.ts": `import { z } from "zod";
export default {
  description: "Takes its parameters from zod 4",
  parameters: z.toJSONSchema(z.object({ city: z.string().describe("A city"), days: z.number().int().optional() })),
  execute: () => "zod " + ("toJSONSchema" in z ? "4" : "3"),
};
`,
  "tools/v3/zod3.ts": `import { z } from "zod";
export default {
  description: "Uses zod 3 beside it",
  parameters: { type: "object" },
  execute: () => "zod " + ("toJSONSchema" in z ? "4" : "3") + " " + z.string().parse("ok"),
};
`,
  "tools/cjs_only.ts": `import isNumber from "is-number";` +
    TOOL(`    return String(isNumber("42")) + " " + String(isNumber("x"));`),
  "tools/conditional.ts": `import { nanoid } from "nanoid";` +
    TOOL(`    return "id of " + nanoid().length;`),
  "tools/scoped.ts": `import * as Hoek from "@hapi/hoek";` +
    TOOL(`    return String(Hoek.deepEqual({ a: [1] }, { a: [1] }));`),
  "tools/missing.ts": `import pad from "left-pad";` +
    TOOL(`    return pad("x", 3);`),
  "tools/reads_data.ts": `import { readFileSync } from "node:fs";` +
    TOOL(`    return readFileSync("data/x.txt", "utf8");`),
  "tools/formats/a.mts": TOOL(`    return "mts";`),
  "tools/formats/b.cts": `module.exports = {
  description: "A .cts module",
  parameters: { type: "object" },
  execute: (): string => "cts",
};
`,
  "tools/formats/c.mjs": TOOL(`    return "mjs";`),
  "tools/formats/d.cjs": `module.exports = {
  description: "A .cjs module",
  parameters: { type: "object" },
  execute: () => "cjs",
};
`,
  "tools/formats/e.js": TOOL(`    return "js esm";`),
  "tools/formats/cjs/f.js": `module.exports = {
  description: "CommonJS in a .js file",
  parameters: { type: "object" },
  execute: () => "js cjs",
};
`,
  "tools/formats/cjs/package.json": `{ "type": "commonjs" }\n`,
};

async function npmInstall(dir: string, specs: string[]): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  if (!existsSync(join(dir, "package.json"))) {
    await Deno.writeTextFile(
      join(dir, "package.json"),
      '{ "name": "fixture", "private": true }\n',
    );
  }
  const out = await new Deno.Command("npm", {
    args: ["install", "--no-audit", "--no-fund", "--prefer-offline", ...specs],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `npm install ${specs.join(" ")} failed: ${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
}

let built: Promise<string> | undefined;

/**
 * The monorepo's root folder, installed on first use (into a staging
 * folder renamed into place, so a half-done install is never reused). The
 * project is `<root>/packages/app`.
 */
export function packagesMonorepo(): Promise<string> {
  built ??= (async () => {
    const version = JSON.stringify([INSTALLS, APP_FILES]);
    let hash = 0;
    for (const c of version) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
    const root = npmCacheDir("packages-monorepo", hash.toString(16));
    if (existsSync(join(root, ".done"))) return root;
    const staging = `${root}.${Deno.pid}.tmp`;
    await Deno.remove(staging, { recursive: true }).catch(() => {});
    for (const [dir, specs] of Object.entries(INSTALLS)) {
      await npmInstall(join(staging, dir), specs);
    }
    for (const [path, text] of Object.entries(APP_FILES)) {
      const full = join(staging, "packages/app", path);
      await Deno.mkdir(join(full, ".."), { recursive: true });
      await Deno.writeTextFile(full, text);
    }
    await Deno.writeTextFile(join(staging, ".done"), "");
    try {
      await Deno.rename(staging, root);
    } catch (error) {
      if (!existsSync(join(root, ".done"))) throw error;
      await Deno.remove(staging, { recursive: true });
    }
    return root;
  })();
  return built;
}
