// The web UI in real Chromium (W1–W3): a real daemon, the address it
// prints, and every tool run from the page; the search tools talk to local
// servers that speak Brave's wire format. One browser serves every step.

import assert from "node:assert/strict";
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { beeuni, exists, REPO_ROOT, tempRepo } from "./_helpers.ts";
import { startDaemon, waitFor } from "./_daemon.ts";
import { json, serve, type TestServer } from "./_builtin.ts";
import { startModelServer } from "./_model_servers.ts";
import { isProcessRunning } from "../lib/common/mod.ts";
import {
  type Browser,
  finished,
  injected,
  launchChromium,
  launchPersistentChromium,
  openPage,
  openTab,
  outputText,
  type Page,
  pickTool,
  runJson,
  screenshot,
  toolNames,
  uiAddress,
  type WatchedPage,
} from "./_web.ts";

// ---- the project under test ----------------------------------------------

const MANIFEST = `tools:
  web_search: beeuni:web_search
  image_search: beeuni:image_search
  scrape_webpage: beeuni:scrape_webpage
  memory: beeuni:memory
  show: beeuni:show
  plan_trip: tools/plan_trip.ts
  wait_for_stop: tools/wait_for_stop.ts
  html_echo: tools/html_echo.ts
  long_report: tools/long_report.ts
  broken: tools/broken.ts
agents:
  builder:
    tools: all
    secrets: all
  reader:
    tools: [web_search, scrape_webpage, memory]
`;

const PLAN_TRIP = `export default {
  description: "Plan a trip: echoes the plan it was given.",
  parameters: {
    type: "object",
    properties: {
      traveller: {
        type: "object",
        description: "Who travels",
        properties: {
          name: { type: "string", description: "Full name" },
          age: { type: "integer", minimum: 0 },
        },
        required: ["name"],
      },
      legs: {
        type: "array",
        description: "Stops, in order",
        items: {
          type: "object",
          properties: {
            city: { type: "string" },
            nights: { type: "integer", default: 1 },
          },
          required: ["city"],
        },
      },
      mode: { type: "string", enum: ["train", "plane", "boat"], default: "train" },
      budget: { type: "number" },
      window_seat: { type: "boolean" },
      notes: { type: "string", default: "none" },
    },
    required: ["traveller", "legs"],
  },
  execute(args) {
    return { planned: args };
  },
};
`;

const WAIT_FOR_STOP = `export default {
  description: "Waits until the call is stopped.",
  parameters: { type: "object", properties: {} },
  execute(_args, context) {
    return new Promise((_resolve, reject) => {
      context.signal.addEventListener("abort", () => reject(new Error("stopped")));
    });
  },
};
`;

// Tool output carrying HTML that must show as text.
const HTML_ECHO = `export default {
  description: "Returns markup.",
  parameters: { type: "object", properties: {} },
  execute() {
    return {
      html: '<img id="xss-output" src="x" onerror="alert(\\'output\\')">',
      script: "<script>alert('output script')</script>",
    };
  },
};
`;

const CHART =
  `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120"><rect width="240" height="120" fill="#fff7ea"/><rect x="20" y="60" width="40" height="50" fill="#c47a00"/><rect x="80" y="30" width="40" height="80" fill="#c47a00"/><rect x="140" y="10" width="40" height="100" fill="#c47a00"/></svg>`;

function project() {
  return tempRepo({
    "beeuni.yaml": MANIFEST,
    "tools/plan_trip.ts": PLAN_TRIP,
    "tools/wait_for_stop.ts": WAIT_FOR_STOP,
    "tools/html_echo.ts": HTML_ECHO,
    "tools/long_report.ts": `export default {
  description: "Writes 3000 lines.",
  parameters: { type: "object", properties: {} },
  execute: () => Array.from({ length: 3000 }, (_, i) => "line " + (i + 1)).join("\\n"),
};
`,
    "tools/broken.ts": `export default { description: "no parameters" };\n`,
    "out/chart.svg": CHART,
  });
}

// ---- local providers -----------------------------------------------------

const HOSTILE_PAGE = `<!doctype html><html><head>
<title>&lt;script&gt;alert("title")&lt;/script&gt; Kettle notes</title></head>
<body><main><h1>Kettle notes</h1>
<p>Safe text. &lt;img id="xss-text" src=x onerror="alert('text')"&gt; and
&lt;script id="xss-script"&gt;alert('inline')&lt;/script&gt; and
&lt;a id="xss-link" href="javascript:alert('link')"&gt;link&lt;/a&gt;</p>
<p><img src="x" onerror="alert('img')" alt="pic"> <a href="javascript:alert('js')">click me</a></p>
<script>alert('script')</script>
<svg onload="alert('svg')"><circle r="1"/></svg>
</main></body></html>`;

const TIDY_PAGE = `<!doctype html><html><head>
<title>Kettle 3.0: faster builds | The Kettle Blog</title></head>
<body><main><h1>Kettle 3.0 is out</h1>
<p>Kettle 3.0 brings <strong>faster builds</strong> and a new <code>--watch</code> flag.</p>
<h2>Install</h2><pre><code class="language-sh">npm install kettle@3</code></pre>
<table><thead><tr><th>Project</th><th>2.9</th><th>3.0</th></tr></thead>
<tbody><tr><td>small</td><td>4.1 s</td><td>1.2 s</td></tr><tr><td>large</td><td>63 s</td><td>17 s</td></tr></tbody></table>
</main></body></html>`;

function thumbnail(hue: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120"><rect width="160" height="120" fill="hsl(${hue} 60% 70%)"/><circle cx="80" cy="60" r="30" fill="hsl(${hue} 60% 40%)"/></svg>`;
}

