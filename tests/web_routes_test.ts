// The web UI's routes through the daemon's handler, called directly over a
// real tool host: what is served without the token, what needs it, the
// Content-Security-Policy, the history's event stream, and the files a
// `show` call may hand to the page.

import assert from "node:assert/strict";
import { beeuni, tempRepo } from "./_helpers.ts";
import { startDaemon, type TestDaemon } from "./_daemon.ts";
import { RawMcp } from "./_mcp.ts";
import { createHost, type Host } from "../lib/host/mod.ts";
import { createHandler } from "../lib/http/mod.ts";
import {
  CONTENT_SECURITY_POLICY,
  createWebHandler,
  webMounts,
  webScope,
} from "../lib/web/mod.ts";

const TOKEN = "web-routes-token-0123456789";
/** The origin of the page the handler serves in these tests. */
const PAGE = "http://127.0.0.1:8787";
const POST_X: RequestInit = { method: "POST", body: "x" };
const CHART = `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>`;

const MANIFEST = `tools:
  show: beeuni:show
  echo: tools/echo.ts
  broken: tools/broken.ts
agents:
  builder:
    tools: all
  reader:
    tools: [echo]
`;

async function setUp() {
  const repo = await tempRepo({
    "beeuni.yaml": MANIFEST,
    "tools/echo.ts": `export default {
  description: "Echoes its text.",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args) => "echo: " + args.text,
};
`,
    "tools/broken.ts": "export default {};\n",
    "out/chart.svg": CHART,
  });
  const host: Host = await createHost({
    directory: repo.dir,
    env: { SECRET_IN_ENV: "env-value-never-shown" },
    log: () => {},
  });
  // The clock one-time codes expire by, moved by the tests.
  const clock = { now: 1_000_000 };
  const web = createWebHandler({
    host,
    now: () => clock.now,
    // No session is kept there: the folder is empty.
    sessionsDir: repo.dir,
  });
  const logs: string[] = [];
  const handler = createHandler({
    host,
    token: TOKEN,
    mounts: webMounts(web),
    scope: webScope(web),
    log: (line) => logs.push(line),
  });
  const get = (path: string, init: RequestInit = {}) => {
    // A server fills the Host header in from the request; here it is set.
    const headers = new Headers(init.headers);
    if (!headers.has("host")) headers.set("host", "127.0.0.1:8787");
    return handler(
      new Request(`http://127.0.0.1:8787${path}`, { ...init, headers }),
    );
  };
  const authed = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${TOKEN}`);
    return get(path, { ...init, headers });
  };
  const call = async (name: string, args: Record<string, unknown>) => {
    const response = await authed(`/beeuni/tools/${name}`, {
      method: "POST",
      body: JSON.stringify({ args, sessionId: "s-web", agent: "builder" }),
    });
    return await response.json();
  };
  /** `path` under the page's secret prefix (`path` without its leading slash). */
  const inPage = (path: string, init: RequestInit = {}) =>
    get(`${web.prefix}${path}`, init);
  /** `POST /w/…/beeuni/web/session` with `code`, from the page's own Origin unless told. */
  const signIn = (code: string, headers: Record<string, string> = {}) =>
    inPage("beeuni/web/session", {
      method: "POST",
      headers: { origin: PAGE, "content-type": "application/json", ...headers },
      body: JSON.stringify({ code }),
    });
  /** The `name=value` of the session cookie a fresh code gives. */
  const session = async () => {
    const response = await signIn(web.issueCode());
    assert.equal(response.status, 204);
    return response.headers.get("set-cookie")!.split(";")[0];
  };
  return {
    dir: repo.dir,
    host,
    web,
    clock,
    logs,
    get,
    inPage,
    authed,
    call,
    signIn,
    session,
    async [Symbol.asyncDispose]() {
      web.close();
      await host.close();
      await repo[Symbol.asyncDispose]();
    },
  };
}

Deno.test("the page, its scripts and its libraries are served without the token under the secret path, each under a strict Content-Security-Policy and no Referer (W1)", async () => {
  await using ui = await setUp();
  assert.match(ui.web.prefix, /^\/w\/[0-9a-f]{32}\/$/);
  const page = await ui.inPage("");
  assert.equal(page.status, 200);
  assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await page.text();
  // Relative addresses keep every request of the page under its path.
  assert.match(html, /<script type="module" src="ui\/app\.js"><\/script>/);
  assert.match(html, /<link rel="stylesheet" href="ui\/style\.css">/);
  assert.match(html, /<meta name="referrer" content="no-referrer">/);
  assert.doesNotMatch(html, /(src|href)="\//);
  assert.doesNotMatch(html, /<script>|<script type="module">|\son\w+=/);
  const csp = page.headers.get("content-security-policy")!;
  assert.equal(csp, CONTENT_SECURITY_POLICY);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /img-src data: http: https:(;|$)/);
  assert.match(csp, /require-trusted-types-for 'script'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
  assert.equal(page.headers.get("x-content-type-options"), "nosniff");
  assert.equal(page.headers.get("referrer-policy"), "no-referrer");

  for (
    const [path, type, text] of [
      ["ui/app.js", "text/javascript", "takeCode"],
      ["ui/api.js", "text/javascript", '"beeuni/web/session"'],
      ["ui/style.css", "text/css", ".tool-list"],
      ["ui/vendor/marked.js", "text/javascript", "marked"],
      ["ui/vendor/purify.js", "text/javascript", "DOMPurify"],
    ]
  ) {
    const response = await ui.inPage(path);
    assert.equal(response.status, 200, path);
    assert.equal(
      response.headers.get("content-type"),
      `${type}; charset=utf-8`,
    );
    assert.equal(
      response.headers.get("content-security-policy"),
      CONTENT_SECURITY_POLICY,
    );
    assert.equal(response.headers.get("referrer-policy"), "no-referrer");
    assert.ok((await response.text()).includes(text), path);
  }
  const head = await ui.inPage("ui/app.js", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
  // Outside the secret path the page and its files are not served.
  for (const path of ["/ui/app.js", "/ui/style.css", "/index.html"]) {
    const outside = await ui.get(path);
    assert.equal(outside.status, 401, path);
    await outside.body?.cancel();
  }
});

Deno.test("each start of the UI picks its own secret path; / and old addresses get a notice that names neither the path nor a credential (W1)", async () => {
  await using ui = await setUp();
  const other = createWebHandler({ host: ui.host });
  try {
    assert.match(other.prefix, /^\/w\/[0-9a-f]{32}\/$/);
    assert.notEqual(other.prefix, ui.web.prefix);
  } finally {
    other.close();
  }
  // An old address (`/#code=…`, `/#token=…`) asks for `/`: the fragment stays in the browser.
  const notice = await ui.get("/");
  assert.equal(notice.status, 200);
  assert.equal(notice.headers.get("content-type"), "text/html; charset=utf-8");
  assert.equal(
    notice.headers.get("content-security-policy"),
    CONTENT_SECURITY_POLICY,
  );
  assert.equal(notice.headers.get("referrer-policy"), "no-referrer");
  assert.equal(notice.headers.get("set-cookie"), null);
  const html = await notice.text();
  assert.match(
    html.replace(/\s+/g, " "),
    /Open the address on the daemon's <code>web ui:<\/code> line: it looks like <code>http:\/\/127\.0\.0\.1:&lt;port&gt;\/w\/…\/#code=…<\/code>/,
  );
  assert.match(html, /run <code>beeuni web<\/code> in the project/);
  assert.doesNotMatch(html, /<script|\son\w+=|\/w\/[0-9a-f]/);
  assert.ok(!html.includes(ui.web.prefix.slice(3, -1)));
  assert.ok(!html.includes(TOKEN));
  const head = await ui.get("/", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
});

