// A holder of the daemon's token turned hostile: each attack runs against a
// real daemon under Deno and under Node.js, and each test shows that the
// daemon refuses it with a clear error, keeps answering other clients, and
// that its memory stays bounded (resident memory read from /proc before and
// after, printed, and asserted only against a generous bound).

import assert from "node:assert/strict";
import { tempRepo } from "./_helpers.ts";
import {
  rawRequest,
  startDaemonUnder,
  type TestDaemon,
  waitFor,
} from "./_daemon.ts";
import { NODE_22, RUNTIMES as ALL_RUNTIMES } from "./_runtimes.ts";
import { RawMcp, type Rpc, rpcMessages } from "./_mcp.ts";

const PROJECT: Record<string, string> = {
  "beeuni.yaml": `tools:
  echo: tools/echo.ts
  blob: tools/blob.ts
  ticks: tools/ticks.ts
`,
  "tools/echo.ts": `export default {
  description: "Echoes its text",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args) => String(args.text),
};
`,
  "tools/blob.ts": `export default {
  description: "Returns an image block of kb kilobytes of base64",
  parameters: { type: "object", properties: { kb: { type: "integer" } } },
  execute: (args) => ({
    content: [{ type: "image", mimeType: "image/png", data: "QUFB".repeat(args.kb * 256) }],
  }),
};
`,
  "tools/ticks.ts": `export default {
  description: "Reports progress n times",
  parameters: { type: "object", properties: { n: { type: "integer" } } },
  async execute(args, context) {
    for (let i = 1; i <= args.n; i++) {
      context.progress(i, args.n);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return "ticked " + args.n;
  },
};
`,
};

/** Deno and Node.js 22: the daemon runs under each. */
const RUNTIMES = ALL_RUNTIMES.filter((runtime) =>
  runtime.kind === "deno" || runtime.label === `Node.js ${NODE_22}`
);

/** The most a daemon's resident memory may grow under an attack, in MB. */
const MAX_GROWTH_MB = 200;

/** Runs `attack` as one step per runtime, each against a daemon of its own on the test project. */
async function underEachRuntime(
  t: Deno.TestContext,
  attack: (daemon: TestDaemon) => Promise<void>,
): Promise<void> {
  await using project = await tempRepo(PROJECT);
  for (const runtime of RUNTIMES) {
    await t.step(runtime.label, async () => {
      await using daemon = await startDaemonUnder(
        await runtime.argv(),
        project.dir,
      );
      await attack(daemon);
    });
  }
}

/** The resident and peak resident memory of process `pid`, in MB. */
function memoryMb(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const mb = (key: string) =>
    Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)![1]) / 1024;
  return { rss: mb("VmRSS"), peak: mb("VmHWM") };
}

/** Runs `attack` against `daemon`, prints its memory before and after, and asserts the growth is bounded. */
async function boundedAttack(
  label: string,
  daemon: TestDaemon,
  attack: () => Promise<void>,
): Promise<void> {
  const before = memoryMb(daemon.pid);
  await attack();
  const after = memoryMb(daemon.pid);
  console.log(
    `    ${label}: daemon RSS ${before.rss.toFixed(0)} MB before, ${
      after.rss.toFixed(0)
    } MB after (peak ${after.peak.toFixed(0)} MB)`,
  );
  assert.ok(
    after.rss - before.rss < MAX_GROWTH_MB,
    `${label}: the daemon grew from ${before.rss} MB to ${after.rss} MB`,
  );
}

/** An ordinary call on a connection of its own: what another client gets. */
async function ordinaryCall(daemon: TestDaemon, text: string): Promise<void> {
  const body = JSON.stringify({
    args: { text },
    sessionId: "bystander",
    agent: "beeuni",
  });
  const answer = await rawRequest(
    daemon.port,
    `POST /beeuni/tools/echo HTTP/1.1\nHost: 127.0.0.1:${daemon.port}\nAuthorization: Bearer ${daemon.token}\nContent-Type: application/json\nContent-Length: ${body.length}\nConnection: close\n\n`,
    new TextEncoder().encode(body),
  );
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(JSON.parse(answer.text), { output: text });
}

function toolsCall(id: number, name: string, args: unknown): unknown {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args },
  };
}

