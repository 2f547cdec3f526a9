// MCP over the daemon's Streamable HTTP endpoint, spoken by hand over fetch
// so that every status, header and JSON-RPC body is what the test asserts:
// a real daemon process on a real port serving the fixture project.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { rawRequest, waitFor as waitForCheck } from "./_daemon.ts";

const waitFor = (check: () => boolean) =>
  waitForCheck("the daemon's log", check);
import {
  eventReader,
  MCP_PROJECT,
  mcpDaemon,
  RawMcp,
  rpcBody,
  rpcMessages,
  statelessPost,
  stepsAnswers,
  waitForFile,
} from "./_mcp.ts";

// The tool set's order: the Beeuni tools, then the project's as declared.
const LISTED = [
  "memory",
  "show",
  "echo",
  "whoami",
  "steps",
  "hang",
  "spin",
  "big",
  "fails",
  "record",
  "noisy",
  "test_simple_text",
  "test_image_content",
  "test_audio_content",
  "test_embedded_resource",
  "test_multiple_content_types",
  "test_error_handling",
  "test_tool_with_progress",
  "json_schema_2020_12_tool",
];

Deno.test("the daemon serves MCP at /mcp: versions, tools/list, tools/call, sessions (C1, C2)", async (t) => {
  await using daemon = await mcpDaemon();
  const mcp = new RawMcp(`${daemon.url}/mcp`, daemon.token);

  await t.step(
    "initialize starts a session named by Mcp-Session-Id in each revision served (its answer over both transports: mcp_protocol_test.ts)",
    async () => {
      for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
        const client = new RawMcp(mcp.url, daemon.token);
        const result = await client.initialize(version);
        assert.equal(result.protocolVersion, version);
        assert.match(client.sessionId ?? "", /^mcp-[0-9a-f]{24}$/);
      }
      await mcp.initialize();
    },
  );

  await t.step(
    "tools/list gives every loaded tool in manifest order, inputSchema as the module wrote it (T8)",
    async () => {
      const { result } = await mcp.request("tools/list");
      assert.deepEqual(
        result.tools.map((tool: { name: string }) => tool.name),
        LISTED,
      );
      for (const tool of result.tools) {
        const module = await import(
          pathToFileURL(join(MCP_PROJECT, "tools", `${tool.name}.ts`)).href
        ).catch(() => undefined);
        if (!module) continue; // memory and show are Beeuni tools
        assert.equal(
          JSON.stringify(tool.inputSchema),
          JSON.stringify(module.default.parameters),
        );
        assert.equal(tool.description, module.default.description);
      }
      assert.ok(
        !result.tools.some((tool: { name: string }) => tool.name === "broken"),
      );
      assert.equal(result.nextCursor, undefined);
    },
  );

  await t.step(
    "tools/call: text, an object as structuredContent too, a thrown error as isError",
    async () => {
      assert.deepEqual(
        (await mcp.request("tools/call", {
          name: "echo",
          arguments: { text: "hi" },
        })).result,
        { content: [{ type: "text", text: "hi" }] },
      );
      const record = (await mcp.request("tools/call", {
        name: "record",
        arguments: { id: "A-1" },
      })).result;
      const value = { id: "A-1", total: 3, tags: ["a", "b"] };
      assert.deepEqual(record, {
        content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
        structuredContent: value,
      });
      assert.deepEqual(
        (await mcp.request("tools/call", { name: "fails" })).result,
        {
          content: [{ type: "text", text: "the order A-1 does not exist" }],
          isError: true,
        },
      );
      const image =
        (await mcp.request("tools/call", { name: "test_image_content" }))
          .result;
      assert.equal(image.content[0].type, "image");
      assert.equal(image.content[0].mimeType, "image/png");
    },
  );

  await t.step(
    "an output over a T6 limit is cut and links the saved file (T6)",
    async () => {
      const { result } = await mcp.request("tools/call", { name: "big" });
      assert.equal(result.content.length, 2);
      const [text, link] = result.content;
      assert.equal(text.type, "text");
      assert.match(text.text, /^line 1\n/);
      assert.match(
        text.text,
        /\[output truncated: showing the first \d+ of 5000 lines/,
      );
      assert.equal(link.type, "resource_link");
      assert.equal(link.mimeType, "text/plain");
      const path = fileURLToPath(link.uri);
      assert.ok(text.text.includes(path));
      assert.equal(link.size, readFileSync(path).length);
      assert.equal(readFileSync(path, "utf8").split("\n").length, 5000);
      assert.equal(result.structuredContent, undefined);
    },
  );

  await t.step(
    "context.sessionId is the MCP session id, context.agent the endpoint's agent",
    async () => {
      const { result } = await mcp.request("tools/call", { name: "whoami" });
      assert.deepEqual(result.structuredContent, {
        sessionId: mcp.sessionId,
        agent: "beeuni",
      });
    },
  );

  await t.step(
    "unknown tools and methods are JSON-RPC errors; ping and logging/setLevel answer {}",
    async () => {
      assert.deepEqual(
        (await mcp.request("tools/call", { name: "nope" })).error,
        {
          code: -32602,
          message: "Tool nope not found",
        },
      );
      assert.deepEqual((await mcp.request("ping")).result, {});
      assert.deepEqual(
        (await mcp.request("logging/setLevel", { level: "debug" })).result,
        {},
      );
      for (
        const method of [
          "resources/list",
          "prompts/list",
          "completion/complete",
          "server/discover",
        ]
      ) {
        const { error } = await mcp.request(method);
        assert.deepEqual(error, {
          code: -32601,
          message: `Method not found: ${method}`,
        });
      }
    },
  );

  await t.step("DELETE ends the session; its id then gets 404", async () => {
    const client = new RawMcp(mcp.url, daemon.token);
    await client.initialize();
    const response = await fetch(client.url, {
      method: "DELETE",
      headers: {
        authorization: `Bearer ${daemon.token}`,
        "mcp-session-id": client.sessionId!,
      },
    });
    assert.equal(response.status, 200);
    await response.body?.cancel();
    const after = await client.post({ jsonrpc: "2.0", id: 1, method: "ping" });
    assert.equal(after.status, 404);
    assert.equal((await after.json()).error.code, -32001);
  });
});

