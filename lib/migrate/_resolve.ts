/**
 * Where an import of a file `beeuni tools migrate` moves leads, found the
 * way opencode's runtime (Bun) and TypeScript find it, so the migrated
 * module can name the file exactly, as Deno and Node.js need:
 *
 * - a relative specifier as written; `.js` also as `.ts`/`.tsx` (`.jsx`
 *   as `.tsx`, `.mjs` as `.mts`, `.cjs` as `.cts`: TypeScript's NodeNext
 *   convention); without an extension, with each extension Bun tries,
 *   then as a folder's `index`;
 * - a bare specifier through the `paths` of the nearest `tsconfig.json`
 *   (or `jsconfig.json`, following a relative `extends`) and the relative
 *   `imports` of the nearest `deno.json`; one that looks like a path alias
 *   (`@/x`, `~/x`) that no such file maps is reported.
 *
 * Pure: files are read through the caller's `read`.
 *
 * @module
 */

import { posix } from "node:path";
import { literalValue } from "./_schema.ts";
import { isParseFailure, type SourceParser } from "../project/mod.ts";

/** Where an import leads. */
export type Resolution =
  /** A file of the repository (repo-relative); `alias` when a config file mapped it. */
  | { kind: "file"; path: string; alias?: string }
  /** Nowhere: why, said of the specifier. */
  | { kind: "missing"; message: string }
  /** Out of the repository. */
  | { kind: "outside" }
  /** A package, a built-in or a URL: left as written. */
  | { kind: "package" };

/** The extensions Bun tries, in its order, for a specifier without one. */
const TRIED = [".tsx", ".jsx", ".ts", ".mjs", ".js", ".cjs", ".json"];

/** What TypeScript also reads a specifier's extension as. */
const TS_FOR: Record<string, string[]> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};

const MODULE_EXTENSION = /\.(tsx?|jsx?|mts|cts|mjs|cjs|json)$/;

/** Config files whose aliases apply, nearest first. */
const TS_CONFIGS = ["tsconfig.json", "jsconfig.json"];
const DENO_CONFIGS = ["deno.json", "deno.jsonc"];

