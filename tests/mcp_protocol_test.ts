// The MCP protocol over both transports: one table of cases, run once
// through a real daemon's `/mcp` (Streamable HTTP, spoken by hand over
// fetch) and once through a real `beeuni mcp` process (stdio, JSON-RPC
// lines), each against a fresh copy of the fixture project. Every case
// checks its answers, and the stdio run must give exactly the answers the
// HTTP run gave: the transports frame messages, the core answers them.
// HTTP statuses and headers are tests/mcp_http_test.ts's.

import assert from "node:assert/strict";
import { join } from "node:path";
import { waitFor } from "./_daemon.ts";
import {
  eventReader,
  mcpDaemon,
  type Rpc,
  rpcMessages,
  StdioServer,
  stepsAnswers,
  tempProject,
  waitForFile,
} from "./_mcp.ts";

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** Notifications read one at a time; `undefined` when none came in time. */
interface Events {
  next(timeoutMs?: number): Promise<Rpc | undefined>;
  close(): Promise<void>;
}

/** One transport as the cases drive it. */
interface Client {
  /** The project folder its server serves: an edit there reloads it. */
  readonly dir: string;
  /** Its server's log (standard error) so far. */
  log(): string;
  /** Sends `initialize` with `params` (HTTP: a new session; stdio: again on the connection) and `notifications/initialized`; the response. */
  initialize(params: Record<string, unknown>): Promise<Rpc>;
  /** Sends `payload` (a message, a batch, or raw text) in the current session; the `count` messages that answer it, and no more. */
  exchange(payload: unknown, count: number): Promise<Rpc[]>;
  /** Sends a request whose answer comes later; the function reads that answer. */
  start(request: Rpc): Promise<() => Promise<Rpc[]>>;
  /** The session's notifications (HTTP: a GET stream; stdio: the connection). */
  events(): Promise<Events>;
  /** Opens a subscription; `close` cancels it as the transport does (HTTP: closing its stream; stdio: `notifications/cancelled`). */
  listen(request: Rpc): Promise<Events>;
  /** A client of the same transport for the tools of `agent`. */
  forAgent(agent: string): Promise<Client>;
  close(): Promise<void>;
}

const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "table", version: "1" },
};

/** The stateless revision's envelope of a message, when it has one. */
function envelopeOf(payload: unknown): Record<string, unknown> | undefined {
  if (typeof payload !== "object" || payload === null) return undefined;
  const meta = (payload as Rpc).params?._meta;
  return typeof meta === "object" && meta !== null &&
      "io.modelcontextprotocol/protocolVersion" in meta
    ? meta
    : undefined;
}

/** An `initialize` request with `params`. */
function initializeRequest(params: Record<string, unknown>): Rpc {
  return { jsonrpc: "2.0", id: "init", method: "initialize", params };
}

const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };

/** `/mcp` of a real daemon. */
class HttpClient implements Client {
  readonly dir: string;
  #daemon: Awaited<ReturnType<typeof mcpDaemon>>;
  #url: string;
  #session?: string;
  #version = "2025-11-25";
  #streams: Events[] = [];

  constructor(daemon: Awaited<ReturnType<typeof mcpDaemon>>, agent?: string) {
    this.#daemon = daemon;
    this.dir = daemon.dir;
    this.#url = `${daemon.url}/mcp${agent ? `/${agent}` : ""}`;
  }

  log(): string {
    return this.#daemon.stderr();
  }

