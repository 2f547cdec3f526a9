// Tool modules are ES modules by the tool contract, whatever the nearest
// package.json's "type" says: npm 11's `npm init -y` writes
// "type": "commonjs", under which Node.js reads a `.ts` file, or a `.js`
// file written with import and export, as CommonJS and fails on `export`.
// Deno and Bun read them as modules already. Packages under node_modules
// keep the format their own package.json gives them.

import module from "node:module";
import { readFileSync } from "node:fs";

/** Whether `source` has an import or export statement at the start of a line. */
function hasModuleSyntax(source: string): boolean {
  return /^\s*(?:import\s*[\w{*"'`]|export\s)/m.test(source);
}

type LoadResult = { format?: string; source?: unknown };
type Next = (url: string, context: unknown) => LoadResult;

/** The format a project file is loaded as: a module where the runtime picked CommonJS for module code. */
function asModule(url: string, result: LoadResult): LoadResult {
  if (url.includes("/node_modules/") || !url.startsWith("file:")) {
    return result;
  }
  if (result.format === "commonjs-typescript") {
    return { ...result, format: "module-typescript" };
  }
  if (result.format !== "commonjs") return result;
  const source = result.source === undefined || result.source === null
    ? readFileSync(new URL(url), "utf8")
    : String(result.source);
  return hasModuleSyntax(source)
    ? { ...result, source, format: "module" }
    : result;
}

/**
 * Under Node.js, has the project's files load as ES modules where Node.js
 * would read module code as CommonJS; elsewhere, and on a Node.js without
 * `module.registerHooks`, does nothing.
 */
export function loadProjectFilesAsModules(): void {
  const register = (module as unknown as {
    registerHooks?: (hooks: {
      load(url: string, context: unknown, next: Next): LoadResult;
    }) => unknown;
  }).registerHooks;
  const global = globalThis as Record<string, unknown>;
  if (!register || "Deno" in global || "Bun" in global) return;
  register({ load: (url, context, next) => asModule(url, next(url, context)) });
}
