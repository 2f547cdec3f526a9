// Real agent harnesses with the project's tools over MCP, each against a
// local fake model, offline: opencode 1.18.33 with our server in its `mcp`
// config (remote and local), and Claude Code 2.1.328 (`claude mcp add`,
// `claude mcp list`, and one `claude -p` turn).

import assert from "node:assert/strict";
import { join } from "node:path";
import { npmBin } from "./_npm_cache.ts";
import { mcpCommand, mcpDaemon, run } from "./_mcp.ts";
import {
  fakeModel,
  installOpencode,
  type ModelRequest,
  opencodeHome,
  runOpencode,
} from "./_opencode.ts";

const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

Deno.test("opencode runs a turn that calls the project's tools through its mcp config, remote (/mcp) and local (beeuni mcp), and sees a tool's image", async () => {
  await installOpencode();
  await using home = await opencodeHome();
  // The daemon also writes its opencode plugin, which returns images as
  // attachments: opencode hands them to a model that takes images.
  await using daemon = await mcpDaemon({
    opencodeConfigDir: home.configDir,
    env: { XDG_CONFIG_HOME: join(home.dir, "unused") },
  });
  const offered: string[][] = [];
  let followUp: ModelRequest | undefined;
  await using model = fakeModel((request: ModelRequest) => {
    offered.push((request.tools ?? []).map((tool) => tool.function.name));
    const results = request.messages.filter((m) => m.role === "tool");
    if (results.length > 0) {
      followUp = request;
      return { text: `Done: ${JSON.stringify(results.map((m) => m.content))}` };
    }
    return {
      toolCalls: [
        { name: "bee_remote_echo", args: { text: "via remote" } },
        { name: "bee_local_whoami", args: {} },
        { name: "test_image_content", args: {} },
      ],
    };
  });
  await Deno.writeTextFile(
    join(daemon.dir, "opencode.json"),
    JSON.stringify({
      $schema: "https://opencode.ai/config.json",
      provider: {
        fake: {
          npm: "@ai-sdk/openai-compatible",
          name: "Fake",
          options: { baseURL: model.baseURL, apiKey: "x" },
          models: {
            "fake-model": {
              name: "Fake",
              tool_call: true,
              attachment: true,
              modalities: { input: ["text", "image"], output: ["text"] },
            },
          },
        },
      },
      mcp: {
        bee_remote: {
          type: "remote",
          url: `${daemon.url}/mcp`,
          headers: { Authorization: `Bearer ${daemon.token}` },
        },
        bee_local: {
          type: "local",
          command: mcpCommand(daemon.dir, "--no-watch", "--agent", "narrow"),
        },
      },
    }),
  );
  const result = await runOpencode(home, daemon.dir, [
    "run",
    "--model",
    "fake/fake-model",
    "--format",
    "json",
    "go",
  ]);
  assert.equal(result.code, 0, result.stderr);
  const tools = offered.find((names) => names.length > 0) ?? [];
  assert.ok(tools.includes("bee_remote_echo"), tools.join(", "));
  assert.ok(tools.includes("bee_remote_memory"));
  // The local server serves agent narrow: its two tools only.
  assert.deepEqual(tools.filter((name) => name.startsWith("bee_local_")), [
    "bee_local_echo",
    "bee_local_whoami",
  ]);
  const used = Object.fromEntries(
    result.stdout.trim().split("\n").map((line) => JSON.parse(line))
      .filter((event) => event.type === "tool_use")
      .map((event) => [event.part.tool, event.part.state]),
  );
  assert.equal(used.bee_remote_echo?.status, "completed", result.stdout);
  assert.equal(used.bee_remote_echo.output, "via remote");
  assert.equal(used.bee_local_whoami?.status, "completed");
  assert.equal(JSON.parse(used.bee_local_whoami.output).agent, "narrow");
  assert.match(
    daemon.stderr(),
    /\[mcp\] session mcp-[0-9a-f]+… started: agent "beeuni", protocol 2025-11-25/,
  );
  assert.equal(used.test_image_content?.attachments?.[0]?.mime, "image/png");
  assert.ok(
    JSON.stringify(followUp?.messages).includes(
      `"image_url":{"url":"data:image/png;base64,${PNG_1X1}"}`,
    ),
    JSON.stringify(followUp?.messages),
  );
  assert.match(
    daemon.stderr(),
    /\[tools\] call echo agent=beeuni session=mcp-/,
  );
});