Deno.test("only the page's own files are served: other paths under ui/ are 404 and other methods 405", async () => {
  await using ui = await setUp();
  for (
    const path of [
      "ui/..%2fdeno.json",
      "ui/mod.ts",
      "ui/_assets.ts",
      "ui/assets/app.js",
      "ui/vendor/package.json",
      "ui/vendor/..%2f..%2fdeno.json",
      "ui/vendor/__proto__",
      "ui/constructor",
    ]
  ) {
    const response = await ui.inPage(path);
    assert.equal(response.status, 404, path);
    assert.match((await response.json()).error, /^no web UI file "/);
  }
  for (const post of [ui.get("/", POST_X), ui.inPage("", POST_X)]) {
    const response = await post;
    assert.equal(response.status, 405);
    await response.body?.cancel();
  }
  // Paths that are neither the page nor its API (`ui/%2e%2e/x` is `x`,
  // and `../` leaves the secret path) still need a credential.
  for (const path of ["index.html", "ui/%2e%2e/deno.json", "../ui/app.js"]) {
    const other = await ui.inPage(path);
    assert.equal(other.status, 401, path);
    await other.body?.cancel();
  }
});

Deno.test("the page's API needs the bearer token and a loopback Host, like every route (D7)", async () => {
  await using ui = await setUp();
  for (
    const path of ["/ui/api/tools", "/ui/api/events", "/ui/api/file?path=x"]
  ) {
    const denied = await ui.get(path);
    assert.equal(denied.status, 401, path);
    assert.match((await denied.json()).error, /missing or wrong bearer token/);
    const wrong = await ui.get(path, {
      headers: { authorization: "Bearer not-the-token-at-all" },
    });
    assert.equal(wrong.status, 401, path);
    await wrong.body?.cancel();
    // Under the secret path too: knowing it is no credential.
    const inPage = await ui.inPage(path.slice(1));
    assert.equal(inPage.status, 401, path);
    await inPage.body?.cancel();
  }
  for (const path of ["/", `${ui.web.prefix}ui/app.js`]) {
    const foreign = await ui.get(path, { headers: { host: "evil.example" } });
    assert.equal(foreign.status, 421);
    await foreign.body?.cancel();
  }
  const unknown = await ui.authed("/ui/api/nothing");
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
});

Deno.test("a session path the page cannot have sent is a clear 4xx, never a 500: malformed percent-encoding, a path out of the sessions folder, an unknown id", async () => {
  await using ui = await setUp();
  const malformed = await ui.authed("/ui/api/sessions/%E0%A4");
  assert.equal(malformed.status, 400);
  assert.deepEqual(await malformed.json(), {
    error: "malformed percent-encoding in the path",
  });
  const escape = await ui.authed("/ui/api/sessions/..%2F..%2Fsecrets");
  assert.equal(escape.status, 404);
  assert.match((await escape.json()).error, /^invalid session id "/);
  const unknown = await ui.authed("/ui/api/sessions/20261202T000000-abcdef");
  assert.equal(unknown.status, 404);
  assert.match(
    (await unknown.json()).error,
    /^no session "20261202T000000-abcdef"/,
  );
});

Deno.test("/ui/api/tools lists what an agent gets with kind and source, what it does not, and the load errors (T8)", async () => {
  await using ui = await setUp();
  const all = await (await ui.authed("/ui/api/tools?agent=builder")).json();
  assert.deepEqual(all.agents, ["builder", "reader"]);
  assert.equal(all.agent, "builder");
  assert.deepEqual(
    all.tools.map((t: Record<string, unknown>) => [t.name, t.kind, t.source]),
    [["show", "beeuni", "beeuni:show"], ["echo", "project", "tools/echo.ts"]],
  );
  assert.equal(all.tools[1].description, "Echoes its text.");
  assert.deepEqual(all.tools[1].parameters, {
    type: "object",
    properties: { text: { type: "string" } },
  });
  assert.deepEqual(all.hidden, []);
  assert.equal(all.loadErrors.length, 1);
  assert.equal(all.loadErrors[0].name, "broken");
  assert.match(all.loadErrors[0].reason, /description/);

  const reader = await (await ui.authed("/ui/api/tools?agent=reader")).json();
  assert.deepEqual(reader.tools.map((t: { name: string }) => t.name), ["echo"]);
  assert.deepEqual(reader.hidden, ["show"]);
  // The daemon's own list keeps its shape.
  const listed = await (await ui.authed("/beeuni/tools?agent=reader")).json();
  assert.deepEqual(Object.keys(listed.tools[0]), [
    "name",
    "description",
    "parameters",
  ]);
});

/** Reads server-sent events until `until` holds for those this call read. */
async function readEvents(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  until: (events: Record<string, unknown>[]) => boolean,
): Promise<{ events: Record<string, unknown>[]; text: string }> {
  const decoder = new TextDecoder();
  let text = "";
  const events: Record<string, unknown>[] = [];
  while (!until(events)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    events.length = 0;
    for (const block of text.split("\n\n")) {
      const data = block.split("\n").filter((l) => l.startsWith("data: "));
      if (data.length > 0) events.push(JSON.parse(data[0].slice(6)));
    }
  }
  return { events, text };
}

Deno.test("/ui/api/events replays kept calls, then streams each call and reload as it happens, without env or token (Host.subscribe)", async () => {
  await using ui = await setUp();
  assert.equal(
    (await ui.call("echo", { text: "before" })).output,
    "echo: before",
  );
  const response = await ui.authed("/ui/api/events");
  assert.equal(response.status, 200);
  assert.equal(
    response.headers.get("content-type"),
    "text/event-stream; charset=utf-8",
  );
  const reader = response.body!.getReader();
  let read = await readEvents(reader, (events) => events.length >= 2);
  assert.deepEqual(
    read.events.map((e) => [e.type, e.name, e.agent, e.sessionId]),
    [
      ["call-start", "echo", "builder", "s-web"],
      ["call-end", "echo", "builder", "s-web"],
    ],
  );
  assert.deepEqual(read.events[0].args, { text: "before" });
  assert.equal(read.events[0].id, read.events[1].id);
  assert.equal(typeof read.events[0].startedAt, "number");
  assert.deepEqual(read.events[1].outcome, {
    ok: true,
    output: "echo: before",
  });

  await ui.call("echo", { text: "after" });
  await ui.call("missing", {});
  await ui.host.reload();
  read = await readEvents(reader, (events) => events.length >= 5);
  const live = read.events;
  assert.deepEqual(live.map((e) => [e.type, e.name ?? null]), [
    ["call-start", "echo"],
    ["call-end", "echo"],
    ["call-start", "missing"],
    ["call-end", "missing"],
    ["reload", null],
  ]);
  assert.deepEqual(live[1].outcome, { ok: true, output: "echo: after" });
  assert.equal(typeof live[1].durationMs, "number");
  assert.deepEqual(live[3].outcome, {
    ok: false,
    status: "not_found",
    error: "Tool missing not found",
  });
  const { startedAt, ...reload } = live[4];
  assert.equal(typeof startedAt, "number");
  assert.deepEqual(reload, {
    type: "reload",
    ok: true,
    changed: false,
    reloaded: ["show", "echo", "broken"],
  });
  assert.ok(!read.text.includes(TOKEN));
  assert.ok(!read.text.includes("env-value-never-shown"));

  // Closing the UI ends the stream, so the daemon's server can shut down.
  ui.web.close();
  while (!(await reader.read()).done) { /* drain */ }
});

Deno.test("the history keeps the last calls only (historyLimit)", async () => {
  await using ui = await setUp();
  const web = createWebHandler({ host: ui.host, historyLimit: 2 });
  try {
    for (const text of ["one", "two", "three"]) {
      await ui.call("echo", { text });
    }
    const handler = createHandler({
      host: ui.host,
      token: TOKEN,
      mounts: webMounts(web),
    });
    const response = await handler(
      new Request("http://127.0.0.1:8787/ui/api/events", {
        headers: { host: "127.0.0.1", authorization: `Bearer ${TOKEN}` },
      }),
    );
    const reader = response.body!.getReader();
    const { events } = await readEvents(reader, (e) => e.length >= 4);
    assert.deepEqual(
      events.filter((e) => e.type === "call-start").map((e) => e.args),
      [{ text: "two" }, { text: "three" }],
    );
    await reader.cancel();
  } finally {
    web.close();
  }
});

Deno.test("/ui/api/file serves only files a show call in the history named, inside the project", async () => {
  await using ui = await setUp();
  const file = (path: string) =>
    ui.authed(`/ui/api/file?path=${encodeURIComponent(path)}`);
  let response = await file("out/chart.svg");
  assert.equal(response.status, 404);
  assert.match((await response.json()).error, /no show call in the history/);

  const shown = await ui.call("show", { type: "image", path: "out/chart.svg" });
  assert.ok(shown.output, JSON.stringify(shown));
  response = await file("out/chart.svg");
  assert.equal(response.status, 200);
  assert.equal(
    response.headers.get("content-type"),
    "application/octet-stream",
  );
  assert.equal(response.headers.get("content-disposition"), "attachment");
  assert.equal(await response.text(), CHART);

  // A refused show call names nothing; other paths stay unknown.
  const refused = await ui.call("show", {
    type: "file",
    path: "../../etc/passwd",
  });
  assert.ok(refused.error);
  for (const path of ["../../etc/passwd", "beeuni.yaml", "out"]) {
    response = await file(path);
    assert.equal(response.status, 404, path);
    await response.body?.cancel();
  }
  // A file removed since the call is gone.
  await Deno.remove(`${ui.dir}/out/chart.svg`);
  response = await file("out/chart.svg");
  assert.equal(response.status, 404);
  assert.match(
    (await response.json()).error,
    /is not a file inside the project/,
  );
});

// ---- signing in with a one-time code ---------------------------------------

/** The `Set-Cookie` of a session for a page at `prefix`; its value is the first group. */
function cookiePattern(port: number | string, prefix: string): RegExp {
  return new RegExp(
    `^beeuni_session_${port}=([0-9a-f]{64}); Path=${prefix}; HttpOnly; SameSite=Strict$`,
  );
}

Deno.test("a one-time code opens one session: Set-Cookie is HttpOnly, SameSite=Strict, named after the port, for the secret path only, and a second use of the code is refused (W1)", async () => {
  await using ui = await setUp();
  const code = ui.web.issueCode();
  assert.match(code, /^[0-9a-f]{64}$/);
  // Refusals before the code is read leave it alive.
  const refusals: [Record<string, string>, RegExp][] = [
    [{}, /not a request without an Origin header/],
    [
      { origin: "http://127.0.0.1:3000" },
      /not from Origin "http:\/\/127\.0\.0\.1:3000"/,
    ],
    [{ origin: "null" }, /not from Origin "null"/],
    [
      { origin: PAGE, "sec-fetch-site": "same-site" },
      /not from a "same-site" request/,
    ],
  ];
  for (const [headers, why] of refusals) {
    const response = await ui.inPage("beeuni/web/session", {
      method: "POST",
      headers,
      body: JSON.stringify({ code }),
    });
    assert.equal(response.status, 403);
    assert.match((await response.json()).error, why);
  }
  const response = await ui.signIn(code);
  assert.equal(response.status, 204);
  assert.equal(await response.text(), "");
  assert.equal(response.headers.get("cache-control"), "no-store");
  const cookie = response.headers.get("set-cookie")!;
  // A session cookie (no Expires, no Max-Age), not Secure: the page is plain http.
  const [, value] = cookiePattern(8787, ui.web.prefix).exec(cookie)!;
  assert.notEqual(value, code);
  assert.notEqual(value, TOKEN);

  const again = await ui.signIn(code);
  assert.equal(again.status, 401);
  assert.equal(again.headers.get("set-cookie"), null);
  assert.equal(
    (await again.json()).error,
    "one-time code refused: it was used already, is over a minute old, or is not this daemon's; run `beeuni web` in the project for a fresh address",
  );
  for (const [body, status] of [["{}", 400], ["not json", 400]] as const) {
    const bad = await ui.inPage("beeuni/web/session", {
      method: "POST",
      headers: { origin: PAGE },
      body,
    });
    assert.equal(bad.status, status);
    assert.match((await bad.json()).error, /the body must be \{"code"/);
  }
  const big = await ui.signIn("x".repeat(2000));
  assert.equal(big.status, 413);
  await big.body?.cancel();
  const get = await ui.inPage("beeuni/web/session");
  assert.equal(get.status, 405);
  assert.equal(get.headers.get("allow"), "POST");
  await get.body?.cancel();
  // Signing in lives under the secret path only.
  const outside = await ui.get("/beeuni/web/session", {
    method: "POST",
    headers: { origin: PAGE },
    body: JSON.stringify({ code: ui.web.issueCode() }),
  });
  assert.equal(outside.status, 401);
  assert.equal(outside.headers.get("set-cookie"), null);
  await outside.body?.cancel();
});

Deno.test("a code is refused once its minute is over, whether printed or minted with the token (W1)", async () => {
  await using ui = await setUp();
  const printed = ui.web.issueCode();
  const minted = await ui.authed("/beeuni/web/code", { method: "POST" });
  assert.equal(minted.status, 200);
  const body = await minted.json();
  assert.match(
    body.url,
    /^http:\/\/127\.0\.0\.1:8787\/w\/[0-9a-f]{32}\/#code=[0-9a-f]{64}$/,
  );
  assert.equal(body.url, `${PAGE}${ui.web.prefix}#code=${body.code}`);
  assert.equal(
    ui.web.address(PAGE).replace(/[0-9a-f]{64}$/, ""),
    `${PAGE}${ui.web.prefix}#code=`,
  );
  assert.equal(body.expiresInSeconds, 60);
  const late = ui.web.issueCode();

  ui.clock.now += 59_999;
  assert.equal((await ui.signIn(printed)).status, 204);
  ui.clock.now += 1;
  for (const code of [body.code, late]) {
    const response = await ui.signIn(code);
    assert.equal(response.status, 401);
    assert.match((await response.json()).error, /is over a minute old/);
  }
  // Minting needs the token: neither no credential nor the session will
  // do, in or out of the secret path.
  const cookie = await ui.session();
  for (const headers of [{}, { cookie, origin: PAGE }] as HeadersInit[]) {
    for (
      const path of ["/beeuni/web/code", `${ui.web.prefix}beeuni/web/code`]
    ) {
      const response = await ui.get(path, { method: "POST", headers });
      assert.equal(response.status, 401, path);
      await response.body?.cancel();
    }
  }
});

Deno.test("the session cookie opens what the page calls, under the secret path only, only from the page's own origin, and only this daemon's cookie name; a foreign Origin is refused on a state-changing route (D7)", async () => {
  await using ui = await setUp();
  const cookie = await ui.session();
  /** `path` (absolute, as outside the secret path) requested under it with the cookie. */
  const withCookie = (
    path: string,
    headers: Record<string, string> = {},
    init: RequestInit = {},
  ) => ui.inPage(path.slice(1), { ...init, headers: { cookie, ...headers } });
  const post = (path: string, headers: Record<string, string>) =>
    withCookie(path, headers, {
      method: "POST",
      body: JSON.stringify({
        args: { text: "hi" },
        sessionId: "s-web",
        agent: "builder",
      }),
    });

  // Reads from the page: no Origin on a same-origin GET.
  const same: Record<string, string>[] = [{}, {
    "sec-fetch-site": "same-origin",
  }];
  for (const headers of same) {
    const tools = await withCookie("/ui/api/tools?agent=reader", headers);
    assert.equal(tools.status, 200);
    assert.deepEqual((await tools.json()).hidden, ["show"]);
  }
  const listed = await withCookie("/beeuni/tools");
  assert.equal(listed.status, 200);
  await listed.body?.cancel();
  const stream = await withCookie("/ui/api/events");
  assert.equal(stream.status, 200);
  await stream.body?.cancel();

  // Calls and stops from the page carry its Origin.
  const called = await post("/beeuni/tools/echo", { origin: PAGE });
  assert.equal(called.status, 200);
  // Every answer under the secret path sends no Referer onwards.
  assert.equal(called.headers.get("referrer-policy"), "no-referrer");
  assert.equal(
    called.headers.get("content-security-policy"),
    CONTENT_SECURITY_POLICY,
  );
  assert.deepEqual(await called.json(), { output: "echo: hi" });
  const stopped = await post("/beeuni/sessions/s-web/stop", { origin: PAGE });
  assert.deepEqual(await stopped.json(), { stopped: 0 });

  // Another page (another port of the same host is another origin), a
  // request without an Origin, or a cross-site fetch is refused.
  const foreign: Record<string, string>[] = [
    { origin: "http://127.0.0.1:3000" },
    { origin: "http://evil.example" },
    { origin: "null" },
    {},
    { origin: PAGE, "sec-fetch-site": "same-site" },
  ];
  for (const headers of foreign) {
    const refused = await post("/beeuni/tools/echo", headers);
    assert.equal(refused.status, 403, JSON.stringify(headers));
    assert.match(
      (await refused.json()).error,
      /^the web UI's session works only from the daemon's own page, not .*: other clients send Authorization: Bearer <token>$/,
    );
  }
  const foreignReads: Record<string, string>[] = [
    { origin: "http://localhost:8787" },
    { "sec-fetch-site": "cross-site" },
  ];
  for (const headers of foreignReads) {
    const refused = await withCookie("/ui/api/tools", headers);
    assert.equal(refused.status, 403, JSON.stringify(headers));
    assert.equal(refused.headers.get("referrer-policy"), "no-referrer");
    await refused.body?.cancel();
  }
  // Outside the secret path the cookie opens nothing, even from the page's
  // own origin: what another server of 127.0.0.1 could replay, had it the
  // cookie, is refused.
  ui.logs.length = 0;
  for (
    const [method, path] of [
      ["GET", "/ui/api/tools"],
      ["GET", "/ui/api/events"],
      ["GET", "/beeuni/tools"],
      ["GET", "/beeuni/health"],
      ["POST", "/beeuni/tools/echo"],
      ["POST", "/beeuni/sessions/s-web/stop"],
    ]
  ) {
    const refused = await ui.get(path, {
      method,
      headers: { cookie, origin: PAGE, "sec-fetch-site": "same-origin" },
      body: method === "POST"
        ? JSON.stringify({
          args: { text: "outside" },
          sessionId: "s-web",
          agent: "builder",
        })
        : undefined,
    });
    assert.equal(refused.status, 401, `${method} ${path}`);
    assert.match((await refused.json()).error, /missing or wrong bearer token/);
  }
  // Refusals are logged without the secret path.
  assert.equal(ui.logs.length, 6);
  const inside = await withCookie("/beeuni/tools", { origin: "null" });
  assert.equal(inside.status, 403);
  await inside.body?.cancel();
  assert.match(
    ui.logs.at(-1)!,
    /^\[http\] 403 GET <secret prefix>\/beeuni\/tools: the web UI's session works only/,
  );
  assert.ok(!ui.logs.join("\n").includes(ui.web.prefix), ui.logs.join("\n"));
  // None of the refused calls ran.
  await ui.call("echo", { text: "with the token" });
  const reader = (await ui.authed("/ui/api/events")).body!.getReader();
  const { events } = await readEvents(
    reader,
    (events) => events.length >= 4,
  );
  await reader.cancel();
  assert.deepEqual(
    events.filter((e) => e.type === "call-start").map((e) => e.args),
    [{ text: "hi" }, { text: "with the token" }],
  );

  // Another daemon's cookie name, another value, or a session after the
  // daemon stopped: 401.
  const value = cookie.split("=")[1];
  for (
    const other of [
      `beeuni_session_8788=${value}`,
      `beeuni_session_8787=${"0".repeat(64)}`,
      `beeuni_session_8787=${TOKEN}`,
    ]
  ) {
    const refused = await ui.inPage("ui/api/tools", {
      headers: { cookie: other },
    });
    assert.equal(refused.status, 401, other);
    await refused.body?.cancel();
  }
  ui.web.close();
  const ended = await withCookie("/ui/api/tools");
  assert.equal(ended.status, 401);
  await ended.body?.cancel();
});

Deno.test("bearer auth still works on every route, with or without an Origin (D7)", async () => {
  await using ui = await setUp();
  const routes: [string, string, number][] = [
    ["GET", "/beeuni/health", 200],
    ["GET", "/beeuni/tools", 200],
    ["POST", "/beeuni/tools/echo", 200],
    ["POST", "/beeuni/sessions/s/stop", 200],
    ["GET", "/ui/api/tools", 200],
    ["GET", "/ui/api/events", 200],
    ["GET", "/ui/api/file?path=out%2Fchart.svg", 404],
    ["POST", "/beeuni/web/code", 200],
  ];
  for (const origin of [undefined, "http://127.0.0.1:3000"]) {
    for (const [method, path, status] of routes) {
      const headers: Record<string, string> = origin ? { origin } : {};
      const response = await ui.authed(path, {
        method,
        headers,
        body: method === "POST"
          ? JSON.stringify({ args: { text: "x" }, sessionId: "s", agent: "a" })
          : undefined,
      });
      assert.equal(response.status, status, `${method} ${path}`);
      await response.body?.cancel();
      const without = await ui.get(path, { method, headers });
      assert.equal(without.status, 401, `${method} ${path} without`);
      await without.body?.cancel();
    }
  }
});

/** A signed-in page: its address (up to the `#`) and the `name=value` of its cookie. */
interface SignedIn {
  page: string;
  cookie: string;
}

/** The page and the code of `address`, by default the one `daemon` printed. */
function addressOf(
  daemon: TestDaemon,
  address?: string,
): { page: string; code: string } {
  address ??= /^web ui: (\S+)$/m.exec(daemon.stdout())![1];
  const [, page, code] = /^(.+\/)#code=([0-9a-f]{64})$/.exec(address)!;
  return { page, code };
}

/** Signs in to `daemon` with the code of its printed address, or of `address`. */
async function signInTo(
  daemon: TestDaemon,
  address?: string,
): Promise<SignedIn> {
  const { page, code } = addressOf(daemon, address);
  assert.match(page, new RegExp(`^${daemon.url}/w/[0-9a-f]{32}/$`));
  const response = await fetch(`${page}beeuni/web/session`, {
    method: "POST",
    headers: { origin: daemon.url, "content-type": "application/json" },
    body: JSON.stringify({ code }),
  });
  assert.equal(response.status, 204);
  const cookie = response.headers.get("set-cookie")!;
  assert.match(
    cookie,
    cookiePattern(daemon.port, new URL(page).pathname),
  );
  return { page, cookie: cookie.split(";")[0] };
}

/** The status of `GET <page>ui/api/tools` with `cookie` (and no token). */
async function withCookie(page: string, cookie: string): Promise<number> {
  const response = await fetch(`${page}ui/api/tools`, {
    headers: { cookie },
  });
  await response.body?.cancel();
  return response.status;
}

Deno.test("two daemons of one project answer one token, yet the session cookie of one does not open the other, nor MCP; `beeuni web` asks the newest for an address (D7)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  const state = await Deno.makeTempDir({ prefix: "beeuni_state_" });
  const env = { XDG_STATE_HOME: state };
  try {
    await using a = await startDaemon(repo.dir, {
      args: ["--no-opencode"],
      env,
    });
    await using b = await startDaemon(repo.dir, {
      args: ["--no-opencode"],
      env,
    });
    assert.equal(b.token, a.token);
    const signedA = await signInTo(a);
    const signedB = await signInTo(b);
    const [cookieA, cookieB] = [signedA.cookie, signedB.cookie];
    // Each daemon's page has a secret path of its own.
    assert.notEqual(
      new URL(signedA.page).pathname,
      new URL(signedB.page).pathname,
    );
    assert.equal(await withCookie(signedA.page, cookieA), 200);
    assert.equal(await withCookie(signedB.page, cookieB), 200);
    // The cookie opens nothing outside the page's path.
    assert.equal(await withCookie(`${a.url}/`, cookieA), 401);
    // What a browser sends B: both cookies (one jar for every port), or
    // A's value under B's name.
    const valueA = cookieA.split("=")[1];
    assert.equal(await withCookie(signedB.page, cookieA), 401);
    assert.equal(
      await withCookie(signedB.page, `beeuni_session_${b.port}=${valueA}`),
      401,
    );
    assert.equal(
      await withCookie(signedA.page, `${cookieA}; ${cookieB}`),
      200,
    );
    // The used code is dead on both.
    for (const daemon of [a, b]) {
      const { page, code } = addressOf(daemon);
      const again = await fetch(`${page}beeuni/web/session`, {
        method: "POST",
        headers: { origin: daemon.url },
        body: JSON.stringify({ code }),
      });
      assert.equal(again.status, 401);
      await again.body?.cancel();
    }

    // MCP takes the bearer token only.
    const mcp = await fetch(`${signedA.page}mcp`, {
      method: "POST",
      headers: {
        cookie: cookieA,
        origin: a.url,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    assert.equal(mcp.status, 401);
    await mcp.body?.cancel();
    const outsideMcp = await fetch(`${a.url}/mcp`, {
      method: "POST",
      headers: { cookie: cookieA, origin: a.url },
      body: "{}",
    });
    assert.equal(outsideMcp.status, 401);
    await outsideMcp.body?.cancel();
    const client = new RawMcp(`${a.url}/mcp`, a.token);
    assert.equal((await client.initialize()).serverInfo.name, "beeuni");

    const printed = await beeuni(repo.dir, ["web"], { env });
    assert.equal(printed.code, 0, printed.stderr);
    const address = /^web ui: (\S+)\n$/.exec(printed.stdout)![1];
    // `beeuni web` learns the page's secret path from the daemon.
    assert.ok(address.startsWith(`${signedB.page}#code=`), address);
    const fresh = await signInTo(b, address);
    assert.equal(await withCookie(fresh.page, fresh.cookie), 200);
  } finally {
    await Deno.remove(state, { recursive: true });
  }
  const none = await beeuni(repo.dir, ["web"], { env });
  assert.equal(none.code, 1);
  assert.match(
    none.stderr,
    /^beeuni web: no daemon of the project ".+" is running: start one with `beeuni daemon` in the project\n$/,
  );
});

Deno.test("with BEEUNI_DAEMON_TOKEN the daemon prints a one-time address, never the token, and `beeuni web` gives a fresh one with the token set", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  const token = "env-token-" + "7".repeat(40);
  const state = await Deno.makeTempDir({ prefix: "beeuni_state_" });
  try {
    await using daemon = await startDaemon(repo.dir, {
      args: ["--no-opencode"],
      env: { BEEUNI_DAEMON_TOKEN: token, XDG_STATE_HOME: state },
    });
    assert.match(
      daemon.stdout(),
      /^token: from BEEUNI_DAEMON_TOKEN\nweb ui: http:\/\/127\.0\.0\.1:\d+\/w\/[0-9a-f]{32}\/#code=[0-9a-f]{64}\nlistening on /,
    );
    assert.ok(!daemon.stdout().includes(token));
    const signed = await signInTo(daemon);
    assert.equal(await withCookie(signed.page, signed.cookie), 200);
    for (const address of [signed.page, `${daemon.url}/`]) {
      const page = await fetch(address);
      assert.equal(page.status, 200);
      assert.equal(
        page.headers.get("content-security-policy"),
        CONTENT_SECURITY_POLICY,
      );
      await page.body?.cancel();
    }

    const unset = await beeuni(repo.dir, ["web"], {
      env: { XDG_STATE_HOME: state, BEEUNI_DAEMON_TOKEN: "" },
    });
    assert.equal(unset.code, 1);
    assert.match(
      unset.stderr,
      /takes its token from BEEUNI_DAEMON_TOKEN: set BEEUNI_DAEMON_TOKEN to the same value here/,
    );
    const wrong = await beeuni(repo.dir, ["web"], {
      env: { XDG_STATE_HOME: state, BEEUNI_DAEMON_TOKEN: "x".repeat(40) },
    });
    assert.equal(wrong.code, 1);
    assert.match(
      wrong.stderr,
      /gave no address \(HTTP 401\): missing or wrong bearer token/,
    );
    const printed = await beeuni(repo.dir, ["web"], {
      env: { XDG_STATE_HOME: state, BEEUNI_DAEMON_TOKEN: token },
    });
    assert.equal(printed.code, 0, printed.stderr);
    const address = /^web ui: (\S+)\n$/.exec(printed.stdout)![1];
    assert.ok(address.startsWith(`${signed.page}#code=`), address);
    const fresh = await signInTo(daemon, address);
    assert.equal(await withCookie(fresh.page, fresh.cookie), 200);
  } finally {
    await Deno.remove(state, { recursive: true });
  }
});
