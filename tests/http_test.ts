// The daemon's HTTP handler, in-process: `new Request()` in, `Response` out,
// over a fake host that records what it was asked (D2, D4, D7, T5).

import assert from "node:assert/strict";
import {
  createHandler,
  type DaemonHost,
  type HostCall,
  type HostOutcome,
} from "../lib/http/mod.ts";
import { waitFor } from "./_daemon.ts";

const TOKEN = "t0ken-for-tests";
const AUTH = { authorization: `Bearer ${TOKEN}`, host: "127.0.0.1:8787" };

/** A host whose calls answer with `answer(call)`, recording each call. */
function fakeHost(
  answer: (call: HostCall) => Promise<HostOutcome> | HostOutcome = () => ({
    ok: true,
    output: "done",
  }),
): DaemonHost & { calls: HostCall[]; stopped: string[] } {
  const calls: HostCall[] = [];
  const stopped: string[] = [];
  return {
    calls,
    stopped,
    list: (agent) =>
      agent === "narrow" ? [] : [{
        name: "echo",
        description: "Echoes",
        parameters: { type: "object" },
      }],
    call: async (call) => {
      calls.push(call);
      return await answer(call);
    },
    stopSession: (id) => {
      stopped.push(id);
      return 2;
    },
    running: () => 0,
  };
}

function post(path: string, body: unknown, headers = AUTH): Request {
  return new Request(`http://127.0.0.1:8787${path}`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function answer(
  handler: (request: Request) => Promise<Response>,
  request: Request,
): Promise<
  { status: number; body: Record<string, unknown>; headers: Headers }
> {
  const response = await handler(request);
  return {
    status: response.status,
    body: await response.json(),
    headers: response.headers,
  };
}

const CALL = { args: { text: "hi" }, sessionId: "s1", agent: "build" };

Deno.test("createHandler() refuses a foreign Host header before anything else (421)", async () => {
  const host = fakeHost();
  const handler = createHandler({ host, token: TOKEN });
  const refused = await answer(
    handler,
    post("/beeuni/tools/echo", CALL, { ...AUTH, host: "evil.example:8787" }),
  );
  assert.equal(refused.status, 421);
  assert.match(String(refused.body.error), /^the Host header must be/);
  assert.equal(host.calls.length, 0);
  const allowed = createHandler({ host, token: TOKEN, allowAnyHost: true });
  const ok = await answer(
    allowed,
    post("/beeuni/tools/echo", CALL, { ...AUTH, host: "evil.example:8787" }),
  );
  assert.equal(ok.status, 200);
});

Deno.test("createHandler() asks for the bearer token with 401 and WWW-Authenticate (D7)", async () => {
  const handler = createHandler({ host: fakeHost(), token: TOKEN });
  for (
    const authorization of [
      undefined,
      "Basic dXNlcjpwYXNz",
      `Bearer ${TOKEN}x`,
      "Bearer",
    ]
  ) {
    const headers: Record<string, string> = { host: "localhost" };
    if (authorization) headers.authorization = authorization;
    const refused = await answer(
      handler,
      new Request("http://localhost/beeuni/health", { headers }),
    );
    assert.equal(refused.status, 401, String(authorization));
    assert.equal(
      refused.headers.get("www-authenticate"),
      'Bearer realm="beeuni"',
    );
    assert.match(
      String(refused.body.error),
      /^missing or wrong bearer token: /,
    );
  }
});

Deno.test("createHandler() routes by a table: 404 for no route, 405 with Allow for the wrong method", async () => {
  const handler = createHandler({ host: fakeHost(), token: TOKEN });
  const missing = await answer(
    handler,
    new Request("http://127.0.0.1/nope", { headers: AUTH }),
  );
  assert.deepEqual(missing, {
    ...missing,
    status: 404,
    body: { error: "no route for GET /nope" },
  });
  const wrong = await answer(
    handler,
    new Request("http://127.0.0.1/beeuni/tools/echo", { headers: AUTH }),
  );
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get("allow"), "POST");
  assert.deepEqual(wrong.body, { error: "method not allowed: use POST" });
  const health = await answer(
    handler,
    new Request("http://127.0.0.1/beeuni/health", { headers: AUTH }),
  );
  assert.deepEqual(health.body, { ok: true, tools: 1, running: 0 });
});

Deno.test("createHandler() hands the call body to the host and answers 200 with its output or error (D2)", async () => {
  const host = fakeHost((call) =>
    call.name === "echo"
      ? { ok: true, output: "hi", truncated: true, size: 9, path: "/tmp/x" }
      : call.name === "hidden"
      ? { ok: false, status: "forbidden", error: "agent may not" }
      : call.name === "boom"
      ? { ok: false, status: "error", error: "it broke" }
      : { ok: false, status: "not_found", error: `Tool ${call.name} not found` }
  );
  const handler = createHandler({ host, token: TOKEN });
  const ok = await answer(handler, post("/beeuni/tools/echo", CALL));
  assert.deepEqual(ok.body, {
    output: "hi",
    truncated: true,
    size: 9,
    path: "/tmp/x",
  });
  assert.equal(host.calls[0].name, "echo");
  assert.deepEqual(host.calls[0].args, { text: "hi" });
  assert.equal(host.calls[0].sessionId, "s1");
  assert.equal(host.calls[0].agent, "build");
  const failed = await answer(handler, post("/beeuni/tools/boom", CALL));
  assert.deepEqual(failed, {
    ...failed,
    status: 200,
    body: { error: "it broke" },
  });
  const hidden = await answer(handler, post("/beeuni/tools/hidden", CALL));
  assert.deepEqual(hidden, {
    ...hidden,
    status: 403,
    body: { error: "agent may not" },
  });
  const gone = await answer(handler, post("/beeuni/tools/gone", CALL));
  assert.deepEqual(gone, {
    ...gone,
    status: 404,
    body: { error: "no tool named gone is loaded" },
  });
  const encoded = await answer(handler, post("/beeuni/tools/%E0%A4%A", CALL));
  assert.deepEqual(encoded.body, {
    error: "malformed percent-encoding in the path",
  });
});

Deno.test("createHandler() refuses malformed call bodies with 400 naming the field", async () => {
  const handler = createHandler({ host: fakeHost(), token: TOKEN });
  const cases: [unknown, string][] = [
    ["", "request body is empty"],
    ["{", "request body is not valid JSON"],
    [[1], "request body must be a JSON object"],
    [{ ...CALL, args: [1] }, '"args" must be a JSON object'],
    [{ args: {}, agent: "a" }, 'missing "sessionId"'],
    [{ ...CALL, agent: "" }, '"agent" must be a non-empty string'],
    [{ ...CALL, parentAgent: 3 }, '"parentAgent" must be a non-empty string'],
  ];
  for (const [body, expected] of cases) {
    const refused = await answer(handler, post("/beeuni/tools/echo", body));
    assert.equal(refused.status, 400, JSON.stringify(body));
    assert.ok(
      String(refused.body.error).startsWith(expected),
      String(refused.body.error),
    );
  }
  const notUtf8 = await answer(
    handler,
    new Request("http://127.0.0.1/beeuni/tools/echo", {
      method: "POST",
      headers: AUTH,
      body: new Uint8Array([0xff, 0xfe]),
    }),
  );
  assert.deepEqual(notUtf8.body, {
    error:
      "request body is not valid UTF-8 at byte offset 0: send it encoded as UTF-8",
  });
});

Deno.test("createHandler() refuses bodies over the limit by Content-Length and by bytes received (413)", async () => {
  const handler = createHandler({
    host: fakeHost(),
    token: TOKEN,
    maxBodyBytes: 64,
  });
  const big = JSON.stringify({ ...CALL, args: { text: "x".repeat(100) } });
  const declared = await answer(handler, post("/beeuni/tools/echo", big));
  assert.equal(declared.status, 413);
  const chunks = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < 10; i++) {
        controller.enqueue(new TextEncoder().encode("x".repeat(20)));
      }
      controller.close();
    },
  });
  const streamed = await answer(
    handler,
    new Request("http://127.0.0.1/beeuni/tools/echo", {
      method: "POST",
      headers: AUTH,
      body: chunks,
    }),
  );
  assert.equal(streamed.status, 413);
  assert.match(
    String(streamed.body.error),
    /^request body too large: over 64 bytes/,
  );
});

