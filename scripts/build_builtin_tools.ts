// Builds the five Beeuni tools as shipped: each `builtin_tools/<name>.ts` is
// one self-contained file that imports only `node:*` modules, bundled with
// `deno bundle` from `builtin_tools/src/<name>.ts`, the shared modules beside
// it and the npm packages they use. The daemon runs these files and
// `beeuni tools eject` copies them byte for byte, so they are committed; a
// test fails when one is stale.
//
//   deno task build:tools           # writes builtin_tools/<name>.ts
//   deno task build:tools --check   # exits 1, naming the stale files

import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BEEUNI_TOOLS, type BeeuniToolName } from "../lib/manifest/mod.ts";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** The command that regenerates the files, as error messages name it. */
export const BUILD_COMMAND = "deno task build:tools";

/** Where the sources are, relative to the repository. */
const SOURCES = "builtin_tools/src";

/** A path inside an npm package, in either node_modules layout. */
const PACKAGE_PATH =
  /node_modules\/(?:\.deno\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//g;

/** Runs `deno bundle` on one tool's entry; returns the JavaScript. */
async function bundle(name: BeeuniToolName, dir: string): Promise<string> {
  const out = join(dir, `${name}.js`);
  const result = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--quiet",
      "--platform",
      "deno",
      "--format",
      "esm",
      "-o",
      out,
      `${SOURCES}/${name}.ts`,
    ],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!result.success) {
    const said = new TextDecoder().decode(result.stderr).trim();
    throw new Error(`cannot bundle ${SOURCES}/${name}.ts: ${said}`);
  }
  return await readFile(out, "utf8");
}

/** One npm package bundled into a tool, for the file's header. */
interface BundledPackage {
  name: string;
  version: string;
  license: string;
}

/** The npm packages whose files the bundle holds, by name. */
async function bundledPackages(code: string): Promise<BundledPackage[]> {
  const roots = new Map<string, string>();
  for (const match of code.matchAll(/^\/\/ (node_modules\/\S+)$/gm)) {
    for (const inner of match[1].matchAll(PACKAGE_PATH)) {
      const end = (inner.index ?? 0) + inner[0].length;
      roots.set(inner[1], match[1].slice(0, end));
    }
  }
  const packages: BundledPackage[] = [];
  for (const [name, root] of roots) {
    const manifest = JSON.parse(
      await readFile(join(ROOT, root, "package.json"), "utf8"),
    );
    packages.push({
      name,
      version: String(manifest.version),
      license: String(manifest.license ?? "see its package"),
    });
  }
  return packages.sort((a, b) => a.name.localeCompare(b.name));
}

/** The module comment of a tool's entry file: its text, without the marks. */
async function moduleDoc(name: BeeuniToolName): Promise<string[]> {
  const source = await readFile(join(ROOT, SOURCES, `${name}.ts`), "utf8");
  const doc = /^\/\*\*\n([\s\S]*?)\n \*\//.exec(source);
  if (!doc) throw new Error(`${SOURCES}/${name}.ts has no module comment`);
  return doc[1].split("\n").map((line) => line.replace(/^ \* ?/, ""))
    .filter((line) => line !== "@module");
}

/** Wraps `text` at 78 columns as comment lines. */
function commentLines(text: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && line.length + word.length + 1 > 76) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** The header of a generated tool file. */
async function header(
  name: BeeuniToolName,
  packages: BundledPackage[],
): Promise<string> {
  const doc = await moduleDoc(name);
  while (doc.at(-1) === "") doc.pop();
  const bundled = packages.length === 0
    ? ""
    : ` and the npm packages ${
      packages.map((p) => `${p.name} ${p.version} (${p.license})`).join(", ")
    }`;
  const about = [
    ...commentLines(
      `This file is generated: \`${BUILD_COMMAND}\` bundles it from ` +
        `${SOURCES}/${name}.ts, the shared modules beside it${bundled}. ` +
        "It imports only node:* modules and reads its configuration from " +
        "context.env, so a copy runs as it is. In the toolkit, change the " +
        "sources and rebuild; a copy that `beeuni tools eject` wrote is the " +
        "project's own to change.",
    ),
  ];
  const body = [...doc, "", ...about, "", "@module"];
  return [
    "// @ts-nocheck -- bundled JavaScript; its TypeScript sources are type-checked",
    "/**",
    ...body.map((line) => line === "" ? " *" : ` * ${line}`),
    " */",
    "",
  ].join("\n");
}

/** The text of `builtin_tools/<name>.ts` as built from the sources now. */
async function buildTool(
  name: BeeuniToolName,
  dir: string,
): Promise<string> {
  const code = await bundle(name, dir);
  const packages = await bundledPackages(code);
  // The same text whichever node_modules layout (Deno's or npm's) holds
  // the packages.
  const portable = code.replace(PACKAGE_PATH, "node_modules/$1/");
  return await header(name, packages) + portable;
}

/** Builds every Beeuni tool; resolves to each one's text, by name. */
export async function buildBuiltinTools(): Promise<
  Record<BeeuniToolName, string>
> {
  const dir = await mkdtemp(join(tmpdir(), "beeuni_build_tools_"));
  try {
    const built = {} as Record<BeeuniToolName, string>;
    for (const name of BEEUNI_TOOLS) built[name] = await buildTool(name, dir);
    return built;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The path of a shipped tool file. */
export function shippedPath(name: BeeuniToolName): string {
  return join(ROOT, "builtin_tools", `${name}.ts`);
}

/** The tools whose committed file differs from `built`. */
export async function staleTools(
  built: Record<BeeuniToolName, string>,
): Promise<BeeuniToolName[]> {
  const stale: BeeuniToolName[] = [];
  for (const name of BEEUNI_TOOLS) {
    let committed = "";
    try {
      committed = await readFile(shippedPath(name), "utf8");
    } catch {
      // Missing counts as stale.
    }
    if (committed !== built[name]) stale.push(name);
  }
  return stale;
}

if (import.meta.main) {
  const built = await buildBuiltinTools();
  if (Deno.args.includes("--check")) {
    const stale = await staleTools(built);
    if (stale.length > 0) {
      console.error(
        `stale Beeuni tool files: ${
          stale.map((name) => `builtin_tools/${name}.ts`).join(", ")
        }: run \`${BUILD_COMMAND}\` and commit them`,
      );
      Deno.exit(1);
    }
  } else {
    for (const name of BEEUNI_TOOLS) {
      await writeFile(shippedPath(name), built[name]);
    }
  }
}