  #headers(payload: unknown): Record<string, string> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.#daemon.token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const envelope = envelopeOf(payload);
    if (envelope) {
      const { method, params } = payload as Rpc;
      headers["mcp-protocol-version"] = String(
        envelope["io.modelcontextprotocol/protocolVersion"],
      );
      headers["mcp-method"] = method;
      if (typeof params.name === "string") headers["mcp-name"] = params.name;
    } else if (this.#session) {
      headers["mcp-session-id"] = this.#session;
      headers["mcp-protocol-version"] = this.#version;
    }
    return headers;
  }

  #post(payload: unknown): Promise<Response> {
    return fetch(this.#url, {
      method: "POST",
      headers: this.#headers(payload),
      body: typeof payload === "string" ? payload : JSON.stringify(payload),
    });
  }

  async initialize(params: Record<string, unknown>): Promise<Rpc> {
    this.#session = undefined;
    const response = await this.#post(initializeRequest(params));
    const [answer] = await rpcMessages(response);
    if (answer.result) {
      this.#session = response.headers.get("mcp-session-id")!;
      this.#version = answer.result.protocolVersion;
      await this.exchange(INITIALIZED, 0);
    }
    return answer;
  }

  async exchange(payload: unknown, _count: number): Promise<Rpc[]> {
    return await rpcMessages(await this.#post(payload));
  }

  async start(request: Rpc): Promise<() => Promise<Rpc[]>> {
    // Its headers come once it answers, or turns into an event stream.
    const response = await this.#post(request);
    return () => rpcMessages(response);
  }

  async events(): Promise<Events> {
    const response = await fetch(this.#url, {
      headers: {
        authorization: `Bearer ${this.#daemon.token}`,
        accept: "text/event-stream",
        "mcp-session-id": this.#session!,
        "mcp-protocol-version": this.#version,
      },
    });
    assert.equal(response.status, 200);
    return this.#track(eventReader(response));
  }

  async listen(request: Rpc): Promise<Events> {
    const response = await this.#post(request);
    assert.equal(response.headers.get("content-type"), "text/event-stream");
    return this.#track(eventReader(response));
  }

  #track(reader: ReturnType<typeof eventReader>): Events {
    const events = { next: reader.next, close: reader.cancel };
    this.#streams.push(events);
    return events;
  }

  forAgent(agent: string): Promise<Client> {
    return Promise.resolve(new HttpClient(this.#daemon, agent));
  }

  async close(): Promise<void> {
    for (const events of this.#streams) await events.close();
  }
}

/** A real `beeuni mcp` process. */
class StdioClient implements Client {
  readonly dir: string;
  #server: StdioServer;
  #sentinels = 0;

  constructor(dir: string, agent?: string) {
    this.dir = dir;
    this.#server = new StdioServer(
      dir,
      agent ? ["--agent", agent] : [],
    );
  }

  log(): string {
    return this.#server.stderr;
  }

  async initialize(params: Record<string, unknown>): Promise<Rpc> {
    const [answer] = await this.exchange(initializeRequest(params), 1);
    await this.exchange(INITIALIZED, 0);
    return answer;
  }

  async exchange(payload: unknown, count: number): Promise<Rpc[]> {
    const server = this.#server;
    const from = server.lines.length;
    await server.send(payload);
    await server.until(
      `${count} answers`,
      () => server.lines.length - from >= count,
    );
    return await this.#upToSentinel(from);
  }

  /**
   * The messages written since line `from`, up to the answer of a ping
   * sent now: the server answers a line's errors at once, and a ping only
   * after, so a message that should not be there shows.
   */
  async #upToSentinel(from: number): Promise<Rpc[]> {
    const id = `sentinel-${++this.#sentinels}`;
    await this.#server.send({ jsonrpc: "2.0", id, method: "ping" });
    await this.#server.response(id);
    const messages = this.#server.lines.slice(from).map((l) => JSON.parse(l));
    return messages.slice(0, messages.findIndex((m) => m.id === id));
  }

  async start(request: Rpc): Promise<() => Promise<Rpc[]>> {
    const from = this.#server.lines.length;
    await this.#server.send(request);
    return async () =>
      (await this.#upToSentinel(from)).filter((m) => m.id === request.id);
  }

  events(): Promise<Events> {
    return Promise.resolve(
      this.#reader((m) => m.id === undefined && !m.params?._meta),
    );
  }

  async listen(request: Rpc): Promise<Events> {
    const events = this.#reader((m) =>
      m.params?._meta?.[SUBSCRIPTION_ID] === request.id ||
      (m.id === request.id && ("result" in m || "error" in m))
    );
    await this.#server.send(request);
    return {
      next: events.next,
      close: () =>
        this.#server.send({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: request.id },
        }),
    };
  }

  /** The messages from now on that `match` accepts, one at a time. */
  #reader(match: (message: Rpc) => boolean): Events {
    let from = this.#server.lines.length;
    const server = this.#server;
    return {
      async next(timeoutMs = 10_000) {
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline) {
          for (; from < server.lines.length; from++) {
            const message = JSON.parse(server.lines[from]);
            if (match(message)) {
              from++;
              return message;
            }
          }
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        return undefined;
      },
      close: () => Promise.resolve(),
    };
  }

  forAgent(agent: string): Promise<Client> {
    return Promise.resolve(new StdioClient(this.dir, agent));
  }

  async close(): Promise<void> {
    assert.equal(await this.#server.end(), 0, this.#server.stderr);
  }
}

