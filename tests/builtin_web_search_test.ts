// web_search (B1-B3) against local servers that speak each provider's wire
// format: Brave Search API, Tavily, SearXNG and the Beeuni API.

import assert from "node:assert/strict";
import { tempRepo } from "./_helpers.ts";
import { createHost } from "../lib/host/mod.ts";
import webSearch from "../builtin_tools/web_search.ts";
import {
  builtinHost,
  failure,
  json,
  never,
  serve,
  success,
  toolSource,
} from "./_builtin.ts";

const BRAVE_KEY = "BSA-test-key-123456";
const TAVILY_KEY = "tvly-test-key-abcdef";

/** A Brave web search answer as the API documents it. */
function braveAnswer(query: string): unknown {
  return {
    type: "search",
    query: { original: query },
    web: {
      type: "search",
      results: [
        {
          type: "search_result",
          title: "Deno &amp; <strong>FFI</strong>",
          url: "https://docs.deno.com/runtime/fundamentals/ffi/",
          description:
            "Call <strong>native</strong> libraries from Deno &#8212; the &quot;FFI&quot; API.",
          page_age: "2024-05-01T00:00:00",
          age: "May 1, 2024",
        },
        {
          type: "search_result",
          title: "Second",
          url: "https://example.com/2",
          description: "No date here",
        },
        {
          type: "search_result",
          title: "Third",
          url: "https://example.com/3",
          description: "Age only",
          age: "3 days ago",
        },
      ],
    },
  };
}

