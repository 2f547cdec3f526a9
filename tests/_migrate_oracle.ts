// The reference for migrate's tests: imports opencode tool files the way
// opencode 1.18.33 does, with the real @opencode-ai/plugin package (and its
// zod 4.1.8) installed from npm into the test cache, and reports for each
// tool the JSON Schema opencode hands the model and what its execute
// returns for given arguments.

import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { beeuni, REPO_ROOT, type RunResult } from "./_helpers.ts";
import { npmCacheDir, npmPackage } from "./_npm_cache.ts";

/** The fixtures: the contents of a legacy `harnesses/opencode/tools/`. */
export const FIXTURES: string = join(
  REPO_ROOT,
  "tests/fixtures/migrate/tools",
);

/**
 * The cache folder the command installs the plugin package into, shared by
 * every test and run, so the install happens once.
 */
export const TEST_XDG_CACHE: string = join(
  dirname(npmCacheDir("x", "0")),
  "xdg-cache",
);

/** The environment of every original and migrated call. */
export const ENV: Record<string, string> = {
  API_KEY: "k-123",
  REGION: "eu-north",
  TOKEN: "t-1",
  BASE_URL: "http://127.0.0.1:9",
};

/** Runs `beeuni tools migrate` in `dir` with the shared test cache. */
export async function migrate(
  dir: string,
  args: string[] = [],
): Promise<RunResult> {
  await pluginInstalled();
  return beeuni(dir, ["tools", "migrate", ...args], {
    env: { XDG_CACHE_HOME: TEST_XDG_CACHE, ...ENV },
  });
}

let installing: Promise<void> | undefined;

/**
 * Has the command install its plugin package into the shared cache once,
 * by migrating a throwaway tool, so every test's own run reads exactly what
 * a run with the package in place prints (the install line has a test of
 * its own).
 */
function pluginInstalled(): Promise<void> {
  installing ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "beeuni_migrate_warm_" });
    try {
      const tools = join(dir, "harnesses/opencode/tools");
      await Deno.mkdir(tools, { recursive: true });
      await Deno.writeTextFile(join(dir, "beeuni.yaml"), "agents: {}\n");
      await Deno.copyFile(join(FIXTURES, "ping.ts"), join(tools, "ping.ts"));
      const result = await beeuni(dir, ["tools", "migrate"], {
        env: { XDG_CACHE_HOME: TEST_XDG_CACHE, ...ENV },
      });
      if (result.code !== 0) {
        throw new Error(`cannot install the plugin package: ${result.stderr}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  })();
  return installing;
}

/** The plugin version opencode 1.18.33 ships. */
export const PLUGIN_VERSION = "1.18.33";

/** One original file to import, and the calls to make. */
export interface OracleJob {
  /** Repo-relative path. */
  file: string;
  /** The exports that are tools. */
  exports: string[];
  /** Calls of those exports' execute. */
  calls: { exportName: string; args: Record<string, unknown> }[];
}

/** What the originals gave. */
export interface OracleResult {
  /** Per export: `z.toJSONSchema(z.object(args), { io: "input" })` (or opencode's reading of raw JSON Schema args). */
  schemas: Record<string, unknown>;
  /** Per call, in order: the text the model reads, or the thrown message. */
  outputs: ({ text: string } | { error: string })[];
}

/** The context opencode passes to execute, with fixed values. */
export const ORACLE_CONTEXT = {
  sessionID: "s1",
  messageID: "m1",
  callID: "c1",
  agent: "beeuni",
};

const RUNNER = `
import { readFileSync } from "node:fs";
import process from "node:process";
const { plugin, repo, jobs, context } = JSON.parse(readFileSync(process.argv[process.argv.length - 1], "utf8"));
const { tool } = await import(plugin);
const z = tool.schema;
// What the model reads of a result: a string, the output of opencode's
// { title, output, metadata }, or JSON for anything else.
const shown = (value) => typeof value === "string" ? value
  : value && typeof value === "object" && "output" in value ? String(value.output)
  : JSON.stringify(value, null, 2);
const out = {};
for (const job of jobs) {
  const ns = await import(new URL(job.file, "file://" + repo + "/").href);
  const schemas = {};
  for (const name of job.exports) {
    const args = ns[name].args ?? {};
    const zod = Object.values(args).every((v) => v && typeof v === "object" && "_zod" in v);
    schemas[name] = zod ? z.toJSONSchema(z.object(args), { io: "input" })
      : { type: "object", properties: args, required: Object.keys(args) };
  }
  const outputs = [];
  for (const call of job.calls) {
    const ctx = { ...context, directory: repo, worktree: repo,
      abort: new AbortController().signal, metadata() {}, async ask() {} };
    try {
      outputs.push({ text: shown(await ns[call.exportName].execute(call.args, ctx)) });
    } catch (error) {
      outputs.push({ error: String(error?.message ?? error) });
    }
  }
  out[job.file] = { schemas, outputs };
}
console.log("\\u0001" + JSON.stringify(out));
process.exit(0);
`;

/**
 * Imports each job's file from the repository `repo` (a `node_modules`
 * link to the installed plugin package is placed at its root for the run,
 * then removed) and runs its calls, with `env` as the environment.
 */
export async function runOriginals(
  repo: string,
  jobs: OracleJob[],
  env: Record<string, string>,
): Promise<Map<string, OracleResult>> {
  const modules = await npmPackage("@opencode-ai/plugin", PLUGIN_VERSION);
  const dir = await Deno.makeTempDir({ prefix: "beeuni_oracle_" });
  const link = join(repo, "node_modules");
  await Deno.symlink(modules, link);
  try {
    const runner = join(dir, "runner.mjs");
    await Deno.writeTextFile(runner, RUNNER);
    const input = join(dir, "input.json");
    await Deno.writeTextFile(
      input,
      JSON.stringify({
        plugin: pathToFileURL(
          join(modules, "@opencode-ai", "plugin", "dist", "index.js"),
        ).href,
        repo,
        jobs,
        context: ORACLE_CONTEXT,
      }),
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-config",
        "--node-modules-dir=manual",
        "-A",
        "--quiet",
        runner,
        input,
      ],
      cwd: repo,
      env,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    const line = text.split("\n").find((l) => l.startsWith("\u0001"));
    if (!out.success || !line) {
      throw new Error(
        `the originals did not run: ${new TextDecoder().decode(out.stderr)}`,
      );
    }
    return new Map(Object.entries(JSON.parse(line.slice(1))));
  } finally {
    await Deno.remove(link);
    await Deno.remove(dir, { recursive: true });
  }
}
