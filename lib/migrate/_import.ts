/**
 * The one place `beeuni tools migrate` runs the files it migrates: it
 * imports each original in a child process of the current runtime, with
 * opencode's real plugin package, and takes what opencode 1.18.33 hands
 * the model for each tool: `z.toJSONSchema(z.object(args), { io: "input" })`
 * (zod from the plugin package), or, for `args` of plain JSON Schema
 * objects, those objects with every key required.
 *
 * The plugin package comes from a `node_modules` beside or above the file
 * when the project has one (opencode installs it into its config folder),
 * else from the toolkit's cache folder (`$XDG_CACHE_HOME/beeuni/`), where
 * npm installs it once. A file that imports nothing of its own is imported
 * from a copy in that cache folder, its relative imports pointing back at
 * the originals. A file that does not finish importing in time is given up
 * on; the others still are imported.
 *
 * @module
 */

import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { cacheDir } from "../common/mod.ts";
import process from "node:process";
import { pathToFileURL } from "node:url";
import type { ExportSchema, ImportedSchemas } from "./_convert.ts";
import type { ImportResolver } from "./_resolve.ts";
import { relocateSpecifiers } from "./_specifiers.ts";
import {
  findTools,
  isParseFailure,
  type ParsedSource,
  type ParseFailure,
} from "../project/mod.ts";

/** A file to import: what `importToolSchemas` reads and sets. */
export interface SchemaFile {
  /** Repo-relative path. */
  path: string;
  /** Its text. */
  src: string;
  /** Its syntax tree, or why it could not be read. */
  parsed: ParsedSource | ParseFailure;
  /** Set to what importing it gave. */
  schemas?: ImportedSchemas;
}

/** The opencode plugin package whose zod computes the schemas. */
export const PLUGIN_PACKAGE = "@opencode-ai/plugin";

/** Its version: opencode 1.18.33's (it pins zod 4.1.8). */
export const PLUGIN_VERSION = "1.18.33";

/** How long one file may take to import, in milliseconds. */
export const IMPORT_TIMEOUT_MS = 8_000;

/**
 * The toolkit's cache folder for the plugin package:
 * `$XDG_CACHE_HOME/beeuni/opencode-plugin-<version>` (`~/.cache` when
 * `XDG_CACHE_HOME` is unset or not absolute).
 */
export function pluginCacheDir(
  env: Record<string, string | undefined>,
): string {
  return join(cacheDir(env), `opencode-plugin-${PLUGIN_VERSION}`);
}

/**
 * The `node_modules` folder holding the plugin package beside or above
 * `file`, up to the project `root`; undefined when the project has none.
 */
