/**
 * The I/O edge of the manifest toolkit: finds `beeuni.yaml`, reads it
 * and its imports from disk, asks git which files it tracks, and runs the
 * parser, the validator and the resolver. Runtime-neutral (`node:*` only).
 *
 * @module
 */

import {
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { isWithin } from "../common/mod.ts";
import { locateManifest } from "./locate_manifest.ts";
import {
  BEEUNI_TOOLS,
  type Diagnostic,
  formatBytes,
  LEGACY_TOOLS_DIR,
  limitDiagnostics,
  type Manifest,
  type ManifestLimits,
  manifestLimits,
  type ModuleFacts,
  modulePath,
  parseManifest,
  type ProjectFacts,
  resolveTools,
  sortDiagnostics,
  type ToolSet,
  validate,
} from "../manifest/mod.ts";
import { gitSync } from "../common/mod.ts";
import { isFile } from "./_fs.ts";

/** A loaded project: its manifest, the facts about its files, every diagnostic and the session's tool set. */
export interface Project {
  /** Absolute path of the repository root: the folder of the root manifest. */
  root: string;
  /** The parsed manifest and imports. */
  manifest: Manifest;
  /** What the file system and git say about the declared modules. */
  facts: ProjectFacts;
  /** The parser's and the validator's diagnostics, sorted by place. */
  diagnostics: Diagnostic[];
  /** The tools a session of this project gets. */
  toolSet: ToolSet;
}

/** Options of {@linkcode loadProject}. */
export interface LoadProjectOptions {
  /** The directory to search from and to resolve `manifest` against. */
  cwd: string;
  /** A path to the root manifest (or to its folder), overriding the search. */
  manifest?: string;
  /**
   * Ask git which modules it tracks (V10, a warning); default true. The
   * tool host turns it off: it only needs the errors, and sparing the git
   * process shortens its start.
   */
  tracking?: boolean;
  /** Bounds over the defaults of `MANIFEST_LIMITS`. */
  limits?: Partial<ManifestLimits>;
}

/**
 * The tool names opencode gives the files of the legacy folder whose named
 * exports may make a Beeuni tool's name (`image.ts` exporting `search`
 * is `image_search`), by file name. Only such files are read, and only
 * then is the parser loaded (V11).
 */
async function legacyToolNames(
  root: string,
  files: readonly string[],
): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const name of files) {
    const base = /^(.+)\.(ts|js)$/.exec(name)?.[1];
    if (!base || !BEEUNI_TOOLS.some((tool) => tool.startsWith(`${base}_`))) {
      continue;
    }
    let src: string;
    try {
      src = readFileSync(join(root, LEGACY_TOOLS_DIR, name), "utf8");
    } catch {
      continue;
    }
    const { opencodeToolNames } = await import("./opencode_tool_source.ts");
    out[name] = await opencodeToolNames(name, src);
  }
  return out;
}

function realpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** A folder holding this many modules is listed once instead of each checked. */
const LIST_FOLDER_AT = 8;

/**
 * Whether each module path names a file and where it really is. One
 * `readdir` of a folder holding many modules stands for a `realpath` and a
 * `stat` of each (a third of the time for 1,000 modules): a regular file in
 * it is inside the repository exactly when the folder's real path is. Any
 * other entry (a symlink, a folder, a missing name) is checked by itself.
 */
function moduleFiles(
  root: string,
  realRoot: string,
  paths: Iterable<string>,
): Map<string, { exists: boolean; insideRepo: boolean }> {
  const byFolder = new Map<string, string[]>();
  for (const path of paths) {
    const folder = dirname(join(root, path));
    const group = byFolder.get(folder);
    if (group) group.push(path);
    else byFolder.set(folder, [path]);
  }
  const facts = new Map<string, { exists: boolean; insideRepo: boolean }>();
  for (const [folder, group] of byFolder) {
    let files: Set<string> | undefined;
    const realFolder = group.length >= LIST_FOLDER_AT
      ? realpath(folder)
      : undefined;
    if (realFolder !== undefined) {
      try {
        files = new Set(
          readdirSync(folder, { withFileTypes: true })
            .filter((entry) => entry.isFile()).map((entry) => entry.name),
        );
      } catch {
        // Checked one by one below.
      }
    }
    for (const path of group) {
      const full = join(root, path);
      const name = basename(full);
      if (files?.has(name)) {
        facts.set(path, {
          exists: true,
          insideRepo: isWithin(join(realFolder!, name), realRoot),
        });
        continue;
      }
      const real = realpath(full);
      facts.set(path, {
        exists: isFile(full),
        insideRepo: real === undefined || isWithin(real, realRoot),
      });
    }
  }
  return facts;
}

