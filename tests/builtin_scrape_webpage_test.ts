// scrape_webpage (B1, B2): real-world HTML, charsets, text and JSON, redirects,
// limits and the address policy, against servers on 127.0.0.1, run through the
// tool host.

import assert from "node:assert/strict";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { brotliCompressSync } from "node:zlib";
import { beeuni, REPO_ROOT, tempRepo } from "./_helpers.ts";
import { createHost } from "../lib/host/mod.ts";
import scrapeWebpage from "../builtin_tools/scrape_webpage.ts";
import {
  builtinHost,
  failure,
  type Outcome,
  serve,
  success,
  toolSource,
} from "./_builtin.ts";

const FIXTURES = join(REPO_ROOT, "tests", "fixtures", "scrape_webpage");

function fixture(name: string): Promise<Uint8Array<ArrayBuffer>> {
  return Deno.readFile(join(FIXTURES, name));
}

/**
 * A TCP listener on 127.0.0.1 that accepts connections and never answers.
 * `connections` counts every connection made to it.
 */
interface Silent {
  port: number;
  connections: number;
  arrived: Promise<void>;
  /** Resolves when a held connection is closed by the client. */
  closedByClient: Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

function silentServer(): Silent {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  let arrive!: () => void;
  let closed!: () => void;
  const state: Silent = {
    port: (listener.addr as Deno.NetAddr).port,
    connections: 0,
    arrived: new Promise<void>((resolve) => arrive = resolve),
    closedByClient: new Promise<void>((resolve) => closed = resolve),
    [Symbol.asyncDispose]: async () => {
      listener.close();
      for (const conn of held) {
        try {
          conn.close();
        } catch {
          // already closed
        }
      }
      await accepting;
    },
  };
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        state.connections++;
        held.push(conn);
        arrive();
        (async () => {
          const buffer = new Uint8Array(4096);
          try {
            while ((await conn.read(buffer)) !== null) {
              // swallow the request
            }
            closed();
          } catch {
            closed();
          }
        })();
      }
    } catch {
      // listener closed
    }
  })();
  return state;
}

function html(
  body: BodyInit,
  contentType = "text/html; charset=utf-8",
): Response {
  return new Response(body, { headers: { "content-type": contentType } });
}

const ALLOW = { BEEUNI_SCRAPE_ALLOW_PRIVATE: "1" };

function content(outcome: Outcome): string {
  return String(success(outcome).content);
}

const POLICY_HINT =
  "only public addresses are fetched (set BEEUNI_SCRAPE_ALLOW_PRIVATE=1 in the tool's environment to allow private ones)";

