// The npm package for Node.js users (N2): `deno task build:npm` builds it,
// `npm pack` packs it, and a throwaway project installs the tarball and runs
// `npx beeuni` under Node.js 22, its daemon, the library and its types.

import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { exists, REPO_ROOT } from "./_helpers.ts";
import { startDaemon } from "./_daemon.ts";
import {
  bunBin,
  callThroughPlugin,
  checkCallsBeeuniTool,
  checkCallsProjectTool,
  Checks,
  matrixProject,
  NODE_20,
  NODE_20_REFUSAL,
  NODE_22,
  nodeBin,
  reference,
  removeMatrixTemplate,
  reportChecks,
  runArgv,
} from "./_runtimes.ts";
import { TYPESCRIPT } from "../scripts/build_npm.ts";
import {
  type Browser,
  checkPageWorks,
  launchChromium,
  PAGE_WORKS,
} from "./_web.ts";

/** Builds the package with the task and packs it into `dir`; returns the tarball. */
async function buildAndPack(dir: string): Promise<string> {
  const build = await runArgv(
    [Deno.execPath(), "task", "--quiet", "build:npm"],
    REPO_ROOT,
  );
  assert.equal(build.code, 0, build.stdout + build.stderr);
  const pack = await runArgv(
    ["npm", "pack", "--silent", "--pack-destination", dir],
    join(REPO_ROOT, "dist", "npm"),
  );
  assert.equal(pack.code, 0, pack.stderr);
  return join(dir, pack.stdout.trim());
}

const CONSUMER = `import { loadProject, type Tool } from "@beeuni/tools";

const tool: Tool = {
  description: "Says hi",
  parameters: { type: "object" },
  execute: () => "hi",
};
const project = await loadProject({ cwd: "." });
const names: string[] = project.toolSet.tools.map((t) => t.name);
// @ts-expect-error: the tool set is not a number (the types are real, not any)
const wrong: number = project.toolSet;
console.log(tool.description, names.length, wrong);
`;

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  },
  files: ["consumer.ts"],
});

