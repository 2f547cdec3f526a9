// The reference for migrate's tests: imports opencode tool files the way
// opencode 1.18.33 does, with the real @opencode-ai/plugin package (and its
// zod 4.1.8) installed from npm into the test cache, and reports for each
// tool the JSON Schema opencode hands the model and what its execute
// returns for given arguments.

import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { beeuni, REPO_ROOT, type RunResult } from "./_helpers.ts";
import { npmCacheDir, npmPackage } from "./_npm_cache.ts";
import { bunBin } from "./_runtimes.ts";

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

/** The fixture project: opencode tools written as real projects write them (harnesses/opencode/tools, lib/, src/, tsconfig.json). */
export const PROJECT: string = join(FIXTURES, "../project");

export interface ProjectTool {
  /** The original, in opencode's tools folder. */
  file: string;
  exportName: string;
  /** opencode's name for it. */
  opencodeName: string;
  /** The migrated tool's name and module. */
  name: string;
  module: string;
  /** Only Bun loads the migrated module (it imports a bun: module). */
  bunOnly?: boolean;
  calls: Record<string, unknown>[];
}

export const PROJECT_TOOLS: ProjectTool[] = [
  {
    file: "git-context.ts",
    exportName: "default",
    opencodeName: "git-context",
    name: "git_context",
    module: "tools/git_context.ts",
    calls: [{ file: "src/core/workspace.ts" }, { file: "Makefile" }],
  },
  {
    file: "github-pr-search.ts",
    exportName: "default",
    opencodeName: "github-pr-search",
    name: "github_pr_search",
    module: "tools/github_pr_search.ts",
    calls: [
      { repo: "acme/app", query: "fix login" },
      { repo: "acme/app", query: "flaky", state: "merged" },
    ],
  },
  {
    file: "kv-store.ts",
    exportName: "default",
    opencodeName: "kv-store",
    bunOnly: true,
    name: "kv_store",
    module: "tools/kv_store.ts",
    calls: [
      { key: "k", value: "v1", owner: "lead" },
      { key: "n", scope: "project", owner: "guest", reader: "lead" },
    ],
  },
  {
    file: "team-tools.ts",
    exportName: "listMembers",
    opencodeName: "team-tools_listMembers",
    name: "team_tools_list_members",
    module: "tools/team_tools_list_members.ts",
    calls: [{}, { role: "reviewer" }],
  },
  {
    file: "team-tools.ts",
    exportName: "deleteContext",
    opencodeName: "team-tools_deleteContext",
    name: "team_tools_delete_context",
    module: "tools/team_tools_delete_context.ts",
    calls: [{ member: "alan", priority: "urgent" }, { member: "ada" }],
  },
  {
    file: "workspace-info.ts",
    exportName: "default",
    opencodeName: "workspace-info",
    name: "workspace_info",
    module: "tools/workspace_info.ts",
    calls: [{ name: "docs", files: 1 }, { name: "src", files: 12 }],
  },
];

/**
 * The parameters a migrated tool of the fixture project has, given the
 * schema zod gives the original: zod's, but for the arguments the source
 * cannot show (kv-store's enums of values imported from another file),
 * which take any value, as migrate's check lines say.
 */
export function projectParameters(
  tool: ProjectTool,
  zod: Record<string, unknown>,
): Record<string, unknown> {
  if (tool.name !== "kv_store") return zod;
  return {
    ...zod,
    properties: {
      ...zod.properties as Record<string, unknown>,
      owner: { description: "Who owns the value" },
      reader: {},
    },
  };
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
 * then removed) and runs its calls, with `env` as the environment, under
 * Deno, or under Bun as opencode does (Bun also finds `./x.js` for `x.ts`,
 * `./x`, tsconfig path aliases, `require()` and `bun:` modules).
 */
export async function runOriginals(
  repo: string,
  jobs: OracleJob[],
  env: Record<string, string>,
  runtime: "deno" | "bun" = "deno",
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
    const [program, ...args] = runtime === "bun"
      ? [await bunBin(), "--no-install", runner, input]
      : [
        Deno.execPath(),
        "run",
        "--no-config",
        "--node-modules-dir=manual",
        "-A",
        "--quiet",
        runner,
        input,
      ];
    const out = await new Deno.Command(program, {
      args,
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