Deno.test("scrape_webpage through the tool host (B1, B2)", async (t) => {
  // Each step's settings reach `context.env` as the agent's secrets.
  await using tool = await builtinHost("scrape_webpage");
  const { call } = tool;

  await t.step(
    "turns an article page into Markdown and drops scripts, styles, navigation and boilerplate",
    async () => {
      const page = await fixture("article.html");
      await using server = serve(() => html(page));
      const output = success(
        await call(ALLOW, { url: `${server.url}/blog/2024/kettle-3/` }),
      );
      assert.deepEqual(Object.keys(output), [
        "url",
        "status",
        "title",
        "content_type",
        "content",
        "truncated",
        "next_offset",
      ]);
      assert.equal(output.url, `${server.url}/blog/2024/kettle-3/`);
      assert.equal(output.status, 200);
      assert.equal(
        output.title,
        "Kettle 3.0: faster builds & friendlier errors | The Kettle Blog",
      );
      assert.equal(output.content_type, "text/html");
      assert.equal(output.truncated, false);
      assert.equal(output.next_offset, null);
      const base = server.url;
      assert.equal(
        output.content,
        `# Kettle 3.0 is out

Kettle 3.0 brings **faster builds**, *friendlier* errors and a new \`--watch\` flag. Read the [getting started guide](${base}/blog/docs/getting-started/?from=blog#install) or the [full changelog](https://kettle.example/changelog).

Upgrading is a one-line change; the old \`kettle_config\` file still works.

## Install

Use your package manager:

\`\`\`sh
npm install --save-dev kettle@3
kettle build --watch src/
\`\`\`

## What changed

- The compiler
  - Incremental builds
  - Parallel type checks
    1. per package
    2. per file
- The error printer

### Upgrade steps

1. Update the dependency.
2. Run \`kettle migrate\`.
3. Commit the result.

> Builds went from 40 seconds to 9.
>
> — an early user

## Benchmarks

| Project | 2.9 | 3.0 |
| --- | --- | --- |
| small | 4.1 s | 1.2 s |
| large | 40 s | 9 s |

![Build times chart](${base}/images/bench-chart.png)

Build times, lower is better.

Example:

\`\`\`
const kettle = require("kettle");
if (a < b && c > d) {
  kettle.build();
}
\`\`\``,
      );
      assert.doesNotMatch(String(output.content), /LEAK|cookies|Skip to/);
    },
  );

  await t.step(
    "renders data tables as Markdown tables, flattens a table nested in a cell and unrolls layout tables",
    async () => {
      const page = await fixture("nested_tables.html");
      await using server = serve(() => html(page, "text/html"));
      const output = success(
        await call(ALLOW, { url: `${server.url}/archive/march.html` }),
      );
      assert.equal(output.title, "Weather station archive");
      assert.equal(
        output.content,
        `[Home](${server.url}/archive/index.html)

[Archive](${server.url}/archive/archive.html)

# Station 42 – March

Daily readings for the station on the hill.

Values are in degrees Celsius.

Readings

| Day | High | Low | Notes |
| --- | --- | --- | --- |
| 1 | 12.5 | 3.1 | Clear |
| 2 | 10.0 | -1.4 | wind; NW 20 km/h<br>rain; 2 mm |
| 3-4 | station offline |  | maintenance |
|  | n/a | n/a | back on the 5th |

Last updated 2024-04-01.`,
      );
    },
  );

  await t.step(
    "reads broken markup: unclosed and stray tags, unquoted attributes, comments, CDATA, entities",
    async () => {
      const page = await fixture("broken.html");
      await using server = serve(() => html(page));
      const output = success(await call(ALLOW, { url: `${server.url}/b/` }));
      assert.equal(output.title, "Broken & markup page");
      assert.equal(
        output.content,
        `# Broken *but* readable

First paragraph with an unclosed **bold run**

**Second paragraph after an implied close**, then a stray end tag and text.

Entities: café & 5 < 6 > 4 "quoted" €100 ☺ ©2024 &unknown; AT&T

CDATA: text]]> done.

- one
- two [link two](${server.url}/two)
- three
  - three-a
  - three-b

|  |  |
| --- | --- |
| cell A | cell B |
| cell C | cell D |

Unquoted [query link](${server.url}/b/page.html?a=1&b=2) and ![Picture](${server.url}/b/pic.png).

Paragraph in a div with an empty anchor

Text after a stray close div.

Last paragraph with an unfinished tag at the end`,
      );
    },
  );

  await t.step(
    "reads every named character reference, misnested markup as browsers do, and real-world pages: each fixture's Markdown is its saved .md file",
    async () => {
      const pages: [string, string][] = [
        ["entities", "Symbols ★ and relations ⪢̸"],
        ["misnested", "Misnested markup"],
        [
          "blog_post",
          "Why our sourdough starter died (and how we revived it) – Crumb & Crust",
        ],
        ["docs_page", "readLines() – Streams API – Tidewater Docs"],
      ];
      for (const [name, title] of pages) {
        const page = await fixture(`${name}.html`);
        await using server = serve(() => html(page));
        const output = success(
          await call(ALLOW, {
            url: `${server.url}/page/`,
            max_length: 100_000,
          }),
        );
        const expected = new TextDecoder().decode(await fixture(`${name}.md`))
          .replace(/\n$/, "").replaceAll("{{origin}}", server.url);
        assert.equal(output.title, title, name);
        assert.equal(output.content, expected, name);
      }
    },
  );

  await t.step(
    "reads a page nested 20,000 elements deep: nesting past 256 is flattened, nothing overflows",
    async () => {
      const depth = 20_000;
      const page = `<p>top</p>${"<div>".repeat(depth)}deep text${
        "</div>".repeat(depth)
      }<p>after</p>`;
      await using server = serve(() => html(page));
      assert.equal(
        content(await call(ALLOW, { url: server.url })),
        "top\n\ndeep text\n\nafter",
      );
    },
  );

  await t.step(
    "reads an encyclopedia page: infobox table with a list, footnote marks, no edit links, navigation boxes or footer",
    async () => {
      const page = await fixture("encyclopedia.html");
      await using server = serve(() => html(page));
      const output = success(
        await call(ALLOW, { url: `${server.url}/wiki/Teapot` }),
      );
      assert.equal(output.title, "Teapot - Wikipedia");
      assert.equal(
        output.content,
        `# Teapot

From Wikipedia, the free encyclopedia

| Teapot |  |
| --- | --- |
| [![](http://upload.example/Teapot.jpg)](${server.url}/wiki/File:Teapot.jpg)<br>A porcelain teapot |  |
| Type | Vessel |
| Uses | - Steeping tea<br>- Serving |

A **teapot** is a vessel used for steeping [tea](${server.url}/wiki/Tea) leaves[1].

## History

Teapots appeared in China[2].

## References

1. ^ Smith, J. *Teapots*. 1999.`,
      );
    },
  );

  await t.step(
    "reads a reference page: <base href>, definition lists, highlighted code with its language, permalink marks dropped",
    async () => {
      const page = await fixture("reference_docs.html");
      await using server = serve(() => html(page));
      const output = success(
        await call(ALLOW, { url: `${server.url}/parse_args.html` }),
      );
      assert.equal(output.title, "parse_args — Docs");
      assert.equal(
        output.content,
        `# parse_args

**\`parse_args\`(*argv*, *\\**, *strict=True*)**

: Parse argv into options.

  Note

  Unknown options raise \`UsageError\`.

\`\`\`python
from tool import parse_args
opts = parse_args(["--x"])
\`\`\`

See [![API](https://docs.example/en/latest/icon.png)](https://docs.example/en/api/index.html) and [odd link](http://example.com/a%20b%28c%29).

Footnote[1] here. Math: 2<sup>10</sup> = 1024. Use \`Ctrl\`+\`C\`.

\\# not a heading, 1. not a list, - not a bullet, \\*stars\\* and \\_under\\_ and snake_case_word.

5. five
6. six

Line one  
Line two  
Line three

More

Hidden by default but present.`,
      );
    },
  );

  await t.step(
    "decodes Shift_JIS and windows-1252 pages declared by header or by <meta>",
    async () => {
      const sjis = await fixture("shift_jis.html");
      const sjisMeta = await fixture("shift_jis_meta.html");
      const cp = await fixture("windows_1252.html");
      const cpMeta = await fixture("windows_1252_meta.html");
      await using server = serve(({ url }) => {
        switch (url.pathname) {
          case "/sjis-header":
            return html(sjis, "text/html; charset=Shift_JIS");
          case "/sjis-meta":
            return html(sjisMeta, "text/html");
          case "/cp-header":
            return html(cp, 'text/html; charset="ISO-8859-1"');
          case "/cp-undeclared":
            return html(cp, "text/html");
          default:
            return html(cpMeta, "text/html");
        }
      });
      const japanese = `# こんにちは、世界

これはシフトJISで書かれたページです。「全角かっこ」と半角ｶﾀｶﾅも含みます。

- 東京
- 大阪`;
      for (const path of ["/sjis-header", "/sjis-meta"]) {
        const output = success(await call(ALLOW, { url: server.url + path }));
        assert.equal(output.title, "日本語のページ｜テスト", path);
        assert.equal(output.content, japanese, path);
      }
      for (const path of ["/cp-header", "/cp-meta", "/cp-undeclared"]) {
        const output = success(await call(ALLOW, { url: server.url + path }));
        assert.equal(output.title, "Café menu – “Spring”", path);
        assert.equal(
          output.content,
          "# Crème brûlée\n\nOur café’s “classic” dessert costs €7 — naïve prices, señor.",
          path,
        );
      }
    },
  );

  await t.step(
    "returns text types as plain text and JSON indented; a body that is not JSON comes back as it is",
    async () => {
      await using server = serve(({ url }) => {
        if (url.pathname === "/notes.txt") {
          return html(
            "line one\r\n  *not markdown*\r\nline three\n",
            "text/plain",
          );
        }
        if (url.pathname === "/data.json") {
          return html(
            '{"name":"kettle","tags":["a","b"],"n":1}',
            "application/json",
          );
        }
        if (url.pathname === "/problem") {
          return html('{"title":"gone"}', "application/problem+json");
        }
        return html("{not json", "application/json");
      });
      const text = success(
        await call(ALLOW, { url: `${server.url}/notes.txt` }),
      );
      assert.equal(text.content, "line one\n  *not markdown*\nline three\n");
      assert.equal(text.content_type, "text/plain");
      assert.equal(text.title, "");
      const data = success(
        await call(ALLOW, { url: `${server.url}/data.json` }),
      );
      assert.equal(
        data.content,
        '{\n  "name": "kettle",\n  "tags": [\n    "a",\n    "b"\n  ],\n  "n": 1\n}',
      );
      assert.equal(data.content_type, "application/json");
      assert.equal(
        content(await call(ALLOW, { url: `${server.url}/problem` })),
        '{\n  "title": "gone"\n}',
      );
      assert.equal(
        content(await call(ALLOW, { url: `${server.url}/broken.json` })),
        "{not json",
      );
    },
  );

  await t.step(
    'returns an HTML page as plain text with format "text" and as its source with format "html"',
    async () => {
      const source =
        '<html><head><title>T</title></head><body><h2>Head</h2><p>A <a href="/x">link</a> and <b>bold</b>.</p><ul><li>item</li></ul></body></html>';
      await using server = serve(() => html(source));
      assert.equal(
        content(await call(ALLOW, { url: server.url, format: "text" })),
        "Head\n\nA link and bold.\n\n- item",
      );
      const raw = success(
        await call(ALLOW, { url: server.url, format: "html" }),
      );
      assert.equal(raw.content, source);
      assert.equal(raw.title, "T");
    },
  );

  await t.step(
    "cuts content at max_length and reads on from next_offset",
    async () => {
      const body = "0123456789".repeat(5);
      await using server = serve(() => html(body, "text/plain"));
      const first = success(
        await call(ALLOW, { url: server.url, max_length: 20 }),
      );
      assert.equal(first.content, body.slice(0, 20));
      assert.equal(first.truncated, true);
      assert.equal(first.next_offset, 20);
      const last = success(
        await call(ALLOW, { url: server.url, max_length: 40, offset: 20 }),
      );
      assert.equal(last.content, body.slice(20));
      assert.equal(last.truncated, false);
      assert.equal(last.next_offset, null);
    },
  );

  await t.step(
    "returns at most 20,000 characters when max_length is not given",
    async () => {
      const body = "x".repeat(25_000);
      await using server = serve(() => html(body, "text/plain"));
      const output = success(await call(ALLOW, { url: server.url }));
      assert.equal(output.content, body.slice(0, 20_000));
      assert.equal(output.next_offset, 20_000);
    },
  );

  await t.step(
    "follows redirects and reports the final URL; stops after 10 and at a loop",
    async () => {
      await using server = serve(({ url }) => {
        const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
        if (hop) {
          const n = Number(hop[1]);
          const location = n === 0 ? "/final?x=1" : `/hop/${n - 1}`;
          return new Response(null, {
            status: n % 2 ? 301 : 302,
            headers: { location },
          });
        }
        if (url.pathname === "/loop-a") {
          return new Response(null, {
            status: 307,
            headers: { location: "/loop-b" },
          });
        }
        if (url.pathname === "/loop-b") {
          return new Response(null, {
            status: 308,
            headers: { location: "/loop-a" },
          });
        }
        if (url.pathname === "/to-file") {
          return new Response(null, {
            status: 302,
            headers: { location: "file:///etc/passwd" },
          });
        }
        return html("<title>Final</title><p>arrived</p>");
      });
      const done = success(await call(ALLOW, { url: `${server.url}/hop/9` }));
      assert.equal(done.url, `${server.url}/final?x=1`);
      assert.equal(done.title, "Final");
      assert.equal(done.content, "arrived");
      assert.equal(
        failure(await call(ALLOW, { url: `${server.url}/hop/10` })),
        `too many redirects: "${server.url}/hop/10" redirected more than 10 times (last to "${server.url}/final?x=1")`,
      );
      assert.equal(
        failure(await call(ALLOW, { url: `${server.url}/loop-a` })),
        `redirect loop: "${server.url}/loop-b" redirects back to "${server.url}/loop-a"; check the URL`,
      );
      assert.equal(
        failure(await call(ALLOW, { url: `${server.url}/to-file` })),
        `cannot follow the redirect from "${server.url}/to-file": the target must use http or https, not "file": "file:///etc/passwd"`,
      );
    },
  );

  await t.step(
    "returns a non-2xx page with its status, and refuses binary content",
    async () => {
      const png = new Uint8Array([
        0x89,
        0x50,
        0x4e,
        0x47,
        0x0d,
        0x0a,
        0x1a,
        0x0a,
        0,
        0,
        0,
        13,
      ]);
      await using server = serve(({ url }) => {
        if (url.pathname === "/image.png") {
          return new Response(png, {
            headers: { "content-type": "image/png" },
          });
        }
        if (url.pathname === "/download") {
          return new Response(png, {
            headers: { "content-type": "application/octet-stream" },
          });
        }
        return new Response("<title>Not found</title><h1>No such page</h1>", {
          status: 404,
          headers: { "content-type": "text/html" },
        });
      });
      const missing = success(await call(ALLOW, { url: `${server.url}/nope` }));
      assert.equal(missing.status, 404);
      assert.equal(missing.title, "Not found");
      assert.equal(missing.content, "# No such page");
      assert.equal(
        failure(await call(ALLOW, { url: `${server.url}/image.png` })),
        `cannot scrape "${server.url}/image.png": its content type "image/png" is not a web page, text or JSON; scrape_webpage reads HTML, text and JSON only`,
      );
      assert.equal(
        failure(await call(ALLOW, { url: `${server.url}/download` })),
        `cannot scrape "${server.url}/download": its content is binary (content type "application/octet-stream"); scrape_webpage reads HTML, text and JSON only`,
      );
    },
  );

  await t.step(
    "decompresses gzip and brotli bodies and caps the decompressed size (BEEUNI_SCRAPE_MAX_BYTES)",
    async () => {
      const big = "a".repeat(1024 * 1024);
      await using server = serve(({ url }) => {
        if (url.pathname === "/gz") {
          return new Response(gzipSync("<h1>Zipped</h1><p>small</p>"), {
            headers: {
              "content-type": "text/html",
              "content-encoding": "gzip",
            },
          });
        }
        if (url.pathname === "/br") {
          return new Response(brotliCompressSync("plain brotli"), {
            headers: { "content-type": "text/plain", "content-encoding": "br" },
          });
        }
        if (url.pathname === "/exact") {
          return html("b".repeat(4096), "text/plain");
        }
        if (url.pathname === "/bomb") {
          return new Response(gzipSync(big), {
            headers: {
              "content-type": "text/plain",
              "content-encoding": "gzip",
            },
          });
        }
        return html(big, "text/plain");
      });
      assert.equal(
        content(await call(ALLOW, { url: `${server.url}/gz` })),
        "# Zipped\n\nsmall",
      );
      assert.equal(
        content(await call(ALLOW, { url: `${server.url}/br` })),
        "plain brotli",
      );
      const capped = { ...ALLOW, BEEUNI_SCRAPE_MAX_BYTES: "4096" };
      for (const path of ["/bomb", "/plain"]) {
        const output = success(
          await call(capped, { url: server.url + path, max_length: 100_000 }),
        );
        assert.equal(output.content, "a".repeat(4096), path);
        assert.equal(output.truncated, true, path);
        assert.equal(output.next_offset, null, path);
      }
      const exact = success(
        await call(capped, { url: `${server.url}/exact`, max_length: 100_000 }),
      );
      assert.equal(exact.content, "b".repeat(4096));
      assert.equal(exact.truncated, false);
    },
  );

  await t.step(
    "gives up on a server that never answers after BEEUNI_HTTP_TIMEOUT_MS",
    async () => {
      await using silent = silentServer();
      const url = `http://127.0.0.1:${silent.port}/slow`;
      const outcome = await call(
        { ...ALLOW, BEEUNI_HTTP_TIMEOUT_MS: "300" },
        { url },
      );
      assert.equal(
        failure(outcome),
        `timed out: "${url}" did not answer in full within 300 ms; try again later or raise BEEUNI_HTTP_TIMEOUT_MS`,
      );
      assert.equal(silent.connections, 1);
    },
  );

  await t.step("ends the call when the user aborts it (T5)", async () => {
    await using silent = silentServer();
    const controller = new AbortController();
    const pending = call(
      ALLOW,
      { url: `http://127.0.0.1:${silent.port}/` },
      controller.signal,
    );
    await silent.arrived;
    controller.abort();
    const outcome = await pending;
    assert.equal(outcome.ok, false);
    assert.equal((outcome as { status: string }).status, "aborted");
  });

  await t.step(
    "refuses loopback, private, link-local, metadata and unspecified addresses before connecting",
    async () => {
      await using silent = silentServer();
      const p = silent.port;
      const cases: [string, string][] = [
        [
          `http://127.0.0.1:${p}/`,
          "address 127.0.0.1 is loopback (127.0.0.0/8)",
        ],
        [
          `http://localhost:${p}/`,
          `host "localhost" resolves to 127.0.0.1, which is loopback (127.0.0.0/8)`,
        ],
        [
          `http://2130706433:${p}/`,
          "address 127.0.0.1 is loopback (127.0.0.0/8)",
        ],
        [`http://0x7f.1:${p}/`, "address 127.0.0.1 is loopback (127.0.0.0/8)"],
        [
          `http://0177.0.0.01:${p}/`,
          "address 127.0.0.1 is loopback (127.0.0.0/8)",
        ],
        [`http://0.0.0.0:${p}/`, "address 0.0.0.0 is unspecified (0.0.0.0/8)"],
        [
          `http://[::ffff:127.0.0.1]:${p}/`,
          "address ::ffff:7f00:1 is an IPv4-mapped form of 127.0.0.1, loopback (127.0.0.0/8)",
        ],
        [`http://[::1]:${p}/`, "address ::1 is loopback (::1)"],
        [`http://[::]:${p}/`, "address :: is unspecified (::)"],
        ["http://10.0.0.1/", "address 10.0.0.1 is private (10.0.0.0/8)"],
        ["http://172.16.5.4/", "address 172.16.5.4 is private (172.16.0.0/12)"],
        [
          "http://192.168.1.1/",
          "address 192.168.1.1 is private (192.168.0.0/16)",
        ],
        [
          "http://100.64.0.1/",
          "address 100.64.0.1 is shared address space (100.64.0.0/10)",
        ],
        [
          "http://169.254.169.254/latest/meta-data/",
          "address 169.254.169.254 is a cloud metadata address",
        ],
        [
          "http://169.254.1.2/",
          "address 169.254.1.2 is link-local (169.254.0.0/16)",
        ],
        [
          "http://[::ffff:a00:1]/",
          "address ::ffff:a00:1 is an IPv4-mapped form of 10.0.0.1, private (10.0.0.0/8)",
        ],
        [
          "http://[::ffff:808:808]/",
          "address ::ffff:808:808 is IPv4-mapped (::ffff:0:0/96): use the IPv4 address itself",
        ],
        [
          "http://[::ffff:0:7f00:1]/",
          "address ::ffff:0:7f00:1 is IPv4-translated (::ffff:0:0:0/96)",
        ],
        [
          "http://[fd00:ec2::254]/",
          "address fd00:ec2::254 is unique local (fc00::/7)",
        ],
        ["http://[fe80::1]/", "address fe80::1 is link-local (fe80::/10)"],
        [
          "http://metadata.google.internal/computeMetadata/v1/",
          'host "metadata.google.internal" is an internal or metadata name',
        ],
        [
          "http://metadata.google.internal./",
          'host "metadata.google.internal" is an internal or metadata name',
        ],
      ];
      for (const [url, reason] of cases) {
        const error = failure(
          await call({ BEEUNI_HTTP_TIMEOUT_MS: "2000" }, { url }),
        );
        const canonical = new URL(url);
        canonical.hash = "";
        assert.equal(
          error,
          `refused to fetch "${canonical.href}": ${reason}; ${POLICY_HINT}`,
          url,
        );
      }
      for (const value of ["true", "yes", "0"]) {
        assert.match(
          failure(
            await call({ BEEUNI_SCRAPE_ALLOW_PRIVATE: value }, {
              url: `http://127.0.0.1:${p}/`,
            }),
          ),
          /^refused to fetch /,
        );
      }
      assert.equal(silent.connections, 0);
    },
  );

  await t.step(
    "checks every redirect hop: an allowed first hop that redirects to loopback is refused (BEEUNI_SCRAPE_ALLOW_HOSTS)",
    async () => {
      await using target = silentServer();
      await using first = serve(({ url }) => {
        if (url.pathname === "/page") return html("<p>allowed host</p>");
        const location = url.pathname === "/to-localhost"
          ? `http://localhost:${target.port}/secret`
          : `http://127.0.0.1:${target.port}/secret`;
        return new Response(null, { status: 302, headers: { location } });
      });
      const env = { BEEUNI_SCRAPE_ALLOW_HOSTS: `127.0.0.1:${first.port}` };
      assert.equal(
        content(await call(env, { url: `${first.url}/page` })),
        "allowed host",
      );
      assert.equal(
        failure(await call(env, { url: `${first.url}/to-ip` })),
        `refused to fetch "http://127.0.0.1:${target.port}/secret": address 127.0.0.1 is loopback (127.0.0.0/8); ${POLICY_HINT}`,
      );
      assert.equal(
        failure(await call(env, { url: `${first.url}/to-localhost` })),
        `refused to fetch "http://localhost:${target.port}/secret": host "localhost" resolves to 127.0.0.1, which is loopback (127.0.0.0/8); ${POLICY_HINT}`,
      );
      assert.equal(target.connections, 0);
      assert.deepEqual(
        first.seen.map(({ url }) => url.pathname + url.search),
        ["/page", "/to-ip", "/to-localhost"],
      );
    },
  );

  await t.step(
    "delegates to the Beeuni API when BEEUNI_API_URL and BEEUNI_TOKEN are set",
    async () => {
      const answer = {
        url: "https://example.com/final",
        status: 200,
        title: "Example",
        content_type: "text/html",
        content: "# Example",
        truncated: false,
        next_offset: null,
      };
      const seen: { path: string; auth: string | null; body: unknown }[] = [];
      await using api = serve((request) => {
        seen.push({
          path: request.path,
          auth: request.headers.get("authorization"),
          body: JSON.parse(request.body),
        });
        if (request.headers.get("authorization") !== "Bearer tok-1") {
          return Response.json({ error: { message: "bad token" } }, {
            status: 401,
          });
        }
        return Response.json(answer);
      });
      const env = { BEEUNI_API_URL: `${api.url}/`, BEEUNI_TOKEN: "tok-1" };
      const output = success(
        await call(env, { url: "https://example.com/page", max_length: 1000 }),
      );
      assert.deepEqual(output, answer);
      assert.deepEqual(seen[0], {
        path: "/v1/tools/scrape_webpage",
        auth: "Bearer tok-1",
        body: { url: "https://example.com/page", max_length: 1000 },
      });
      assert.equal(
        failure(
          await call({ ...env, BEEUNI_TOKEN: "wrong" }, {
            url: "https://example.com/",
          }),
        ),
        "the Beeuni API answered 401 for scrape_webpage: bad token; check BEEUNI_TOKEN",
      );
    },
  );

  await t.step(
    "rejects bad arguments with a message that says what to change",
    async () => {
      const cases: [Record<string, unknown>, string][] = [
        [
          {},
          'invalid arguments: "url" is required and must be an http or https URL string',
        ],
        [
          { url: "not a url" },
          'invalid arguments: "url" is not a valid URL: "not a url"; give an absolute http or https URL',
        ],
        [
          { url: "ftp://example.com/file" },
          'invalid arguments: "url" must use http or https, not "ftp": "ftp://example.com/file"',
        ],
        [
          { url: "https://user:pw@example.com/" },
          'invalid arguments: "url" must use http or https without a user name or password; remove them from "https://user:pw@example.com/"',
        ],
        [
          { url: "https://example.com/", format: "pdf" },
          'invalid arguments: "format" must be "markdown", "text" or "html", not "pdf"',
        ],
        [
          { url: "https://example.com/", max_length: 0 },
          'invalid arguments: "max_length" must be a whole number from 1 to 1000000, not 0',
        ],
        [
          { url: "https://example.com/", offset: -1 },
          `invalid arguments: "offset" must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, not -1`,
        ],
      ];
      for (const [args, message] of cases) {
        assert.equal(failure(await call({}, args)), message);
      }
      assert.equal(
        failure(
          await call({ BEEUNI_HTTP_TIMEOUT_MS: "soon" }, {
            url: "https://example.com/",
          }),
        ),
        'invalid BEEUNI_HTTP_TIMEOUT_MS: expected a positive whole number, got "soon"; fix or unset it',
      );
    },
  );
});

