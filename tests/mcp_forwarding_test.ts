// Progress and images beyond MCP: the daemon's HTTP tool route streams
// progress as server-sent events when asked, and passes content blocks on;
// the opencode plugin shows progress through ctx.metadata and attaches the
// images (real opencode handing them to a model: mcp_clients_test.ts).

import assert from "node:assert/strict";
import { join } from "node:path";
import { eventReader, mcpDaemon, waitForFile } from "./_mcp.ts";
import { loadPluginFile, pluginContext } from "./_opencode.ts";

const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

const CALL = { args: {}, sessionId: "s-1", agent: "build" };

Deno.test("POST /beeuni/tools/<name> with Accept: text/event-stream streams progress, then the result with its status", async () => {
  await using daemon = await mcpDaemon();
  const post = (name: string, body: Record<string, unknown>, accept?: string) =>
    daemon.fetch(`/beeuni/tools/${name}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(accept ? { accept } : {}),
      },
      body: JSON.stringify({ ...CALL, ...body }),
    });
  const streamed = await post("steps", { args: { n: 3 } }, "text/event-stream");
  assert.equal(streamed.headers.get("content-type"), "text/event-stream");
  const text = await streamed.text();
  const events = text.trim().split("\n\n").map((block) => ({
    event: /^event: (.*)$/m.exec(block)?.[1],
    data: JSON.parse(/^data: (.*)$/m.exec(block)![1]),
  }));
  assert.deepEqual(events, [
    ...[1, 2, 3].map((i) => ({
      event: "progress",
      data: { progress: i, total: 3, message: `step ${i} of 3` },
    })),
    { event: "result", data: { status: 200, output: "did 3 steps" } },
  ]);
  const missing = await (await post("nope", {}, "text/event-stream")).text();
  assert.match(
    missing,
    /event: result\ndata: \{"status":404,"error":"no tool named nope is loaded"\}/,
  );
  // Without the Accept header, the JSON answer of before; content blocks ride along.
  const image = await post("test_image_content", {});
  assert.equal(
    image.headers.get("content-type"),
    "application/json; charset=utf-8",
  );
  assert.deepEqual(await image.json(), {
    output: "[image: image/png, 70 bytes]",
    content: [{ type: "image", data: PNG_1X1, mimeType: "image/png" }],
  });
  // Closing the stream aborts the call.
  const hang = await post(
    "hang",
    { args: { tag: "route" } },
    "text/event-stream",
  );
  const reader = eventReader(hang);
  await waitForFile(join(daemon.dir, "started-route"));
  await reader.cancel();
  await waitForFile(join(daemon.dir, "aborted-route"));
});

Deno.test("the opencode plugin shows progress through ctx.metadata and attaches returned images", async () => {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_plugin_" });
  try {
    // The daemon writes its plugin into `dir`; the test loads it as opencode does.
    await using _daemon = await mcpDaemon({ opencodeConfigDir: dir });
    const hooks = await loadPluginFile(join(dir, "plugins", "beeuni.ts"));
    const titles: unknown[] = [];
    const ctx = {
      ...pluginContext(),
      metadata: (input: unknown) => titles.push(input),
    };
    assert.equal(await hooks.tool.steps.execute({ n: 2 }, ctx), "did 2 steps");
    assert.deepEqual(titles, [
      {
        title: "step 1 of 2 (1/2)",
        metadata: { progress: 1, total: 2, message: "step 1 of 2" },
      },
      {
        title: "step 2 of 2 (2/2)",
        metadata: { progress: 2, total: 2, message: "step 2 of 2" },
      },
    ]);
    assert.deepEqual(await hooks.tool.test_image_content.execute({}, ctx), {
      output: "[image: image/png, 70 bytes]",
      attachments: [{
        type: "file",
        mime: "image/png",
        url: `data:image/png;base64,${PNG_1X1}`,
        filename: "image-1",
      }],
    });
    assert.equal(
      await hooks.tool.echo.execute({ text: "plain" }, ctx),
      "plain",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