Deno.test("a 10,000-call MCP batch is refused naming the limit, a full batch's reply stays within 10 MiB, and the daemon's memory stays bounded (C1, H3)", async (t) => {
  await underEachRuntime(t, async (daemon) => {
    const mcp = new RawMcp(`${daemon.url}/mcp`, daemon.token);
    await mcp.initialize("2025-03-26");
    // The runners start before the figures are taken.
    const warm = await mcp.post([
      toolsCall(1, "echo", { text: "warm" }),
      toolsCall(2, "blob", { kb: 1 }),
    ]);
    assert.equal((await warm.json()).length, 2);

    const huge = Array.from(
      { length: 10_000 },
      (_, i) => toolsCall(i, "echo", { text: "x" }),
    );
    await boundedAttack("ten 10,000-call batches", daemon, async () => {
      for (let round = 0; round < 10; round++) {
        const refused = await mcp.post(huge);
        assert.equal(refused.status, 400);
        assert.deepEqual(await refused.json(), {
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32600,
            message:
              "Invalid Request: the batch holds 10000 messages: the limit is 100; send at most 100 messages per batch, or one message per request",
          },
        });
        await ordinaryCall(daemon, `still here ${round}`);
      }
    });
    // None of the refused calls ran: the session's only echo is the first.
    assert.equal(
      daemon.stderr().match(/\[tools\] call echo agent=beeuni session=mcp-/g)
        ?.length,
      1,
    );

    // A full batch whose results would make 25 MiB: the reply stops at
    // 10 MiB, each answer past it an error that says so, and the
    // requests not started by then do not run.
    const full = Array.from(
      { length: 100 },
      (_, i) => toolsCall(i, "blob", { kb: 256 }),
    );
    const overBudget =
      /^(Result not sent \(the request ran\)|Not run): the batch's reply would pass 10485760 bytes, the limit for one batch; send this request on its own$/;
    const blobCalls = () =>
      daemon.stderr().match(/\[tools\] call blob /g)?.length ?? 0;
    await boundedAttack(
      "two 100-call batches of 256 KB results",
      daemon,
      async () => {
        for (let round = 0; round < 2; round++) {
          const ran = blobCalls();
          const answer = await mcp.post(full);
          assert.equal(answer.status, 200);
          const text = await answer.text();
          assert.ok(text.length <= 10 * 1024 * 1024, `${text.length}`);
          const replies: Rpc[] = JSON.parse(text);
          assert.deepEqual(replies.map((r) => r.id), full.map((_, i) => i));
          const sent = replies.filter((r) => r.result);
          assert.ok(sent.length >= 30, `${sent.length} results sent`);
          assert.equal(sent[0].result.content[0].data.length, 256 * 1024);
          const refused = replies.filter((r) => r.error);
          assert.equal(sent.length + refused.length, 100);
          for (const reply of refused) {
            assert.equal(reply.error.code, -32000);
            assert.match(reply.error.message, overBudget);
          }
          const notRun = refused.filter((r) =>
            r.error.message.startsWith("Not run")
          );
          assert.ok(notRun.length >= 30, `${notRun.length} not run`);
          await waitFor(
            "the batch's calls to be logged",
            () => blobCalls() - ran >= 100 - notRun.length,
          );
          assert.equal(blobCalls() - ran, 100 - notRun.length);
          await ordinaryCall(daemon, `still here ${round}`);
        }
      },
    );
  });
});

/** A 9 MiB string: what the attacker sent as a session id. */
const HUGE = "s".repeat(9 * 1024 * 1024);
const LONG = "x".repeat(500);