const INIT = {
  capabilities: {},
  clientInfo: { name: "table", version: "1" },
};

const init = (protocolVersion: unknown) => ({ ...INIT, protocolVersion });

let ids = 0;

/** A request of the session-based revisions. */
function request(method: string, params?: Record<string, unknown>): Rpc {
  return { jsonrpc: "2.0", id: ++ids, method, params };
}

/** A request of the stateless revision: `params` with the envelope. */
function stateless(
  method: string,
  params: Record<string, unknown> = {},
  meta: Record<string, unknown> = ENVELOPE,
): Rpc {
  return {
    jsonrpc: "2.0",
    id: `s${++ids}`,
    method,
    params: { ...params, _meta: { ...meta, ...(params._meta as object) } },
  };
}

/** A call of tool `name`. */
const call = (name: string, args: Record<string, unknown> = {}) =>
  request("tools/call", { name, arguments: args });

let edits = 0;

/** Changes the echo tool's description: a reload that changes every agent's list. */
async function editEcho(dir: string): Promise<string> {
  const file = join(dir, "tools/echo.ts");
  const description = `Echo, edit ${++edits}`;
  await Deno.writeTextFile(
    file,
    (await Deno.readTextFile(file)).replace(
      /description: "[^"]*"/,
      `description: ${JSON.stringify(description)}`,
    ),
  );
  return description;
}

const names = (answer: Rpc) =>
  answer.result.tools.map((tool: { name: string }) => tool.name);

/** Waits until `pattern` has matched the log `count` times. */
async function logged(
  client: Client,
  pattern: RegExp,
  count = 1,
): Promise<void> {
  await waitFor(
    `${count} log lines matching ${pattern}`,
    () => (client.log().match(new RegExp(pattern, "g"))?.length ?? 0) >= count,
  );
}

/** What a case's answers are compared as: session ids and the framing words of a parse error set aside. */
function normalize(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (_key, item) => {
    if (typeof item !== "string") return item;
    item = item.replace(/mcp-[0-9a-f]{24}/g, "<session id>");
    if (/^Parse error: the (body|line) is not valid JSON$/.test(item)) {
      return "Parse error: the message is not valid JSON";
    }
    return item;
  });
}

interface Case {
  name: string;
  /** Runs the case on `client`; what it gives is checked, and must be the same over both transports. */
  run(client: Client): Promise<unknown>;
}

const LISTED_NARROW = ["echo", "whoami"];