/** A fake Anthropic Messages API on 127.0.0.1 that streams answers. */
function fakeAnthropic(
  answer: (body: { tools?: { name: string }[]; messages: unknown[] }) =>
    | { text: string }
    | { tool: string; input: Record<string, unknown> },
) {
  const requests: { tools: string[]; messages: string }[] = [];
  const event = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      if (new URL(request.url).pathname !== "/v1/messages") {
        return new Response("{}", { status: 404 });
      }
      const body = await request.json();
      requests.push({
        tools: (body.tools ?? []).map((tool: { name: string }) => tool.name),
        messages: JSON.stringify(body.messages),
      });
      const reply = answer(body);
      const message = {
        id: `msg_${requests.length}`,
        type: "message",
        role: "assistant",
        model: body.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      };
      let events = event("message_start", { message });
      if ("text" in reply) {
        events += event("content_block_start", {
          index: 0,
          content_block: { type: "text", text: "" },
        });
        events += event("content_block_delta", {
          index: 0,
          delta: { type: "text_delta", text: reply.text },
        });
      } else {
        events += event("content_block_start", {
          index: 0,
          content_block: {
            type: "tool_use",
            id: `toolu_${requests.length}`,
            name: reply.tool,
            input: {},
          },
        });
        events += event("content_block_delta", {
          index: 0,
          delta: {
            type: "input_json_delta",
            partial_json: JSON.stringify(reply.input),
          },
        });
      }
      events += event("content_block_stop", { index: 0 });
      events += event("message_delta", {
        delta: {
          stop_reason: "text" in reply ? "end_turn" : "tool_use",
          stop_sequence: null,
        },
        usage: { output_tokens: 1 },
      });
      events += event("message_stop", {});
      return new Response(events, {
        headers: { "content-type": "text/event-stream" },
      });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

Deno.test("Claude Code: claude mcp list shows /mcp and beeuni mcp connected, and claude -p calls a project tool through MCP", async () => {
  const claude = await npmBin("@anthropic-ai/claude-code", "2.1.328", "claude");
  await using daemon = await mcpDaemon();
  await using model = fakeAnthropic((body) =>
    JSON.stringify(body.messages).includes("tool_result")
      ? { text: "Finished" }
      : { tool: "mcp__bee__echo", input: { text: "from claude" } }
  );
  const home = await Deno.makeTempDir({ prefix: "beeuni_claude_" });
  try {
    const env = {
      HOME: home,
      NO_COLOR: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: "sk-test-offline",
      // Offer MCP tools to the model directly, not behind a tool search.
      ENABLE_TOOL_SEARCH: "false",
    };
    const claudeRun = (args: string[]) =>
      run(claude, args, { cwd: daemon.dir, env });
    const added = await claudeRun([
      "mcp",
      "add",
      "--transport",
      "http",
      "bee",
      `${daemon.url}/mcp`,
      "--header",
      `Authorization: Bearer ${daemon.token}`,
    ]);
    assert.equal(added.code, 0, added.stderr);
    const stdio = await claudeRun([
      "mcp",
      "add",
      "bee-stdio",
      "--",
      ...mcpCommand(daemon.dir, "--no-watch"),
    ]);
    assert.equal(stdio.code, 0, stdio.stderr);
    const list = await claudeRun(["mcp", "list"]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stdout,
      /^bee: http:\/\/127\.0\.0\.1:\d+\/mcp \(HTTP\) - ✔ Connected$/m,
    );
    assert.match(
      list.stdout,
      /^bee-stdio: .* mcp --manifest .* - ✔ Connected$/m,
    );

    const turn = await claudeRun([
      "-p",
      "Echo something with the project's tool.",
      "--output-format",
      "json",
      "--allowedTools",
      "mcp__bee__echo",
      "--strict-mcp-config",
      "--mcp-config",
      JSON.stringify({
        mcpServers: {
          bee: {
            type: "http",
            url: `${daemon.url}/mcp`,
            headers: { Authorization: `Bearer ${daemon.token}` },
          },
        },
      }),
    ]);
    assert.equal(turn.code, 0, turn.stderr);
    assert.equal(JSON.parse(turn.stdout).result, "Finished");
    const [first, second] = model.requests;
    assert.ok(first.tools.includes("mcp__bee__echo"), first.tools.join(", "));
    assert.ok(first.tools.includes("mcp__bee__memory"));
    assert.ok(!first.tools.includes("mcp__bee__broken"));
    assert.match(second.messages, /"tool_result".*from claude/);
    // Claude Code 2.1.328 speaks the stateless revision: server/discover,
    // then a subscriptions/listen stream for list_changed.
    assert.match(
      daemon.stderr(),
      /\[mcp\] subscription started: agent "beeuni", protocol 2026-07-28, tools\/list_changed/,
    );
    assert.match(
      daemon.stderr(),
      /\[tools\] call echo agent=beeuni session=mcp-/,
    );
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
