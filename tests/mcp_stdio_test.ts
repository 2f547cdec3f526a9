// `beeuni mcp`: the same MCP server over standard input and output (C4), a
// real `cli.ts mcp` process fed JSON-RPC lines.

import assert from "node:assert/strict";
import { join } from "node:path";
import { CLI } from "./_helpers.ts";
import { StdioServer, tempProject, waitForFile } from "./_mcp.ts";

const init = (id: number, version = "2025-11-25") => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: "stdio-test", version: "1" },
  },
});

Deno.test("beeuni mcp serves the tools over stdio: JSON-RPC lines on stdout, every log on stderr (C4)", async () => {
  await using project = await tempProject();
  const server = new StdioServer(project.dir);
  try {
    await server.send(init(1, "2025-06-18"));
    assert.equal(
      (await server.response(1)).result.protocolVersion,
      "2025-06-18",
    );
    await server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await server.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    const tools = (await server.response(2)).result.tools;
    assert.ok(tools.some((tool: { name: string }) => tool.name === "noisy"));
    await server.send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "noisy" },
    });
    assert.deepEqual((await server.response(3)).result, {
      content: [{ type: "text", text: "printed" }],
    });
    await server.send({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "whoami" },
    });
    const who = (await server.response(4)).result.structuredContent;
    assert.match(who.sessionId, /^mcp-[0-9a-f]{24}$/);
    assert.equal(who.agent, "beeuni");
    await server.send("{ not json");
    assert.equal((await server.find((m) => m.error?.code === -32700)).id, null);
    await server.send({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "fails" },
    });
    assert.equal((await server.response(5)).result.isError, true);
  } finally {
    assert.equal(await server.end(), 0);
  }
  // Every stdout line is a JSON-RPC message; what the tool printed and the
  // logs went to stderr.
  for (const line of server.lines) {
    assert.equal(JSON.parse(line).jsonrpc, "2.0");
  }
  assert.match(server.stderr, /noisy: console\.log/);
  assert.match(server.stderr, /noisy: process\.stdout\.write/);
  assert.match(
    server.stderr,
    /\[mcp\] serving \d+ tools to agent "beeuni" over stdio/,
  );
  assert.match(server.stderr, /\[tools\] call noisy agent=beeuni session=mcp-/);
  assert.match(server.stderr, /\[tools\] project tools that did not load/);
});

Deno.test("beeuni mcp: progress, cancellation, list_changed after an edit, and --agent (C3, C4)", async () => {
  await using project = await tempProject();
  const server = new StdioServer(project.dir);
  const narrow = new StdioServer(project.dir, [
    "--agent",
    "narrow",
    "--no-watch",
  ]);
  try {
    await server.send(init(1));
    await server.response(1);
    await server.send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name: "steps",
        arguments: { n: 3 },
        _meta: { progressToken: "p" },
      },
    });
    await server.response(2);
    const progress = server.lines.map((line) => JSON.parse(line)).filter((m) =>
      m.method === "notifications/progress"
    );
    assert.deepEqual(progress.map((m) => m.params.progress), [1, 2, 3]);
    assert.equal(progress[0].params.progressToken, "p");

    await server.send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "hang", arguments: { tag: "stdio" } },
    });
    await waitForFile(join(project.dir, "started-stdio"));
    await server.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 3 },
    });
    await waitForFile(join(project.dir, "aborted-stdio"));

    const before = server.lines.length;
    const echoFile = join(project.dir, "tools/echo.ts");
    await Deno.writeTextFile(
      echoFile,
      (await Deno.readTextFile(echoFile)).replace(
        "Echo the text back",
        "Echo, edited",
      ),
    );
    await server.find(
      (m) => m.method === "notifications/tools/list_changed",
      before,
    );
    await server.send({ jsonrpc: "2.0", id: 4, method: "tools/list" });
    const tools = (await server.response(4)).result.tools;
    assert.equal(
      tools.find((t: { name: string }) => t.name === "echo").description,
      "Echo, edited",
    );
    // The cancelled call never answered.
    assert.ok(!server.lines.some((line) => JSON.parse(line).id === 3));

    await narrow.send(init(1));
    await narrow.response(1);
    await narrow.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    assert.deepEqual(
      (await narrow.response(2)).result.tools.map((t: { name: string }) =>
        t.name
      ),
      ["echo", "whoami"],
    );
    await narrow.send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "record" },
    });
    assert.deepEqual((await narrow.response(3)).error, {
      code: -32602,
      message: "Tool record not found",
    });
  } finally {
    assert.equal(await server.end(), 0);
    assert.equal(await narrow.end(), 0);
  }
  assert.match(
    server.stderr,
    /\[mcp\] reloaded after a change to tools\/echo\.ts/,
  );
});

Deno.test("beeuni mcp answers what it read before standard input ended, then exits 0; 2026-07-28 per line", async () => {
  await using project = await tempProject();
  const server = new StdioServer(project.dir, ["--no-watch"]);
  await server.send({
    jsonrpc: "2.0",
    id: "d",
    method: "server/discover",
    params: {
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    },
  });
  await server.send({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "steps", arguments: { n: 2, delayMs: 200 } },
  });
  assert.equal(await server.end(), 0);
  const messages = server.lines.map((line) => JSON.parse(line));
  const discover = messages.find((m) => m.id === "d");
  assert.ok(discover.result.supportedVersions.includes("2026-07-28"));
  assert.deepEqual(messages.find((m) => m.id === 1).result, {
    content: [{ type: "text", text: "did 2 steps" }],
  });
});

Deno.test("beeuni mcp refuses a bad --agent and a missing manifest with a clear message", async () => {
  await using project = await tempProject();
  const run = async (args: string[]) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", CLI, "mcp", ...args],
      cwd: project.dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    return {
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
    };
  };
  const bad = await run(["--agent", "a/b"]);
  assert.equal(bad.code, 2);
  assert.equal(bad.stdout, "");
  assert.match(bad.stderr, /--agent must be an agent's name, got "a\/b"/);
  const missing = await run(["--manifest", join(project.dir, "nope.yaml")]);
  assert.equal(missing.code, 1);
  assert.equal(missing.stdout, "");
  assert.match(missing.stderr, /^beeuni mcp: /);
});