Deno.test("/mcp/narrow lists only the agent's tools and refuses a hidden one exactly like an unknown one (C2, A2)", async () => {
  await using daemon = await mcpDaemon();
  const narrow = new RawMcp(`${daemon.url}/mcp/narrow`, daemon.token);
  await narrow.initialize();
  const { result } = await narrow.request("tools/list");
  assert.deepEqual(result.tools.map((tool: { name: string }) => tool.name), [
    "echo",
    "whoami",
  ]);
  const hidden = await narrow.request("tools/call", { name: "record" });
  const unknown = await narrow.request("tools/call", { name: "nope" });
  assert.deepEqual(hidden.error, {
    code: -32602,
    message: "Tool record not found",
  });
  assert.deepEqual(unknown.error, {
    code: -32602,
    message: "Tool nope not found",
  });
  const who = await narrow.request("tools/call", { name: "whoami" });
  assert.equal(who.result.structuredContent.agent, "narrow");
  // A session belongs to its endpoint.
  const other = new RawMcp(`${daemon.url}/mcp`, daemon.token);
  other.sessionId = narrow.sessionId;
  const crossed = await other.post({ jsonrpc: "2.0", id: 1, method: "ping" });
  assert.equal(crossed.status, 404);
  await crossed.body?.cancel();
  // A percent-encoded agent name is decoded.
  const encoded = new RawMcp(
    `${daemon.url}/mcp/${encodeURIComponent("narrow")}`,
    daemon.token,
  );
  await encoded.initialize();
  assert.equal((await encoded.request("tools/list")).result.tools.length, 2);
});

