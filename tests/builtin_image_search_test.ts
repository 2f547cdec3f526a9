// image_search (B1, B2) against local servers that speak each provider's wire
// format: Brave Search API, Tavily, SearXNG and the Beeuni API.

import assert from "node:assert/strict";
import imageSearch from "../builtin_tools/image_search.ts";
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

/** A Brave image search answer as the API documents it. */
function braveImages(query: string): unknown {
  return {
    type: "images",
    query: { original: query, spellcheck_off: false },
    results: [
      {
        type: "image_result",
        title: "Red panda &amp; <b>bamboo</b>",
        url: "https://zoo.example/red-panda",
        source: "zoo.example",
        page_fetched: "2024-01-01T00:00:00Z",
        thumbnail: {
          src: "https://imgs.search.brave.com/thumb1.jpg",
          width: 500,
          height: 333,
        },
        properties: {
          url: "https://zoo.example/images/red-panda.jpg",
          placeholder: "https://imgs.search.brave.com/ph1.jpg",
          width: 1920,
          height: 1280,
        },
        meta_url: {
          scheme: "https",
          netloc: "zoo.example",
          hostname: "zoo.example",
        },
        confidence: "high",
      },
      {
        type: "image_result",
        title: "No size",
        url: "https://blog.example/post",
        thumbnail: { src: "https://imgs.search.brave.com/thumb2.jpg" },
        properties: { url: "https://blog.example/p.png", placeholder: "x" },
      },
      {
        type: "image_result",
        title: "No image url",
        url: "https://x.example/",
      },
    ],
  };
}

