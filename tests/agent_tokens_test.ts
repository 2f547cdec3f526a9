// Agent tokens (issue 23 item 1, K1): `beeuni tokens new|ls|rm`, and a real
// daemon that accepts them beside its own token, each acting only as its
// agents over REST, MCP (both protocol eras) and the web UI; removal and
// expiry take effect at the next request, and no token reaches a log.

import assert from "node:assert/strict";
import { join } from "node:path";
import { beeuni, isolatedState, tempRepo } from "./_helpers.ts";
import { startDaemon, type TestDaemon, waitFor } from "./_daemon.ts";
import { initializeMessage, RawMcp, rpcBody } from "./_mcp.ts";
import { launchChromium, openPage } from "./_web.ts";

const MANIFEST = `tools:
  echo: tools/echo.ts
  whoami: tools/whoami.ts
  hang: tools/hang.ts
agents:
  a:
    tools: [echo, whoami]
    secrets: [A_KEY]
  b:
    tools: [whoami, hang]
`;

const FILES = {
  "beeuni.yaml": MANIFEST,
  "tools/echo.ts": `export default {
  description: "Echo the text back",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args: { text?: string }) => String(args.text ?? ""),
};
`,
  "tools/hang.ts": `export default {
  description: "Wait until aborted",
  parameters: { type: "object", properties: {} },
  execute: (_args: unknown, context: { signal: AbortSignal }) =>
    new Promise((resolve) =>
      context.signal.addEventListener("abort", () => resolve("stopped"))
    ),
};
`,
  "tools/whoami.ts": `export default {
  description: "Report the call's agent and whether it got the secret A_KEY",
  parameters: { type: "object", properties: { secret: { type: "boolean" } } },
  execute: (
    args: { secret?: boolean },
    context: { agent: string; env: Record<string, string | undefined> },
  ) => args.secret ? context.env.A_KEY ?? "(unset)" : context.agent,
};
`,
};

const TOKEN_LINE = /^bt_[A-Za-z0-9_-]{43}\n$/;

/** A project and a state folder shared by its CLI runs and its daemon. */
async function setUp() {
  const repo = await tempRepo(FILES);
  const state = await isolatedState();
  const run = (...args: string[]) => beeuni(repo.dir, args, { env: state.env });
  /** `beeuni tokens new ARGS`: the token it printed. */
  const newToken = async (...args: string[]) => {
    const made = await run("tokens", "new", ...args);
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stdout, TOKEN_LINE);
    return made.stdout.trim();
  };
  const tokenFile = () => join(state.env.XDG_STATE_HOME, "beeuni", "tokens");
  return {
    dir: repo.dir,
    env: state.env,
    run,
    newToken,
    tokenFile,
    async [Symbol.asyncDispose]() {
      await state[Symbol.asyncDispose]();
      await repo[Symbol.asyncDispose]();
    },
  };
}

function daemonOf(dir: string, env: Record<string, string>) {
  return startDaemon(dir, { env, args: ["--no-opencode", "--no-watch"] });
}