Deno.test("notifications/cancelled and a closed request abort context.signal; a spinning tool is stopped while others answer (C3, T5)", async () => {
  await using daemon = await mcpDaemon();
  const mcp = new RawMcp(`${daemon.url}/mcp`, daemon.token);
  await mcp.initialize();

  const pending = mcp.post({
    jsonrpc: "2.0",
    id: "hang-1",
    method: "tools/call",
    params: { name: "hang", arguments: { tag: "cancelled" } },
  });
  await waitForFile(join(daemon.dir, "started-cancelled"));
  const note = await mcp.post({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: "hang-1", reason: "user stopped" },
  });
  assert.equal(note.status, 202);
  await waitForFile(join(daemon.dir, "aborted-cancelled"));
  // A call still running after 100 ms answers as an event stream; once
  // cancelled, it ends without a response (the spec's rule for cancelled
  // requests). Cancelled before its switch (a slow machine), the JSON
  // answer it must still send is the aborted result.
  const cancelledResponse = await pending;
  const streamed = cancelledResponse.headers.get("content-type") ===
    "text/event-stream";
  assert.deepEqual(
    await rpcMessages(cancelledResponse),
    streamed ? [] : [{
      jsonrpc: "2.0",
      id: "hang-1",
      result: {
        content: [{
          type: "text",
          text: 'the call to tool "hang" was aborted',
        }],
        isError: true,
      },
    }],
  );

  const controller = new AbortController();
  const closed = fetch(mcp.url, {
    method: "POST",
    signal: controller.signal,
    headers: {
      authorization: `Bearer ${daemon.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-session-id": mcp.sessionId!,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "hang", arguments: { tag: "closed-stream" } },
    }),
  }).catch(() => undefined);
  await waitForFile(join(daemon.dir, "started-closed-stream"));
  controller.abort();
  await closed;
  await waitForFile(join(daemon.dir, "aborted-closed-stream"));

  const spinning = mcp.post({
    jsonrpc: "2.0",
    id: "spin-1",
    method: "tools/call",
    params: { name: "spin", arguments: { tag: "http" } },
  });
  await waitForFile(join(daemon.dir, "spinning-http"));
  assert.deepEqual(
    (await mcp.request("tools/call", {
      name: "echo",
      arguments: { text: "still here" },
    })).result,
    { content: [{ type: "text", text: "still here" }] },
  );
  await mcp.post({
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: "spin-1" },
  });
  const spun = await spinning;
  if (spun.headers.get("content-type") === "text/event-stream") {
    assert.deepEqual(await rpcMessages(spun), []);
  } else assert.equal((await rpcBody(spun)).result.isError, true);
  await waitFor(() =>
    /call spin agent=beeuni .* aborted/.test(daemon.stderr())
  );
  // The blocked runner was stopped and replaced.
  await waitFor(() =>
    /spin: runner replaced: .*stopped answering/.test(daemon.stderr())
  );
});

Deno.test("progress: a tools/call with a progressToken streams notifications/progress then the result (C3)", async () => {
  await using daemon = await mcpDaemon();
  const mcp = new RawMcp(`${daemon.url}/mcp`, daemon.token);
  await mcp.initialize();
  const response = await mcp.post({
    jsonrpc: "2.0",
    id: 9,
    method: "tools/call",
    params: {
      name: "steps",
      arguments: { n: 3 },
      _meta: { progressToken: "tok" },
    },
  });
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  const messages = await rpcMessages(response);
  assert.deepEqual(messages, stepsAnswers(9, "tok", 3));
  // A call without a token that runs past 100 ms is answered as a stream
  // holding just its result (so that a client leaving is seen).
  const long = await mcp.post({
    jsonrpc: "2.0",
    id: 11,
    method: "tools/call",
    params: { name: "steps", arguments: { n: 3, delayMs: 80 } },
  });
  assert.equal(long.headers.get("content-type"), "text/event-stream");
  assert.deepEqual(await rpcMessages(long), [
    {
      jsonrpc: "2.0",
      id: 11,
      result: { content: [{ type: "text", text: "did 3 steps" }] },
    },
  ]);
  // When the client takes JSON only: one JSON answer, without progress.
  const plain = await mcp.post({
    jsonrpc: "2.0",
    id: 10,
    method: "tools/call",
    params: { name: "steps", arguments: { n: 2 }, _meta: { progressToken: 5 } },
  }, { accept: "application/json" });
  assert.equal(plain.headers.get("content-type"), "application/json");
  assert.deepEqual((await plain.json()).result.content[0].text, "did 2 steps");
});

Deno.test("a reload that changes an agent's list sends list_changed on its GET stream only; calls in flight finish (C3, D5)", async () => {
  await using daemon = await mcpDaemon();
  const open = async (path: string) => {
    const client = new RawMcp(`${daemon.url}${path}`, daemon.token);
    await client.initialize();
    const response = await fetch(client.url, {
      headers: {
        authorization: `Bearer ${daemon.token}`,
        accept: "text/event-stream",
        "mcp-session-id": client.sessionId!,
        "mcp-protocol-version": client.version,
      },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    return { client, events: eventReader(response) };
  };
  const main = await open("/mcp");
  const narrow = await open("/mcp/narrow");
  const slow = main.client.request("tools/call", {
    name: "steps",
    arguments: { n: 8, delayMs: 150 },
  });
  await waitForCheck("the slow call to run", async () => {
    const health = await (await daemon.fetch("/beeuni/health")).json();
    return health.running >= 1;
  });
  // Only `record`, which narrow does not see, changes.
  const recordFile = join(daemon.dir, "tools/record.ts");
  await Deno.writeTextFile(
    recordFile,
    (await Deno.readTextFile(recordFile)).replace(
      "Return an object",
      "Return an order",
    ),
  );
  assert.deepEqual(await main.events.next(), {
    jsonrpc: "2.0",
    method: "notifications/tools/list_changed",
  });
  assert.deepEqual((await slow).result.content, [{
    type: "text",
    text: "did 8 steps",
  }]);
  const listed = (await main.client.request("tools/list")).result.tools;
  assert.equal(
    listed.find((tool: { name: string }) => tool.name === "record").description,
    "Return an order",
  );
  assert.equal(await narrow.events.next(500), undefined);
  // A change narrow does see reaches it too.
  const echoFile = join(daemon.dir, "tools/echo.ts");
  await Deno.writeTextFile(
    echoFile,
    (await Deno.readTextFile(echoFile)).replace(
      "Echo the text back",
      "Echo it",
    ),
  );
  assert.equal(
    (await narrow.events.next())?.method,
    "notifications/tools/list_changed",
  );
  assert.equal(
    (await main.events.next())?.method,
    "notifications/tools/list_changed",
  );
  await main.events.cancel();
  await narrow.events.cancel();
});

Deno.test("the stateless revision 2026-07-28 on the same endpoint: server/discover, per-request envelope, subscriptions/listen", async () => {
  await using daemon = await mcpDaemon();
  const url = `${daemon.url}/mcp`;
  const post = (
    id: string | number,
    method: string,
    params: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => statelessPost(url, daemon.token, id, method, params, headers);
  const discover = await rpcBody(await post("d", "server/discover"));
  assert.deepEqual(discover.result.supportedVersions, [
    "2026-07-28",
    "2025-11-25",
    "2025-06-18",
    "2025-03-26",
  ]);
  assert.equal(discover.result.resultType, "complete");
  assert.equal(
    discover.result._meta["io.modelcontextprotocol/serverInfo"].name,
    "beeuni",
  );
  const list = await rpcBody(await post(1, "tools/list"));
  assert.equal(list.result.resultType, "complete");
  assert.equal(list.result.ttlMs, 0);
  assert.equal(list.result.cacheScope, "private");
  assert.equal(list.result.tools.length, LISTED.length);
  const who = await rpcBody(
    await post(2, "tools/call", { name: "whoami", arguments: {} }),
  );
  assert.match(who.result.structuredContent.sessionId, /^mcp-[0-9a-f]{24}$/);
  const again = await rpcBody(
    await post(3, "tools/call", { name: "whoami", arguments: {} }),
  );
  assert.notEqual(
    again.result.structuredContent.sessionId,
    who.result.structuredContent.sessionId,
  );
  const named = await post(4, "tools/call", {
    name: "echo",
    arguments: { text: "é" },
  }, {
    "mcp-name": `=?base64?${btoa("echo")}?=`,
  });
  assert.equal((await rpcBody(named)).result.content[0].text, "é");
  const progress = await rpcMessages(
    await post(5, "tools/call", {
      name: "steps",
      arguments: { n: 2 },
      _meta: { progressToken: 1 },
    }),
  );
  assert.deepEqual(progress.map((m) => m.method ?? "result"), [
    "notifications/progress",
    "notifications/progress",
    "result",
  ]);
  // No ping and no initialize in this revision.
  assert.equal((await rpcBody(await post(6, "ping"))).error.code, -32601);

  const listen = await post("listen:0", "subscriptions/listen", {
    notifications: { toolsListChanged: true, promptsListChanged: true },
  });
  const events = eventReader(listen);
  assert.deepEqual(await events.next(), {
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: {
      notifications: { toolsListChanged: true },
      _meta: { "io.modelcontextprotocol/subscriptionId": "listen:0" },
    },
  });
  const echoFile = join(daemon.dir, "tools/echo.ts");
  await Deno.writeTextFile(
    echoFile,
    (await Deno.readTextFile(echoFile)).replace("Echo the text back", "Echo"),
  );
  assert.deepEqual(await events.next(), {
    jsonrpc: "2.0",
    method: "notifications/tools/list_changed",
    params: { _meta: { "io.modelcontextprotocol/subscriptionId": "listen:0" } },
  });
  await events.cancel();
});

Deno.test("malformed requests each get the spec's status and error, and the daemon keeps serving", async () => {
  await using daemon = await mcpDaemon({ args: ["--max-body-bytes", "65536"] });
  const url = `${daemon.url}/mcp`;
  const mcp = new RawMcp(url, daemon.token);
  await mcp.initialize();
  const old = new RawMcp(url, daemon.token);
  await old.initialize("2025-03-26");
  const auth = { authorization: `Bearer ${daemon.token}` };
  const base = {
    ...auth,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const session = {
    ...base,
    "mcp-session-id": mcp.sessionId!,
    "mcp-protocol-version": "2025-11-25",
  };
  const modern = {
    ...base,
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call",
    "mcp-name": "echo",
  };
  const envelope = (version = "2026-07-28") => ({
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientCapabilities": {},
  });
  const ping = (id: unknown) =>
    JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
  type Case = {
    name: string;
    method?: string;
    path?: string;
    headers: Record<string, string>;
    body?: string | Uint8Array<ArrayBuffer>;
    status: number;
    code?: number;
    id?: unknown;
    /** Sent over TCP by hand: fetch always adds an Accept header. */
    raw?: boolean;
  };
  const cases: Case[] = [
    {
      name: "not JSON",
      headers: session,
      body: "{not json",
      status: 400,
      code: -32700,
    },
    {
      name: "empty body",
      headers: session,
      body: "",
      status: 400,
      code: -32700,
    },
    {
      name: "invalid UTF-8",
      headers: session,
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
      status: 400,
      code: -32700,
    },
    {
      name: "batch of garbage",
      headers: session,
      body: '[1, 2, "x"]',
      status: 400,
      code: -32600,
    },
    {
      name: "empty batch",
      headers: session,
      body: "[]",
      status: 400,
      code: -32600,
    },
    {
      name: "a JSON string",
      headers: session,
      body: '"ping"',
      status: 400,
      code: -32600,
    },
    { name: "null", headers: session, body: "null", status: 400, code: -32600 },
    {
      name: "jsonrpc 1.0",
      headers: session,
      body: JSON.stringify({ jsonrpc: "1.0", id: 5, method: "ping" }),
      status: 400,
      code: -32600,
      id: 5,
    },
    {
      name: "no jsonrpc",
      headers: session,
      body: JSON.stringify({ id: 6, method: "ping" }),
      status: 400,
      code: -32600,
      id: 6,
    },
    {
      name: "method a number",
      headers: session,
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: 42 }),
      status: 400,
      code: -32600,
      id: 7,
    },
    {
      name: "id null",
      headers: session,
      body: ping(null),
      status: 400,
      code: -32600,
      id: null,
    },
    {
      name: "id an object",
      headers: session,
      body: ping({ a: 1 }),
      status: 400,
      code: -32600,
      id: null,
    },
    {
      name: "id a fraction",
      headers: session,
      body: ping(1.5),
      status: 400,
      code: -32600,
      id: null,
    },
    {
      name: "id 1e400",
      headers: session,
      body: '{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
      status: 400,
      code: -32600,
      id: null,
    },
    {
      name: "id past 2^53",
      headers: session,
      body: '{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}',
      status: 400,
      code: -32600,
      id: null,
    },
    {
      name: "id of 5,000 characters",
      headers: session,
      body: ping("x".repeat(5000)),
      status: 400,
      code: -32600,
      id: null,
    },
    {
      name: "params an array",
      headers: session,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 8,
        method: "tools/list",
        params: [],
      }),
      status: 400,
      code: -32600,
      id: 8,
    },
    {
      name: "unknown method",
      headers: session,
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/explode" }),
      status: 200,
      code: -32601,
      id: 9,
    },
    {
      name: "tools/call without name",
      headers: session,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 10,
        method: "tools/call",
        params: {},
      }),
      status: 200,
      code: -32602,
      id: 10,
    },
    {
      name: "tools/call arguments a string",
      headers: session,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 11,
        method: "tools/call",
        params: { name: "echo", arguments: "x" },
      }),
      status: 200,
      code: -32602,
      id: 11,
    },
    {
      name: "tools/list with a cursor",
      headers: session,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 12,
        method: "tools/list",
        params: { cursor: "abc" },
      }),
      status: 200,
      code: -32602,
      id: 12,
    },
    {
      name: "logging/setLevel to a made-up level",
      headers: session,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 13,
        method: "logging/setLevel",
        params: { level: "loud" },
      }),
      status: 200,
      code: -32602,
      id: 13,
    },
    {
      name: "initialize without protocolVersion",
      headers: base,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 14,
        method: "initialize",
        params: {},
      }),
      status: 200,
      code: -32602,
      id: 14,
    },
    {
      name: "initialize inside a session",
      headers: session,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 15,
        method: "initialize",
        params: { protocolVersion: "2025-11-25" },
      }),
      status: 400,
      code: -32600,
      id: 15,
    },
    {
      name: "no session",
      headers: base,
      body: ping(16),
      status: 400,
      code: -32000,
    },
    {
      name: "unknown session",
      headers: { ...base, "mcp-session-id": "mcp-000000000000000000000000" },
      body: ping(17),
      status: 404,
      code: -32001,
    },
    {
      name: "unsupported MCP-Protocol-Version",
      headers: { ...session, "mcp-protocol-version": "1999-01-01" },
      body: ping(18),
      status: 400,
      code: -32000,
      id: 18,
    },
    {
      name: "no Accept",
      raw: true,
      headers: {
        ...auth,
        "content-type": "application/json",
        "mcp-session-id": mcp.sessionId!,
      },
      body: ping(19),
      status: 406,
      code: -32000,
    },
    {
      name: "Accept text/html",
      headers: { ...session, accept: "text/html" },
      body: ping(20),
      status: 406,
      code: -32000,
    },
    {
      name: "Content-Type text/plain",
      headers: { ...session, "content-type": "text/plain" },
      body: ping(21),
      status: 415,
      code: -32000,
    },
    {
      name: "no Content-Type",
      headers: {
        ...auth,
        accept: "application/json, text/event-stream",
        "mcp-session-id": mcp.sessionId!,
      },
      body: ping(22),
      status: 415,
      code: -32000,
    },
    {
      name: "foreign Origin",
      headers: { ...session, origin: "https://evil.example.com" },
      body: ping(23),
      status: 403,
      code: -32000,
    },
    {
      name: "Origin null",
      headers: { ...session, origin: "null" },
      body: ping(24),
      status: 403,
      code: -32000,
    },
    {
      name: "body over --max-body-bytes",
      headers: session,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 25,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "x".repeat(70_000) } },
      }),
      status: 413,
      code: -32000,
    },
    {
      name: "PUT",
      method: "PUT",
      headers: session,
      body: ping(26),
      status: 405,
      code: -32000,
    },
    {
      name: "GET without text/event-stream",
      method: "GET",
      headers: {
        ...auth,
        accept: "application/json",
        "mcp-session-id": mcp.sessionId!,
      },
      status: 406,
      code: -32000,
    },
    {
      name: "GET without a session",
      method: "GET",
      headers: { ...auth, accept: "text/event-stream" },
      status: 400,
      code: -32000,
    },
    {
      name: "DELETE an unknown session",
      method: "DELETE",
      headers: { ...auth, "mcp-session-id": "mcp-unknown" },
      status: 404,
      code: -32001,
    },
    {
      name: "a path below an agent",
      path: "/mcp/narrow/extra",
      headers: session,
      body: ping(27),
      status: 404,
      code: -32000,
    },
    {
      name: "batch in a 2025-11-25 session",
      headers: session,
      body: `[${ping(28)}]`,
      status: 400,
      code: -32600,
    },
    {
      name: "2026-07-28: unsupported revision",
      headers: modern,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 29,
        method: "tools/call",
        params: { name: "echo", _meta: envelope("2030-01-01") },
      }),
      status: 400,
      code: -32022,
      id: 29,
    },
    {
      name: "2026-07-28: no Mcp-Method",
      headers: {
        ...base,
        "mcp-protocol-version": "2026-07-28",
        "mcp-name": "echo",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 30,
        method: "tools/call",
        params: { name: "echo", _meta: envelope() },
      }),
      status: 400,
      code: -32020,
      id: 30,
    },
    {
      name: "2026-07-28: Mcp-Name names another tool",
      headers: { ...modern, "mcp-name": "record" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 31,
        method: "tools/call",
        params: { name: "echo", _meta: envelope() },
      }),
      status: 400,
      code: -32020,
      id: 31,
    },
    {
      name: "2026-07-28: header and envelope disagree",
      headers: { ...modern, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 32,
        method: "tools/call",
        params: { name: "echo", _meta: envelope() },
      }),
      status: 400,
      code: -32020,
      id: 32,
    },
    {
      name: "2026-07-28: envelope without clientCapabilities",
      headers: modern,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 33,
        method: "tools/call",
        params: {
          name: "echo",
          _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" },
        },
      }),
      status: 400,
      code: -32602,
      id: 33,
    },
    {
      name: "2026-07-28 header without an envelope",
      headers: modern,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 34,
        method: "tools/call",
        params: { name: "echo" },
      }),
      status: 400,
      code: -32602,
      id: 34,
    },
  ];
  for (const c of cases) {
    let status: number;
    let body;
    let allow: string | null = null;
    if (c.raw) {
      const bytes = typeof c.body === "string"
        ? new TextEncoder().encode(c.body)
        : c.body!;
      const head = Object.entries(c.headers).map(([k, v]) => `${k}: ${v}\n`)
        .join("");
      const answer = await rawRequest(
        daemon.port,
        `POST ${
          c.path ?? "/mcp"
        } HTTP/1.1\nHost: 127.0.0.1:${daemon.port}\n${head}Content-Length: ${bytes.length}\nConnection: close\n\n`,
        bytes,
      );
      status = answer.status;
      body = JSON.parse(answer.text);
    } else {
      const response = await fetch(`${daemon.url}${c.path ?? "/mcp"}`, {
        method: c.method ?? (c.body === undefined ? "GET" : "POST"),
        headers: c.headers,
        body: c.body,
      });
      status = response.status;
      allow = response.headers.get("allow");
      body = await response.json();
    }
    assert.equal(status, c.status, c.name);
    assert.equal(body.jsonrpc, "2.0", c.name);
    assert.equal(body.error.code, c.code, c.name);
    assert.equal(typeof body.error.message, "string", c.name);
    if ("id" in c) assert.deepEqual(body.id, c.id, c.name);
    if (c.status === 405) {
      assert.equal(allow, "GET, POST, DELETE");
    }
  }
  assert.ok(cases.length >= 30);

  // A second GET stream on one session is a conflict.
  const stream = await fetch(url, {
    headers: {
      ...auth,
      accept: "text/event-stream",
      "mcp-session-id": mcp.sessionId!,
    },
  });
  assert.equal(stream.status, 200);
  const second = await fetch(url, {
    headers: {
      ...auth,
      accept: "text/event-stream",
      "mcp-session-id": mcp.sessionId!,
    },
  });
  assert.equal(second.status, 409);
  await second.body?.cancel();
  await stream.body?.cancel();

  // No token, a wrong token and a foreign Host are refused before MCP.
  for (
    const headers of [{}, { authorization: "Bearer wrong" }] as Record<
      string,
      string
    >[]
  ) {
    const refused = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: ping(1),
    });
    assert.equal(refused.status, 401);
    assert.equal(
      refused.headers.get("www-authenticate"),
      'Bearer realm="beeuni"',
    );
    await refused.body?.cancel();
  }
  const foreign = await rawRequest(
    daemon.port,
    `POST /mcp HTTP/1.1\nHost: evil.example.com\nAuthorization: Bearer ${daemon.token}\nContent-Type: application/json\nContent-Length: ${
      ping(1).length
    }\nConnection: close\n\n`,
    new TextEncoder().encode(ping(1)),
  );
  assert.equal(foreign.status, 421);

  // A 2025-03-26 session takes a batch: one answer per request, errors in place.
  const batch = await old.post(
    `[${ping("a")}, {"jsonrpc":"2.0","id":"b"}, ${ping("c")}]`,
  );
  assert.equal(batch.status, 200);
  assert.deepEqual(await batch.json(), [
    { jsonrpc: "2.0", id: "a", result: {} },
    {
      jsonrpc: "2.0",
      id: "b",
      error: {
        code: -32600,
        message:
          'Invalid Request: a message needs "method" (or "result" or "error")',
      },
    },
    { jsonrpc: "2.0", id: "c", result: {} },
  ]);

  // A loopback Origin is fine, and the daemon still serves.
  const fine = await mcp.request("tools/call", {
    name: "echo",
    arguments: { text: "ok" },
  }, {
    origin: `http://localhost:${daemon.port}`,
  });
  assert.equal(fine.result.content[0].text, "ok");
  assert.match(daemon.stderr(), /\[mcp\] 406 POST \/mcp: Not Acceptable/);
});