/** Brave's web and image search, thumbnails, and a page to scrape. */
function providers(hostile: boolean): TestServer {
  const server: TestServer = serve((seen) => {
    const base = server.url;
    if (seen.path === "/res/v1/web/search") {
      const q = seen.params.get("q") ?? "";
      return json({
        web: {
          results: [
            {
              title: hostile
                ? `&lt;img id="xss-title" src=x onerror="alert('title')"&gt;${q}`
                : `${q}: the manual`,
              url: `https://docs.example/${encodeURIComponent(q)}`,
              description: `How ${q} works, with examples.`,
              page_age: "2026-05-01T00:00:00",
            },
            {
              title: `${q} on the forum`,
              url: hostile
                ? "javascript:alert('result')"
                : `https://forum.example/t/${q.length}`,
              description: "Answers from people who use it.",
            },
          ],
        },
      });
    }
    if (seen.path === "/res/v1/images/search") {
      return json({
        results: [0, 1, 2].map((i) => ({
          title: `Red panda ${i + 1}`,
          url: `https://photos.example/red-panda-${i + 1}`,
          properties: {
            url: `https://photos.example/full/${i + 1}.jpg`,
            width: 1920 - i * 320,
            height: 1080 - i * 180,
          },
          thumbnail: { src: `${base}/thumb/${i}.svg` },
        })),
      });
    }
    if (seen.path.startsWith("/thumb/")) {
      return new Response(thumbnail(20 + 60 * Number(seen.path[7])), {
        headers: { "content-type": "image/svg+xml" },
      });
    }
    if (seen.path === "/post") {
      return new Response(hostile ? HOSTILE_PAGE : TIDY_PAGE, {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    }
    return new Response("not found", { status: 404 });
  });
  return server;
}

function providerEnv(server: TestServer): Record<string, string> {
  return {
    BRAVE_API_KEY: "test-key",
    BRAVE_API_URL: server.url,
    BEEUNI_SCRAPE_ALLOW_HOSTS: `127.0.0.1:${server.port}`,
  };
}

// ---- driving the page ----------------------------------------------------

/** The page's own address: `address` without its fragment (`http://127.0.0.1:P/w/<hex>/`). */
function pageOf(address: string): string {
  return address.slice(0, address.indexOf("#"));
}

// ---- the tests -----------------------------------------------------------

/** Tools per agent, forms, the five views, history, Stop and safety, on one daemon. */
async function projectSteps(t: Deno.TestContext, browser: Browser) {
  await using repo = await project();
  await using hostile = providers(true);
  const daemon = await startDaemon(repo.dir, {
    args: ["--no-opencode"],
    env: providerEnv(hostile),
  });
  let ui: WatchedPage | undefined;
  try {
    await t.step(
      "the daemon prints one address under a secret path with a one-time code in its fragment, never the token, and the page opens from it",
      async () => {
        const address = uiAddress(daemon);
        assert.match(
          address,
          /^http:\/\/127\.0\.0\.1:\d+\/w\/[0-9a-f]{32}\/#code=[0-9a-f]{64}$/,
        );
        assert.ok(address.startsWith(`${daemon.url}/w/`));
        assert.ok(!daemon.stdout().includes(daemon.token));
        assert.ok(!daemon.stderr().includes(daemon.token));
        ui = await openPage(browser, address);
        await ui.page.locator(".tool-list button").first().waitFor();
        // The code leaves the address bar once the page has used it.
        assert.equal(
          await ui.page.evaluate(() => location.href),
          pageOf(address),
        );
        await ui.page.locator("#live.ok").waitFor();
        // The page holds no credential a script could read.
        assert.deepEqual(
          await ui.page.evaluate(() => {
            // Runs in the page, where `document` exists.
            // deno-lint-ignore no-explicit-any
            const page = globalThis as any;
            return [
              page.document.cookie,
              JSON.stringify({ ...page.sessionStorage }),
              JSON.stringify({ ...page.localStorage }),
            ];
          }),
          ["", JSON.stringify({ "beeuni-agent": "beeuni" }), "{}"],
        );
      },
    );
    const page: Page = ui!.page;

    await t.step(
      "the tools each agent gets are listed with kind and source, and load errors with reasons (T8)",
      async () => {
        await page.selectOption("#agent", "builder");
        await page.locator("#tools h2", { hasText: "builder" }).waitFor();
        assert.deepEqual(await toolNames(page), [
          "web_search",
          "image_search",
          "scrape_webpage",
          "memory",
          "show",
          "plan_trip",
          "wait_for_stop",
          "html_echo",
          "long_report",
        ]);
        const planTrip = page.locator(
          '.tool-list button[data-tool="plan_trip"]',
        );
        assert.match(
          await planTrip.textContent(),
          /project.*tools\/plan_trip\.ts/,
        );
        const show = page.locator('.tool-list button[data-tool="show"]');
        assert.match(await show.textContent(), /beeuni.*beeuni:show/);
        const broken = page.locator('.load-errors li[data-tool="broken"]');
        assert.match(await broken.textContent(), /broken.*parameters/s);

        await page.selectOption("#agent", "reader");
        await page.locator("#tools h2", { hasText: "reader" }).waitFor();
        assert.deepEqual(await toolNames(page), [
          "web_search",
          "scrape_webpage",
          "memory",
        ]);
        assert.match(
          await page.locator(".hidden-tools").textContent(),
          /Hidden from reader: image_search, show, plan_trip, wait_for_stop, html_echo, long_report$/,
        );
        // The same tools, kinds and sources as `beeuni tools ls --agent`,
        // less the one that did not load.
        for (const agent of ["reader", "builder"]) {
          await page.selectOption("#agent", agent);
          await page.locator("#tools h2", { hasText: agent }).waitFor();
          const ls = await beeuni(repo.dir, [
            "tools",
            "ls",
            "--agent",
            agent,
            "--json",
          ]);
          const expected = JSON.parse(ls.stdout).tools
            .filter((tool: { name: string }) => tool.name !== "broken")
            .map((t: Record<string, string>) => t.name + t.kind + t.source);
          const shown = await page.locator(".tool-list button").evaluateAll(
            (buttons: { textContent: string }[]) =>
              buttons.map((b) => b.textContent),
          );
          assert.deepEqual(shown, expected);
        }
      },
    );

    await t.step(
      "a form generated from a nested schema runs a project tool with what was typed",
      async () => {
        await pickTool(page, "plan_trip");
        const form = page.locator("#form-pane");
        // Required marks, descriptions and defaults come from the schema.
        assert.match(
          await form.locator("fieldset", { hasText: "traveller" }).first()
            .textContent(),
          /traveller \*.*Who travels/s,
        );
        assert.equal(await page.inputValue('[data-path="notes"]'), "none");
        await page.fill('[data-path="traveller.name"]', "Ada Lovelace");
        await page.fill('[data-path="traveller.age"]', "36");
        await page.click('button[data-add="legs"]');
        await page.click('button[data-add="legs"]');
        assert.equal(await page.inputValue('[data-path="legs.0.nights"]'), "1");
        await page.fill('[data-path="legs.0.city"]', "Lyon");
        await page.fill('[data-path="legs.0.nights"]', "2");
        await page.fill('[data-path="legs.1.city"]', "Turin");
        await page.selectOption('[data-path="mode"]', { label: "plane" });
        await page.fill('[data-path="budget"]', "1250.5");
        await page.selectOption('[data-path="window_seat"]', "true");
        await page.click("#run");
        const call = await finished(page);
        assert.equal(await call.getAttribute("data-state"), "ok");
        assert.deepEqual(JSON.parse(await outputText(page)), {
          planned: {
            traveller: { name: "Ada Lovelace", age: 36 },
            legs: [{ city: "Lyon", nights: 2 }, { city: "Turin", nights: 1 }],
            mode: "plane",
            budget: 1250.5,
            window_seat: true,
            notes: "none",
          },
        });
        // The output shows as a JSON tree; the duration is shown.
        await call.locator('[data-view="generic"] .json').waitFor();
        await call.locator(".duration", { hasText: /^\d+(\.\d)? m?s$/ })
          .waitFor();
        // The JSON editor holds what the form holds, and back.
        await page.click('.tabs button[data-mode="json"]');
        const args = JSON.parse(await page.inputValue("#raw-json"));
        assert.equal(args.traveller.name, "Ada Lovelace");
        args.traveller.name = "Grace Hopper";
        await page.fill("#raw-json", JSON.stringify(args));
        await page.click('.tabs button[data-mode="form"]');
        assert.equal(
          await page.inputValue('[data-path="traveller.name"]'),
          "Grace Hopper",
        );
      },
    );

    await t.step(
      "web_search results render per query with title, link, snippet and date",
      async () => {
        await pickTool(page, "web_search");
        await page.fill('[data-path="query"]', "deno ffi ||| bun ffi");
        await page.click("#run");
        const call = await finished(page);
        const view = call.locator('[data-view="web_search"]');
        await view.waitFor();
        const queries = await view.locator("section.search h3")
          .allTextContents();
        assert.deepEqual(queries, ["deno ffi", "bun ffi"]);
        const first = view.locator("section.search").first();
        const link = first.locator("li.result a.title").first();
        assert.equal(
          await link.getAttribute("href"),
          "https://docs.example/deno%20ffi",
        );
        assert.equal(await link.getAttribute("target"), "_blank");
        assert.match(
          await first.textContent(),
          /How deno ffi works, with examples\./,
        );
        assert.match(await first.textContent(), /2026-05-01T00:00:00/);
        // The payload in a title shows as text; a javascript: address is no link.
        assert.match(await link.textContent(), /<img id="xss-title"/);
        assert.equal(await first.locator('a[href^="javascript:"]').count(), 0);
      },
    );

    await t.step(
      "image_search renders a grid of thumbnails with sizes, each opening its page",
      async () => {
        const call = await runJson(page, "image_search", {
          query: "red panda",
          count: 3,
        });
        const tiles = call.locator('[data-view="image_search"] figure.tile');
        assert.equal(await tiles.count(), 3);
        const first = tiles.first();
        assert.equal(
          await first.locator("a").getAttribute("href"),
          "https://photos.example/red-panda-1",
        );
        assert.equal(
          await first.locator("img").getAttribute("src"),
          `${hostile.url}/thumb/0.svg`,
        );
        assert.match(await first.textContent(), /Red panda 1.*1920 × 1080/s);
        await waitFor(
          "the thumbnails to load",
          () =>
            first.locator("img").evaluate((
              img: { complete: boolean; naturalWidth: number },
            ) => img.complete && img.naturalWidth > 0),
        );
      },
    );

    await t.step(
      "scrape_webpage renders the page as Markdown with its title and URL, and its payloads do not run",
      async () => {
        const call = await runJson(page, "scrape_webpage", {
          url: `${hostile.url}/post`,
        });
        const view = call.locator('[data-view="scrape_webpage"]');
        await view.locator('.markdown[data-state="rendered"]').waitFor();
        assert.equal(
          await view.locator("h3").textContent(),
          '<script>alert("title")</script> Kettle notes',
        );
        assert.equal(
          await view.locator(".url a").getAttribute("href"),
          `${hostile.url}/post`,
        );
        assert.equal(
          await view.locator(".markdown h1").textContent(),
          "Kettle notes",
        );
        assert.match(
          await view.locator(".markdown").textContent(),
          /Safe text\./,
        );
        // The page's script waits out anything that would fire late.
        await page.waitForTimeout(300);
        assert.deepEqual(await injected(page), []);
        assert.deepEqual(ui!.dialogs, []);
      },
    );

    await t.step(
      "a tool's output carrying markup shows as text and does not run",
      async () => {
        const call = await runJson(page, "html_echo", {});
        const tree = call.locator('[data-view="generic"] .json');
        await tree.waitFor();
        assert.match(
          await tree.textContent(),
          /<img id=\\"xss-output\\" src=\\"x\\" onerror=/,
        );
        const shown = await runJson(page, "show", {
          type: "markdown",
          content:
            `# Notes\n\n<img id="xss-md" src="x" onerror="alert('md')"> <script>alert('md2')</script>\n\n[run](javascript:alert('md3'))`,
        });
        await shown.locator('.markdown[data-state="rendered"] h1').waitFor();
        await page.waitForTimeout(300);
        assert.deepEqual(await injected(page), []);
        assert.deepEqual(ui!.dialogs, []);
        assert.deepEqual(ui!.errors, []);
      },
    );

    await t.step(
      "memory shows the file it wrote, the diff of an edit and the folder's tree",
      async () => {
        let call = await runJson(page, "memory", {
          command: "create",
          path: "trips/lyon.md",
          file_text: "# Lyon\nTrain at 9:10\nHotel: Bellecour\n",
        });
        let view = call.locator('[data-view="memory-create"]');
        assert.match(
          await view.locator(".memory-head").textContent(),
          /create.*memory\/trips\/lyon\.md/s,
        );
        assert.match(
          await view.locator("pre.code").textContent(),
          /Train at 9:10/,
        );
        assert.match(
          await view.locator(".memory-said").textContent(),
          /^Created memory\/trips\/lyon\.md/,
        );

        call = await runJson(page, "memory", {
          command: "str_replace",
          path: "trips/lyon.md",
          old_str: "Train at 9:10",
          new_str: "Train at 10:40",
        });
        view = call.locator('[data-view="memory-str_replace"]');
        assert.equal(
          await view.locator(".diff-del").textContent(),
          "- Train at 9:10\n",
        );
        assert.equal(
          await view.locator(".diff-add").textContent(),
          "+ Train at 10:40\n",
        );

        call = await runJson(page, "memory", { command: "view", path: "." });
        view = call.locator('[data-view="memory-view"]');
        assert.match(
          await view.locator(".tree li.dir").first().textContent(),
          /memory\/trips\//,
        );
        assert.match(
          await view.locator(".tree li.dir li.file").first().textContent(),
          /memory\/trips\/lyon\.md/,
        );

        call = await runJson(page, "memory", {
          command: "view",
          path: "trips/lyon.md",
        });
        assert.match(
          await call.locator('[data-view="memory-view"] pre.memory-file')
            .textContent(),
          /Train at 10:40/,
        );
      },
    );

    await t.step(
      "show renders an image from the project, a table, items and JSON from the call's arguments",
      async () => {
        let call = await runJson(page, "show", {
          type: "image",
          path: "out/chart.svg",
          title: "Sales",
        });
        const img = call.locator('[data-view="show-image"] .show-image img');
        await img.waitFor();
        assert.match(
          await img.getAttribute("src"),
          /^data:image\/svg\+xml;base64,/,
        );
        assert.equal(
          await call.locator('[data-view="show-image"] h3').textContent(),
          "Sales",
        );

        call = await runJson(page, "show", {
          type: "table",
          columns: ["name", "price"],
          rows: [["tea", 3.5], ["cake", null]],
        });
        assert.deepEqual(await call.locator("table th").allTextContents(), [
          "name",
          "price",
        ]);
        assert.deepEqual(await call.locator("table td").allTextContents(), [
          "tea",
          "3.5",
          "cake",
          "",
        ]);

        call = await runJson(page, "show", {
          type: "items",
          items: ["plain", {
            title: "Docs",
            description: "the manual",
            url: "https://docs.example/",
          }],
        });
        assert.equal(
          await call.locator('[data-view="show-items"] a').getAttribute("href"),
          "https://docs.example/",
        );

        call = await runJson(page, "show", {
          type: "json",
          content: { a: [1, 2], b: { c: true } },
        });
        assert.match(
          await call.locator('[data-view="show-json"] .json').textContent(),
          /a: \[ 2 items \]/,
        );

        call = await runJson(page, "show", {
          type: "code",
          language: "ts",
          content: "const answer = 42; // yes",
        });
        assert.equal(
          await call.locator('[data-view="show-code"] .hl-keyword').first()
            .textContent(),
          "const",
        );
      },
    );

    await t.step(
      "a cut output shows its full size and the file it was saved to (T6)",
      async () => {
        const call = await runJson(page, "long_report", {});
        const note = await call.locator(".truncated").textContent();
        const match = /^Output cut: (\d+) bytes in all, saved to (\/\S+)$/.exec(
          note,
        );
        assert.ok(match, note);
        const saved = await Deno.readTextFile(match[2]);
        assert.equal(new TextEncoder().encode(saved).length, Number(match[1]));
        assert.ok(saved.endsWith("line 3000"));
        assert.match(await outputText(page), /^line 1\n/);
      },
    );

    await t.step(
      "Stop ends a hung call through the session stop route",
      async () => {
        await pickTool(page, "wait_for_stop");
        await page.click("#run");
        await page.locator('#result article.call[data-state="running"]')
          .waitFor();
        await page.locator(
          '#calls li[data-tool="wait_for_stop"][data-state="running"]',
        ).waitFor();
        await page.click("#stop");
        const call = await finished(page);
        assert.equal(await call.getAttribute("data-state"), "error");
        assert.match(
          await call.locator(".call-error").textContent(),
          /the call to tool "wait_for_stop" was aborted/,
        );
        assert.equal(
          await call.locator("header .badge").textContent(),
          "aborted",
        );
        await page.locator('#calls li[data-tool="wait_for_stop"]', {
          hasText: "aborted",
        }).waitFor();
      },
    );

    await t.step(
      "a call made with curl appears live in the history and opens in its view",
      async () => {
        const out = await new Deno.Command("curl", {
          args: [
            "-s",
            "-H",
            `authorization: Bearer ${daemon.token}`,
            "-H",
            "content-type: application/json",
            "-d",
            JSON.stringify({
              args: { type: "markdown", content: "# Sent with curl" },
              sessionId: "curl-session",
              agent: "builder",
            }),
            `${daemon.url}/beeuni/tools/show`,
          ],
        }).output();
        assert.ok(out.success);
        const row = page.locator(
          '#calls li[data-tool="show"][data-state="ok"]',
          { hasText: "curl-session" },
        );
        await row.waitFor();
        assert.match(await row.textContent(), /builder · curl-session/);
        await row.locator("button").click();
        await page.locator("#result .from-history").waitFor();
        assert.equal(
          await page.locator(
            '#result [data-view="show-markdown"] .markdown[data-state="rendered"] h1',
          ).textContent(),
          "Sent with curl",
        );
        // The daemon's token and environment are never part of what the page shows.
        const text = await page.locator("body").textContent();
        assert.ok(!text.includes(daemon.token));
        assert.ok(!text.includes("test-key"));
      },
    );

    await t.step(
      "a used code, a wrong one and the page's address without a code each say so and how to get a fresh address; / and old addresses say where the address is; `beeuni web` gives one",
      async () => {
        const page = pageOf(uiAddress(daemon));
        const fatalText = async (url: string) => {
          const other = await openPage(browser, url);
          try {
            const fatal = other.page.locator("#fatal");
            await fatal.waitFor();
            assert.equal(await other.page.locator("#app").isVisible(), false);
            assert.equal(
              await other.page.evaluate(() => location.href),
              page,
            );
            return await fatal.textContent();
          } finally {
            await other.close();
          }
        };
        const fresh =
          /run `beeuni web` in the project \(or restart the daemon\)/;
        for (
          const url of [uiAddress(daemon), `${page}#code=${"0".repeat(64)}`]
        ) {
          const text = await fatalText(url);
          assert.match(text, /refused the one-time code in this address/);
          assert.match(text, fresh);
        }
        const bare = await fatalText(page);
        assert.match(
          bare,
          /opens from the address on the daemon's "web ui:" line/,
        );
        assert.match(bare, fresh);
        // `/`, and the addresses of old versions, show a notice: no page, no
        // secret path, and the old token is not used.
        for (
          const url of [
            `${daemon.url}/`,
            `${daemon.url}/#token=${daemon.token}`,
            `${daemon.url}/#code=${codeOf(uiAddress(daemon))}`,
          ]
        ) {
          const other = await openPage(browser, url);
          try {
            const notice = await other.page.locator("#notice").textContent();
            assert.match(
              notice.replace(/\s+/g, " "),
              /Open the address on the daemon's web ui: line: it looks like http:\/\/127\.0\.0\.1:<port>\/w\/…\/#code=…/,
            );
            assert.match(
              await other.page.locator("body").textContent(),
              /run beeuni web in the project/,
            );
            const html = await other.page.content();
            assert.ok(!html.includes(new URL(page).pathname), url);
            assert.deepEqual(other.errors, []);
          } finally {
            await other.close();
          }
        }

        const printed = await beeuni(repo.dir, ["web"], {
          env: { XDG_STATE_HOME: daemon.stateDir },
        });
        assert.equal(printed.code, 0, printed.stderr);
        const address = /^web ui: (http:\/\/\S+)\n$/.exec(printed.stdout)![1];
        assert.ok(address.startsWith(`${page}#code=`));
        const other = await openPage(browser, address);
        try {
          await other.page.locator(".tool-list button").first().waitFor();
        } finally {
          await other.close();
        }
      },
    );
  } finally {
    await ui?.close();
    await daemon.stop();
  }
}

// ---- changed copies ------------------------------------------------------

const CHANGED_SEARCH = `export default {
  description: "A copy of web_search that answers in another shape.",
  parameters: { type: "object", properties: { q: { type: "string" } } },
  execute(args) {
    return { hits: [{ name: "first hit for " + args.q, link: "https://example.com/" }] };
  },
};
`;

const CHANGED_SHOW = `export default {
  description: "A copy of show with other argument names.",
  parameters: { type: "object", properties: { kind: { type: "string" }, body: { type: "string" } } },
  execute(args) {
    return "shown " + args.kind + ": " + args.body;
  },
};
`;

async function changedCopies(browser: Browser) {
  await using repo = await tempRepo({
    "beeuni.yaml": `tools:
  web_search: tools/web_search.ts
  show: tools/show.ts
`,
    "tools/web_search.ts": CHANGED_SEARCH,
    "tools/show.ts": CHANGED_SHOW,
  });
  const daemon = await startDaemon(repo.dir, { args: ["--no-opencode"] });
  try {
    const ui = await openPage(browser, uiAddress(daemon));
    const page = ui.page;
    assert.match(
      await page.locator('.tool-list button[data-tool="web_search"]')
        .textContent(),
      /beeuni \(overridden\).*tools\/web_search\.ts/s,
    );
    let call = await runJson(page, "web_search", { q: "kettle" });
    let raw = call.locator('[data-view="raw"]');
    assert.match(
      await raw.locator("p.note").textContent(),
      /The web_search view cannot read/,
    );
    assert.match(
      await raw.locator("pre").textContent(),
      /"first hit for kettle"/,
    );

    call = await runJson(page, "show", { kind: "note", body: "hello" });
    raw = call.locator('[data-view="raw"]');
    assert.equal(await raw.locator("pre").textContent(), "shown note: hello");
    await ui.close();
  } finally {
    await daemon.stop();
  }
}

// ---- the starter project (and the README's screenshots) -------------------

async function starterProject(browser: Browser) {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_starter_" });
  await cp(join(REPO_ROOT, "examples", "starter"), dir, { recursive: true });
  await using tidy = providers(false);
  const daemon = await startDaemon(dir, {
    args: ["--no-opencode"],
    env: providerEnv(tidy),
  });
  try {
    const ui = await openPage(browser, uiAddress(daemon));
    const page = ui.page;
    await page.locator("#live.ok").waitFor();
    assert.equal(await page.inputValue("#agent"), "beeuni");

    const ok = async (call: Page) =>
      assert.equal(
        await call.getAttribute("data-state"),
        "ok",
        await call.textContent(),
      );

    await pickTool(page, "unit_convert");
    await page.fill('[data-path="value"]', "26.2");
    await page.fill('[data-path="from"]', "mi");
    await page.fill('[data-path="to"]', "km");
    await page.click("#run");
    await ok(await finished(page));
    await screenshot(page, "tools-and-form");

    await ok(
      await runJson(page, "word_count", {
        text: "the kettle and the pot and the cup",
      }),
    );
    await ok(
      await runJson(page, "todo_list", {
        action: "add",
        text: "Try the web UI",
      }),
    );

    await ok(
      await runJson(page, "web_search", { query: "deno ffi ||| bun ffi" }),
    );
    await screenshot(page, "web-search");

    await ok(
      await runJson(page, "image_search", { query: "red panda", count: 3 }),
    );
    await page.waitForTimeout(200);
    await screenshot(page, "image-search");

    const scraped = await runJson(page, "scrape_webpage", {
      url: `${tidy.url}/post`,
    });
    await ok(scraped);
    await scraped.locator('.markdown[data-state="rendered"] table').waitFor();
    await screenshot(page, "scrape-webpage");

    await ok(
      await runJson(page, "memory", {
        command: "create",
        path: "plans/release.md",
        file_text: "# Release plan\n- Freeze on Monday\n- Ship on Thursday\n",
      }),
    );
    await ok(
      await runJson(page, "memory", {
        command: "str_replace",
        path: "plans/release.md",
        old_str: "- Ship on Thursday",
        new_str: "- Ship on Friday\n- Write the notes",
      }),
    );
    await screenshot(page, "memory");

    await ok(
      await runJson(page, "show", {
        type: "table",
        title: "Build times",
        caption: "seconds, median of 5 runs",
        columns: ["project", "2.9", "3.0"],
        rows: [["small", 4.1, 1.2], ["medium", 21.5, 6.3], ["large", 63, 17]],
      }),
    );
    await screenshot(page, "show");
    await ui.close();
  } finally {
    await daemon.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

// One browser serves every step.
Deno.test("the web UI in Chromium (W1-W3)", async (t) => {
  const browser: Browser = await launchChromium();
  try {
    await t.step(
      "on a project with Beeuni, project and broken tools: tools per agent, forms, the five views, history, Stop and safety",
      (t) => projectSteps(t, browser),
    );
    await t.step(
      "changed copies of the Beeuni tools show their raw output (W2)",
      () => changedCopies(browser),
    );
    await t.step(
      "every tool of the starter project runs from the page (the README's screenshots)",
      () => starterProject(browser),
    );
  } finally {
    await browser.close();
  }
});

// ---- what the browser keeps ----------------------------------------------

const ECHO = `export default {
  description: "Echoes its text.",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args) => "echo: " + args.text,
};
`;

/** The one-time code of a printed address. */
function codeOf(address: string): string {
  return /#code=([0-9a-f]{64})$/.exec(address)![1];
}

/** Where `needle` occurs in `haystack`, or -1. */
function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0];
  let at = haystack.indexOf(first);
  while (at !== -1 && at + needle.length <= haystack.length) {
    let i = 1;
    while (i < needle.length && haystack[at + i] === needle[i]) i++;
    if (i === needle.length) return at;
    at = haystack.indexOf(first, at + 1);
  }
  return -1;
}

/** `text` as UTF-16LE bytes, the way Chromium's storage keeps some strings. */
function utf16le(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) bytes[i * 2] = text.charCodeAt(i);
  return bytes;
}

/**
 * Every file under `dir` (read as bytes) holding one of `secrets`, as
 * UTF-8 or UTF-16LE: `{ secret name: [relative paths] }`, and how many
 * files were read.
 */
async function secretsIn(
  dir: string,
  secrets: Record<string, string>,
): Promise<{ found: Record<string, string[]>; files: number }> {
  const found: Record<string, string[]> = {};
  const forms = Object.entries(secrets).map(([name, value]) =>
    [name, new TextEncoder().encode(value), utf16le(value)] as const
  );
  let files = 0;
  const walk = async (folder: string) => {
    for await (const entry of Deno.readDir(folder)) {
      const path = join(folder, entry.name);
      if (entry.isDirectory) await walk(path);
      if (!entry.isFile) continue;
      const bytes = await Deno.readFile(path);
      files++;
      for (const [name, utf8, wide] of forms) {
        if (
          indexOfBytes(bytes, utf8) !== -1 || indexOfBytes(bytes, wide) !== -1
        ) (found[name] ??= []).push(path.slice(dir.length + 1));
      }
    }
  };
  await walk(dir);
  return { found, files };
}

/** The names and attributes of the browser's cookies for the daemons. */
interface Cookie {
  name: string;
  value: string;
  httpOnly: boolean;
  sameSite: string;
  secure: boolean;
  path: string;
  expires: number;
}

Deno.test("with a persistent Chromium profile the UI works and reloads, yet neither the daemon's token, a live code nor the session reaches the profile's files; two daemons keep their own cookies (W1, D7)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  echo: tools/echo.ts\n",
    "tools/echo.ts": ECHO,
  });
  // Two daemons of one project: the same token, each its own sessions.
  const state = await Deno.makeTempDir({ prefix: "beeuni_state_" });
  const a = await startDaemon(repo.dir, {
    args: ["--no-opencode"],
    env: { XDG_STATE_HOME: state },
  });
  const b = await startDaemon(repo.dir, {
    args: ["--no-opencode"],
    env: { XDG_STATE_HOME: state },
  });
  assert.equal(b.token, a.token);
  const profile = await Deno.makeTempDir({ prefix: "beeuni_profile_" });
  try {
    const [addressA, addressB] = [uiAddress(a), uiAddress(b)];
    let cookies: Cookie[] = [];
    const browser: Browser = await launchPersistentChromium(profile);
    try {
      const echo = async (page: Page, text: string) => {
        const call = await runJson(page, "echo", { text });
        assert.equal(await outputText(page), `echo: ${text}`);
        assert.equal(await call.getAttribute("data-state"), "ok");
      };
      const tabA = await openTab(browser, addressA);
      await tabA.page.locator(".tool-list button").first().waitFor();
      assert.deepEqual(await toolNames(tabA.page), ["echo"]);
      await echo(tabA.page, "from a");
      assert.equal(
        await tabA.page.evaluate(() => location.href),
        pageOf(addressA),
      );
      // Daemon B signs in in the same cookie jar (one host, two ports).
      const tabB = await openTab(browser, addressB);
      await echo(tabB.page, "from b");
      // A reload needs no code: the session cookie stays, B's did not replace it.
      await tabA.page.reload();
      await echo(tabA.page, "after the reload");
      await tabB.page.reload();
      await echo(tabB.page, "b after the reload");
      // The used address, opened again where the session lives, opens the page.
      const again = await openTab(browser, addressA);
      await echo(again.page, "the used address again");
      for (const tab of [tabA, tabB]) {
        assert.deepEqual(tab.errors, []);
        assert.deepEqual(tab.dialogs, []);
      }
      cookies = await browser.cookies();
    } finally {
      await browser.close();
    }
    assert.deepEqual(
      cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.secure, c.path]),
      [
        [
          `beeuni_session_${a.port}`,
          true,
          "Strict",
          false,
          new URL(addressA).pathname,
        ],
        [
          `beeuni_session_${b.port}`,
          true,
          "Strict",
          false,
          new URL(addressB).pathname,
        ],
      ],
    );
    // Session cookies: gone when the browser closes.
    assert.deepEqual(cookies.map((c) => c.expires), [-1, -1]);

    const { found, files } = await secretsIn(profile, {
      token: a.token,
      "code of a": codeOf(addressA),
      "code of b": codeOf(addressB),
      "session with a": cookies[0].value,
      "session with b": cookies[1].value,
    });
    assert.ok(files > 20, `only ${files} files in the profile`);
    for (
      const path of [
        "History",
        "Cookies",
        "Sessions",
        "Local Storage",
        "Session Storage",
        "Preferences",
      ]
    ) assert.ok(exists(join(profile, "Default", path)), path);
    // The history keeps the visited addresses, codes included: used, so dead.
    assert.ok(
      found["code of a"]?.includes("Default/History"),
      JSON.stringify(found),
    );
    assert.deepEqual(
      Object.keys(found).filter((name) => !name.startsWith("code of")),
      [],
      JSON.stringify(found),
    );
    for (const [daemon, address] of [[a, addressA], [b, addressB]] as const) {
      const again = await fetch(`${pageOf(address)}beeuni/web/session`, {
        method: "POST",
        headers: { origin: daemon.url, "content-type": "application/json" },
        body: JSON.stringify({ code: codeOf(address) }),
      });
      assert.equal(again.status, 401);
      assert.match((await again.json()).error, /^one-time code refused/);
    }
  } finally {
    await a.stop();
    await b.stop();
    await Deno.remove(profile, { recursive: true });
    await Deno.remove(state, { recursive: true });
  }
});