/** `fetch` on the daemon with `token` as the bearer. */
function as(daemon: TestDaemon, token: string) {
  return (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${token}`);
    return daemon.fetch(path, { ...init, headers });
  };
}

async function callAs(
  daemon: TestDaemon,
  token: string,
  name: string,
  body: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await as(daemon, token)(`/beeuni/tools/${name}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function toolNamesAs(
  daemon: TestDaemon,
  token: string,
  query = "",
): Promise<{ status: number; names?: string[]; error?: string }> {
  const response = await as(daemon, token)(`/beeuni/tools${query}`);
  const body = await response.json();
  return {
    status: response.status,
    names: body.tools?.map((tool: { name: string }) => tool.name),
    error: body.error,
  };
}

/** The stored token file's one JSON file. */
async function storedFile(folder: string): Promise<string> {
  const names = [];
  for await (const entry of Deno.readDir(folder)) names.push(entry.name);
  const json = names.filter((name) => name.endsWith(".json"));
  assert.equal(json.length, 1, `one token file in ${folder}: ${names}`);
  return join(folder, json[0]);
}

/** The web UI's cookie session minted with `token`: a fetch inside its page. */
async function webPageAs(daemon: TestDaemon, token: string) {
  const minted = await as(daemon, token)("/beeuni/web/code", {
    method: "POST",
  });
  assert.equal(minted.status, 200);
  const { url, code } = await minted.json();
  const prefix = new URL(url).pathname;
  const origin = daemon.url;
  const signIn = await fetch(`${daemon.url}${prefix}beeuni/web/session`, {
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: JSON.stringify({ code }),
  });
  assert.equal(signIn.status, 204);
  const cookie = signIn.headers.get("set-cookie")!.split(";")[0];
  return (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("cookie", cookie);
    headers.set("origin", origin);
    return fetch(`${daemon.url}${prefix}${path}`, { ...init, headers });
  };
}

/** Reads an event stream to its end: `text()` so far, and whether it ended. */
function drain(response: Response) {
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type")!, /^text\/event-stream/);
  let text = "";
  let ended = false;
  const done = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!) {
        text += decoder.decode(chunk, { stream: true });
      }
      ended = true;
    } catch {
      // Cancelled by the test, the stream did not end by itself.
    }
  })();
  return { text: () => text, ended: () => ended, done };
}

Deno.test("tokens new prints the token once and stores only its hash in a 0600 file; ls shows label, agents, created, expires and last used; rm revokes; each mistake is a clear error, a malformed --expires or --label a usage error (exit 2) (issue 23, K1)", async () => {
  await using project = await setUp();
  const empty = await project.run("tokens", "ls");
  assert.equal(empty.code, 0);
  assert.match(empty.stdout, /^No agent tokens for this project/);

  const made = await project.run("tokens", "new", "--agent", "a");
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stdout, TOKEN_LINE);
  assert.match(made.stderr, /token "token-1" for agent "a".*shown once/);
  const token = made.stdout.trim();
  const second = await project.newToken(
    "--agent",
    "b",
    "--agent",
    "a",
    "--label",
    "ci",
    "--expires",
    "7d",
  );
  assert.notEqual(second, token);

  const file = await storedFile(project.tokenFile());
  assert.equal(Deno.statSync(file).mode! & 0o777, 0o600);
  const text = await Deno.readTextFile(file);
  assert.ok(!text.includes(token) && !text.includes(second));
  assert.ok(!text.includes(token.slice(3)), "no part of the token is kept");
  const stored = JSON.parse(text).tokens;
  const { createHash } = await import("node:crypto");
  assert.equal(
    stored[0].hash,
    createHash("sha256").update(token).digest("hex"),
  );

  const ls = await project.run("tokens", "ls");
  assert.equal(ls.code, 0, ls.stderr);
  const lines = ls.stdout.trimEnd().split("\n");
  assert.match(lines[0], /^LABEL\s+AGENTS\s+CREATED\s+EXPIRES\s+LAST USED$/);
  assert.match(
    lines[1],
    /^token-1\s+a\s+\d{4}-\d\d-\d\dT\S+Z\s+never\s+never$/,
  );
  assert.match(lines[2], /^ci\s+b,a\s+\S+Z\s+\S+Z\s+never$/);
  assert.ok(!ls.stdout.includes(token));

  const duplicate = await project.run(
    "tokens",
    "new",
    "--agent",
    "a",
    "--label",
    "ci",
  );
  assert.equal(duplicate.code, 1);
  assert.match(duplicate.stderr, /a token labelled "ci" exists already/);

  const unknown = await project.run("tokens", "new", "--agent", "nobody");
  assert.equal(unknown.code, 1);
  assert.match(
    unknown.stderr,
    /unknown agent "nobody": this project's agents are "beeuni", "a", "b"/,
  );
  const noAgent = await project.run("tokens", "new");
  assert.equal(noAgent.code, 2);
  assert.match(noAgent.stderr, /missing --agent NAME/);
  const usageErrors: [string, string, RegExp][] = [
    [
      "--expires",
      "3 days",
      /invalid --expires "3 days": use a whole number and a unit, s, m, h, d or w/,
    ],
    [
      "--label",
      "my token",
      /invalid --label "my token": use letters, digits, "\.", "_" and "-"/,
    ],
  ];
  for (const [option, value, message] of usageErrors) {
    const refused = await project.run(
      "tokens",
      "new",
      "--agent",
      "a",
      option,
      value,
    );
    assert.equal(refused.code, 2, option);
    assert.match(refused.stderr, message);
  }

  const missing = await project.run("tokens", "rm", "nope");
  assert.equal(missing.code, 1);
  assert.match(
    missing.stderr,
    /no token labelled "nope": this project's tokens are "token-1", "ci"/,
  );
  const removed = await project.run("tokens", "rm", "token-1");
  assert.equal(removed.code, 0, removed.stderr);
  const after = JSON.parse(
    (await project.run("tokens", "ls", "--json")).stdout,
  );
  assert.deepEqual(after.map((t: { label: string }) => t.label), ["ci"]);
});