export function projectPlugin(root: string, file: string): string | undefined {
  let dir = dirname(resolve(file));
  const top = resolve(root);
  while (true) {
    const modules = join(dir, "node_modules");
    if (existsSync(join(modules, PLUGIN_PACKAGE, "package.json"))) {
      return modules;
    }
    if (dir === top || dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
}

/** The file URL of the plugin package's entry point in `modules`. */
function pluginEntry(modules: string): string {
  const dir = join(modules, PLUGIN_PACKAGE);
  let entry = "dist/index.js";
  try {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const main = pkg.exports?.["."]?.import ?? pkg.exports?.["."]?.default ??
      pkg.main;
    if (typeof main === "string") entry = main;
  } catch {
    // Keep the default entry.
  }
  return pathToFileURL(join(dir, entry)).href;
}

/**
 * The `node_modules` folder of the cached plugin package, installed with
 * npm into `dir` the first time (into a fresh folder renamed into place, so
 * a half-done install is never used). `say` tells the user before it
 * installs.
 */
export async function ensurePlugin(
  dir: string,
  say: (line: string) => void,
): Promise<string> {
  const modules = join(dir, "node_modules");
  if (existsSync(join(modules, PLUGIN_PACKAGE, "package.json"))) return modules;
  say(
    `installing ${PLUGIN_PACKAGE}@${PLUGIN_VERSION} with npm into ${dir} (once) to compute each tool's parameters as opencode does`,
  );
  const staging = `${dir}.${randomBytes(6).toString("hex")}.tmp`;
  mkdirSync(staging, { recursive: true });
  try {
    await new Promise<void>((done, fail) => {
      execFile(
        "npm",
        [
          "install",
          "--prefix",
          staging,
          "--cache",
          join(dirname(dir), "npm-cache"),
          "--no-audit",
          "--no-fund",
          "--ignore-scripts",
          "--loglevel=error",
          `${PLUGIN_PACKAGE}@${PLUGIN_VERSION}`,
        ],
        { timeout: 300_000, maxBuffer: 4 << 20 },
        (error, _out, stderr) => {
          if (error) {
            fail(
              new Error(
                `npm install ${PLUGIN_PACKAGE}@${PLUGIN_VERSION} failed: ${(String(
                  stderr,
                ).trim().split("\n")[0] || error.message)}`,
              ),
            );
          } else done();
        },
      );
    });
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another migrate finished first: use its install.
      if (!existsSync(join(modules, PLUGIN_PACKAGE, "package.json"))) {
        throw error;
      }
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return modules;
}

/** One file to import. */
export interface ImportJob {
  /** The key of its result. */
  id: string;
  /** The file's absolute path. */
  file: string;
  /** The exports that are tools. */
  exports: string[];
  /** The `node_modules` folder holding the plugin package. */
  modules: string;
  /**
   * The text to import instead of the file, from a copy in the cache
   * folder (when the project has no plugin package of its own).
   */
  staged?: string;
}

// The child's program: imports each job's file and prints one marked JSON
// line when it starts a job and one with the result.
const RUNNER = `import process from "node:process";
import { readFileSync } from "node:fs";
const MARK = "\\u0001beeuni-migrate ";
const say = (value) => process.stdout.write(MARK + JSON.stringify(value) + "\\n");
const text = (error) => String(error && error.message || error).slice(0, 4000);
const jobs = JSON.parse(readFileSync(process.argv[process.argv.length - 1], "utf8"));
for (const job of jobs) {
  say({ start: job.id });
  let result;
  try {
    const { tool } = await import(job.plugin);
    const z = tool.schema;
    const ns = await import(job.url);
    const exports = {};
    for (const name of job.exports) {
      try {
        const def = ns[name];
        if (!def || typeof def !== "object") throw new Error("the export is not a tool object");
        const args = def.args ?? {};
        const zod = Object.values(args).every((v) => v && typeof v === "object" && "_zod" in v);
        exports[name] = { schema: zod
          ? z.toJSONSchema(z.object(args), { io: "input" })
          : { type: "object", properties: args, required: Object.keys(args) } };
      } catch (error) {
        exports[name] = { error: text(error) };
      }
    }
    result = { id: job.id, exports };
  } catch (error) {
    result = { id: job.id, error: text(error) };
  }
  say(result);
}
process.exit(0);
`;

const MARK = "\u0001beeuni-migrate ";

/**
 * The command that runs the script `path` with the current runtime, with
 * packages resolved the Node way from `node_modules` folders above the
 * imported files. (The runtime adapters own this kind of choice; this is
 * the only one migrate needs.)
 */
function runnerCommand(path: string): { command: string; args: string[] } {
  const versions = process.versions as Record<string, string | undefined>;
  if (versions.deno) {
    return {
      command: process.execPath,
      args: [
        "run",
        "--no-config",
        "--node-modules-dir=manual",
        "--allow-all",
        "--quiet",
        // Imports as Bun and TypeScript write them: "./x.js" for x.ts, "./x".
        "--sloppy-imports",
        "--v8-flags=--max-old-space-size=512",
        path,
      ],
    };
  }
  // Bun would install a missing package on its own.
  if (versions.bun) {
    return { command: process.execPath, args: ["--no-install", path] };
  }
  return {
    command: process.execPath,
    args: ["--max-old-space-size=512", path],
  };
}

interface RunJob {
  id: string;
  url: string;
  plugin: string;
  exports: string[];
}

/**
 * Runs the runner over `jobs`, giving up on a job that takes longer than
 * `timeoutMs`; returns the results it got and the id it gave up on.
 */
function runOnce(
  dir: string,
  jobs: RunJob[],
  timeoutMs: number,
): Promise<
  { results: Map<string, ImportedSchemas>; stuck?: string; why?: string }
> {
  const jobFile = join(dir, `jobs-${randomBytes(4).toString("hex")}.json`);
  writeFileSync(jobFile, JSON.stringify(jobs));
  const { command, args } = runnerCommand(join(dir, "runner.mjs"));
  const child = spawn(command, [...args, jobFile], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  const results = new Map<string, ImportedSchemas>();
  let current: string | undefined;
  let buffer = "";
  let stderr = "";
  let timedOut = false;
  return new Promise((done) => {
    let timer = setTimeout(onTimeout, timeoutMs);
    function onTimeout() {
      timedOut = true;
      child.kill("SIGKILL");
    }
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000);
    });
    child.stdout.on("data", (chunk: string) => {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        const at = line.indexOf(MARK);
        if (at < 0) continue;
        const value = JSON.parse(line.slice(at + MARK.length));
        clearTimeout(timer);
        timer = setTimeout(onTimeout, timeoutMs);
        if ("start" in value) current = value.start;
        else {
          const { id, ...rest } = value;
          results.set(id, rest as ImportedSchemas);
          current = undefined;
        }
      }
      if (buffer.length > 1 << 20) buffer = buffer.slice(-65536);
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      done({ results, stuck: current ?? jobs[0]?.id, why: error.message });
    });
    child.on("close", () => {
      clearTimeout(timer);
      rmSync(jobFile, { force: true });
      const pending = jobs.find((job) => !results.has(job.id));
      if (!pending) return done({ results });
      const last = stderr.trim().split("\n").filter((l) => l.trim()).pop();
      done({
        results,
        stuck: current ?? pending.id,
        why: timedOut
          ? `it did not finish importing within ${timeoutMs / 1000} s`
          : `the import ended the process${last ? ` (${last.trim()})` : ""}`,
      });
    });
  });
}