Deno.test("image_search through the tool host (B1, B2)", async (t) => {
  // Each step's provider settings reach `context.env` as the agent's secrets.
  await using tool = await builtinHost("image_search");
  const { call } = tool;

  await t.step(
    "calls Brave's image endpoint with q, count and the subscription token (B1)",
    async () => {
      await using server = serve((seen) =>
        json(braveImages(seen.params.get("q")!))
      );
      const output = success(
        await call({ BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url }, {
          query: "red panda",
        }),
      );
      const [request] = server.seen;
      assert.equal(request.method, "GET");
      assert.equal(request.path, "/res/v1/images/search");
      assert.deepEqual([...request.params], [["q", "red panda"], [
        "count",
        "10",
      ]]);
      assert.equal(request.headers.get("x-subscription-token"), BRAVE_KEY);
      assert.equal(request.headers.get("accept"), "application/json");
      assert.deepEqual(output, {
        provider: "brave",
        searches: [{
          query: "red panda",
          results: [
            {
              title: "Red panda & bamboo",
              image_url: "https://zoo.example/images/red-panda.jpg",
              thumbnail_url: "https://imgs.search.brave.com/thumb1.jpg",
              source_url: "https://zoo.example/red-panda",
              width: 1920,
              height: 1280,
            },
            {
              title: "No size",
              image_url: "https://blog.example/p.png",
              thumbnail_url: "https://imgs.search.brave.com/thumb2.jpg",
              source_url: "https://blog.example/post",
            },
          ],
        }],
      });
    },
  );

  await t.step(
    "asks Tavily for images with descriptions and accepts plain URL lists",
    async () => {
      await using server = serve((seen) => {
        const body = JSON.parse(seen.body);
        return json({
          query: body.query,
          answer: null,
          images: body.query === "plain"
            ? ["https://cdn.example/a.jpg", "https://cdn.example/b.jpg"]
            : [
              {
                url: "https://cdn.example/c.jpg",
                description: "A cat on a mat.",
              },
              { url: "https://cdn.example/d.jpg" },
            ],
          results: [],
          response_time: 0.3,
        });
      });
      const env = { TAVILY_API_KEY: TAVILY_KEY, TAVILY_API_URL: server.url };
      const described = success(await call(env, { query: "cats" }));
      const [request] = server.seen;
      assert.equal(request.method, "POST");
      assert.equal(request.path, "/search");
      assert.equal(
        request.headers.get("authorization"),
        `Bearer ${TAVILY_KEY}`,
      );
      assert.deepEqual(JSON.parse(request.body), {
        query: "cats",
        search_depth: "basic",
        include_answer: false,
        include_raw_content: false,
        include_images: true,
        include_image_descriptions: true,
      });
      assert.deepEqual(described, {
        provider: "tavily",
        searches: [{
          query: "cats",
          results: [
            {
              title: "A cat on a mat.",
              image_url: "https://cdn.example/c.jpg",
              thumbnail_url: "https://cdn.example/c.jpg",
            },
            {
              title: "",
              image_url: "https://cdn.example/d.jpg",
              thumbnail_url: "https://cdn.example/d.jpg",
            },
          ],
        }],
      });
      const plain = success(await call(env, { query: "plain", count: 1 }));
      assert.deepEqual(plain, {
        provider: "tavily",
        searches: [{
          query: "plain",
          results: [{
            title: "",
            image_url: "https://cdn.example/a.jpg",
            thumbnail_url: "https://cdn.example/a.jpg",
          }],
        }],
      });
    },
  );

  await t.step(
    "asks SearXNG for the images category and reads img_src, thumbnail_src and resolution",
    async () => {
      await using server = serve((seen) =>
        json({
          query: seen.params.get("q"),
          number_of_results: 0,
          results: [
            {
              template: "images.html",
              url: "https://photos.example/page1",
              title: "Snow leopard",
              content: "",
              img_src: "https://photos.example/full1.jpg",
              thumbnail_src: "//thumbs.example/t1.jpg",
              resolution: "1920 x 1080",
              img_format: "jpeg",
              engine: "bing images",
            },
            {
              template: "images.html",
              url: "https://photos.example/page2",
              title: "No thumbnail",
              img_src: "https://photos.example/full2.png",
              resolution: "800×600",
            },
            {
              url: "https://text.example/",
              title: "A text result without an image",
              content: "skip me",
            },
          ],
          answers: [],
          suggestions: [],
          unresponsive_engines: [],
        })
      );
      const output = success(
        await call({ SEARXNG_URL: server.url }, { query: "snow leopard" }),
      );
      const [request] = server.seen;
      assert.equal(request.path, "/search");
      assert.equal(request.params.get("q"), "snow leopard");
      assert.equal(request.params.get("format"), "json");
      assert.equal(request.params.get("categories"), "images");
      assert.deepEqual(output, {
        provider: "searxng",
        searches: [{
          query: "snow leopard",
          results: [
            {
              title: "Snow leopard",
              image_url: "https://photos.example/full1.jpg",
              thumbnail_url: "https://thumbs.example/t1.jpg",
              source_url: "https://photos.example/page1",
              width: 1920,
              height: 1080,
            },
            {
              title: "No thumbnail",
              image_url: "https://photos.example/full2.png",
              thumbnail_url: "https://photos.example/full2.png",
              source_url: "https://photos.example/page2",
              width: 800,
              height: 600,
            },
          ],
        }],
      });
    },
  );

  await t.step(
    "uses the Beeuni API first: POST /v1/tools/image_search with the bearer token (B1)",
    async () => {
      const answer = {
        provider: "beeuni",
        searches: [{
          query: "owl",
          results: [{
            title: "Owl",
            image_url: "https://i.example/owl.jpg",
            thumbnail_url: "https://i.example/owl_t.jpg",
          }],
        }],
      };
      await using server = serve(() => json(answer));
      const output = success(
        await call({
          BEEUNI_API_URL: server.url,
          BEEUNI_TOKEN: "bee-token-2",
          TAVILY_API_KEY: TAVILY_KEY,
          TAVILY_API_URL: server.url,
        }, { query: "owl", count: 4 }),
      );
      const [request] = server.seen;
      assert.equal(server.seen.length, 1);
      assert.equal(request.method, "POST");
      assert.equal(request.path, "/v1/tools/image_search");
      assert.equal(request.headers.get("authorization"), "Bearer bee-token-2");
      assert.deepEqual(JSON.parse(request.body), { query: "owl", count: 4 });
      assert.deepEqual(output, answer);

      await using wrong = serve(() => json({ results: [] }));
      assert.equal(
        failure(
          await call({ BEEUNI_API_URL: wrong.url, BEEUNI_TOKEN: "t0ken" }, {
            query: "owl",
          }),
        ),
        'Beeuni API answered with JSON that is not image_search output (no "searches" list): check BEEUNI_API_URL',
      );
    },
  );

  await t.step(
    "with nothing configured names every variable that would fix it (B1)",
    async () => {
      const error = failure(await call({}, { query: "x" }));
      assert.equal(
        error,
        "image_search has no search provider: set BEEUNI_API_URL and BEEUNI_TOKEN (Beeuni API), " +
          "BRAVE_API_KEY (Brave Search API), TAVILY_API_KEY (Tavily) or SEARXNG_URL " +
          "(a SearXNG instance with JSON output enabled)",
      );
    },
  );

  await t.step(
    "reports 401, 429 and 500 from a provider without showing the key",
    async () => {
      await using server = serve((seen) => {
        const q = seen.params.get("q");
        if (q === "auth") {
          return json({
            error: { code: "SUBSCRIPTION_TOKEN_INVALID", detail: "bad token" },
          }, {
            status: 401,
          });
        }
        if (q === "rate") {
          return json({ error: { detail: "slow down" } }, {
            status: 429,
            headers: { "retry-after": "Wed, 21 Oct 2026 07:28:00 GMT" },
          });
        }
        return new Response(`internal error for ${BRAVE_KEY}`, { status: 500 });
      });
      const env = { BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url };
      assert.equal(
        failure(await call(env, { query: "auth" })),
        "Brave Search API rejected the key (HTTP 401): bad token: check BRAVE_API_KEY",
      );
      assert.equal(
        failure(await call(env, { query: "rate" })),
        "Brave Search API rate limit reached (HTTP 429): slow down: retry after Wed, 21 Oct 2026 07:28:00 GMT",
      );
      const broken = failure(await call(env, { query: "down" }));
      assert.equal(
        broken,
        "Brave Search API failed (HTTP 500): internal error for [redacted]: try again later",
      );
    },
  );

  await t.step(
    "gives up after BEEUNI_HTTP_TIMEOUT_MS on a server that never answers",
    async () => {
      await using server = serve((_seen, released) => never(released));
      const error = failure(
        await call({
          TAVILY_API_KEY: TAVILY_KEY,
          TAVILY_API_URL: server.url,
          BEEUNI_HTTP_TIMEOUT_MS: "100",
        }, { query: "slow" }),
      );
      assert.equal(
        error,
        "Tavily API did not answer within 100 ms: try again, or raise BEEUNI_HTTP_TIMEOUT_MS",
      );
    },
  );

  await t.step("rejects malformed and non-JSON bodies", async () => {
    await using server = serve((seen) =>
      seen.params.get("q") === "text"
        ? new Response("plain words", {
          headers: { "content-type": "text/plain" },
        })
        : json({ type: "images", results: { not: "a list" } })
    );
    const env = { BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url };
    assert.equal(
      failure(await call(env, { query: "text" })),
      'Brave Search API answered with a body that is not JSON (content type "text/plain"): check BRAVE_API_URL',
    );
    assert.equal(
      failure(await call(env, { query: "shape" })),
      'Brave Search API answered with JSON that has no "results" list: check BRAVE_API_URL',
    );
    await using tavily = serve(() => json({ query: "x", results: [] }));
    assert.equal(
      failure(
        await call({ TAVILY_API_KEY: TAVILY_KEY, TAVILY_API_URL: tavily.url }, {
          query: "x",
        }),
      ),
      'Tavily API answered with JSON that has no "images" list: check TAVILY_API_URL',
    );
  });

  await t.step(
    "runs the queries of one call concurrently and keeps their order",
    async () => {
      let arrived = 0;
      let bothHere!: () => void;
      const gate = new Promise<void>((resolve) => bothHere = resolve);
      await using server = serve(async (seen) => {
        arrived += 1;
        if (arrived === 2) bothHere();
        await gate;
        const q = seen.params.get("q")!;
        return json({
          results: [{
            title: q,
            url: `https://p.example/${q}`,
            img_src: `https://i.example/${q}.jpg`,
          }],
        });
      });
      const output = success(
        await call(
          { SEARXNG_URL: server.url, BEEUNI_HTTP_TIMEOUT_MS: "5000" },
          {
            query: "one|||two",
          },
        ),
      ) as { searches: { query: string; results: { image_url: string }[] }[] };
      assert.deepEqual(
        output.searches.map((
          search,
        ) => [search.query, search.results[0].image_url]),
        [["one", "https://i.example/one.jpg"], [
          "two",
          "https://i.example/two.jpg",
        ]],
      );
    },
  );

  await t.step(
    "checks its arguments and lowers a count above 50 to 50",
    async () => {
      assert.match(
        failure(
          await call({ SEARXNG_URL: "http://127.0.0.1:9" }, { query: "" }),
        ),
        /^query is empty/,
      );
      assert.match(
        failure(
          await call({ SEARXNG_URL: "http://127.0.0.1:9" }, {
            query: "x",
            count: 2.5,
          }),
        ),
        /^count must be a whole number from 1 to 50: got 2.5$/,
      );
      await using server = serve(() => json({ results: [] }));
      success(
        await call({ BRAVE_API_KEY: BRAVE_KEY, BRAVE_API_URL: server.url }, {
          query: "x",
          count: 99,
        }),
      );
      assert.equal(server.seen[0].params.get("count"), "50");
    },
  );
});

Deno.test("image_search passes context.signal to fetch: an abort ends the request (T5)", async () => {
  let arrived!: () => void;
  const here = new Promise<void>((resolve) => arrived = resolve);
  await using server = serve((_seen, released) => {
    arrived();
    return never(released);
  });
  const controller = new AbortController();
  const pending = imageSearch.execute(
    { query: "stop me" },
    {
      env: { SEARXNG_URL: server.url },
      signal: controller.signal,
    } as Parameters<typeof imageSearch.execute>[1],
  );
  await here;
  controller.abort();
  await assert.rejects(pending, {
    message: "image_search stopped: the call was aborted",
  });
});

Deno.test("the image_search module imports only node:* modules (B1)", async () => {
  const { source, specifiers } = await toolSource("image_search");
  for (const specifier of specifiers) {
    assert.match(specifier, /^node:/, `imports "${specifier}"`);
  }
  assert.doesNotMatch(source, /\b(?:Deno|process)\.env\b/);
});