Deno.test("secrets follow the agent a token acts as: a token for agent a gets a's grant, a token for agent b does not, whatever agent the request names (issue 23, K1, D6)", async () => {
  await using project = await setUp();
  const set = await beeuni(project.dir, ["secrets", "set", "A_KEY=-"], {
    env: project.env,
    stdin: "a-secret-value-7",
  });
  assert.equal(set.code, 0, set.stderr);
  const a = await project.newToken("--agent", "a");
  const b = await project.newToken("--agent", "b");
  await using daemon = await daemonOf(project.dir, project.env);
  const secretOf = async (
    token: string,
    agent?: string,
  ) => (await callAs(daemon, token, "whoami", {
    args: { secret: true },
    sessionId: "s",
    ...(agent ? { agent } : {}),
  }));
  assert.deepEqual(await secretOf(a), {
    status: 200,
    body: { output: "a-secret-value-7" },
  });
  assert.deepEqual(await secretOf(b), {
    status: 200,
    body: { output: "(unset)" },
  });
  const claimed = await secretOf(b, "a");
  assert.equal(claimed.status, 403);
  assert.equal(
    JSON.stringify(claimed.body).includes("a-secret-value-7"),
    false,
  );
});

Deno.test("concurrent tokens new runs lose no update: every token is stored under the secret store's lock (issue 23, K1)", async () => {
  await using project = await setUp();
  const tokens = await Promise.all(
    Array.from({ length: 5 }, () => project.newToken("--agent", "a")),
  );
  assert.equal(new Set(tokens).size, 5);
  const listed = JSON.parse(
    (await project.run("tokens", "ls", "--json")).stdout,
  );
  assert.deepEqual(
    listed.map((t: { label: string }) => t.label).sort(),
    ["token-1", "token-2", "token-3", "token-4", "token-5"],
  );
});