/**
 * The repo-relative paths git tracks under `root`, or an empty set outside
 * a repository. Synchronous: on Deno the first asynchronous `execFile`
 * costs about twice a whole `git ls-files` run, more than overlapping it
 * with the parse saves (see docs/benchmarks.md).
 */
function trackedFiles(root: string): Set<string> {
  let stdout: string;
  try {
    // -z prints paths as they are, unquoted.
    stdout = gitSync(["ls-files", "-z", "--cached"], {
      cwd: root,
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch {
    return new Set();
  }
  return new Set(stdout.split("\0").filter((line) => line !== ""));
}

/**
 * Loads the project for `options.cwd`: finds the root manifest (or
 * `options.manifest`), parses it and its imports, gathers the facts the
 * validator needs (existence, real paths, git tracking, the standard
 * harness's tool folder), and validates and resolves it.
 *
 * Every problem inside the manifest is a diagnostic, never thrown.
 *
 * @returns The project: its manifest, the facts about its files, its
 * diagnostics and the tool set a session gets.
 * @throws {ManifestNotFoundError} When there is no manifest to load.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadProject } from "@beeuni/tools";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(
 *   `${dir}/beeuni.yaml`,
 *   "tools:\n  web_search: beeuni:web_search\n  to_ms: tools/to_ms.ts\n",
 * );
 * const project = await loadProject({ cwd: dir });
 * assert.deepEqual(project.toolSet.tools.map((tool) => tool.name), ["web_search", "to_ms"]);
 * // tools/to_ms.ts does not exist yet
 * assert.deepEqual(project.diagnostics.map((d) => d.rule), ["V5"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadProject(
  options: LoadProjectOptions,
): Promise<Project> {
  const manifestFile = locateManifest(options.cwd, options.manifest);
  const root = dirname(manifestFile);
  const realRoot = realpath(root) ?? root;

  const limits = manifestLimits(options.limits);

  const read = (path: string): string | undefined => {
    const full = join(root, path);
    if (!existsSync(full)) return undefined;
    const real = realpath(full);
    if (real === undefined) return undefined;
    if (!isWithin(real, realRoot)) {
      throw new Error("it leads outside the repository through a symlink");
    }
    const stat = statSync(real);
    if (!stat.isFile()) {
      throw new Error("it is not a file");
    }
    // Refused before it is read: a huge file costs no memory.
    if (stat.size > limits.maxFileBytes) {
      throw new Error(
        `it is ${formatBytes(stat.size)}, more than the limit of ${
          formatBytes(limits.maxFileBytes)
        } for one manifest file: split it into smaller files listed under \`imports:\``,
      );
    }
    return readFileSync(real, "utf8");
  };
  const manifest = await parseManifest(root, basename(manifestFile), read, {
    limits,
  });

  const tracked = options.tracking === false ? undefined : trackedFiles(root);
  const paths = new Set<string>();
  for (const file of manifest.files) {
    for (const entry of file.tools) {
      const path = modulePath(entry.value);
      if (path !== undefined) paths.add(path);
    }
  }
  const onDisk = moduleFiles(root, realRoot, paths);
  const modules: Record<string, ModuleFacts> = {};
  for (const path of paths) {
    modules[path] = {
      ...onDisk.get(path)!,
      tracked: tracked === undefined || tracked.has(path),
    };
  }
  let legacyTools: string[] = [];
  try {
    legacyTools = readdirSync(join(root, LEGACY_TOOLS_DIR), {
      withFileTypes: true,
    }).filter((entry) => !entry.isDirectory()).map((entry) => entry.name);
  } catch {
    // No such folder: nothing to warn about.
  }
  const names = await legacyToolNames(root, legacyTools);
  const facts: ProjectFacts = {
    modules,
    legacyTools,
    ...(Object.keys(names).length > 0 ? { legacyToolNames: names } : {}),
  };

  const diagnostics = limitDiagnostics(
    sortDiagnostics(manifest, [
      ...manifest.diagnostics,
      ...validate(manifest, facts),
    ]),
    limits.maxDiagnostics,
  );
  return {
    root,
    manifest,
    facts,
    diagnostics,
    toolSet: resolveTools(manifest),
  };
}
