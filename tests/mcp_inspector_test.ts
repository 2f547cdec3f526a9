// The MCP Inspector's command line (@modelcontextprotocol/inspector 2.12.0,
// under Node 22 from npm) against the daemon's /mcp and against
// `beeuni mcp`: list, call a project tool and `memory`, a tool error (exit
// 5), the stateless revision, and `--strict` on the starter project.

import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, type RunResult } from "./_helpers.ts";
import { mcpCommand, mcpDaemon, nodeBin, run, tempProject } from "./_mcp.ts";
import { npmPackage } from "./_npm_cache.ts";

/** Runs the Inspector's CLI with `args` and JSON output. */
type Inspector = (args: string[]) => Promise<RunResult>;

async function inspector(): Promise<Inspector> {
  const [node, modules] = await Promise.all([
    nodeBin(),
    npmPackage("@modelcontextprotocol/inspector", "2.12.0"),
  ]);
  const launcher = join(
    modules,
    "@modelcontextprotocol/inspector/clients/launcher/build/index.js",
  );
  return async (args) => {
    // It keeps a catalog in ~/.mcp-inspector: a home of its own.
    const home = await Deno.makeTempDir({ prefix: "beeuni_inspector_" });
    try {
      return await run(node, [launcher, "--cli", ...args, "--format", "json"], {
        env: { HOME: home, NO_COLOR: "1" },
      });
    } finally {
      await Deno.remove(home, { recursive: true });
    }
  };
}

function json(ran: RunResult) {
  try {
    return JSON.parse(ran.stdout);
  } catch {
    throw new Error(
      `not JSON (exit ${ran.code}):\n${ran.stdout}\n${ran.stderr}`,
    );
  }
}

/** Has `memory` create `path` holding `text` through `target`; checks the file in `dir`. */
async function createMemory(
  cli: Inspector,
  target: string[],
  dir: string,
  path: string,
  text: string,
): Promise<void> {
  const memory = await cli([
    ...target,
    "--method",
    "tools/call",
    "--tool-name",
    "memory",
    "--tool-args-json",
    JSON.stringify({ command: "create", path, file_text: text }),
  ]);
  assert.equal(memory.code, 0, memory.stderr);
  assert.equal(await Deno.readTextFile(join(dir, "memory", path)), text);
}

/** Calls the `fails` tool through `target`, checks exit 5 (a tool error) and returns the answer. */
async function callFails(
  cli: Inspector,
  target: string[],
): Promise<RunResult> {
  const failed = await cli([
    ...target,
    "--method",
    "tools/call",
    "--tool-name",
    "fails",
  ]);
  assert.equal(failed.code, 5);
  return failed;
}

Deno.test("the Inspector CLI lists and calls tools over /mcp, 2025-11-25 and 2026-07-28, and gets exit 5 for a tool error", async () => {
  const cli = await inspector();
  await using daemon = await mcpDaemon();
  const target = [
    `${daemon.url}/mcp`,
    "--transport",
    "http",
    "--header",
    `Authorization: Bearer ${daemon.token}`,
  ];
  for (const era of ["legacy", "modern"]) {
    const eraArgs = ["--protocol-era", era];
    const list = await cli([...target, ...eraArgs, "--method", "tools/list"]);
    assert.equal(list.code, 0, list.stderr);
    const names = json(list).result.tools.map((t: { name: string }) => t.name);
    assert.ok(names.includes("echo") && names.includes("memory"), era);
    const echo = await cli([
      ...target,
      ...eraArgs,
      "--method",
      "tools/call",
      "--tool-name",
      "echo",
      "--tool-args-json",
      `{"text":"inspected ${era}"}`,
    ]);
    assert.equal(echo.code, 0, echo.stderr);
    assert.deepEqual(json(echo).result.content, [
      { type: "text", text: `inspected ${era}` },
    ]);
  }
  await createMemory(cli, target, daemon.dir, "inspector.md", "noted");
  const failed = await callFails(cli, target);
  assert.deepEqual(json(failed).result, {
    content: [{ type: "text", text: "the order A-1 does not exist" }],
    isError: true,
  });
  const refused = await cli([
    `${daemon.url}/mcp`,
    "--transport",
    "http",
    "--method",
    "tools/list",
  ]);
  assert.equal(refused.code, 3, "no token: the Inspector's auth exit code");
});

Deno.test("the Inspector CLI drives beeuni mcp over stdio", async () => {
  const cli = await inspector();
  await using project = await tempProject();
  const target = mcpCommand(project.dir, "--no-watch");
  const list = await cli([...target, "--method", "tools/list"]);
  assert.equal(list.code, 0, list.stderr);
  assert.ok(
    json(list).result.tools.some((t: { name: string }) => t.name === "whoami"),
  );
  await createMemory(cli, target, project.dir, "stdio.md", "over stdio");
  await callFails(cli, target);
});

Deno.test("the Inspector's --strict finds no schema problem in the starter project's tools", async () => {
  const cli = await inspector();
  await using daemon = await mcpDaemon({
    source: join(REPO_ROOT, "examples/starter"),
  });
  const strict = await cli([
    `${daemon.url}/mcp`,
    "--transport",
    "http",
    "--header",
    `Authorization: Bearer ${daemon.token}`,
    "--method",
    "tools/list",
    "--strict",
  ]);
  assert.equal(strict.code, 0, strict.stderr);
  const report = json(strict);
  assert.equal(report.result.tools.length, 8);
  // --strict puts each problem (errors and warnings) in schemaFindings.
  assert.deepEqual(report.schemaFindings ?? [], []);
  assert.doesNotMatch(strict.stderr, /error|warning/i);
});
