// The single-file build (N2): `deno task build:bundle` writes one
// JavaScript file that Deno, Node.js and Bun run from any folder, the CLI,
// the daemon and the host's workers (the bundle re-runs itself as a
// worker) with the five Beeuni tools inside it.

import assert from "node:assert/strict";
import { copyFile, readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { CLI, REPO_ROOT } from "./_helpers.ts";
import { startDaemon } from "./_daemon.ts";
import { checkBigOutput } from "./_big_output.ts";
import {
  type Browser,
  checkPageWorks,
  launchChromium,
  PAGE_WORKS,
} from "./_web.ts";
import {
  callThroughPlugin,
  checkCallsBeeuniTool,
  checkCallsProjectTool,
  type CheckResult,
  Checks,
  matrixProject,
  NODE_20,
  NODE_20_REFUSAL,
  nodeBin,
  removeMatrixTemplate,
  reportChecks,
  runArgv,
  RUNTIMES,
  type TestRuntime,
} from "./_runtimes.ts";

/** Builds the bundle with the task and copies it alone into a fresh folder. */
async function buildBundle(dir: string): Promise<string> {
  const out = await runArgv(
    [Deno.execPath(), "task", "--quiet", "build:bundle"],
    REPO_ROOT,
  );
  assert.equal(out.code, 0, out.stderr);
  const bundle = join(dir, "beeuni.js");
  await copyFile(join(REPO_ROOT, "dist", "beeuni.js"), bundle);
  return bundle;
}

async function scenario(
  rt: TestRuntime,
  bundle: string,
  cache: string,
  browser: Browser,
): Promise<Checks> {
  const checks = new Checks();
  const argv = [...await rt.argv(), bundle];
  await using project = await matrixProject();
  const dir = project.dir;
  const env = { XDG_CACHE_HOME: cache };
  const run = (...args: string[]) => runArgv([...argv, ...args], dir, env);
  const daemonArgv = [...argv, "daemon", "--dir", dir, "--port", "0"];
  await checks.check("validate", async () => {
    const out = await run("validate");
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, "beeuni.yaml is valid\n");
  });
  await checks.check(
    "tools call runs a project tool",
    () => checkCallsProjectTool(run),
  );
  await checks.check(
    "tools call runs a Beeuni tool",
    () => checkCallsBeeuniTool(run),
  );
  await checks.check(
    "the daemon serves a project tool and a Beeuni tool over HTTP and through its opencode plugin",
    async () => {
      await using daemon = await startDaemon(dir, {
        argv: daemonArgv,
        env,
      });
      // The plugin's code is the bundle's own function text.
      await callThroughPlugin(dir);
      const call = (name: string, args: Record<string, unknown>) =>
        daemon.call(name, { args, sessionId: "s1", agent: "beeuni" });
      const counted = await call("word_count", { text: "one two one" });
      assert.equal(JSON.parse(String(counted.body.output)).distinct_words, 2);
      const created = await call("memory", {
        command: "create",
        path: "/memories/n.md",
        file_text: "note",
      });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      assert.equal(
        await Deno.readTextFile(join(dir, "memory", "n.md")),
        "note",
      );
      if (rt.kind === "bun") {
        // The command the Bun advice names for a bundle (checked below).
        assert.deepEqual((await call("bun_shell", { text: "hi" })).body, {
          output: "hi",
        });
      }
      assert.equal(await daemon.stop(), 0, daemon.stderr());
    },
  );
  await checks.check(
    PAGE_WORKS,
    () => checkPageWorks(browser, dir, { argv: daemonArgv, env }),
  );
  await checks.check(
    "the daemon's runner cuts and saves a 20 MB output itself (T6)",
    async () => {
      await using daemon = await startDaemon(dir, {
        argv: [...daemonArgv, "--no-opencode"],
        env,
      });
      await checkBigOutput(daemon, "big_output", 20);
    },
  );
  if (rt.kind !== "bun") {
    await checks.check(
      "a Bun-API tool's advice names `bun <bundle> daemon --dir <project>`",
      async () => {
        const out = await run("tools", "call", "bun_file");
        assert.equal(out.code, 1);
        assert.match(
          out.stdout + out.stderr,
          new RegExp(
            `start it with Bun instead, \`bun ${bundle} daemon --dir ${dir}\``,
          ),
        );
      },
    );
  }
  await checks.check(
    "tools eject writes the Beeuni tool's exact source bytes (E1)",
    async () => {
      const out = await run("tools", "eject", "show");
      assert.equal(out.code, 0, out.stderr);
      assert.deepEqual(
        await Deno.readFile(join(dir, "tools", "show.ts")),
        await Deno.readFile(join(REPO_ROOT, "builtin_tools", "show.ts")),
      );
    },
  );
  return checks;
}

/** Node.js 20 is refused before anything runs: by the bundle, and by Node.js itself for the source `.ts`. */
async function refusal(bundle: string): Promise<CheckResult[]> {
  const checks = new Checks();
  await checks.check(
    "is refused with a message naming the version needed",
    async () => {
      const node20 = await nodeBin(NODE_20);
      const out = await runArgv([node20, bundle, "validate"], dirname(bundle));
      assert.equal(out.code, 1);
      assert.equal(out.stderr, NODE_20_REFUSAL);
      assert.equal(out.stdout, "");
    },
  );
  await checks.check(
    "node cli.ts fails in Node.js itself, before any of the toolkit's code runs",
    async () => {
      const node20 = await nodeBin(NODE_20);
      const out = await runArgv([node20, CLI, "validate"], dirname(bundle));
      assert.equal(out.code, 1);
      assert.match(
        out.stderr,
        /TypeError \[ERR_UNKNOWN_FILE_EXTENSION\]: Unknown file extension "\.ts" for .*\/cli\.ts\n/,
      );
    },
  );
  return checks.results;
}

Deno.test("the single-file bundle runs the CLI, the daemon, its web UI and the Beeuni tools under Deno, Node.js and Bun from any folder, and refuses Node.js 20 (N1, N2, W1)", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_bundle_" });
  const browser: Browser = await launchChromium();
  try {
    const bundle = await buildBundle(dir);
    const cache = join(dir, "cache");
    await Promise.all(RUNTIMES.map((rt) => rt.argv()));
    const runs = await Promise.all(RUNTIMES.map(async (rt) => ({
      label: rt.label,
      results: (await scenario(rt, bundle, cache, browser)).results,
    })));
    runs.push({ label: `Node.js ${NODE_20}`, results: await refusal(bundle) });
    await reportChecks(t, runs);
    // The Beeuni tools were written once, to the toolkit's cache folder only.
    const [folder, ...more] = await readdir(
      join(cache, "beeuni", "builtin_tools"),
    );
    assert.deepEqual(more, []);
    assert.deepEqual(
      (await readdir(join(cache, "beeuni", "builtin_tools", folder))).sort(),
      [
        "image_search.ts",
        "memory.ts",
        "scrape_webpage.ts",
        "show.ts",
        "web_search.ts",
      ],
    );
  } finally {
    await browser.close();
    await removeMatrixTemplate();
    await Deno.remove(dir, { recursive: true });
  }
});
