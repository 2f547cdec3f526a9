// `@beeuni/tools` inside a runner: a tool module imports `defineTool` from
// it whether or not the project installed the package, as opencode provides
// its plugin package to tools. The runner provides its own copy: under Deno
// through an import map on its command line, under Node.js through a
// resolve hook, under Bun through a plugin. The module it provides holds
// what a tool module uses at run time: `defineTool`.

import module from "node:module";
import { defineTool } from "./tool.ts";

/** The specifier the runner provides. */
export const AUTHORING_SPECIFIER = "@beeuni/tools";

/** Where the runner keeps the module's exports for the module that stands for it. */
const KEY = "beeuni.tools.authoring";

/** The module that stands for `@beeuni/tools` in a runner: it reads the runner's exports. */
const AUTHORING_MODULE = "data:text/javascript," +
  encodeURIComponent(
    `const provided = globalThis[Symbol.for(${
      JSON.stringify(KEY)
    })];\nexport const defineTool = provided.defineTool;\n`,
  );

/** Deno's `--import-map` value that maps `@beeuni/tools` to the runner's module. */
export function authoringImportMap(): string {
  return "data:application/json," +
    encodeURIComponent(
      JSON.stringify({ imports: { [AUTHORING_SPECIFIER]: AUTHORING_MODULE } }),
    );
}

type Resolved = { url: string; shortCircuit?: boolean };
type NextResolve = (specifier: string, context: unknown) => Resolved;

interface BunPlugins {
  plugin(plugin: {
    name: string;
    setup(build: {
      module(
        specifier: string,
        load: () => { exports: Record<string, unknown>; loader: "object" },
      ): unknown;
    }): void;
  }): unknown;
}

/**
 * Has `import … from "@beeuni/tools"` in tool modules load the runner's
 * own `defineTool`: under Node.js a resolve hook, under Bun a plugin;
 * under Deno the runner's import map does it.
 */
export function provideAuthoringModule(): void {
  const exports = { defineTool };
  const global = globalThis as Record<PropertyKey, unknown>;
  global[Symbol.for(KEY)] = exports;
  const bun = global.Bun as BunPlugins | undefined;
  if (bun) {
    bun.plugin({
      name: "beeuni-tools",
      setup(build) {
        build.module(
          AUTHORING_SPECIFIER,
          () => ({ exports, loader: "object" }),
        );
      },
    });
    return;
  }
  const register = (module as unknown as {
    registerHooks?: (hooks: {
      resolve(
        specifier: string,
        context: unknown,
        next: NextResolve,
      ): Resolved;
    }) => unknown;
  }).registerHooks;
  if (!register || "Deno" in global) return;
  register({
    resolve: (specifier, context, next) =>
      specifier === AUTHORING_SPECIFIER
        ? { url: AUTHORING_MODULE, shortCircuit: true }
        : next(specifier, context),
  });
}
