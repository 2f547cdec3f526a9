// The parameters migrate writes, checked against real opencode 1.18.33:
// the same fixture files in opencode's config folder, listed by
// `opencode serve` at GET /experimental/tool (what the model is handed),
// and the fixture project's tools run by `opencode debug agent --tool`.

import assert from "node:assert/strict";
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beeuni, CLI, runProgram, tempRepo } from "./_helpers.ts";
import {
  FIXTURES,
  migrate,
  PROJECT,
  PROJECT_TOOLS,
  projectParameters,
} from "./_migrate_oracle.ts";
import { npmPackage } from "./_npm_cache.ts";
import {
  opencodeHome,
  parseDebugJson,
  runOpencode,
  serveOpencode,
} from "./_opencode.ts";
import { bunBin } from "./_runtimes.ts";

/** Fixture files and the tools opencode makes of them, with their modules after migrate. */
const CHECKED: Record<string, Record<string, string>> = {
  "database.ts": { database: "tools/database.ts" },
  "severity.ts": { severity: "tools/severity.ts" },
  "defaults.ts": { defaults: "tools/defaults.ts" },
  "raw_schema.ts": { raw_schema: "tools/raw_schema.ts" },
  "math.ts": { math_add: "tools/math_add.ts" },
  "report.ts": { report: "tools/report.ts" },
};

type Listed = { id: string; parameters: unknown }[];

/** Starts `opencode serve` and returns its tool list once `ids` are all in it. */
async function listTools(
  home: Awaited<ReturnType<typeof opencodeHome>>,
  cwd: string,
  ids: string[],
): Promise<Listed> {
  await using server = await serveOpencode(home, cwd);
  // A wait for a loaded machine, not a timing check.
  const deadline = Date.now() + 240_000;
  while (true) {
    if (Date.now() > deadline) {
      throw new Error("opencode serve did not list the tools in time");
    }
    try {
      const response = await fetch(
        `http://127.0.0.1:${server.port}/experimental/tool?provider=anthropic&model=claude-sonnet-4`,
        { signal: AbortSignal.timeout(30_000) },
      );
      if (response.ok) {
        const listed = await response.json() as Listed;
        if (ids.every((id) => listed.some((tool) => tool.id === id))) {
          return listed;
        }
      } else await response.body?.cancel();
    } catch {
      // Not up yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

Deno.test({
  name:
    "the parameters migrate writes equal what opencode serve hands the model for the same files (O3)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using home = await opencodeHome();
    // opencode installs the plugin package into its config folder before it
    // loads tool files; a copy of the tests' install spares it the registry.
    cpSync(
      await npmPackage("@opencode-ai/plugin", "1.18.33"),
      join(home.configDir, "node_modules"),
      { recursive: true },
    );
    writeFileSync(
      join(home.configDir, "package.json"),
      '{ "dependencies": { "@opencode-ai/plugin": "1.18.33" } }\n',
    );
    await using repo = await tempRepo({
      "beeuni.yaml": "tools:\n  memory: beeuni:memory\n",
    });
    const legacy = join(repo.dir, "harnesses/opencode/tools");
    const opencodeTools = join(home.configDir, "tools");
    mkdirSync(legacy, { recursive: true });
    mkdirSync(opencodeTools, { recursive: true });
    for (const file of Object.keys(CHECKED)) {
      copyFileSync(join(FIXTURES, file), join(legacy, file));
      copyFileSync(join(FIXTURES, file), join(opencodeTools, file));
    }
    const result = await migrate(repo.dir);
    assert.equal(result.code, 0, result.stderr);
    const expected = Object.values(CHECKED).flatMap((tools) =>
      Object.entries(tools)
    );
    const listed = await listTools(
      home,
      repo.dir,
      expected.map(([id]) => id),
    );
    for (const [id, module] of expected) {
      const { default: tool } = await import(
        pathToFileURL(join(repo.dir, module)).href
      );
      const served = listed.find((tool) => tool.id === id)!;
      assert.deepEqual(tool.parameters, served.parameters, id);
    }
  },
});

Deno.test({
  name:
    "real opencode loads the fixture project's tools as they are (hyphenated names, .js, extensionless and alias imports, require(), bun:sqlite); each migrated tool has the parameters opencode serve lists for its original (or the difference its check line names) and answers beeuni tools call as the original answers opencode (O3, O4, T1)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using repo = await tempRepo({
      "beeuni.yaml":
        "tools:\n  memory: beeuni:memory\nagents:\n  build:\n    tools: all\n",
    });
    cpSync(PROJECT, repo.dir, { recursive: true });
    const result = await migrate(repo.dir);
    assert.equal(result.code, 0, result.stderr);

    // opencode's config folder is the project's harnesses/opencode; a copy of
    // the tests' plugin install spares opencode the registry.
    const configDir = join(repo.dir, "harnesses/opencode");
    await using home = await opencodeHome({ OPENCODE_CONFIG_DIR: configDir });
    cpSync(
      await npmPackage("@opencode-ai/plugin", "1.18.33"),
      join(configDir, "node_modules"),
      { recursive: true },
    );
    writeFileSync(
      join(configDir, "package.json"),
      '{ "dependencies": { "@opencode-ai/plugin": "1.18.33" } }\n',
    );
    const listed = await listTools(
      home,
      repo.dir,
      PROJECT_TOOLS.map((tool) => tool.opencodeName),
    );
    const bun = await bunBin();
    for (const tool of PROJECT_TOOLS) {
      await t.step(tool.name, async () => {
        const served = listed.find((entry) => entry.id === tool.opencodeName)!;
        const script = join(repo.dir, ".parameters.mjs");
        writeFileSync(
          script,
          `const { default: tool } = await import(${
            JSON.stringify(pathToFileURL(join(repo.dir, tool.module)).href)
          });\nconsole.log(JSON.stringify(tool.parameters));\n`,
        );
        const read = await runProgram(bun, [script], { cwd: repo.dir });
        rmSync(script);
        assert.equal(read.code, 0, read.stderr);
        assert.deepEqual(
          JSON.parse(read.stdout),
          projectParameters(tool, served.parameters as Record<string, unknown>),
        );
        const args = JSON.stringify(tool.calls[0]);
        const original = await runOpencode(home, repo.dir, [
          "debug",
          "agent",
          "build",
          "--tool",
          tool.opencodeName,
          "--params",
          args,
        ]);
        assert.equal(original.code, 0, original.stderr);
        const output = (parseDebugJson(original.stdout) as {
          result: { output: string };
        }).result.output;
        const argv = ["tools", "call", tool.name, "--agent", "build"];
        const migrated = tool.bunOnly
          ? await runProgram(bun, [CLI, ...argv, "--args", args], {
            cwd: repo.dir,
          })
          : await beeuni(repo.dir, [...argv, "--args", args]);
        assert.equal(migrated.stderr, "");
        assert.equal(migrated.stdout, `${output}\n`);
      });
    }
  },
});
