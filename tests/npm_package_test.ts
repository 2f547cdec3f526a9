// The npm package for Node.js users (N2): `deno task build:npm` builds it,
// `npm pack` packs it, and a throwaway project installs the tarball and runs
// `npx beeuni` under Node.js 22, its daemon, the library's entry points, its
// typed errors and its types.

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

const CONSUMER = `import {
  loadProject,
  ManifestNotFoundError,
  type Tool,
} from "@beeuni/tools";
import type { ToolsJson } from "@beeuni/tools/manifest";
import { DEFAULT_TIMEOUT_MS } from "@beeuni/tools/host";
import type { HandlerOptions } from "@beeuni/tools/http";
import type { McpHttpOptions } from "@beeuni/tools/mcp";
import type { WebOptions } from "@beeuni/tools/web";
import type { OpencodeConfigOptions } from "@beeuni/tools/opencode";
import { SecretStoreError } from "@beeuni/tools/secrets";
import type { Runtime } from "@beeuni/tools/runtime";
import { PortInUseError } from "@beeuni/tools/daemon";
import type { Command } from "@beeuni/tools/cli";
// @ts-expect-error: what only the CLI uses is on none of the package's faces
import { V7_MESSAGE } from "@beeuni/tools/manifest";

const tool: Tool = {
  description: "Says hi",
  parameters: { type: "object" },
  execute: () => "hi",
};
const project = await loadProject({ cwd: "." });
const names: string[] = project.toolSet.tools.map((t) => t.name);
// @ts-expect-error: the tool set is not a number (the types are real, not any)
const wrong: number = project.toolSet;
const inUse = new PortInUseError("taken", { hostname: "127.0.0.1", port: 1 });
const where: string = new ManifestNotFoundError("none", "/").path;
const store: string = new SecretStoreError("broken", "/s.json").path;
const used: Array<
  ToolsJson | HandlerOptions | McpHttpOptions | WebOptions
  | OpencodeConfigOptions | Runtime | Command
> = [];
console.log(tool.description, names.length, wrong, inUse.port, where, store);
console.log(DEFAULT_TIMEOUT_MS, used, V7_MESSAGE);
`;

/**
 * Under Node.js, in the installed project: imports every entry point of
 * the package's `exports` and lists the values each exports; then meets a
 * `ManifestNotFoundError` (a folder with no project) and a
 * `PortInUseError` (a port another server holds) and reports what
 * `instanceof`, `name` and `cause` say of them.
 */
const FACES = `import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";

const pkg = JSON.parse(
  readFileSync("node_modules/@beeuni/tools/package.json", "utf8"),
);
const loaded = {};
for (const subpath of Object.keys(pkg.exports)) {
  const specifier = "@beeuni/tools" + subpath.slice(1);
  loaded[subpath] = Object.keys(await import(specifier)).sort();
}
const { loadProject, ManifestNotFoundError } = await import("@beeuni/tools");
const { ListenError, PortInUseError, startDaemon } = await import(
  "@beeuni/tools/daemon"
);
const empty = mkdtempSync(join(tmpdir(), "beeuni_faces_"));
let notFound;
try {
  await loadProject({ cwd: empty });
} catch (error) {
  notFound = {
    typed: error instanceof ManifestNotFoundError && error instanceof Error,
    name: error.name,
    path: error.path === empty,
  };
}
const holder = createServer();
await new Promise((resolve) => holder.listen(0, "127.0.0.1", resolve));
const port = holder.address().port;
let inUse;
try {
  await startDaemon(
    {
      dir: process.cwd(),
      port,
      hostname: "127.0.0.1",
      opencode: false,
      tokenFile: join(empty, "token"),
    },
    {
      cwd: process.cwd(),
      env: { ...process.env, XDG_STATE_HOME: join(empty, "state") },
      stdout() {},
      stderr() {},
      readStdin: async () => "",
      color: false,
    },
  );
} catch (error) {
  inUse = {
    typed: error instanceof PortInUseError && error instanceof ListenError,
    name: error.name,
    code: error.cause?.code,
    message: error.message.replace(String(port), "<port>"),
  };
}
holder.close();
console.log(JSON.stringify({ loaded, notFound, inUse }));
`;

/** The values each entry point of deno.json exports under Deno, from source. */
async function sourceFaces(): Promise<Record<string, string[]>> {
  const exports: Record<string, string> = JSON.parse(
    await Deno.readTextFile(join(REPO_ROOT, "deno.json")),
  ).exports;
  const faces: Record<string, string[]> = {};
  for (const [subpath, file] of Object.entries(exports)) {
    faces[subpath] = Object.keys(await import(join(REPO_ROOT, file))).sort();
  }
  return faces;
}

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
    "every entry point imports under Node.js with the values it has from source, and a typed error is told apart with instanceof and carries its cause",
    async () => {
      const out = await run("node", "--input-type=module", "-e", FACES);
      assert.equal(out.code, 0, out.stderr);
      const got = JSON.parse(out.stdout);
      assert.deepEqual(got.loaded, await sourceFaces());
      assert.deepEqual(got.notFound, {
        typed: true,
        name: "ManifestNotFoundError",
        path: true,
      });
      assert.deepEqual(got.inUse, {
        typed: true,
        name: "PortInUseError",
        code: "EADDRINUSE",
        message:
          "cannot listen on 127.0.0.1:<port>: the port is in use (another daemon or program listens there); pass another --port, or --port 0 to pick a free one",
      });
    },
  );
  await checks.check(
    "the package's .d.ts files type a consumer of every entry point (tsc)",
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
