// The web UI's routes through the daemon's handler, called directly over a
// real tool host: what is served without the token, what needs it, the
// Content-Security-Policy, the history's event stream, and the files a
// `show` call may hand to the page.

import assert from "node:assert/strict";
import { tempRepo } from "./_helpers.ts";
import { startDaemon } from "./_daemon.ts";
import { createHost, type Host } from "../lib/host/mod.ts";
import { createHandler } from "../lib/http/mod.ts";
import {
  CONTENT_SECURITY_POLICY,
  createWebHandler,
  webMounts,
} from "../lib/web/mod.ts";

const TOKEN = "web-routes-token-0123456789";
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
  const web = createWebHandler({ host });
  const handler = createHandler({ host, token: TOKEN, mounts: webMounts(web) });
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
  return {
    dir: repo.dir,
    host,
    web,
    get,
    authed,
    call,
    async [Symbol.asyncDispose]() {
      web.close();
      await host.close();
      await repo[Symbol.asyncDispose]();
    },
  };
}

Deno.test("the page, its scripts and its libraries are served without the token, each under a strict Content-Security-Policy (W1)", async () => {
  await using ui = await setUp();
  const page = await ui.get("/");
  assert.equal(page.status, 200);
  assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await page.text();
  assert.match(html, /<script type="module" src="\/ui\/app\.js"><\/script>/);
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
      ["/ui/app.js", "text/javascript", "takeToken"],
      ["/ui/style.css", "text/css", ".tool-list"],
      ["/ui/vendor/marked.js", "text/javascript", "marked"],
      ["/ui/vendor/purify.js", "text/javascript", "DOMPurify"],
    ]
  ) {
    const response = await ui.get(path);
    assert.equal(response.status, 200, path);
    assert.equal(
      response.headers.get("content-type"),
      `${type}; charset=utf-8`,
    );
    assert.equal(
      response.headers.get("content-security-policy"),
      CONTENT_SECURITY_POLICY,
    );
    assert.ok((await response.text()).includes(text), path);
  }
  const head = await ui.get("/ui/app.js", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(await head.text(), "");
});

Deno.test("only the page's own files are served: other paths under /ui/ are 404 and other methods 405", async () => {
  await using ui = await setUp();
  for (
    const path of [
      "/ui/..%2fdeno.json",
      "/ui/mod.ts",
      "/ui/_assets.ts",
      "/ui/assets/app.js",
      "/ui/vendor/package.json",
      "/ui/vendor/..%2f..%2fdeno.json",
      "/ui/vendor/__proto__",
      "/ui/constructor",
    ]
  ) {
    const response = await ui.get(path);
    assert.equal(response.status, 404, path);
    assert.match((await response.json()).error, /^no web UI file "/);
  }
  const post = await ui.get("/", { method: "POST", body: "x" });
  assert.equal(post.status, 405);
  await post.body?.cancel();
  // Paths that are neither the page nor its API (`/ui/%2e%2e/x` is `/x`)
  // still need the token.
  for (const path of ["/index.html", "/ui/%2e%2e/deno.json"]) {
    const other = await ui.get(path);
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
  }
  const foreign = await ui.get("/", { headers: { host: "evil.example" } });
  assert.equal(foreign.status, 421);
  await foreign.body?.cancel();
  const unknown = await ui.authed("/ui/api/nothing");
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
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
  assert.deepEqual(live[4], { type: "reload", ok: true, changed: false });
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

Deno.test("with BEEUNI_DAEMON_TOKEN the daemon prints the web UI's address without the token", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  const token = "env-token-" + "7".repeat(40);
  await using daemon = await startDaemon(repo.dir, {
    args: ["--no-opencode"],
    env: { BEEUNI_DAEMON_TOKEN: token },
  });
  assert.match(
    daemon.stdout(),
    /^token: from BEEUNI_DAEMON_TOKEN\nweb ui: http:\/\/127\.0\.0\.1:\d+\/ \(add #token=<the value of BEEUNI_DAEMON_TOKEN> to open it\)\nlistening on /,
  );
  assert.ok(!daemon.stdout().includes(token));
  const page = await fetch(daemon.url + "/");
  assert.equal(page.status, 200);
  assert.equal(
    page.headers.get("content-security-policy"),
    CONTENT_SECURITY_POLICY,
  );
  await page.body?.cancel();
});
