// Which tools a changed file may reach: the local files each project tool
// module imports, directly or through others, read from their sources.
// Only relative specifiers are followed; packages are not watched. The
// reading is bounded: a graph that cannot be read whole is not used, and
// the caller reloads every project tool instead.

import { readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, extname, resolve } from "node:path";

/** The most files read to build one graph. */
const MAX_FILES = 2_000;
/** The largest file read; a larger one makes the graph unknown. */
const MAX_FILE_BYTES = 1_048_576;

/**
 * Relative specifiers in `import`/`export … from`, `import()` (of a quoted
 * or template literal without substitutions) and `require()`.
 */
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(["'`])(\.{1,2}\/[^"'`$\n]*)\1/g;

/** Extensions tried, in order, for a specifier that names no file as written. */
const TRIED = [".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs", ".cts", ".cjs"];

/** `path` with its symbolic links resolved, or as it is when it cannot be. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The file a relative `specifier` in `from` names, as the runtimes look for it. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier.replace(/[?#].*$/, ""));
  if (isFile(base)) return base;
  const ext = extname(base);
  // TypeScript's own style: "./x.js" for x.ts.
  if (ext === ".js" || ext === ".mjs" || ext === ".cjs") {
    const stem = base.slice(0, -ext.length);
    for (const alt of [".ts", ".tsx", ".mts", ".cts"]) {
      if (isFile(stem + alt)) return stem + alt;
    }
  }
  for (const alt of TRIED) {
    if (isFile(base + alt)) return base + alt;
    if (isFile(resolve(base, "index" + alt))) {
      return resolve(base, "index" + alt);
    }
  }
  return undefined;
}

/**
 * The local files each of `entries` (name → absolute module path) reaches
 * through relative imports, itself included; undefined when the graph is
 * over its bounds or a file in it cannot be read.
 */
export function localImports(
  entries: ReadonlyMap<string, string>,
): Map<string, Set<string>> | undefined {
  const imports = new Map<string, string[]>();
  const read = (file: string): string[] | undefined => {
    const known = imports.get(file);
    if (known) return known;
    if (imports.size >= MAX_FILES) return undefined;
    let source: string;
    try {
      if (statSync(file).size > MAX_FILE_BYTES) return undefined;
      source = readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
    const found: string[] = [];
    for (const match of source.matchAll(SPECIFIER)) {
      const target = resolveSpecifier(file, match[2]);
      if (target !== undefined) found.push(realPath(target));
    }
    imports.set(file, found);
    return found;
  };
  const reach = new Map<string, Set<string>>();
  for (const [name, entry] of entries) {
    const seen = new Set<string>([entry]);
    const queue = [entry];
    while (queue.length > 0) {
      const next = read(queue.pop()!);
      if (next === undefined) return undefined;
      for (const file of next) {
        if (seen.has(file)) continue;
        seen.add(file);
        queue.push(file);
      }
    }
    reach.set(name, seen);
  }
  return reach;
}

/**
 * Every local file the modules `entries` (absolute paths) reach through
 * relative imports, themselves included, by real path; undefined when the
 * graph is over its bounds or a file in it cannot be read.
 */
export function localFiles(entries: readonly string[]): string[] | undefined {
  const reach = localImports(
    new Map(entries.map((file, i) => [String(i), realPath(file)])),
  );
  if (!reach) return undefined;
  const files = new Set<string>();
  for (const reached of reach.values()) {
    for (const file of reached) files.add(file);
  }
  return [...files];
}