/** Posts `body` as JSON with the token to `path`. */
async function postJson(
  daemon: TestDaemon,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Rpc }> {
  const response = await daemon.fetch(path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

Deno.test("every caller string is at most 400 characters: longer ones are refused naming the field, and 9 MiB session ids leave the daemon's memory and log bounded (D2, C1, W1)", async (t) => {
  await underEachRuntime(t, async (daemon) => {
    const call = (body: Record<string, unknown>) =>
      postJson(daemon, "/beeuni/tools/echo", body);
    // A name of exactly 400 characters is fine.
    assert.deepEqual(
      await call({
        args: { text: "hi" },
        sessionId: "s".repeat(400),
        agent: "beeuni",
      }),
      { status: 200, body: { output: "hi" } },
    );
    const mcp = new RawMcp(`${daemon.url}/mcp`, daemon.token);
    await mcp.initialize();

    const logBefore = daemon.stderr().length;
    // The attack sends one request at a time: a 9 MiB body takes the
    // daemon's HTTP server about half a second to read.
    await boundedAttack(
      "30 calls with 9 MiB session ids, 4 with 9 MiB agents and tool names",
      daemon,
      async () => {
        const bystander = (async () => {
          for (let i = 0; i < 5; i++) await ordinaryCall(daemon, `ok ${i}`);
        })();
        for (let i = 0; i < 30; i++) {
          assert.deepEqual(
            await call({ args: {}, sessionId: HUGE, agent: "beeuni" }),
            {
              status: 400,
              body: {
                error:
                  '"sessionId" is 9437184 characters long: the limit is 400',
              },
            },
          );
        }
        for (let i = 0; i < 2; i++) {
          assert.deepEqual(
            await call({ args: {}, sessionId: "s1", agent: HUGE }),
            {
              status: 400,
              body: {
                error: '"agent" is 9437184 characters long: the limit is 400',
              },
            },
          );
          const answer = await mcp.request("tools/call", {
            name: HUGE,
            arguments: {},
          });
          assert.deepEqual(answer.error, {
            code: -32602,
            message:
              'Invalid params: "name" is 9437184 characters long: the limit is 400',
          });
        }
        await bystander;
      },
    );
    const logged = daemon.stderr().length - logBefore;
    console.log(`    the attack added ${logged} bytes of log`);
    assert.ok(logged < 100_000, `${logged} bytes of log`);

    // Every other place a caller names something, each with 500 characters.
    const tooLong = (what: string) =>
      `${what} is 500 characters long: the limit is 400`;
    const get = async (
      path: string,
      headers: Record<string, string> = {},
    ) => {
      const response = await daemon.fetch(path, { headers });
      return { status: response.status, body: await response.json() };
    };
    const rest: [string, Promise<{ status: number; body: Rpc }>, string][] = [
      [
        "parentAgent",
        call({
          args: {},
          sessionId: "s1",
          agent: "beeuni",
          parentAgent: LONG,
        }),
        tooLong('"parentAgent"'),
      ],
      [
        "tool name in the path",
        postJson(daemon, `/beeuni/tools/${LONG}`, {
          args: {},
          sessionId: "s1",
          agent: "beeuni",
        }),
        tooLong("the tool name in the path"),
      ],
      [
        "session id in the path",
        postJson(daemon, `/beeuni/sessions/${LONG}/stop`, {}),
        tooLong("the session id in the path"),
      ],
      [
        "query parameter of the tool list",
        get(`/beeuni/tools?agent=${LONG}`),
        tooLong('"agent"'),
      ],
      [
        "web UI tools query",
        get(`/ui/api/tools?agent=${LONG}`),
        tooLong('"agent"'),
      ],
      [
        "web UI file query",
        get(`/ui/api/file?path=${LONG}`),
        tooLong('"path"'),
      ],
      [
        "web UI file name",
        // The page's files are served under the secret path it printed.
        get(
          `${
            new URL(/^web ui: (\S+)$/m.exec(daemon.stdout())![1]).pathname
          }ui/${LONG}`,
        ),
        tooLong("the file name in the path"),
      ],
    ];
    for (const [name, answer, error] of rest) {
      assert.deepEqual(await answer, { status: 400, body: { error } }, name);
    }

    const session = {
      "mcp-session-id": mcp.sessionId!,
      "mcp-protocol-version": "2025-11-25",
    };
    const envelope = (version: string) => ({
      "io.modelcontextprotocol/protocolVersion": version,
      "io.modelcontextprotocol/clientCapabilities": {},
    });
    const rpc: [
      string,
      Promise<{ status: number; body: Rpc }>,
      number,
      Rpc,
    ][] = [
      [
        "request id",
        postJson(
          daemon,
          "/mcp",
          { jsonrpc: "2.0", id: LONG, method: "ping" },
          session,
        ),
        400,
        {
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32600,
            message: `Invalid Request: ${tooLong('"id"')}`,
          },
        },
      ],
      [
        "method",
        postJson(
          daemon,
          "/mcp",
          { jsonrpc: "2.0", id: 1, method: LONG },
          session,
        ),
        400,
        {
          jsonrpc: "2.0",
          id: 1,
          error: {
            code: -32600,
            message: `Invalid Request: ${tooLong('"method"')}`,
          },
        },
      ],
      [
        "Mcp-Session-Id",
        postJson(daemon, "/mcp", { jsonrpc: "2.0", id: 2, method: "ping" }, {
          "mcp-session-id": LONG,
        }),
        400,
        {
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32000,
            message: `Bad Request: ${tooLong("the Mcp-Session-Id header")}`,
          },
        },
      ],
      [
        "agent in the path",
        postJson(daemon, `/mcp/${LONG}`, {
          jsonrpc: "2.0",
          id: 3,
          method: "ping",
        }),
        400,
        {
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32000,
            message: `Bad Request: ${tooLong("the agent in the path")}`,
          },
        },
      ],
      [
        "stateless protocol version",
        postJson(daemon, "/mcp", {
          jsonrpc: "2.0",
          id: 4,
          method: "tools/list",
          params: { _meta: envelope(LONG) },
        }),
        400,
        {
          jsonrpc: "2.0",
          id: 4,
          error: {
            code: -32602,
            message: `Invalid params: ${
              tooLong('_meta["io.modelcontextprotocol/protocolVersion"]')
            }`,
          },
        },
      ],
    ];
    for (const [name, answer, status, body] of rpc) {
      assert.deepEqual(await answer, { status, body }, name);
    }
    await ordinaryCall(daemon, "still here");
  });
});