/**
 * An error of importing an original as one whole clause: a Bun module
 * named as such, a list the message announces with a colon kept on the
 * line, positions and stack lines left out.
 */
export function importFailure(message: string): string {
  // deno-lint-ignore no-control-regex
  const plain = message.replace(/\u001b\[[0-9;]*m/g, "");
  const bun =
    /(?:for module|Import|Cannot find (?:module|package)) ["'](bun(?::[^"']*)?)["']/
      .exec(plain)?.[1] ??
      (/'bun:'/.test(plain) ? "bun:" : undefined);
  if (bun) {
    return `it imports "${bun}", a Bun module, which exists only under Bun`;
  }
  const missing = /^Import "([^"]+)" not a dependency/.exec(plain)?.[1];
  if (missing) {
    return `it imports "${missing}", which is neither a file nor an installed package`;
  }
  const lines = plain.split("\n").map((line) => line.trim())
    .filter((line) => line && !/^at /.test(line));
  const head = (lines[0] ?? "the import failed").replace(/[.:]$/, "");
  if (!/:$/.test(lines[0] ?? "") || lines.length < 2) return head;
  return `${head}: ${
    lines.slice(1).map((line) => line.replace(/^-\s*/, "")).join(", ")
  }`;
}

/** What importing gave, each error as {@linkcode importFailure} words it. */
function readable(result: ImportedSchemas): ImportedSchemas {
  if ("error" in result) return { error: importFailure(result.error) };
  const exports: Record<string, ExportSchema> = {};
  for (const [name, got] of Object.entries(result.exports)) {
    exports[name] = "error" in got ? { error: importFailure(got.error) } : got;
  }
  return { exports };
}