Deno.test("over REST an agent token acts only as its agents: another agent's list or call gets 403 naming them, no agent means its first, the daemon's token still opens every agent, and no token reaches the daemon's stderr (issue 23, K1)", async () => {
  await using project = await setUp();
  const a = await project.newToken("--agent", "a");
  await using daemon = await daemonOf(project.dir, project.env);
  // Made while the daemon runs: accepted without a restart.
  const b = await project.newToken("--agent", "b");
  const both = await project.newToken("--agent", "b", "--agent", "a");

  assert.deepEqual(await toolNamesAs(daemon, a), {
    status: 200,
    names: ["echo", "whoami"],
    error: undefined,
  });
  assert.deepEqual((await toolNamesAs(daemon, b)).names, ["whoami", "hang"]);
  const other = await toolNamesAs(daemon, a, "?agent=b");
  assert.equal(other.status, 403);
  assert.equal(
    other.error,
    'this token acts only as agent "a", not "b": ask for it or use another token',
  );
  const twoAgents = await toolNamesAs(daemon, both, "?agent=beeuni");
  assert.equal(twoAgents.status, 403);
  assert.match(
    twoAgents.error!,
    /^this token acts only as agents "b", "a", not "beeuni": ask for one of those/,
  );
  assert.equal(
    (await toolNamesAs(daemon, a, "?agent=a&parentAgent=b")).status,
    403,
  );

  // A call without an agent acts as the token's first.
  const first = await callAs(daemon, both, "whoami", { sessionId: "s1" });
  assert.deepEqual(first, { status: 200, body: { output: "b" } });
  // Its answer goes out as the daemon token's does: a fixed body with its
  // length, not re-wrapped into a chunked stream.
  const plain = await as(daemon, both)("/beeuni/tools/whoami", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sessionId: "s1" }),
  });
  const text = await plain.text();
  assert.deepEqual(JSON.parse(text), { output: "b" });
  assert.equal(
    plain.headers.get("content-length"),
    String(new TextEncoder().encode(text).length),
  );
  assert.equal(plain.headers.get("transfer-encoding"), null);
  const named = await callAs(daemon, both, "whoami", {
    sessionId: "s1",
    agent: "a",
  });
  assert.deepEqual(named.body, { output: "a" });
  const refused = await callAs(daemon, a, "whoami", {
    sessionId: "s1",
    agent: "b",
  });
  assert.equal(refused.status, 403);
  assert.match(String(refused.body.error), /acts only as agent "a", not "b"/);
  const subagent = await callAs(daemon, b, "whoami", {
    sessionId: "s1",
    agent: "b",
    parentAgent: "a",
  });
  assert.equal(subagent.status, 403);
  // Visibility still applies within the token's agents.
  assert.equal(
    (await callAs(daemon, b, "echo", { sessionId: "s1" })).status,
    403,
  );

  // The daemon's own token: every agent, as before.
  assert.deepEqual(
    (await toolNamesAs(daemon, daemon.token, "?agent=b")).names,
    ["whoami", "hang"],
  );

  // Stopping a session: an agent token stops only its agents' calls.
  const running = daemon.call("hang", { sessionId: "s3", agent: "b" });
  await waitFor(
    "the hang call to run",
    async () =>
      (await (await daemon.fetch("/beeuni/health")).json()).running === 1,
  );
  const stopAs = async (token: string) =>
    await (await as(daemon, token)("/beeuni/sessions/s3/stop", {
      method: "POST",
    })).json();
  assert.deepEqual(await stopAs(a), { stopped: 0 });
  assert.deepEqual(await stopAs(b), { stopped: 1 });
  assert.equal((await running).status, 200);
  assert.deepEqual(
    (await daemon.call("whoami", { sessionId: "s2", agent: "b" })).body,
    { output: "b" },
  );

  const wrong = await toolNamesAs(daemon, "bt_" + "x".repeat(43));
  assert.equal(wrong.status, 401);
  assert.match(wrong.error!, /^unknown, expired or removed agent token/);

  // Last used: the first use is written at once, later ones within the
  // minute when the daemon stops.
  const lastUses = async () =>
    Object.fromEntries(
      JSON.parse((await project.run("tokens", "ls", "--json")).stdout).map((
        t: { label: string; lastUsed: string | null },
      ) => [t.label, t.lastUsed]),
    );
  await waitFor(
    "the last use to be written",
    async () => Object.values(await lastUses()).every((at) => at !== null),
  );
  const written = await lastUses();
  assert.equal((await toolNamesAs(daemon, a)).status, 200);
  await daemon.stop();
  const atStop = await lastUses();
  assert.ok(
    atStop["token-1"] > written["token-1"],
    `${atStop["token-1"]} after ${written["token-1"]}`,
  );
  for (const token of [a, b, both]) {
    assert.ok(!daemon.stderr().includes(token), "a token in the logs");
    assert.ok(!daemon.stderr().includes(token.slice(3)), "a token in the logs");
  }
  assert.match(daemon.stderr(), /\[http\] 403 GET \/beeuni\/tools/);
});

