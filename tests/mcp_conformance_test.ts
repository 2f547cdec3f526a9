// The official MCP conformance suite (@modelcontextprotocol/conformance
// 0.1.16, server mode, every scenario) against a real daemon serving the
// fixture project, whose tools are the suite's fixture tools. The suite
// cannot send an Authorization header: a TCP proxy in front of the daemon
// adds it and forwards every other byte (Host and Origin included), so the
// daemon's own token and Host checks stay on.

import assert from "node:assert/strict";
import { join } from "node:path";
import { headerProxy, MCP_FIXTURES, mcpDaemon, nodeBin, run } from "./_mcp.ts";
import { npmPackage } from "./_npm_cache.ts";

const PASSING = [
  "server-initialize",
  "logging-set-level",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-error",
  "tools-call-with-progress",
  "json-schema-2020-12",
  "server-sse-polling",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];

Deno.test("the MCP conformance suite passes every scenario a tools-only server can, the rest are listed with reasons (C1-C3)", async () => {
  const [node, suite] = await Promise.all([
    nodeBin(),
    npmPackage("@modelcontextprotocol/conformance", "0.1.16"),
  ]);
  await using daemon = await mcpDaemon();
  await using proxy = headerProxy(
    daemon.port,
    `Authorization: Bearer ${daemon.token}`,
  );
  const results = await Deno.makeTempDir({ prefix: "beeuni_conformance_" });
  try {
    const out = await run(node, [
      join(suite, "@modelcontextprotocol/conformance/dist/index.js"),
      "server",
      "--url",
      `${proxy.url}/mcp`,
      "--suite",
      "all",
      "--expected-failures",
      join(MCP_FIXTURES, "conformance_expected_failures.yaml"),
    ], { cwd: results, env: { HOME: results, NO_COLOR: "1" } });
    const report = out.stdout + out.stderr;
    assert.equal(out.code, 0, report);
    assert.match(report, /Baseline check passed: all failures are expected/);
    for (const scenario of PASSING) {
      assert.match(
        report,
        new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`),
        `${scenario} did not pass:\n${report}`,
      );
    }
  } finally {
    await Deno.remove(results, { recursive: true });
  }
  // The suite's requests went through the daemon's checks: its foreign Host
  // was refused there.
  assert.match(
    daemon.stderr(),
    /\[http\] 421 POST \/mcp: Host header is not a loopback name/,
  );
});