/**
 * Imports each job's file in a child process and returns what each gave,
 * by job id. Temporary files live in `cacheDir` and are removed after.
 */
export async function importSchemas(
  jobs: readonly ImportJob[],
  cacheDir: string,
  timeoutMs = IMPORT_TIMEOUT_MS,
): Promise<Map<string, ImportedSchemas>> {
  const out = new Map<string, ImportedSchemas>();
  if (jobs.length === 0) return out;
  const dir = join(cacheDir, `run-${randomBytes(6).toString("hex")}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(join(dir, "runner.mjs"), RUNNER);
    let pending: RunJob[] = jobs.map((job, index) => {
      let url = pathToFileURL(job.file).href;
      if (job.staged !== undefined) {
        const copy = join(dir, String(index), job.file.replace(/^.*[\\/]/, ""));
        mkdirSync(dirname(copy), { recursive: true });
        writeFileSync(copy, job.staged);
        url = pathToFileURL(copy).href;
      }
      return {
        id: job.id,
        url,
        plugin: pluginEntry(job.modules),
        exports: job.exports,
      };
    });
    while (pending.length > 0) {
      const run = await runOnce(dir, pending, timeoutMs);
      for (const [id, result] of run.results) out.set(id, readable(result));
      if (run.stuck !== undefined && !out.has(run.stuck)) {
        out.set(run.stuck, { error: run.why ?? "the import failed" });
      }
      pending = pending.filter((job) => !out.has(job.id));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/**
 * Imports every file of `files` (repo-relative, under `root`) that has
 * tools, and sets its `schemas` to what opencode would compute; installs
 * the plugin package into the cache folder first when a file has none
 * beside it (`say` tells the user). A file that cannot be imported gets
 * the reason instead, and its parameters are then read from the source.
 */
export async function importToolSchemas(
  root: string,
  files: SchemaFile[],
  options: {
    env: Record<string, string | undefined>;
    say: (line: string) => void;
    /** Finds the files the originals import (a copy imported from the cache points at them). */
    resolver: ImportResolver;
  },
): Promise<void> {
  const cache = pluginCacheDir(options.env);
  const jobs: ImportJob[] = [];
  let cached: Promise<string> | undefined;
  let installError: string | undefined;
  for (const file of files) {
    if (isParseFailure(file.parsed)) continue;
    const exports = findTools(file.parsed.program).tools.map((tool) =>
      tool.exportName
    );
    if (exports.length === 0) continue;
    const full = join(root, file.path);
    let modules = projectPlugin(root, full);
    let staged: string | undefined;
    if (!modules) {
      cached ??= ensurePlugin(cache, options.say);
      try {
        modules = await cached;
      } catch (error) {
        installError = error instanceof Error ? error.message : String(error);
        file.schemas = { error: installError };
        continue;
      }
      const dir = dirname(full);
      const path = file.path;
      staged = relocateSpecifiers(
        file.src,
        file.parsed.program,
        (specifier) => {
          const found = options.resolver.resolve(path, specifier);
          if (found.kind === "file") {
            return pathToFileURL(join(root, found.path)).href;
          }
          return /^\.\.?\//.test(specifier)
            ? pathToFileURL(join(dir, specifier)).href
            : specifier;
        },
      ).text;
    }
    jobs.push({ id: file.path, file: full, exports, modules, staged });
  }
  if (installError) {
    options.say(
      `cannot install the plugin package (${installError}): parameters are read from the source instead`,
    );
  }
  const results: Map<string, ImportedSchemas> = await importSchemas(
    jobs,
    cache,
  );
  for (const file of files) {
    const result = results.get(file.path);
    if (result) file.schemas = result;
  }
}