const CASES: Case[] = [
  {
    name:
      "initialize answers the client's revision when served, else 2025-11-25; a protocolVersion that is not a string is invalid params",
    async run(client) {
      const answers = [];
      for (
        const [asked, got] of [
          ["2025-11-25", "2025-11-25"],
          ["2025-06-18", "2025-06-18"],
          ["2025-03-26", "2025-03-26"],
          ["2024-11-05", "2025-11-25"],
          ["2099-01-01", "2025-11-25"],
        ]
      ) {
        const answer = await client.initialize(init(asked));
        assert.equal(answer.result.protocolVersion, got);
        assert.deepEqual(answer.result.capabilities, {
          tools: { listChanged: true },
          logging: {},
        });
        assert.equal(answer.result.serverInfo.name, "beeuni");
        answers.push(answer);
      }
      const bad = await client.initialize(init(5));
      assert.deepEqual(bad.error, {
        code: -32602,
        message: 'Invalid params: "protocolVersion" must be a string',
      });
      await client.initialize(init("2025-11-25"));
      return [...answers, bad];
    },
  },
  {
    name:
      "tools/list, and tools/call answering text, an object, an error as isError, an unknown tool as -32602",
    async run(client) {
      const [list] = await client.exchange(request("tools/list"), 1);
      assert.ok(names(list).includes("steps"));
      assert.ok(!names(list).includes("broken"));
      const answers = [list];
      for (
        const [message, expected] of [
          [call("echo", { text: "hi" }), {
            result: { content: [{ type: "text", text: "hi" }] },
          }],
          [call("fails"), {
            result: {
              content: [{ type: "text", text: "the order A-1 does not exist" }],
              isError: true,
            },
          }],
          [call("nope"), {
            error: { code: -32602, message: "Tool nope not found" },
          }],
        ]
      ) {
        const [answer] = await client.exchange(message, 1);
        assert.deepEqual(answer, {
          jsonrpc: "2.0",
          id: message.id,
          ...expected,
        });
        answers.push(answer);
      }
      const [who] = await client.exchange(call("whoami"), 1);
      assert.equal(who.result.structuredContent.agent, "beeuni");
      assert.match(who.result.structuredContent.sessionId, /^mcp-/);
      return [...answers, who];
    },
  },
  {
    name:
      "an agent's endpoint lists its tools only and answers a hidden tool exactly like an unknown one",
    async run(client) {
      const narrow = await client.forAgent("narrow");
      try {
        await narrow.initialize(init("2025-11-25"));
        const [list] = await narrow.exchange(request("tools/list"), 1);
        assert.deepEqual(names(list), LISTED_NARROW);
        const [hidden] = await narrow.exchange(call("record"), 1);
        const [unknown] = await narrow.exchange(call("nope"), 1);
        assert.deepEqual(hidden.error, {
          code: -32602,
          message: "Tool record not found",
        });
        assert.equal(unknown.error.message, "Tool nope not found");
        const [who] = await narrow.exchange(call("whoami"), 1);
        assert.equal(who.result.structuredContent.agent, "narrow");
        return [list, hidden, unknown, who];
      } finally {
        await narrow.close();
      }
    },
  },
  {
    name:
      "ping and logging/setLevel answer {}; a bad level is invalid params; other methods are -32601; notifications get no answer",
    async run(client) {
      const messages = [
        request("ping"),
        request("logging/setLevel", { level: "debug" }),
        request("logging/setLevel", { level: "loud" }),
        request("resources/list"),
        request("server/discover"),
        request("subscriptions/listen", { notifications: {} }),
      ];
      const answers = [];
      for (const message of messages) {
        answers.push(...await client.exchange(message, 1));
      }
      assert.deepEqual(answers.map((a) => a.result ?? a.error.code), [
        {},
        {},
        -32602,
        -32601,
        -32601,
        -32601,
      ]);
      for (
        const note of [
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { jsonrpc: "2.0", method: "notifications/whatever", params: {} },
          {
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: "never-sent" },
          },
        ]
      ) {
        assert.deepEqual(await client.exchange(note, 0), []);
      }
      return answers;
    },
  },
  {
    name:
      "a call with a progress token gets increasing notifications/progress, then its result",
    async run(client) {
      const message = request("tools/call", {
        name: "steps",
        arguments: { n: 3 },
        _meta: { progressToken: "tok" },
      });
      const answers = await client.exchange(message, 4);
      assert.deepEqual(answers, stepsAnswers(message.id, "tok", 3));
      return answers;
    },
  },
  {
    name:
      "notifications/cancelled aborts the running call's signal, and the call gets no response",
    async run(client) {
      const tag = `cancel-${++ids}`;
      const message = call("hang", { tag });
      const answer = await client.start(message);
      await waitForFile(join(client.dir, `started-${tag}`));
      assert.deepEqual(
        await client.exchange({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: message.id, reason: "the table said so" },
        }, 0),
        [],
      );
      await waitForFile(join(client.dir, `aborted-${tag}`));
      await logged(client, /\[tools\] call hang .* aborted/);
      const answers = await answer();
      assert.deepEqual(answers, []);
      return answers;
    },
  },
  {
    name:
      "a batch in a 2025-03-26 session: one answer per request in order, errors in place, none for notifications",
    async run(client) {
      await client.initialize(init("2025-03-26"));
      const batch = [
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        call("echo", { text: "in a batch" }),
        { jsonrpc: "2.0", id: 3, method: "nope" },
        { jsonrpc: "1.0", id: 4, method: "ping" },
        { jsonrpc: "2.0", id: 5, method: "initialize", params: init("x") },
        7,
      ];
      const [reply] = await client.exchange(batch, 1);
      assert.deepEqual(reply.map((a: Rpc) => a.id), [
        1,
        batch[2].id,
        3,
        4,
        5,
        null,
      ]);
      assert.deepEqual(reply[1].result.content[0].text, "in a batch");
      assert.deepEqual(
        reply.slice(2).map((a: Rpc) => a.error.code),
        [-32601, -32600, -32600, -32600],
      );
      const quiet = await client.exchange([
        { jsonrpc: "2.0", method: "notifications/initialized" },
      ], 0);
      assert.deepEqual(quiet, []);
      return [reply];
    },
  },
  {
    name:
      "a batch is refused whole when empty, over 100 messages, or outside a 2025-03-26 session",
    async run(client) {
      await client.initialize(init("2025-03-26"));
      const refusals = [
        ...await client.exchange([], 1),
        ...await client.exchange(
          Array.from({ length: 101 }, () => request("ping")),
          1,
        ),
      ];
      await client.initialize(init("2025-11-25"));
      refusals.push(...await client.exchange([request("ping")], 1));
      assert.deepEqual(refusals.map((r) => [r.id, r.error.code]), [
        [null, -32600],
        [null, -32600],
        [null, -32600],
      ]);
      assert.equal(
        refusals[1].error.message,
        "Invalid Request: the batch holds 101 messages: the limit is 100; send at most 100 messages per batch, or one message per request",
      );
      assert.equal(
        refusals[2].error.message,
        "Invalid Request: JSON-RPC batches are accepted only in a session using protocol version 2025-03-26; send one message per request",
      );
      return refusals;
    },
  },
  {
    name:
      "what is not a JSON-RPC message gets -32700 or -32600, its id echoed only when valid; bad params get -32602",
    async run(client) {
      const payloads = [
        "{ not json",
        '"ping"',
        "null",
        JSON.stringify({ jsonrpc: "1.0", id: 5, method: "ping" }),
        JSON.stringify({ id: 6, method: "ping" }),
        JSON.stringify({ jsonrpc: "2.0", id: 7, method: 42 }),
        JSON.stringify({ jsonrpc: "2.0", id: null, method: "ping" }),
        JSON.stringify({ jsonrpc: "2.0", id: { a: 1 }, method: "ping" }),
        JSON.stringify({ jsonrpc: "2.0", id: 1.5, method: "ping" }),
        JSON.stringify({ jsonrpc: "2.0", id: "x".repeat(401), method: "ping" }),
        JSON.stringify({
          jsonrpc: "2.0",
          id: 8,
          method: "tools/list",
          params: [],
        }),
        JSON.stringify({ jsonrpc: "2.0", id: 9, method: "m".repeat(401) }),
      ];
      const answers = [];
      for (const payload of payloads) {
        answers.push(...await client.exchange(payload, 1));
      }
      assert.deepEqual(answers.map((a) => [a.id, a.error.code]), [
        [null, -32700],
        [null, -32600],
        [null, -32600],
        [5, -32600],
        [6, -32600],
        [7, -32600],
        [null, -32600],
        [null, -32600],
        [null, -32600],
        [null, -32600],
        [8, -32600],
        [9, -32600],
      ]);
      for (
        const params of [
          { name: "steps", _meta: { progressToken: { a: 1 } } },
          { name: "steps", _meta: { progressToken: 1.5 } },
          { name: "n".repeat(401) },
          { name: 42 },
          { name: "echo", arguments: [1] },
          { cursor: "x" },
        ]
      ) {
        const method = "cursor" in params ? "tools/list" : "tools/call";
        const [answer] = await client.exchange(request(method, params), 1);
        assert.equal(answer.error.code, -32602, JSON.stringify(params));
        answers.push(answer);
      }
      return answers;
    },
  },
  {
    name:
      "the stateless revision: server/discover, tools/list not to be cached, tools/call, a fresh session id per call, no ping",
    async run(client) {
      const [discover] = await client.exchange(stateless("server/discover"), 1);
      assert.deepEqual(discover.result.supportedVersions, [
        "2026-07-28",
        "2025-11-25",
        "2025-06-18",
        "2025-03-26",
      ]);
      assert.equal(discover.result.resultType, "complete");
      const [list] = await client.exchange(stateless("tools/list"), 1);
      assert.equal(list.result.ttlMs, 0);
      assert.equal(list.result.cacheScope, "private");
      const [echo] = await client.exchange(
        stateless("tools/call", { name: "echo", arguments: { text: "é" } }),
        1,
      );
      assert.deepEqual(echo.result, {
        content: [{ type: "text", text: "é" }],
        resultType: "complete",
      });
      const sessions = [];
      for (let i = 0; i < 2; i++) {
        const [who] = await client.exchange(
          stateless("tools/call", { name: "whoami", arguments: {} }),
          1,
        );
        sessions.push(who.result.structuredContent.sessionId);
      }
      assert.notEqual(sessions[0], sessions[1]);
      const progress = await client.exchange(
        stateless("tools/call", {
          name: "steps",
          arguments: { n: 2 },
          _meta: { progressToken: 1 },
        }),
        3,
      );
      assert.deepEqual(progress.map((m) => m.method ?? m.result.resultType), [
        "notifications/progress",
        "notifications/progress",
        "complete",
      ]);
      const [ping] = await client.exchange(stateless("ping"), 1);
      assert.equal(ping.error.code, -32601);
      return [discover, list, echo, ...progress, ping];
    },
  },
  {
    name:
      "the stateless revision: a revision not served gets -32022, a malformed envelope -32602",
    async run(client) {
      const [unsupported] = await client.exchange(
        stateless("tools/list", {}, {
          ...ENVELOPE,
          "io.modelcontextprotocol/protocolVersion": "2099-01-01",
        }),
        1,
      );
      assert.deepEqual(unsupported.error, {
        code: -32022,
        message: "Unsupported protocol version: 2099-01-01",
        data: { supported: ["2026-07-28"], requested: "2099-01-01" },
      });
      const [malformed] = await client.exchange(
        stateless("tools/list", {}, {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        }),
        1,
      );
      assert.equal(malformed.error.code, -32602);
      assert.match(malformed.error.message, /clientCapabilities/);
      return [unsupported, malformed];
    },
  },
  {
    name:
      "subscriptions/listen: acknowledged with what is honored, list_changed carries the subscription id, cancelling ends it",
    async run(client) {
      const message = stateless("subscriptions/listen", {
        notifications: { toolsListChanged: true, promptsListChanged: true },
      });
      const ended = (client.log().match(/subscription of agent "beeuni" ended/g)
        ?.length ?? 0) + 1;
      const events = await client.listen(message);
      const ack = await events.next();
      assert.deepEqual(ack, {
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params: {
          notifications: { toolsListChanged: true },
          _meta: { [SUBSCRIPTION_ID]: message.id },
        },
      });
      await editEcho(client.dir);
      const changed = await events.next(60_000);
      assert.deepEqual(changed, {
        jsonrpc: "2.0",
        method: "notifications/tools/list_changed",
        params: { _meta: { [SUBSCRIPTION_ID]: message.id } },
      });
      await events.close();
      await logged(client, /subscription of agent "beeuni" ended/, ended);
      return [ack, changed];
    },
  },
  {
    name:
      "subscriptions/listen without a notifications object is invalid params",
    async run(client) {
      const answers = [];
      for (const notifications of [undefined, "tools", [true]]) {
        const message = stateless("subscriptions/listen", { notifications });
        const [answer] = await client.exchange(message, 1);
        assert.deepEqual(answer, {
          jsonrpc: "2.0",
          id: message.id,
          error: {
            code: -32602,
            message: 'Invalid params: "notifications" must be an object',
          },
        });
        answers.push(answer);
      }
      return answers;
    },
  },
  {
    name:
      "past 256 open subscriptions the oldest ends to make room, with its result",
    async run(client) {
      const first = stateless("subscriptions/listen", {
        notifications: { toolsListChanged: true },
      });
      const oldest = await client.listen(first);
      const ack = await oldest.next();
      const opened: Events[] = [];
      for (let i = 0; i < 256; i++) {
        const next = await client.listen(
          stateless("subscriptions/listen", { notifications: {} }),
        );
        assert.equal(
          (await next.next())?.method,
          "notifications/subscriptions/acknowledged",
        );
        opened.push(next);
      }
      const result = await oldest.next();
      assert.deepEqual(result, {
        jsonrpc: "2.0",
        id: first.id,
        result: {
          resultType: "complete",
          _meta: { [SUBSCRIPTION_ID]: first.id },
        },
      });
      await logged(
        client,
        /subscription of agent "beeuni" closed to make room: 256 event streams are open/,
      );
      for (const events of opened) await events.close();
      return [ack, result];
    },
  },
  {
    // After the subscriptions: a GET stream counts against the same cap.
    name:
      "a reload that changes the agent's list sends list_changed on the session's stream, and tools/list shows it",
    async run(client) {
      const events = await client.events();
      try {
        const description = await editEcho(client.dir);
        const changed = await events.next(60_000);
        assert.deepEqual(changed, {
          jsonrpc: "2.0",
          method: "notifications/tools/list_changed",
        });
        const [list] = await client.exchange(request("tools/list"), 1);
        const echo = list.result.tools.find((t: Rpc) => t.name === "echo");
        assert.equal(echo.description, description);
        return [changed];
      } finally {
        await events.close();
      }
    },
  },
];

