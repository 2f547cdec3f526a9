/**
 * `web_search`: searches the web for one or more queries and returns the
 * results grouped per query (title, url, snippet, date).
 *
 * Providers, in order of preference: the Beeuni API (`BEEUNI_API_URL` and
 * `BEEUNI_TOKEN`), Brave Search API (`BRAVE_API_KEY`), Tavily
 * (`TAVILY_API_KEY`), a SearXNG instance (`SEARXNG_URL`). Configuration is
 * read from `context.env` only.
 *
 * @module
 */

import { malformed, type ProviderCall } from "./_providers.ts";
import * as search from "./_search.ts";
import { isObject, type ToolModule } from "./_tool.ts";

/** One search result. `date` is present only when the provider gives one. */
export interface WebSearchResult {
  /** Title of the page, plain text. */
  title: string;
  /** Address of the page. */
  url: string;
  /** Text from the page that matches the query, plain text. */
  snippet: string;
  /** Publication or age as the provider states it. */
  date?: string;
}

/** The output of `web_search`. */
export type WebSearchOutput = search.SearchOutput<WebSearchResult>;

/**
 * The results of a provider's list: each item with a `url`, its title and
 * snippet as plain text, and its date when `date` finds one.
 */
function webResults(
  items: unknown[],
  count: number,
  fields: { snippet: string; date(item: Record<string, unknown>): unknown },
): WebSearchResult[] {
  const results: WebSearchResult[] = [];
  for (const item of items) {
    if (!isObject(item) || typeof item.url !== "string") continue;
    const result: WebSearchResult = {
      title: search.plainText(item.title),
      url: item.url,
      snippet: search.plainText(item[fields.snippet]),
    };
    const date = search.optionalText(fields.date(item));
    if (date) result.date = date;
    results.push(result);
  }
  return results.slice(0, count);
}

async function searchBrave(
  call: ProviderCall,
  query: string,
  count: number,
): Promise<WebSearchResult[]> {
  const body = await search.braveGet(call, "web", query, count);
  if (!isObject(body)) throw malformed(call.provider, "is not an object");
  if (body.web === undefined) return [];
  if (!isObject(body.web) || !Array.isArray(body.web.results)) {
    throw malformed(call.provider, 'has no "web.results" list');
  }
  return webResults(body.web.results, count, {
    snippet: "description",
    date: (item) => search.optionalText(item.page_age) ?? item.age,
  });
}

async function searchTavily(
  call: ProviderCall,
  query: string,
  count: number,
): Promise<WebSearchResult[]> {
  const body = await search.tavilyPost(call, {
    query,
    max_results: count,
    search_depth: "basic",
    include_answer: false,
    include_raw_content: false,
    include_images: false,
  });
  return webResults(search.resultList(call, body), count, {
    snippet: "content",
    date: (item) => item.published_date,
  });
}

async function searchSearxng(
  call: ProviderCall,
  query: string,
  count: number,
): Promise<WebSearchResult[]> {
  const body = await search.searxngGet(call, query);
  return webResults(search.resultList(call, body), count, {
    snippet: "content",
    date: (item) => item.publishedDate,
  });
}

const SPEC: search.SearchSpec<WebSearchResult> = {
  tool: "web_search",
  defaultCount: 5,
  maxCount: 20,
  providers: {
    brave: searchBrave,
    tavily: searchTavily,
    searxng: searchSearxng,
  },
};

/** The `web_search` tool module: description, JSON Schema and `execute`. */
const webSearch = {
  description:
    "Search the web. Returns, for each query, the top results with title, url, " +
    'snippet and date where known. Put several queries in one call separated by "|||" ' +
    "to run them at the same time.",
  parameters: search.searchParameters(SPEC, {
    query:
      'The search query. Several queries separated by "|||" run concurrently, e.g. ' +
      '"deno ffi ||| bun ffi".',
    count: "Results",
  }),
  execute: search.searchExecute(SPEC),
} satisfies ToolModule;

export default webSearch;