/** An event stream held open on a raw connection of its own. */
interface HeldStream {
  /** The response's status (0 when the connection closed first). */
  status: number;
  /** Everything read so far. */
  text(): string;
  /** Whether the response ended (its last chunk came, or the connection closed). */
  ended(): boolean;
  close(): void;
}

/** Sends `head` (and `body`) on a new connection and reads the response as it comes, until it ends. */
async function holdStream(
  port: number,
  head: string,
  body = "",
): Promise<HeldStream> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const encoder = new TextEncoder();
  const bytes = encoder.encode(body);
  await conn.write(encoder.encode(
    `${head.replaceAll("\n", "\r\n")}Content-Length: ${bytes.length}\r\n\r\n`,
  ));
  if (bytes.length > 0) await conn.write(bytes);
  let text = "";
  let ended = false;
  let closed = false;
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(16 * 1024);
  const read = async () => {
    try {
      while (true) {
        const n = await conn.read(buffer);
        if (n === null) break;
        text += decoder.decode(buffer.subarray(0, n), { stream: true });
        // The last chunk of a chunked response.
        if (text.endsWith("\r\n0\r\n\r\n")) break;
      }
    } catch {
      // Reset by the daemon.
    }
    ended = true;
  };
  const reading = read();
  await waitFor(
    "the response's head",
    () => ended || text.includes("\r\n\r\n"),
  );
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  return {
    status,
    text: () => text,
    ended: () => ended,
    close() {
      if (closed) return;
      closed = true;
      try {
        conn.close();
      } catch {
        // Already closed.
      }
      void reading;
    },
  };
}