Deno.test("a token removed or expired while the daemon runs gets 401 at its next request, also in an MCP session opened with it; ls marks an expired token (issue 23, K1)", async () => {
  await using project = await setUp();
  const a = await project.newToken("--agent", "a", "--label", "gone");
  const short = await project.newToken("--agent", "a", "--expires", "2s");
  await using daemon = await daemonOf(project.dir, project.env);
  assert.equal((await toolNamesAs(daemon, a)).status, 200);
  const mcp = new RawMcp(`${daemon.url}/mcp`, a);
  await mcp.initialize();
  const listed = await mcp.request("tools/list");
  assert.deepEqual(
    listed.result.tools.map((tool: { name: string }) => tool.name),
    ["echo", "whoami"],
  );

  const removed = await project.run("tokens", "rm", "gone");
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal((await toolNamesAs(daemon, a)).status, 401);
  const afterRemoval = await mcp.post({
    jsonrpc: "2.0",
    id: 9,
    method: "tools/list",
  });
  assert.equal(afterRemoval.status, 401);
  await afterRemoval.body?.cancel();

  await waitFor(
    "the short token to expire",
    async () => (await toolNamesAs(daemon, short)).status === 401,
  );
  const ls = await project.run("tokens", "ls");
  assert.match(ls.stdout, /^token-1\s+a\s+\S+\s+\S+Z \(expired\)\s/m);
  await daemon.stop();
  assert.ok(!daemon.stderr().includes(a) && !daemon.stderr().includes(short));
});

/** A stateless (2026-07-28) request to `path` with `token`. */
async function stateless(
  daemon: TestDaemon,
  path: string,
  token: string,
  method: string,
): Promise<Response> {
  return await as(daemon, token)(path, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        },
      },
    }),
  });
}

Deno.test("over MCP /mcp serves an agent token's first agent and /mcp/<other> gets 403 naming its agents, in the session era and the stateless 2026-07-28 era, where tools/list varies by the token presented (issue 23, K1)", async () => {
  await using project = await setUp();
  const a = await project.newToken("--agent", "a");
  const b = await project.newToken("--agent", "b");
  await using daemon = await daemonOf(project.dir, project.env);
  const names = (result: { tools: { name: string }[] }) =>
    result.tools.map((tool) => tool.name);

  // The session era.
  const sessionB = new RawMcp(`${daemon.url}/mcp`, b);
  await sessionB.initialize();
  assert.deepEqual(names((await sessionB.request("tools/list")).result), [
    "whoami",
    "hang",
  ]);
  const call = await sessionB.request("tools/call", {
    name: "whoami",
    arguments: {},
  });
  assert.equal(call.result.content[0].text, "b");
  const forbidden = new RawMcp(`${daemon.url}/mcp/a`, b);
  const refused = await forbidden.post(initializeMessage(1));
  assert.equal(refused.status, 403);
  assert.match(
    (await refused.json()).error.message,
    /this token acts only as agent "b", not "a"/,
  );
  const own = new RawMcp(`${daemon.url}/mcp/a`, a);
  await own.initialize();
  assert.deepEqual(names((await own.request("tools/list")).result), [
    "echo",
    "whoami",
  ]);

  // The stateless era: the same endpoint, a list by the token presented.
  const listA = await rpcBody(
    await stateless(daemon, "/mcp", a, "tools/list"),
  );
  const listB = await rpcBody(
    await stateless(daemon, "/mcp", b, "tools/list"),
  );
  assert.deepEqual(names(listA.result), ["echo", "whoami"]);
  assert.deepEqual(names(listB.result), ["whoami", "hang"]);
  const modernRefused = await stateless(daemon, "/mcp/a", b, "tools/list");
  assert.equal(modernRefused.status, 403);
  assert.match(
    (await modernRefused.json()).error.message,
    /acts only as agent "b", not "a"/,
  );
  // The daemon's token: agent beeuni at /mcp, every tool.
  const daemonList = await rpcBody(
    await stateless(daemon, "/mcp", daemon.token, "tools/list"),
  );
  assert.deepEqual(names(daemonList.result), ["echo", "whoami", "hang"]);
  const daemonB = await rpcBody(
    await stateless(daemon, "/mcp/b", daemon.token, "tools/list"),
  );
  assert.deepEqual(names(daemonB.result), ["whoami", "hang"]);
  await daemon.stop();
  assert.ok(!daemon.stderr().includes(a) && !daemon.stderr().includes(b));
});