/** The two transports, each over a fresh copy of the fixture project. */
const TRANSPORTS: {
  name: string;
  open(): Promise<{ client: Client; stop(): Promise<void> }>;
}[] = [
  {
    name: "Streamable HTTP: a daemon's /mcp",
    async open() {
      const daemon = await mcpDaemon();
      const client = new HttpClient(daemon);
      return {
        client,
        async stop() {
          await client.close();
          await daemon.stop();
        },
      };
    },
  },
  {
    name: "stdio: beeuni mcp",
    async open() {
      const project = await tempProject();
      const client = new StdioClient(project.dir);
      return {
        client,
        async stop() {
          await client.close();
          await project[Symbol.asyncDispose]();
        },
      };
    },
  },
];

Deno.test("the protocol cases give the same answers over Streamable HTTP and stdio: negotiation, tools, progress, cancellation, list_changed, batches, invalid requests, the stateless revision and its subscriptions (C1-C4)", async (t) => {
  const first = new Map<string, unknown>();
  for (const transport of TRANSPORTS) {
    await t.step(transport.name, async (t) => {
      // The same ids on both, for the same answers.
      ids = 0;
      const { client, stop } = await transport.open();
      try {
        await client.initialize(init("2025-11-25"));
        for (const item of CASES) {
          await t.step(item.name, async () => {
            const got = normalize(await item.run(client));
            if (first.has(item.name)) {
              assert.deepEqual(got, first.get(item.name));
            } else first.set(item.name, got);
          });
        }
      } finally {
        await stop();
      }
    });
  }
  assert.equal(first.size, CASES.length);
});
