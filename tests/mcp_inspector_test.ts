// The MCP Inspector's command line (@modelcontextprotocol/inspector 2.12.0,
// under Node 22 from npm) against the daemon's /mcp and against
// `beeuni mcp`: list, call a project tool and `memory`, a tool error (exit
// 5), the stateless revision, and `--strict` on the starter project.

import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT, type RunResult } from "./_helpers.ts";
import {
  mcpCommand,
  mcpDaemon,
  nodeBin,
  npmPackage,
  run,
  tempProject,
} from "./_mcp.ts";

async function inspector(): Promise<(args: string[]) => Promise<RunResult>> {
  const [node, install] = await Promise.all([
    nodeBin(),
    npmPackage("@modelcontextprotocol/inspector", "2.12.0"),
  ]);
  const launcher = join(
    install,
    "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
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
  const memory = await cli([
    ...target,
    "--method",
    "tools/call",
    "--tool-name",
    "memory",
    "--tool-args-json",
    '{"command":"create","path":"inspector.md","file_text":"noted"}',
  ]);
  assert.equal(memory.code, 0, memory.stderr);
  assert.equal(
    await Deno.readTextFile(join(daemon.dir, "memory/inspector.md")),
    "noted",
  );
  const failed = await cli([
    ...target,
    "--method",
    "tools/call",
    "--tool-name",
    "fails",
  ]);
  assert.equal(failed.code, 5);
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
  const memory = await cli([
    ...target,
    "--method",
    "tools/call",
    "--tool-name",
    "memory",
    "--tool-args-json",
    '{"command":"create","path":"stdio.md","file_text":"over stdio"}',
  ]);
  assert.equal(memory.code, 0, memory.stderr);
  assert.equal(
    await Deno.readTextFile(join(project.dir, "memory/stdio.md")),
    "over stdio",
  );
  const failed = await cli([
    ...target,
    "--method",
    "tools/call",
    "--tool-name",
    "fails",
  ]);
  assert.equal(failed.code, 5);
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