Deno.test("web_search through the tool host (B1-B3)", async (t) => {
  // Each step's provider settings reach `context.env` as the agent's secrets.
  await using tool = await builtinHost("web_search");
  const { call } = tool;

  await t.step(
    "calls Brave with q, count and the subscription token and cleans the snippets (B1, B3)",
    async () => {
      await using server = serve((seen) =>
        json(braveAnswer(seen.params.get("q")!))
      );
      const output = success(
        await call({ BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url }, {
          query: "deno ffi",
        }),
      );
      assert.equal(server.seen.length, 1);
      const [request] = server.seen;
      assert.equal(request.method, "GET");
      assert.equal(request.path, "/res/v1/web/search");
      assert.deepEqual([...request.params], [["q", "deno ffi"], [
        "count",
        "5",
      ]]);
      assert.equal(request.headers.get("x-subscription-token"), BRAVE_KEY);
      assert.equal(request.headers.get("accept"), "application/json");
      assert.deepEqual(output, {
        provider: "brave",
        searches: [{
          query: "deno ffi",
          results: [
            {
              title: "Deno & FFI",
              url: "https://docs.deno.com/runtime/fundamentals/ffi/",
              snippet: 'Call native libraries from Deno — the "FFI" API.',
              date: "2024-05-01T00:00:00",
            },
            {
              title: "Second",
              url: "https://example.com/2",
              snippet: "No date here",
            },
            {
              title: "Third",
              url: "https://example.com/3",
              snippet: "Age only",
              date: "3 days ago",
            },
          ],
        }],
      });
    },
  );

  await t.step(
    "returns no results when Brave's answer has no web section",
    async () => {
      await using server = serve(() =>
        json({ type: "search", query: { original: "zzzz" } })
      );
      const output = success(
        await call({ BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url }, {
          query: "zzzz",
          count: 3,
        }),
      );
      assert.equal(server.seen[0].params.get("count"), "3");
      assert.deepEqual(output, {
        provider: "brave",
        searches: [{ query: "zzzz", results: [] }],
      });
    },
  );

  await t.step(
    "posts to Tavily with a bearer key and maps content and published_date",
    async () => {
      await using server = serve((seen) => {
        const body = JSON.parse(seen.body);
        return json({
          query: body.query,
          answer: null,
          images: [],
          results: [
            {
              title: "Tavily result",
              url: "https://example.com/t1",
              content: "Some <b>content</b> &lt;here&gt;",
              score: 0.9,
              raw_content: null,
              published_date: "Mon, 01 Jan 2024 10:00:00 GMT",
            },
            {
              title: "No date",
              url: "https://example.com/t2",
              content: "plain",
              score: 0.5,
              raw_content: null,
            },
          ],
          response_time: 0.42,
        });
      });
      const output = success(
        await call({ TAVILY_API_KEY: TAVILY_KEY, TAVILY_API_URL: server.url }, {
          query: "tavily test",
          count: "7",
        }),
      );
      const [request] = server.seen;
      assert.equal(request.method, "POST");
      assert.equal(request.path, "/search");
      assert.equal(
        request.headers.get("authorization"),
        `Bearer ${TAVILY_KEY}`,
      );
      assert.equal(request.headers.get("content-type"), "application/json");
      assert.deepEqual(JSON.parse(request.body), {
        query: "tavily test",
        max_results: 7,
        search_depth: "basic",
        include_answer: false,
        include_raw_content: false,
        include_images: false,
      });
      assert.deepEqual(output, {
        provider: "tavily",
        searches: [{
          query: "tavily test",
          results: [
            {
              title: "Tavily result",
              url: "https://example.com/t1",
              snippet: "Some content <here>",
              date: "Mon, 01 Jan 2024 10:00:00 GMT",
            },
            {
              title: "No date",
              url: "https://example.com/t2",
              snippet: "plain",
            },
          ],
        }],
      });
    },
  );

  await t.step(
    "asks SearXNG for JSON under the instance's path and keeps count results",
    async () => {
      await using server = serve((seen) =>
        json({
          query: seen.params.get("q"),
          number_of_results: 0,
          results: Array.from({ length: 8 }, (_, i) => ({
            url: `https://example.org/${i}`,
            title: `Result ${i}`,
            content: `Content ${i}`,
            engine: "duckduckgo",
            publishedDate: i === 0 ? "2023-12-24T00:00:00" : null,
          })),
          answers: [],
          corrections: [],
          infoboxes: [],
          suggestions: [],
          unresponsive_engines: [],
        })
      );
      const output = success(
        await call({ SEARXNG_URL: `${server.url}/searx/` }, {
          query: "searxng",
          count: 3,
        }),
      );
      const [request] = server.seen;
      assert.equal(request.method, "GET");
      assert.equal(request.path, "/searx/search");
      assert.equal(request.params.get("q"), "searxng");
      assert.equal(request.params.get("format"), "json");
      assert.deepEqual(output, {
        provider: "searxng",
        searches: [{
          query: "searxng",
          results: [
            {
              title: "Result 0",
              url: "https://example.org/0",
              snippet: "Content 0",
              date: "2023-12-24T00:00:00",
            },
            {
              title: "Result 1",
              url: "https://example.org/1",
              snippet: "Content 1",
            },
            {
              title: "Result 2",
              url: "https://example.org/2",
              snippet: "Content 2",
            },
          ],
        }],
      });
    },
  );

  await t.step(
    "uses the Beeuni API first: POST /v1/tools/web_search with the bearer token and the arguments (B1)",
    async () => {
      const answer = {
        provider: "beeuni",
        searches: [{
          query: "a",
          results: [{ title: "A", url: "https://a.example/", snippet: "a" }],
        }, { query: "b", results: [] }],
      };
      await using server = serve(() => json(answer));
      const output = success(
        await call({
          BEEUNI_API_URL: `${server.url}/`,
          BEEUNI_TOKEN: "bee-token-1",
          BRAVE_API_KEY: BRAVE_KEY,
          BRAVE_API_URL: server.url,
        }, { query: " a|||b ||| " }),
      );
      assert.equal(server.seen.length, 1);
      const [request] = server.seen;
      assert.equal(request.method, "POST");
      assert.equal(request.path, "/v1/tools/web_search");
      assert.equal(request.headers.get("authorization"), "Bearer bee-token-1");
      assert.equal(request.headers.get("content-type"), "application/json");
      assert.deepEqual(JSON.parse(request.body), {
        query: "a ||| b",
        count: 5,
      });
      assert.deepEqual(output, answer);
    },
  );

  await t.step("prefers Brave, then Tavily, then SearXNG", async () => {
    await using server = serve((seen) =>
      seen.path === "/res/v1/web/search"
        ? json({ web: { results: [] } })
        : json({ results: [] })
    );
    const all = {
      BRAVE_API_KEY: BRAVE_KEY,
      BRAVE_API_URL: server.url,
      TAVILY_API_KEY: TAVILY_KEY,
      TAVILY_API_URL: `${server.url}/tavily`,
      SEARXNG_URL: `${server.url}/searxng`,
    };
    const picked = async (env: Record<string, string>) => {
      const output = success(await call(env, { query: "q" })) as {
        provider: string;
      };
      return [output.provider, server.seen.at(-1)!.path];
    };
    assert.deepEqual(await picked(all), ["brave", "/res/v1/web/search"]);
    const { BRAVE_API_KEY: _brave, ...noBrave } = all;
    assert.deepEqual(await picked(noBrave), ["tavily", "/tavily/search"]);
    const { TAVILY_API_KEY: _tavily, ...onlySearxng } = noBrave;
    assert.deepEqual(await picked(onlySearxng), ["searxng", "/searxng/search"]);
  });

  await t.step(
    "with nothing configured names every variable that would fix it (B1)",
    async () => {
      const error = failure(await call({ PATH: "/usr/bin" }, { query: "x" }));
      for (
        const name of [
          "BEEUNI_API_URL",
          "BEEUNI_TOKEN",
          "BRAVE_API_KEY",
          "TAVILY_API_KEY",
          "SEARXNG_URL",
        ]
      ) {
        assert.match(error, new RegExp(name));
      }
      const half = failure(
        await call({ BEEUNI_API_URL: "http://127.0.0.1:9" }, { query: "x" }),
      );
      assert.match(half, /BEEUNI_API_URL is set but BEEUNI_TOKEN is not/);
    },
  );

  await t.step(
    "reports a rejected key per provider and never shows the key",
    async () => {
      await using server = serve(() =>
        json({
          type: "ErrorResponse",
          error: {
            id: "x",
            status: 401,
            code: "SUBSCRIPTION_TOKEN_INVALID",
            detail: `The provided subscription token ${BRAVE_KEY} is invalid.`,
          },
        }, { status: 401 })
      );
      const brave = failure(
        await call({ BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url }, {
          query: "x",
        }),
      );
      assert.match(brave, /^Brave Search API rejected the key \(HTTP 401\)/);
      assert.match(brave, /check BRAVE_API_KEY$/);
      assert.ok(!brave.includes(BRAVE_KEY), brave);

      const tavily = failure(
        await call({ TAVILY_API_KEY: TAVILY_KEY, TAVILY_API_URL: server.url }, {
          query: "x",
        }),
      );
      assert.match(
        tavily,
        /^Tavily API rejected the key \(HTTP 401\).*check TAVILY_API_KEY$/,
      );

      const beeuni = failure(
        await call({ BEEUNI_API_URL: server.url, BEEUNI_TOKEN: "bee-secret" }, {
          query: "x",
        }),
      );
      assert.match(
        beeuni,
        /^Beeuni API rejected the token \(HTTP 401\).*check BEEUNI_TOKEN$/,
      );
    },
  );

  await t.step("reports Tavily's 403 with its message", async () => {
    await using server = serve(() =>
      json({ detail: { error: "Unauthorized: missing or invalid API key." } }, {
        status: 403,
      })
    );
    const error = failure(
      await call({ TAVILY_API_KEY: TAVILY_KEY, TAVILY_API_URL: server.url }, {
        query: "x",
      }),
    );
    assert.equal(
      error,
      "Tavily API rejected the key (HTTP 403): Unauthorized: missing or invalid API key.: check TAVILY_API_KEY",
    );
  });

  await t.step("reports a rate limit with the Retry-After delay", async () => {
    await using server = serve(() =>
      json({
        error: { code: "RATE_LIMITED", detail: "Request rate limit exceeded" },
      }, {
        status: 429,
        headers: { "retry-after": "30" },
      })
    );
    const error = failure(
      await call({ BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url }, {
        query: "x",
      }),
    );
    assert.equal(
      error,
      "Brave Search API rate limit reached (HTTP 429): Request rate limit exceeded: retry after 30 seconds",
    );
  });

  await t.step("reports a provider's server error", async () => {
    await using server = serve(() =>
      new Response("<html><body>Bad gateway</body></html>", {
        status: 502,
        headers: { "content-type": "text/html" },
      })
    );
    const error = failure(
      await call({ SEARXNG_URL: server.url }, { query: "x" }),
    );
    assert.equal(error, "SearXNG failed (HTTP 502): try again later");
  });

  await t.step(
    "explains SearXNG's 403 for a disabled JSON format",
    async () => {
      await using server = serve(() =>
        new Response("Forbidden", { status: 403 })
      );
      const error = failure(
        await call({ SEARXNG_URL: server.url }, { query: "x" }),
      );
      assert.match(error, /^SearXNG at .* refused JSON output \(HTTP 403\)/);
      assert.match(error, /search\.formats/);
    },
  );

  await t.step(
    "gives up after BEEUNI_HTTP_TIMEOUT_MS on a server that never answers",
    async () => {
      await using server = serve((_seen, released) => never(released));
      const error = failure(
        await call({
          BRAVE_API_KEY: BRAVE_KEY,
          BRAVE_API_URL: server.url,
          BEEUNI_HTTP_TIMEOUT_MS: "150",
        }, { query: "slow" }),
      );
      assert.equal(
        error,
        "Brave Search API did not answer within 150 ms: try again, or raise BEEUNI_HTTP_TIMEOUT_MS",
      );
      const bad = failure(
        await call(
          { SEARXNG_URL: server.url, BEEUNI_HTTP_TIMEOUT_MS: "soon" },
          {
            query: "x",
          },
        ),
      );
      assert.equal(
        bad,
        'invalid BEEUNI_HTTP_TIMEOUT_MS: expected a positive whole number, got "soon"; fix or unset it',
      );
    },
  );

  await t.step(
    "rejects bodies that are not JSON or not the provider's shape",
    async () => {
      await using server = serve((seen) => {
        if (seen.params.get("q") === "html") {
          return new Response("<html>login</html>", {
            headers: { "content-type": "text/html" },
          });
        }
        if (seen.params.get("q") === "broken") {
          return new Response('{"web": {"results": [', {
            headers: { "content-type": "application/json" },
          });
        }
        return json({ web: { results: "nope" } });
      });
      const env = { BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url };
      assert.equal(
        failure(await call(env, { query: "html" })),
        'Brave Search API answered with a body that is not JSON (content type "text/html"): check BRAVE_API_URL',
      );
      assert.match(
        failure(await call(env, { query: "broken" })),
        /^Brave Search API answered with a body that is not JSON/,
      );
      assert.equal(
        failure(await call(env, { query: "shape" })),
        'Brave Search API answered with JSON that has no "web.results" list: check BRAVE_API_URL',
      );
      await using searx = serve(() => json({ query: "x" }));
      assert.equal(
        failure(await call({ SEARXNG_URL: searx.url }, { query: "x" })),
        'SearXNG answered with JSON that has no "results" list: check SEARXNG_URL',
      );
    },
  );

  await t.step("runs the queries of one call concurrently (B3)", async () => {
    let arrived = 0;
    let bothHere!: () => void;
    const gate = new Promise<void>((resolve) => bothHere = resolve);
    await using server = serve(async (seen) => {
      arrived += 1;
      if (arrived === 2) bothHere();
      await gate;
      const q = seen.params.get("q")!;
      return json({
        web: {
          results: [{
            title: q,
            url: `https://example.com/${q}`,
            description: q,
          }],
        },
      });
    });
    const output = success(
      await call({
        BRAVE_API_KEY: BRAVE_KEY,
        BRAVE_API_URL: server.url,
        BEEUNI_HTTP_TIMEOUT_MS: "5000",
      }, { query: " first |||second||| |||" }),
    );
    assert.deepEqual(output, {
      provider: "brave",
      searches: [
        {
          query: "first",
          results: [{
            title: "first",
            url: "https://example.com/first",
            snippet: "first",
          }],
        },
        {
          query: "second",
          results: [{
            title: "second",
            url: "https://example.com/second",
            snippet: "second",
          }],
        },
      ],
    });
  });

  await t.step(
    "keeps the other queries' results when one query fails",
    async () => {
      await using server = serve((seen) =>
        seen.params.get("q") === "bad"
          ? json({ error: { detail: "boom" } }, { status: 500 })
          : json({
            web: {
              results: [{
                title: "ok",
                url: "https://ok.example/",
                description: "",
              }],
            },
          })
      );
      const output = success(
        await call({ BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url }, {
          query: "good ||| bad",
        }),
      );
      assert.deepEqual(output, {
        provider: "brave",
        searches: [
          {
            query: "good",
            results: [{ title: "ok", url: "https://ok.example/", snippet: "" }],
          },
          {
            query: "bad",
            results: [],
            error: "Brave Search API failed (HTTP 500): boom: try again later",
          },
        ],
      });
    },
  );

  await t.step(
    "ends as aborted when the call's signal aborts (T5)",
    async () => {
      let arrived!: () => void;
      const here = new Promise<void>((resolve) => arrived = resolve);
      await using server = serve((_seen, released) => {
        arrived();
        return never(released);
      });
      const controller = new AbortController();
      const pending = call(
        { BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url },
        { query: "stop me" },
        controller.signal,
      );
      await here;
      controller.abort();
      const outcome = await pending;
      assert.equal(outcome.ok, false);
      assert.equal((outcome as { status: string }).status, "aborted");
    },
  );

  await t.step("checks its arguments", async () => {
    const env = { SEARXNG_URL: "http://127.0.0.1:9" };
    assert.match(
      failure(await call(env, { query: " ||| " })),
      /^query is empty: pass one or more search queries separated by "\|\|\|"$/,
    );
    assert.match(failure(await call(env, {})), /^query is empty/);
    assert.match(
      failure(await call(env, { query: "x", count: "many" })),
      /^count must be a whole number from 1 to 20: got "many"$/,
    );
    assert.match(
      failure(await call(env, { query: "x", count: 0 })),
      /^count must be a whole number/,
    );
    assert.match(
      failure(await call(env, { query: Array(11).fill("q").join("|||") })),
      /^query holds 11 queries: pass at most 10/,
    );
  });

  await t.step("lowers a count above 20 to 20", async () => {
    await using server = serve(() => json({ web: { results: [] } }));
    success(
      await call({ BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url }, {
        query: "x",
        count: 500,
      }),
    );
    assert.equal(server.seen[0].params.get("count"), "20");
  });

  await t.step("does not follow a redirect with the key", async () => {
    await using elsewhere = serve(() => json({ web: { results: [] } }));
    await using server = serve(() =>
      new Response(null, {
        status: 302,
        headers: { location: `${elsewhere.url}/res/v1/web/search?q=x` },
      })
    );
    const error = failure(
      await call({ BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url }, {
        query: "x",
      }),
    );
    assert.equal(
      error,
      `Brave Search API answered with a redirect to "${elsewhere.url}/res/v1/web/search?q=x" (HTTP 302): check BRAVE_API_URL, it must name the API itself`,
    );
    assert.equal(elsewhere.seen.length, 0);
  });

  await t.step("names the address it cannot reach", async () => {
    await using server = serve(() => json({}));
    const port = new URL(server.url).port;
    await server[Symbol.asyncDispose]();
    const error = failure(
      await call({ SEARXNG_URL: `http://user:pw@127.0.0.1:${port}` }, {
        query: "x",
      }),
    );
    assert.match(
      error,
      new RegExp(
        `^cannot reach SearXNG at http://127\\.0\\.0\\.1:${port}/search`,
      ),
    );
    assert.match(error, /check SEARXNG_URL$/);
    assert.ok(!error.includes("pw"), error);
  });
});