// ---- another server on 127.0.0.1 -----------------------------------------

/**
 * A page a tool could serve on loopback as a "preview": it reports what
 * the browser gave it (cookies, referrer, opener), then tries the
 * daemon's routes with whatever cookies the browser would add.
 */
function previewPage(daemonUrl: string): string {
  return `<!doctype html><html><head><title>Preview</title></head><body>
<p>A preview.</p>
<script>
(async () => {
  const daemon = ${JSON.stringify(daemonUrl)};
  const via = new URLSearchParams(location.search).get("via");
  const tries = [];
  for (const [method, path] of [["POST", "/beeuni/tools/echo"], ["GET", "/ui/api/tools"], ["GET", "/beeuni/health"]]) {
    try {
      await fetch(daemon + path, {
        method,
        mode: "no-cors",
        credentials: "include",
        body: method === "POST" ? JSON.stringify({ args: { text: "stolen" }, sessionId: "stolen-" + via, agent: "any" }) : undefined,
      });
      tries.push(path);
    } catch (error) {
      tries.push(path + " failed: " + error.message);
    }
  }
  await fetch("/report?" + new URLSearchParams({
    via,
    cookie: document.cookie,
    referrer: document.referrer,
    noOpener: String(window.opener === null),
    tries: tries.join(" | "),
  }));
})();
</script></body></html>`;
}