Deno.test("createHandler() aborts a running call when its caller goes away (T5)", async () => {
  let seen: AbortSignal | undefined;
  const host = fakeHost((call) =>
    new Promise((resolve) => {
      seen = call.signal;
      call.signal!.addEventListener("abort", () =>
        resolve({ ok: false, status: "aborted", error: "stopped" }));
    })
  );
  const handler = createHandler({ host, token: TOKEN });
  const caller = new AbortController();
  const request = new Request("http://127.0.0.1/beeuni/tools/echo", {
    method: "POST",
    headers: AUTH,
    body: JSON.stringify(CALL),
    signal: caller.signal,
  });
  const pending = handler(request);
  await waitFor("the call to reach the host", () => seen !== undefined);
  assert.equal(seen?.aborted, false);
  caller.abort();
  const response = await pending;
  assert.equal(seen?.aborted, true);
  assert.deepEqual(await response.json(), { error: "stopped" });
});

Deno.test("createHandler() stops a session's calls and lists an agent's tools", async () => {
  const host = fakeHost();
  const handler = createHandler({ host, token: TOKEN });
  const stop = await answer(handler, post("/beeuni/sessions/s%201/stop", ""));
  assert.deepEqual(stop.body, { stopped: 2 });
  assert.deepEqual(host.stopped, ["s 1"]);
  const list = await answer(
    handler,
    new Request("http://127.0.0.1/beeuni/tools?agent=narrow", {
      headers: AUTH,
    }),
  );
  assert.deepEqual(list.body, { tools: [] });
});