/** A specifier that looks like a path alias rather than a package. */
const ALIAS_LIKE = /^(@\/|~\/?|#\/|\$)/;

/** A specifier written relative to `path`'s folder, with `./` when needed. */
export function relativeSpecifier(fromDir: string, to: string): string {
  const rel = posix.relative(fromDir, to);
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** One alias map: a config file and its entries, pattern to targets (repo-relative). */
interface AliasMap {
  config: string;
  entries: [string, string[]][];
}

/** Resolves imports of repository files; caches the config files it reads. */
export class ImportResolver {
  #read: (path: string) => string | undefined;
  #parse: SourceParser;
  #configs = new Map<string, AliasMap | undefined>();

  /** `read` gives a repo-relative file's text (undefined when it is no file); `parse` reads config files. */
  constructor(
    read: (path: string) => string | undefined,
    parse: SourceParser,
  ) {
    this.#read = read;
    this.#parse = parse;
  }

  #exists(path: string): boolean {
    return this.#read(path) !== undefined;
  }

  /** The file a path leads to, trying extensions and `index` as Bun does. */
  #file(path: string): string | undefined {
    if (path.startsWith("../") || path === "..") return undefined;
    if (this.#exists(path)) return path;
    const ext = posix.extname(path);
    const mapped = TS_FOR[ext];
    if (mapped) {
      const stem = path.slice(0, -ext.length);
      return mapped.map((e) => stem + e).find((p) => this.#exists(p));
    }
    if (MODULE_EXTENSION.test(path)) return undefined;
    return TRIED.map((e) => path + e).find((p) => this.#exists(p)) ??
      TRIED.map((e) => posix.join(path, `index${e}`)).find((p) =>
        this.#exists(p)
      );
  }

  /** Where `specifier`, imported by the repo-relative file `from`, leads. */
  resolve(from: string, specifier: string): Resolution {
    if (specifier.startsWith("./") || specifier.startsWith("../")) {
      const target = posix.normalize(
        posix.join(posix.dirname(from), specifier),
      );
      if (target.startsWith("../")) return { kind: "outside" };
      const path = this.#file(target);
      return path ? { kind: "file", path } : {
        kind: "missing",
        message:
          `imports "${specifier}", which leads to no file, with or without an extension or /index (opencode cannot load it either)`,
      };
    }
    if (
      /^[a-z][a-z0-9+.-]*:/i.test(specifier) || specifier.startsWith("/")
    ) return { kind: "package" };
    return this.#alias(from, specifier);
  }

  /** A bare specifier: an alias of a config file above `from`, or a package. */
  #alias(from: string, specifier: string): Resolution {
    for (const kind of [TS_CONFIGS, DENO_CONFIGS]) {
      const map = this.#nearest(posix.dirname(from), kind);
      if (!map) continue;
      const match = matchAlias(map, specifier);
      if (!match) continue;
      for (const target of match.targets) {
        const path = this.#file(target);
        if (path) return { kind: "file", path, alias: map.config };
      }
      return {
        kind: "missing",
        message:
          `imports "${specifier}", a path alias that ${map.config} maps ("${match.key}") to no file: fix the alias there, or write a relative path`,
      };
    }
    if (!ALIAS_LIKE.test(specifier)) return { kind: "package" };
    return {
      kind: "missing",
      message:
        `imports "${specifier}", which looks like a path alias, but no tsconfig.json, jsconfig.json or deno.json above ${from} maps it: add it to the "paths" of tsconfig.json, or write a relative path`,
    };
  }

  /** The nearest config file of `names` from `dir` up to the repository root. */
  #nearest(dir: string, names: readonly string[]): AliasMap | undefined {
    for (let at = dir;; at = posix.dirname(at)) {
      for (const name of names) {
        const path = at === "." ? name : `${at}/${name}`;
        if (!this.#configs.has(path)) {
          this.#configs.set(path, this.#load(path, names === TS_CONFIGS));
        }
        const map = this.#configs.get(path);
        if (map) return map;
      }
      if (at === "." || at === "" || at === "/") return undefined;
    }
  }

  /** A config file's alias map; undefined when it is absent or unreadable. */
  #load(path: string, typescript: boolean): AliasMap | undefined {
    const json = this.#json(path);
    if (!json) return undefined;
    const dir = posix.dirname(path);
    if (!typescript) {
      const imports = json.imports;
      const entries: [string, string[]][] = [];
      if (imports && typeof imports === "object") {
        for (const [key, value] of Object.entries(imports)) {
          if (typeof value !== "string" || !/^\.\.?\//.test(value)) continue;
          const target = posix.normalize(posix.join(dir, value));
          if (key.endsWith("/") && target.endsWith("/")) {
            entries.push([`${key}*`, [`${target}*`]]);
          } else entries.push([key, [target]]);
        }
      }
      return { config: path, entries };
    }
    const options = this.#compilerOptions(path, json, 0);
    const base = options.baseUrl ?? dir;
    const entries: [string, string[]][] = Object.entries(options.paths ?? {})
      .map(([key, targets]) => [
        key,
        targets.map((target) => posix.normalize(posix.join(base, target))),
      ]);
    return { config: path, entries };
  }

  /** `baseUrl` (resolved) and `paths` of a tsconfig, following a relative `extends`. */
  #compilerOptions(
    path: string,
    json: Record<string, unknown>,
    depth: number,
  ): { baseUrl?: string; paths?: Record<string, string[]> } {
    const dir = posix.dirname(path);
    let inherited: { baseUrl?: string; paths?: Record<string, string[]> } = {};
    const parent = json.extends;
    if (typeof parent === "string" && /^\.\.?\//.test(parent) && depth < 8) {
      const parentPath = posix.normalize(
        posix.join(dir, parent.endsWith(".json") ? parent : `${parent}.json`),
      );
      const parentJson = this.#json(parentPath);
      if (parentJson) {
        inherited = this.#compilerOptions(parentPath, parentJson, depth + 1);
      }
    }
    const options = json.compilerOptions as Record<string, unknown> | undefined;
    const baseUrl = typeof options?.baseUrl === "string"
      ? posix.normalize(posix.join(dir, options.baseUrl))
      : undefined;
    const paths: Record<string, string[]> = {};
    if (options?.paths && typeof options.paths === "object") {
      for (const [key, value] of Object.entries(options.paths)) {
        if (Array.isArray(value)) {
          paths[key] = value.filter((v) => typeof v === "string");
        }
      }
    }
    const ownPaths = Object.keys(paths).length > 0;
    return {
      // Paths without a baseUrl are relative to the file that sets them.
      baseUrl: ownPaths ? baseUrl ?? dir : baseUrl ?? inherited.baseUrl,
      paths: ownPaths ? paths : inherited.paths,
    };
  }

  /** A JSON-with-comments file as an object, or undefined. */
  #json(path: string): Record<string, unknown> | undefined {
    const text = this.#read(path);
    if (text === undefined) return undefined;
    const parsed = this.#parse("config.js", `(${text}\n)`);
    if (isParseFailure(parsed)) return undefined;
    const value = literalValue(parsed.program.body[0]?.expression)?.value;
    return value && typeof value === "object" && !Array.isArray(value)
      ? value as Record<string, unknown>
      : undefined;
  }
}

/** The entry of `map` that `specifier` matches (the longest prefix wins), with its targets. */
function matchAlias(
  map: AliasMap,
  specifier: string,
): { key: string; targets: string[] } | undefined {
  let best: { key: string; targets: string[]; prefix: number } | undefined;
  for (const [key, targets] of map.entries) {
    const star = key.indexOf("*");
    if (star < 0) {
      if (key === specifier) return { key, targets };
      continue;
    }
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (
      specifier.length < prefix.length + suffix.length ||
      !specifier.startsWith(prefix) || !specifier.endsWith(suffix)
    ) continue;
    if (best && best.prefix >= prefix.length) continue;
    const middle = specifier.slice(
      prefix.length,
      specifier.length - suffix.length,
    );
    best = {
      key,
      prefix: prefix.length,
      targets: targets.map((target) => target.replace("*", middle)),
    };
  }
  return best && { key: best.key, targets: best.targets };
}
