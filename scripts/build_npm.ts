// Builds the npm package for Node.js users into dist/npm/ (not in git):
// JavaScript and `.d.ts` files emitted by TypeScript's `tsc` from the same
// sources (relative `.ts` imports rewritten to `.js`), the Beeuni tools'
// `.ts` sources beside their `.js` (what `beeuni tools eject` copies, E1),
// the web UI's files (lib/web/assets/, read beside lib/web/_assets.js), a
// `beeuni` bin that refuses a Node.js older than 22.18 before it loads
// anything else, and the README for Node.js users with the docs it links
// to.
//
//   deno task build:npm        # then: cd dist/npm && npm pack

import {
  copyFile,
  cp,
  mkdir,
  readdir,
  readFile,
  rm,
  writeFile,
} from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The TypeScript that emits the package: the version Deno 2.9.6 checks with. */
export const TYPESCRIPT = "typescript@6.0.3";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
/** Where the package is built. */
export const OUT: string = join(ROOT, "dist", "npm");

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    rewriteRelativeImportExtensions: true,
    allowImportingTsExtensions: true,
    erasableSyntaxOnly: true,
    verbatimModuleSyntax: true,
    declaration: true,
    // `deno task check` type-checks these sources; tsc only emits them
    // (Deno's own globals, used in lib/runtime/deno.ts, are unknown to tsc).
    noCheck: true,
    skipLibCheck: true,
    rootDir: "../..",
    outDir: ".",
    newLine: "lf",
  },
  include: [
    "../../*.ts",
    "../../lib/**/*.ts",
    "../../builtin_tools/*.ts",
  ],
};

const BIN = `#!/usr/bin/env node
// The beeuni command: refuses a Node.js older than 22.18, then runs the CLI.
import { runCli } from "../lib/cli/run.js";
await runCli();
`;

async function run(command: string, args: string[], cwd: string) {
  const out = await new Deno.Command(command, {
    args,
    cwd,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) {
    throw new Error(`${command} ${args.join(" ")} failed (exit ${out.code})`);
  }
}

async function packageJson(): Promise<Record<string, unknown>> {
  const deno = JSON.parse(await readFile(join(ROOT, "deno.json"), "utf8"));
  const npm = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
  // Every entry point of deno.json, as its `.js` and `.d.ts`.
  const exports = Object.fromEntries(
    Object.entries(deno.exports as Record<string, string>).map((
      [subpath, file],
    ) => {
      const base = file.replace(/\.ts$/, "");
      return [subpath, { types: `${base}.d.ts`, default: `${base}.js` }];
    }),
  );
  return {
    name: deno.name,
    version: deno.version,
    description: npm.description,
    license: deno.license,
    type: "module",
    engines: { node: ">=22.18.0" },
    bin: { beeuni: "bin/beeuni.js" },
    main: "./mod.js",
    types: "./mod.d.ts",
    exports,
    dependencies: npm.dependencies,
  };
}

/** Builds the package into {@linkcode OUT}. */
export async function buildNpm(): Promise<void> {
  await rm(OUT, { recursive: true, force: true });
  await mkdir(join(OUT, "bin"), { recursive: true });
  const tsconfig = join(OUT, "tsconfig.json");
  await writeFile(tsconfig, JSON.stringify(TSCONFIG, null, 2));
  await run("npx", ["-y", "-p", TYPESCRIPT, "tsc", "-p", tsconfig], ROOT);
  await rm(tsconfig);
  // The Beeuni tools' sources, byte for byte, for `beeuni tools eject`.
  for (const file of await readdir(join(ROOT, "builtin_tools"))) {
    if (!file.endsWith(".ts")) continue;
    await copyFile(
      join(ROOT, "builtin_tools", file),
      join(OUT, "builtin_tools", file),
    );
  }
  // The web UI's page, styles and scripts, served from beside its module.
  const assets = join("lib", "web", "assets");
  await cp(join(ROOT, assets), join(OUT, assets), { recursive: true });
  await writeFile(join(OUT, "bin", "beeuni.js"), BIN, { mode: 0o755 });
  const manifest = await packageJson();
  await writeFile(
    join(OUT, "package.json"),
    JSON.stringify(manifest, null, 2) + "\n",
  );
  // A README for Node.js users, and the docs it links to.
  const readme = await readFile(join(ROOT, "scripts", "npm_readme.md"), "utf8");
  await writeFile(
    join(OUT, "README.md"),
    readme.replaceAll("{{version}}", String(manifest.version)),
  );
  await cp(join(ROOT, "docs"), join(OUT, "docs"), { recursive: true });
}

if (import.meta.main) await buildNpm();