Deno.test("web_search reads its provider from the host's environment (B1)", async () => {
  await using server = serve(() =>
    json({
      web: {
        results: [{ title: "t", url: "https://t.example/", description: "d" }],
      },
    })
  );
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  web_search: beeuni:web_search\n",
  });
  await using host = await createHost({
    directory: repo.dir,
    env: { BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url },
    log: () => {},
  });
  const outcome = await host.call({
    name: "web_search",
    args: { query: "env" },
    sessionId: "s-2",
    agent: "build",
  });
  if (!outcome.ok) assert.fail(outcome.error);
  assert.equal(
    outcome.output,
    JSON.stringify(
      {
        provider: "brave",
        searches: [{
          query: "env",
          results: [{ title: "t", url: "https://t.example/", snippet: "d" }],
        }],
      },
      null,
      2,
    ),
  );
  assert.equal(server.seen[0].headers.get("x-subscription-token"), BRAVE_KEY);
});

Deno.test("web_search passes context.signal to fetch: an abort ends the request (T5)", async () => {
  let arrived!: () => void;
  const here = new Promise<void>((resolve) => arrived = resolve);
  await using server = serve((_seen, released) => {
    arrived();
    return never(released);
  });
  const controller = new AbortController();
  const pending = webSearch.execute(
    { query: "stop me" },
    {
      env: { BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url },
      signal: controller.signal,
    } as Parameters<typeof webSearch.execute>[1],
  );
  await here;
  controller.abort();
  await assert.rejects(pending, {
    message: "web_search stopped: the call was aborted",
  });
});

Deno.test("the web_search module imports only node:* modules (B1)", async () => {
  const { source, specifiers } = await toolSource("web_search");
  for (const specifier of specifiers) {
    assert.match(specifier, /^node:/, `imports "${specifier}"`);
  }
  assert.doesNotMatch(source, /\b(?:Deno|process)\.env\b/);
});