Deno.test("scrape_webpage reads its settings from the host's environment (B1)", async () => {
  await using server = serve(() => html("<p>from env</p>"));
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  scrape_webpage: beeuni:scrape_webpage\n",
  });
  await using host = await createHost({
    directory: repo.dir,
    env: { BEEUNI_SCRAPE_ALLOW_PRIVATE: "1" },
    log: () => {},
  });
  const outcome = await host.call({
    name: "scrape_webpage",
    args: { url: server.url },
    sessionId: "s-2",
    agent: "build",
  });
  if (!outcome.ok) assert.fail(outcome.error);
  assert.equal(JSON.parse(outcome.output).content, "from env");
});

Deno.test("scrape_webpage passes context.signal to the connection: an abort closes it (T5)", async () => {
  await using silent = silentServer();
  const controller = new AbortController();
  const pending = scrapeWebpage.execute(
    { url: `http://127.0.0.1:${silent.port}/` },
    {
      sessionId: "s-3",
      agent: "build",
      directory: REPO_ROOT,
      env: ALLOW,
      signal: controller.signal,
    },
  );
  await silent.arrived;
  controller.abort(new Error("stopped by the user"));
  await assert.rejects(pending, { message: "stopped by the user" });
  await silent.closedByClient;
  const already = new AbortController();
  already.abort(new Error("stopped before"));
  await assert.rejects(
    scrapeWebpage.execute({ url: "http://10.0.0.1/" }, {
      env: {},
      signal: already.signal,
    }),
    { message: "stopped before" },
  );
});