Deno.test("another server on 127.0.0.1, visited by the same browser directly, through a link in a tool's output and for an image in it, never gets the session cookie nor the page's secret path, and cannot use the session; the cookie outside that path opens nothing (W1, D7)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  echo: tools/echo.ts\n  show: beeuni:show\n",
    "tools/echo.ts": ECHO,
  });
  const daemon = await startDaemon(repo.dir, { args: ["--no-opencode"] });
  // Stands in for a tool's listener: it records every request it gets.
  await using other = serve((seen) => {
    if (seen.path === "/preview") {
      return new Response(previewPage(daemon.url), {
        headers: { "content-type": "text/html; charset=utf-8" },
      });
    }
    if (seen.path === "/pic.svg") {
      return new Response(CHART, {
        headers: { "content-type": "image/svg+xml" },
      });
    }
    return new Response("ok");
  });
  const profile = await Deno.makeTempDir({ prefix: "beeuni_profile_" });
  try {
    const address = uiAddress(daemon);
    const page = pageOf(address);
    const secret = new URL(page).pathname.split("/")[2];
    const reports = (via: string) =>
      other.seen.filter((seen) =>
        seen.path === "/report" && seen.params.get("via") === via
      );
    let cookies: Cookie[] = [];
    const browser: Browser = await launchPersistentChromium(profile);
    try {
      const tab = await openTab(browser, address);
      await tab.page.locator(".tool-list button").first().waitFor();
      const shown = await runJson(tab.page, "show", {
        type: "markdown",
        content:
          `# Preview ready\n\n[Open the preview](${other.url}/preview?via=link)\n\n![chart](${other.url}/pic.svg)`,
      });
      const link = shown.locator(".markdown a", {
        hasText: "Open the preview",
      });
      await link.waitFor();
      assert.equal(await link.getAttribute("rel"), "noopener noreferrer");
      await waitFor(
        "the image from the other server",
        () => other.seen.some((seen) => seen.path === "/pic.svg"),
      );
      // A click on the link in the output opens the other server in a new tab.
      const [opened] = await Promise.all([
        browser.waitForEvent("page"),
        link.click(),
      ]);
      await waitFor(
        "the linked page's report",
        () => reports("link").length > 0,
      );
      await opened.close();
      // So does typing its address.
      const direct = await openTab(browser, `${other.url}/preview?via=direct`);
      await waitFor(
        "the visited page's report",
        () => reports("direct").length > 0,
      );
      await direct.close();
      // The session still works in the page, and none of the other
      // server's tries ran a tool: the history shows this call and no other.
      await runJson(tab.page, "echo", { text: "still signed in" });
      assert.equal(await outputText(tab.page), "echo: still signed in");
      await tab.page.locator('#calls li[data-tool="echo"]').first().waitFor();
      assert.equal(
        await tab.page.locator("#calls li", { hasText: "stolen" }).count(),
        0,
      );
      assert.deepEqual(tab.errors, []);
      cookies = await browser.cookies();
    } finally {
      await browser.close();
    }

    // What the other server got: no cookie, no referrer, no opener, and
    // nothing that names the secret path or the session.
    assert.equal(cookies.length, 1);
    const session = cookies[0].value;
    assert.deepEqual(
      [cookies[0].path, cookies[0].httpOnly, cookies[0].sameSite],
      [new URL(page).pathname, true, "Strict"],
    );
    for (const via of ["link", "direct"]) {
      const [report] = reports(via);
      assert.deepEqual(
        Object.fromEntries(report.params),
        {
          via,
          cookie: "",
          referrer: "",
          noOpener: "true",
          tries: "/beeuni/tools/echo | /ui/api/tools | /beeuni/health",
        },
      );
    }
    const paths = other.seen.map((seen) => seen.path);
    assert.ok(paths.includes("/pic.svg") && paths.includes("/preview"));
    for (const seen of other.seen) {
      const where = `${seen.method} ${seen.url.pathname}${seen.url.search}`;
      assert.equal(seen.headers.get("cookie"), null, where);
      if (seen.path === "/preview" || seen.path === "/pic.svg") {
        assert.equal(seen.headers.get("referer"), null, where);
      }
      const everything = [where, ...seen.headers.entries()].join("\n");
      for (const value of [secret, session, daemon.token]) {
        assert.ok(!everything.includes(value), where);
      }
    }
    // The other page's tries reached the daemon without the cookie.
    assert.match(
      daemon.stderr(),
      /\[http\] 401 POST \/beeuni\/tools\/echo: missing or wrong bearer token/,
    );

    // Had it the cookie, without the secret path it opens nothing.
    const cookie = `${cookies[0].name}=${session}`;
    const replay = (url: string) =>
      fetch(url, {
        method: "POST",
        headers: {
          cookie,
          origin: daemon.url,
          "sec-fetch-site": "same-origin",
          "content-type": "application/json",
        },
        body: JSON.stringify({
          args: { text: "replayed" },
          sessionId: "replayed",
          agent: "any",
        }),
      });
    const outside = await replay(`${daemon.url}/beeuni/tools/echo`);
    assert.equal(outside.status, 401);
    assert.match((await outside.json()).error, /missing or wrong bearer token/);
    // The same cookie under the path works: the refusal was for the path.
    const inside = await replay(`${page}beeuni/tools/echo`);
    assert.equal(inside.status, 200);
    assert.deepEqual(await inside.json(), { output: "echo: replayed" });
  } finally {
    await daemon.stop();
    await Deno.remove(profile, { recursive: true });
  }
});