async function checkPackage(
  dir: string,
  tarball: string,
  checks: Checks,
  browser: Browser,
): Promise<void> {
  const node22 = await nodeBin(NODE_22);
  const state = join(dir, ".state");
  const env = {
    PATH: `${dirname(node22)}:${Deno.env.get("PATH")}`,
    XDG_STATE_HOME: state,
  };
  const run = (...argv: string[]) => runArgv(argv, dir, env);
  const installed = await checks.check(
    "npm installs the packed tarball",
    async () => {
      const out = await run(
        "npm",
        "install",
        "--no-audit",
        "--no-fund",
        tarball,
      );
      assert.equal(out.code, 0, out.stderr);
    },
  );
  if (!installed) return;
  await checks.check("npx beeuni validate", async () => {
    const out = await run("npx", "beeuni", "validate");
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, "beeuni.yaml is valid\n");
  });
  await checks.check("npx beeuni tools ls --agent writer", async () => {
    const [out, want] = await Promise.all([
      run("npx", "beeuni", "tools", "ls", "--agent", "writer"),
      reference(dir, ["tools", "ls", "--agent", "writer"]),
    ]);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, want.stdout);
  });
  await checks.check(
    "npx beeuni tools call runs a project tool and a Beeuni tool",
    async () => {
      const npx = (...args: string[]) => run("npx", "beeuni", ...args);
      await checkCallsProjectTool(npx);
      await checkCallsBeeuniTool(npx);
    },
  );
  // `npx` does not pass SIGTERM on to the program it starts: the test
  // starts the bin npx runs, node_modules/.bin/beeuni, to stop it.
  const bin = join(dir, "node_modules", ".bin", "beeuni");
  const daemonArgv = [bin, "daemon", "--dir", dir, "--port", "0"];
  await checks.check("the beeuni bin's daemon answers over HTTP", async () => {
    await using daemon = await startDaemon(dir, { argv: daemonArgv, env });
    // The plugin's code is the package's own JavaScript function text.
    await callThroughPlugin(dir);
    const call = (name: string, args: Record<string, unknown>) =>
      daemon.call(name, { args, sessionId: "s1", agent: "beeuni" });
    const counted = await call("word_count", { text: "one two one" });
    assert.equal(JSON.parse(String(counted.body.output)).distinct_words, 2);
    assert.deepEqual((await call("to_ms", { text: "1m" })).body, {
      output: "60000",
    });
    const created = await call("memory", {
      command: "create",
      path: "/memories/n.md",
      file_text: "note",
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(await Deno.readTextFile(join(dir, "memory", "n.md")), "note");
    assert.equal(await daemon.stop(), 0, daemon.stderr());
  });
  await checks.check(
    PAGE_WORKS,
    () => checkPageWorks(browser, dir, { argv: daemonArgv, env }),
  );
  await checks.check(
    "a Bun-API tool's advice, `bun <package>/daemon.js --dir <project>`, starts a daemon where it answers",
    async () => {
      const out = await run("npx", "beeuni", "tools", "call", "bun_file");
      assert.equal(out.code, 1);
      const advice = /start it with Bun instead, `([^`]+)`/.exec(
        out.stdout + out.stderr,
      )?.[1];
      const daemonJs = join(
        dir,
        "node_modules",
        "@beeuni",
        "tools",
        "daemon.js",
      );
      assert.equal(advice, `bun ${daemonJs} --dir ${dir}`, out.stdout);
      await using daemon = await startDaemon(dir, {
        argv: ["sh", "-c", `exec ${advice} --port 0 --no-opencode`],
        env: {
          ...env,
          PATH: `${dirname(await bunBin())}:${Deno.env.get("PATH")}`,
        },
      });
      const shell = await daemon.call("bun_shell", {
        args: { text: "hi" },
        sessionId: "s1",
        agent: "beeuni",
      });
      assert.deepEqual(shell.body, { output: "hi" });
    },
  );
  await checks.check(
    "the library loads from the package under Node.js",
    async () => {
      const out = await run(
        "node",
        "--input-type=module",
        "-e",
        `import { loadProject } from "@beeuni/tools";
const project = await loadProject({ cwd: process.cwd() });
console.log(project.toolSet.tools.map((t) => t.name).join(","));`,
      );
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /^web_search,.*,word_count,.*,to_ms,legacy/);
    },
  );
  await checks.check(
    "the package's .d.ts files type a consumer (tsc)",
    async () => {
      await Deno.writeTextFile(join(dir, "consumer.ts"), CONSUMER);
      await Deno.writeTextFile(join(dir, "tsconfig.json"), TSCONFIG);
      const out = await run("npx", "-y", "-p", TYPESCRIPT, "tsc", "-p", ".");
      assert.equal(out.code, 0, out.stdout + out.stderr);
    },
  );
  await checks.check(
    "npx beeuni tools eject writes the Beeuni tool's exact source bytes (E1)",
    async () => {
      const out = await run("npx", "beeuni", "tools", "eject", "show");
      assert.equal(out.code, 0, out.stderr);
      assert.deepEqual(
        await Deno.readFile(join(dir, "tools", "show.ts")),
        await Deno.readFile(join(REPO_ROOT, "builtin_tools", "show.ts")),
      );
    },
  );
  await checks.check(
    "the package's README speaks to Node.js users (no deno command) and every relative link in it and in the docs it ships names a file the package has",
    async () => {
      const root = join(dir, "node_modules", "@beeuni", "tools");
      const readme = await Deno.readTextFile(join(root, "README.md"));
      assert.match(readme, /npx beeuni validate/);
      assert.doesNotMatch(readme, /\bdeno\b|\{\{/i);
      const files = [
        "README.md",
        ...(await readdir(join(root, "docs")))
          .filter((name) => name.endsWith(".md"))
          .map((name) => join("docs", name)),
      ];
      const broken: string[] = [];
      for (const file of files) {
        const text = await Deno.readTextFile(join(root, file));
        for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^[a-z]+:|^#/.test(target)) continue;
          const path = join(dirname(join(root, file)), target.split("#")[0]);
          if (!exists(path)) broken.push(`${file}: ${target}`);
        }
      }
      assert.deepEqual(broken, []);
    },
  );
  await checks.check(`npx beeuni refuses Node.js ${NODE_20}`, async () => {
    const node20 = await nodeBin(NODE_20);
    const out = await runArgv(["npx", "beeuni", "validate"], dir, {
      ...env,
      PATH: `${dirname(node20)}:${Deno.env.get("PATH")}`,
    });
    assert.equal(out.code, 1);
    assert.equal(out.stderr, NODE_20_REFUSAL);
  });
}

Deno.test("the npm package, packed and installed, runs beeuni, its daemon and web UI, the library and its types under Node.js 22, and refuses Node.js 20 (N1, N2, W1)", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_npm_" });
  const browser: Browser = await launchChromium();
  try {
    const checks = new Checks();
    let tarball = "";
    await checks.check(
      "deno task build:npm builds it and npm packs it",
      async () => {
        tarball = await buildAndPack(dir);
      },
    );
    if (tarball) {
      await using project = await matrixProject();
      await checkPackage(project.dir, tarball, checks, browser);
    }
    await reportChecks(t, [{
      label: `Node.js ${NODE_22}`,
      results: checks.results,
    }]);
  } finally {
    await browser.close();
    await removeMatrixTemplate();
    await Deno.remove(dir, { recursive: true });
  }
});