Deno.test("the scrape_webpage module imports only node:* modules (B1)", async () => {
  const { source, specifiers } = await toolSource("scrape_webpage");
  assert.ok(specifiers.length > 0);
  for (const specifier of specifiers) {
    assert.match(specifier, /^node:/, `imports "${specifier}"`);
  }
  assert.doesNotMatch(source, /\b(?:Deno|process)\.env\b/);
});

/** Whether `openssl` runs here (to make a test certificate authority). */
function hasOpenssl(): boolean {
  try {
    return new Deno.Command("openssl", {
      args: ["version"],
      stdout: "null",
      stderr: "null",
    })
      .outputSync().success;
  } catch {
    return false;
  }
}

async function openssl(dir: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("openssl", {
    args,
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  })
    .output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
}

Deno.test({
  name:
    "scrape_webpage fetches https through the checked address and still verifies the certificate against the URL's host name (B1)",
  async fn() {
    // Never skipped: a machine without openssl fails here, saying so.
    assert.ok(
      hasOpenssl(),
      "this test makes its certificates with openssl: install it (apt-get install openssl)",
    );
    await using repo = await tempRepo({
      "beeuni.yaml": "tools:\n  scrape_webpage: beeuni:scrape_webpage\n",
    });
    const dir = join(repo.dir, ".tls");
    await Deno.mkdir(dir);
    await openssl(
      dir,
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-days",
      "2",
      "-subj",
      "/CN=Test CA",
    );
    await openssl(
      dir,
      "req",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "leaf.key",
      "-out",
      "leaf.csr",
      "-subj",
      "/CN=localhost",
    );
    await Deno.writeTextFile(
      join(dir, "ext.cnf"),
      "subjectAltName=DNS:localhost\n",
    );
    await openssl(
      dir,
      "x509",
      "-req",
      "-in",
      "leaf.csr",
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "leaf.pem",
      "-days",
      "2",
      "-extfile",
      "ext.cnf",
    );
    const server = Deno.serve(
      {
        hostname: "127.0.0.1",
        port: 0,
        onListen: () => {},
        cert: await Deno.readTextFile(join(dir, "leaf.pem")),
        key: await Deno.readTextFile(join(dir, "leaf.key")),
      },
      (request) =>
        html(`<title>Secure</title><p>host ${request.headers.get("host")}</p>`),
    );
    try {
      const port = server.addr.port;
      const env = {
        NODE_EXTRA_CA_CERTS: join(dir, "ca.pem"),
        BEEUNI_SCRAPE_ALLOW_PRIVATE: "1",
      };
      const ok = await beeuni(repo.dir, [
        "tools",
        "call",
        "scrape_webpage",
        "--args",
        JSON.stringify({ url: `https://localhost:${port}/` }),
      ], { env });
      assert.equal(ok.stderr, "");
      assert.equal(ok.code, 0);
      const output = JSON.parse(ok.stdout);
      assert.equal(output.title, "Secure");
      assert.equal(output.content, `host localhost:${port}`);
      const mismatch = await beeuni(repo.dir, [
        "tools",
        "call",
        "scrape_webpage",
        "--args",
        JSON.stringify({ url: `https://127.0.0.1:${port}/` }),
      ], { env });
      assert.equal(mismatch.code, 1);
      assert.match(
        mismatch.stderr,
        new RegExp(
          `cannot fetch "https://127\\.0\\.0\\.1:${port}/": Hostname/IP does not match certificate's altnames`,
        ),
      );
    } finally {
      await server.shutdown();
    }
  },
});