// ---- sessions ---------------------------------------------------------------

Deno.test("the web UI lists the project's sessions and shows one's log live, each call in its tool's view (W2, S2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  weather_now: tools/weather_now.ts\n",
    "tools/weather_now.ts": `export default {
  description: "The weather now in a city",
  parameters: { type: "object", properties: { city: { type: "string" } } },
  execute: (args) => "Sunny in " + args.city,
};
`,
  });
  const state = await Deno.makeTempDir({ prefix: "beeuni_state_" });
  // The model's second turn waits until the test lets it go.
  let release = () => {};
  const gate = new Promise<void>((resolve) => release = resolve);
  const server = startModelServer("openai-chat", [
    { calls: [{ name: "weather_now", args: { city: "Lyon" } }] },
    { text: "Sunny in Lyon, the tool says.", before: () => gate },
  ]);
  const env = {
    XDG_STATE_HOME: state,
    TMPDIR: state,
    OPENAI_COMPATIBLE_BASE_URL: server.baseUrl,
  };
  const daemon = await startDaemon(repo.dir, {
    args: ["--no-opencode"],
    env,
  });
  const browser: Browser = await launchChromium();
  try {
    const started = await beeuni(repo.dir, [
      "sessions",
      "new",
      "--model",
      "openai-compatible/local",
      "--prompt",
      "Weather in Lyon?",
    ], { env });
    assert.equal(started.code, 0, started.stderr);
    const id = started.stdout.split("\n")[0].slice("session ".length);
    const ui = await openPage(browser, uiAddress(daemon));
    const page = ui.page;
    const row = page.locator(`#sessions li[data-id="${id}"] button`);
    await row.waitFor();
    await row.click();
    const call = page.locator(
      '.session-log article.call[data-tool="weather_now"][data-state="ok"]',
    );
    await call.waitFor();
    assert.match(await call.textContent(), /Sunny in Lyon/);
    assert.equal(await page.locator(".session-end").count(), 0);
    assert.match(
      await page.locator(".session-log pre.prompt").textContent(),
      /Weather in Lyon\?/,
    );
    release();
    await page.locator(".session-end.state-done").waitFor();
    assert.match(
      await page.locator(".session-log pre.model-text").last().textContent(),
      /Sunny in Lyon, the tool says\./,
    );
    await ui.close();
    // The background session's process ends with it.
    const ls = await beeuni(repo.dir, ["sessions", "ls", "--json"], { env });
    const [session] = JSON.parse(ls.stdout) as { pid: number }[];
    await waitFor(
      "the session's process to end",
      () => !isProcessRunning(session.pid),
    );
  } finally {
    release();
    await browser.close();
    await daemon.stop();
    await server.close();
    await Deno.remove(state, { recursive: true });
  }
});