Deno.test("the web UI opened with an agent token lists only its agents and its calls, refuses another agent, and stops working once the token is removed (issue 23, K1)", async () => {
  await using project = await setUp();
  const a = await project.newToken("--agent", "a", "--label", "web");
  await using daemon = await daemonOf(project.dir, project.env);
  // Calls of both agents in the history, b's first.
  await daemon.call("whoami", { sessionId: "sb", agent: "b" });
  await daemon.call("whoami", { sessionId: "sa", agent: "a" });

  const inPage = await webPageAs(daemon, a);

  const tools = await (await inPage("ui/api/tools")).json();
  assert.deepEqual(tools.agents, ["a"]);
  assert.equal(tools.defaultAgent, "a");
  assert.deepEqual(
    tools.tools.map((tool: { name: string }) => tool.name),
    ["echo", "whoami"],
  );
  const other = await inPage("ui/api/tools?agent=b");
  assert.equal(other.status, 403);
  assert.match((await other.json()).error, /acts only as agent "a", not "b"/);
  const call = await inPage("beeuni/tools/whoami", {
    method: "POST",
    body: JSON.stringify({ sessionId: "web", agent: "b" }),
  });
  assert.equal(call.status, 403);
  await call.body?.cancel();

  // The events stream: a's calls only.
  const events = await inPage("ui/api/events");
  const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!/"type":"call-end"[^\n]*"sessionId":"sa"/.test(seen)) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  await reader.cancel();
  assert.match(seen, /"agent":"a"/);
  assert.doesNotMatch(seen, /"agent":"b"/);

  assert.equal((await project.run("tokens", "rm", "web")).code, 0);
  const afterRemoval = await inPage("ui/api/tools");
  assert.equal(afterRemoval.status, 401);
  await afterRemoval.body?.cancel();
});

Deno.test("in Chromium, the web UI opened from `beeuni web` with an agent token in BEEUNI_TOKEN offers only that token's agents in its picker (issue 23, K1, W1)", async () => {
  await using project = await setUp();
  const token = await project.newToken("--agent", "b", "--agent", "a");
  await using daemon = await daemonOf(project.dir, project.env);
  const printed = await beeuni(project.dir, ["web"], {
    env: { ...project.env, BEEUNI_TOKEN: token },
  });
  assert.equal(printed.code, 0, printed.stderr);
  const address = /^web ui: (http:\/\/\S+)$/m.exec(printed.stdout)![1];
  const browser = await launchChromium();
  try {
    const ui = await openPage(browser, address);
    const { page } = ui;
    await page.locator(".tool-list button").first().waitFor();
    const options = await page.locator("#agent option").evaluateAll(
      (items: { value: string }[]) => items.map((item) => item.value),
    );
    assert.deepEqual(options, ["b", "a"]);
    assert.equal(await page.inputValue("#agent"), "b");
    assert.deepEqual(ui.errors, []);
    await ui.close();
  } finally {
    await browser.close();
  }
  await daemon.stop();
  assert.ok(!daemon.stderr().includes(token));
});