Deno.test("650 open MCP GET streams, subscriptions and web UI streams cannot lock other clients out: streams hold at most half the connections, the oldest closes first, and calls keep answering (C1, W1, H3)", async (t) => {
  await underEachRuntime(t, async (daemon) => {
    const { port, token } = daemon;
    const auth = `Host: 127.0.0.1:${port}\nAuthorization: Bearer ${token}\n`;
    const sessions: string[] = [];
    for (let i = 0; i < 400; i++) {
      const mcp = new RawMcp(`${daemon.url}/mcp`, token);
      await mcp.initialize();
      sessions.push(mcp.sessionId!);
    }
    const getStream = (session: string) =>
      holdStream(
        port,
        `GET /mcp HTTP/1.1\n${auth}Accept: text/event-stream\nMcp-Session-Id: ${session}\nMCP-Protocol-Version: 2025-11-25\n`,
      );
    const listenStream = (id: number) =>
      holdStream(
        port,
        `POST /mcp HTTP/1.1\n${auth}Accept: application/json, text/event-stream\nContent-Type: application/json\nMCP-Protocol-Version: 2026-07-28\nMcp-Method: subscriptions/listen\n`,
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "subscriptions/listen",
          params: {
            notifications: { toolsListChanged: true },
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      );
    const webStream = () =>
      holdStream(port, `GET /ui/api/events HTTP/1.1\n${auth}`);

    const held: HeldStream[] = [];
    try {
      await boundedAttack(
        "400 GET streams, 150 subscriptions, 100 web UI streams",
        daemon,
        async () => {
          for (let i = 0; i < 100; i++) held.push(await webStream());
          for (let i = 0; i < 150; i++) held.push(await listenStream(i));
          for (const session of sessions) held.push(await getStream(session));
          // Every stream was answered: the daemon made room each time.
          assert.deepEqual(
            held.filter((s) => s.status !== 200).length,
            0,
          );
          // At most half the connections (512) stay held by streams.
          await waitFor(
            "the oldest streams to be closed",
            () => held.filter((s) => !s.ended()).length <= 256,
          );
          // Calls, and new streams, get a connection meanwhile.
          for (let i = 0; i < 10; i++) await ordinaryCall(daemon, `ok ${i}`);
          const mcp = new RawMcp(`${daemon.url}/mcp`, token);
          await mcp.initialize();
          const mine = await getStream(mcp.sessionId!);
          const listen = await listenStream(1000);
          const web = await webStream();
          held.push(mine, listen, web);
          for (const stream of [mine, listen, web]) {
            assert.equal(stream.status, 200);
            assert.equal(stream.ended(), false);
          }
          await waitFor(
            "the subscription's acknowledgement",
            () =>
              listen.text().includes(
                "notifications/subscriptions/acknowledged",
              ),
          );
          await waitFor(
            "the history's first comment",
            () => web.text().includes(": beeuni history"),
          );
          const answer = await mcp.request("tools/call", {
            name: "echo",
            arguments: { text: "still here" },
          });
          assert.equal(answer.result.content[0].text, "still here");
        },
      );
      const made = daemon.stderr().match(/closed to make room/g)?.length ?? 0;
      console.log(
        `    ${
          held.filter((s) => !s.ended()).length
        } of ${held.length} streams open, ${made} MCP streams closed to make room`,
      );
      // The oldest went first: the web UI streams, the subscriptions (each
      // ended gracefully, with a result for its listen request), then
      // the oldest GET streams.
      const web = held.slice(0, 100);
      const listens = held.slice(100, 250);
      const gets = held.slice(250, 650);
      assert.ok(web.every((s) => s.ended()));
      assert.ok(listens.every((s) => s.ended()));
      assert.match(
        listens[0].text(),
        /"id":0,"result":\{"resultType":"complete","_meta":\{"io\.modelcontextprotocol\/subscriptionId":0\}\}/,
      );
      assert.ok(gets[0].ended());
      assert.ok(!gets.at(-1)!.ended());
      assert.equal(made, 150 + gets.filter((s) => s.ended()).length);
    } finally {
      for (const stream of held) stream.close();
    }
  });
});

Deno.test("a progressToken must be a string of at most 400 characters or an integer: objects, floats and long strings are refused as invalid params, and 9 MiB tokens leave memory bounded (C3)", async (t) => {
  await underEachRuntime(t, async (daemon) => {
    const mcp = new RawMcp(`${daemon.url}/mcp`, daemon.token);
    await mcp.initialize();
    const ticks = (progressToken: unknown, n = 3) =>
      mcp.post({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "ticks",
          arguments: { n },
          _meta: { progressToken },
        },
      });
    const notAToken = {
      code: -32602,
      message: 'Invalid params: "progressToken" must be a string or an integer',
    };
    const refused: [unknown, Rpc][] = [
      [{ a: 1 }, notAToken],
      [[1], notAToken],
      [1.5, notAToken],
      [2 ** 53, notAToken],
      [true, notAToken],
      [null, notAToken],
      ["t".repeat(401), {
        code: -32602,
        message:
          'Invalid params: "progressToken" is 401 characters long: the limit is 400',
      }],
    ];
    for (const [token, error] of refused) {
      const answer = await ticks(token);
      assert.equal(answer.status, 200);
      assert.deepEqual(await rpcMessages(answer), [
        { jsonrpc: "2.0", id: 1, error },
      ], JSON.stringify(token));
    }
    // The stateless revision refuses the same.
    const stateless = await postJson(daemon, "/mcp", {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        name: "ticks",
        arguments: { n: 1 },
        _meta: {
          progressToken: { a: 1 },
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }, {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "ticks",
    });
    assert.deepEqual(stateless, {
      status: 200,
      body: { jsonrpc: "2.0", id: 2, error: notAToken },
    });
    // Strings up to 400 characters and integers are echoed in each report.
    for (const token of ["tok", "t".repeat(400), 7, -3]) {
      const messages = await rpcMessages(await ticks(token, 2));
      assert.deepEqual(
        messages.map((m) => m.params?.progressToken ?? m.result),
        [token, token, { content: [{ type: "text", text: "ticked 2" }] }],
      );
    }

    const huge = "p".repeat(9 * 1024 * 1024);
    await boundedAttack(
      "10 calls reporting progress 200 times with 9 MiB tokens",
      daemon,
      async () => {
        for (let i = 0; i < 10; i++) {
          const answer = await ticks(huge, 200);
          assert.deepEqual((await rpcMessages(answer))[0].error, {
            code: -32602,
            message:
              'Invalid params: "progressToken" is 9437184 characters long: the limit is 400',
          });
          await ordinaryCall(daemon, `ok ${i}`);
        }
      },
    );
  });
});