Deno.test("createHandler() hands paths under a mount to its handler, behind the same checks", async () => {
  const seen: string[] = [];
  const handler = createHandler({
    host: fakeHost(),
    token: TOKEN,
    mounts: [
      {
        prefix: "/mcp",
        handler: (request) => {
          seen.push(new URL(request.url).pathname);
          return Promise.resolve(new Response("mcp"));
        },
      },
      {
        prefix: "/ui",
        bearer: false,
        handler: () => Promise.resolve(new Response("page")),
      },
    ],
  });
  const mcp = await handler(
    new Request("http://127.0.0.1/mcp/narrow", { headers: AUTH }),
  );
  assert.equal(await mcp.text(), "mcp");
  const noToken = await handler(
    new Request("http://127.0.0.1/mcp", { headers: { host: "localhost" } }),
  );
  assert.equal(noToken.status, 401);
  await noToken.body?.cancel();
  const page = await handler(
    new Request("http://127.0.0.1/ui/x", { headers: { host: "localhost" } }),
  );
  assert.equal(await page.text(), "page");
  const foreign = await handler(
    new Request("http://127.0.0.1/ui/x", { headers: { host: "evil.example" } }),
  );
  assert.equal(foreign.status, 421);
  await foreign.body?.cancel();
  const notUnder = await handler(
    new Request("http://127.0.0.1/mcpx", { headers: AUTH }),
  );
  assert.equal(notUnder.status, 404);
  await notUnder.body?.cancel();
  assert.deepEqual(seen, ["/mcp/narrow"]);
});

Deno.test("createHandler() accepts a scope's credential only under its prefix, whose mounts and routes see the path without it (D7)", async () => {
  const asked: string[] = [];
  const logs: string[] = [];
  const handler = createHandler({
    host: fakeHost(),
    token: TOKEN,
    log: (line) => logs.push(line),
    mounts: [{
      prefix: "/",
      bearer: false,
      handler: (_request, url) =>
        url.pathname === "/"
          ? Promise.resolve(new Response("outside"))
          : undefined,
    }],
    scope: {
      prefix: "/s/secret/",
      mounts: [{
        prefix: "/",
        bearer: false,
        handler: (_request, url) =>
          url.pathname === "/"
            ? Promise.resolve(new Response("inside"))
            : undefined,
      }],
      authorize: (request, url) => {
        asked.push(url.pathname);
        return request.headers.get("x-pass") === "yes"
          ? { kind: "daemon" }
          : undefined;
      },
      headers: { "referrer-policy": "no-referrer" },
    },
  });
  const get = (path: string, headers: Record<string, string> = {}) =>
    handler(
      new Request(`http://127.0.0.1:8787${path}`, {
        headers: { host: "127.0.0.1:8787", ...headers },
      }),
    );
  const pass = { "x-pass": "yes" };

  const inside = await get("/s/secret/");
  assert.equal(await inside.text(), "inside");
  assert.equal(inside.headers.get("referrer-policy"), "no-referrer");
  assert.equal(await (await get("/")).text(), "outside");
  const health = await get("/s/secret/beeuni/health", pass);
  assert.equal(health.status, 200);
  assert.equal((await health.json()).ok, true);
  assert.deepEqual(asked, ["/beeuni/health"]);
  // The same credential outside the prefix is never asked about, nor taken.
  const outside = await get("/beeuni/health", pass);
  assert.equal(outside.status, 401);
  assert.equal(outside.headers.get("referrer-policy"), null);
  await outside.body?.cancel();
  assert.deepEqual(asked, ["/beeuni/health"]);
  // Without it, 401 under the prefix too, logged without the prefix.
  const refused = await get("/s/secret/beeuni/health");
  assert.equal(refused.status, 401);
  assert.equal(refused.headers.get("referrer-policy"), "no-referrer");
  await refused.body?.cancel();
  // The bearer token opens the routes in and out of the prefix.
  for (const path of ["/beeuni/health", "/s/secret/beeuni/health"]) {
    const response = await get(path, AUTH);
    assert.equal(response.status, 200, path);
    await response.body?.cancel();
  }
  // Near misses are outside the prefix.
  for (const path of ["/s/secret", "/s/secretx/beeuni/health"]) {
    const response = await get(path, pass);
    assert.equal(response.status, 401, path);
    await response.body?.cancel();
  }
  assert.ok(logs.length >= 3);
  assert.ok(
    logs.includes(
      "[http] 401 GET <secret prefix>/beeuni/health: missing or wrong bearer token",
    ),
    logs.join("\n"),
  );
  assert.ok(!logs.some((line) => line.includes("/s/secret/")), logs.join("\n"));
});