Deno.test("every event stream opened with an agent token ends once the token is removed, without delivering what happens after: the web UI's events and session streams, an MCP GET stream and a streamed REST call, whose call is stopped (issue 23, K1)", async () => {
  await using project = await setUp();
  const token = await project.newToken(
    "--agent",
    "a",
    "--agent",
    "b",
    "--label",
    "streams",
  );
  await using daemon = await daemonOf(project.dir, project.env);
  const { newSessionId, projectStateDir } = await import(
    "../lib/sessions/mod.ts"
  );
  const sessionId = newSessionId();
  const sessions = join(
    projectStateDir(await Deno.realPath(project.dir), project.env),
    "sessions",
  );
  await Deno.mkdir(sessions, { recursive: true });
  const sessionPath = join(sessions, `${sessionId}.jsonl`);
  const record = (value: Record<string, unknown>) =>
    Deno.writeTextFile(sessionPath, JSON.stringify(value) + "\n", {
      append: true,
    });
  await record({
    type: "start",
    id: sessionId,
    agent: "a",
    harness: "standard",
    model: "p/m",
    startedAt: new Date().toISOString(),
    prompt: "hello",
  });
  await record({ type: "text", text: "before removal" });

  // Should a stream not end, the test still ends: every stream is cut first.
  const client = new AbortController();
  using _cut = { [Symbol.dispose]: () => client.abort() };
  const { signal } = client;
  const inPage = await webPageAs(daemon, token);
  const events = drain(await inPage("ui/api/events", { signal }));
  const session = drain(
    await inPage(`ui/api/sessions/${sessionId}`, { signal }),
  );
  const mcp = new RawMcp(`${daemon.url}/mcp`, token);
  await mcp.initialize();
  const listen = drain(
    await fetch(mcp.url, {
      signal,
      headers: {
        authorization: `Bearer ${token}`,
        accept: "text/event-stream",
        "mcp-session-id": mcp.sessionId!,
        "mcp-protocol-version": mcp.version,
      },
    }),
  );
  const streamed = drain(
    await as(daemon, token)("/beeuni/tools/hang", {
      signal,
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
      },
      body: JSON.stringify({ sessionId: "streamed", agent: "b" }),
    }),
  );
  await daemon.call("whoami", { sessionId: "before", agent: "a" });
  await waitFor(
    "the streams to deliver what came before",
    () =>
      events.text().includes('"sessionId":"before"') &&
      session.text().includes("before removal"),
  );
  await waitFor("the streamed call to run", async () => {
    const health = await (await daemon.fetch("/beeuni/health")).json();
    return health.running === 1;
  });

  const removed = await project.run("tokens", "rm", "streams");
  assert.equal(removed.code, 0, removed.stderr);
  // Something happens after: a call by the daemon's token, a session record.
  await daemon.call("whoami", { sessionId: "after", agent: "a" });
  await record({ type: "text", text: "after removal" });
  await waitFor(
    "every stream to end",
    () =>
      events.ended() && session.ended() && listen.ended() &&
      streamed.ended(),
  );
  await Promise.all([events.done, session.done, listen.done, streamed.done]);
  assert.doesNotMatch(events.text(), /"sessionId":"after"/);
  assert.doesNotMatch(session.text(), /after removal/);
  assert.doesNotMatch(streamed.text(), /event: result/);
  // The streamed call was stopped with its stream.
  await waitFor("the streamed call to stop", async () => {
    const health = await (await daemon.fetch("/beeuni/health")).json();
    return health.running === 0;
  });
  await daemon.stop();
  assert.ok(!daemon.stderr().includes(token));
});

Deno.test("an event stream opened with an agent token ends when the token expires (issue 23, K1)", async () => {
  await using project = await setUp();
  await using daemon = await daemonOf(project.dir, project.env);
  // Made after the daemon started, so that it is fresh when the stream opens.
  const token = await project.newToken("--agent", "a", "--expires", "3s");
  const client = new AbortController();
  using _cut = { [Symbol.dispose]: () => client.abort() };
  const inPage = await webPageAs(daemon, token);
  const events = drain(
    await inPage("ui/api/events", { signal: client.signal }),
  );
  await waitFor("the stream to end", () => events.ended());
  await daemon.call("whoami", { sessionId: "after", agent: "a" });
  assert.doesNotMatch(events.text(), /"sessionId":"after"/);
  assert.equal((await toolNamesAs(daemon, token)).status, 401);
});

Deno.test("an agent token whose agent is no longer in the manifest gets 403 saying what to change over REST, MCP and the web UI, lists nothing, and works again once the agent is back; a token for the default agent needs no definition (issue 23, K1)", async () => {
  await using project = await setUp();
  const writer = await project.newToken("--agent", "b", "--label", "ci");
  const plain = await project.newToken("--agent", "beeuni");
  await using daemon = await startDaemon(project.dir, {
    env: project.env,
    args: ["--no-opencode"],
  });
  const inPage = await webPageAs(daemon, writer);
  assert.deepEqual((await toolNamesAs(daemon, writer)).names, [
    "whoami",
    "hang",
  ]);
  const manifest = join(project.dir, "beeuni.yaml");
  await Deno.writeTextFile(
    manifest,
    MANIFEST.replace("  b:\n    tools: [whoami, hang]\n", ""),
  );
  // b, now undefined, would see every tool.
  await waitFor(
    "the daemon to reload without agent b",
    async () =>
      (await toolNamesAs(daemon, daemon.token, "?agent=b")).names?.length ===
        3,
  );
  const refusal =
    /^agent "b" of token "ci" is no longer in beeuni\.yaml: add it back or make a new token$/;
  const listed = await toolNamesAs(daemon, writer);
  assert.equal(listed.status, 403);
  assert.equal(listed.names, undefined);
  assert.match(listed.error!, refusal);
  const call = await callAs(daemon, writer, "echo", { sessionId: "s" });
  assert.equal(call.status, 403);
  assert.match(call.body.error as string, refusal);
  const health = await as(daemon, writer)("/beeuni/health");
  assert.equal(health.status, 403);
  await health.body?.cancel();
  const mcp = await new RawMcp(`${daemon.url}/mcp`, writer).post(
    initializeMessage(1),
  );
  assert.equal(mcp.status, 403);
  assert.match(
    await mcp.text(),
    /agent \\"b\\" of token \\"ci\\" is no longer/,
  );
  const page = await inPage("ui/api/tools");
  assert.equal(page.status, 403);
  assert.match((await page.json()).error, refusal);

  // The default agent needs no definition.
  const defaults = await toolNamesAs(daemon, plain);
  assert.equal(defaults.status, 200);
  assert.deepEqual(defaults.names, ["echo", "whoami", "hang"]);

  await Deno.writeTextFile(manifest, MANIFEST);
  await waitFor(
    "the daemon to reload with agent b",
    async () => (await toolNamesAs(daemon, writer)).status === 200,
  );
  assert.deepEqual((await toolNamesAs(daemon, writer)).names, [
    "whoami",
    "hang",
  ]);
});

Deno.test("GET /beeuni/health with an agent token counts only the tools its agents see, and leaves out the running calls (issue 23, K1)", async () => {
  await using project = await setUp();
  const a = await project.newToken("--agent", "a");
  const b = await project.newToken("--agent", "b", "--agent", "a");
  await using daemon = await daemonOf(project.dir, project.env);
  const healthAs = async (token: string) =>
    await (await as(daemon, token)("/beeuni/health")).json();
  assert.deepEqual(await healthAs(daemon.token), {
    ok: true,
    tools: 3,
    running: 0,
  });
  assert.deepEqual(await healthAs(a), { ok: true, tools: 2 });
  assert.deepEqual(await healthAs(b), { ok: true, tools: 3 });
});
