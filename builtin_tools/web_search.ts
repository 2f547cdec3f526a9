/**
 * `web_search`: searches the web for one or more queries and returns the
 * results grouped per query (title, url, snippet, date).
 *
 * Providers, in order of preference: the Beeuni API (`BEEUNI_API_URL` and
 * `BEEUNI_TOKEN`), Brave Search API (`BRAVE_API_KEY`), Tavily
 * (`TAVILY_API_KEY`), a SearXNG instance (`SEARXNG_URL`). Configuration is
 * read from `context.env` only. This file imports nothing, so a copy in a
 * project runs as it is.
 *
 * @module
 */

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

/** The results of one query. */
export interface WebSearch {
  /** The query as it was sent. */
  query: string;
  /** The results, best first. Empty when the query failed. */
  results: WebSearchResult[];
  /** Why this query failed, when others of the same call succeeded. */
  error?: string;
}

/** The output of `web_search`. */
export interface WebSearchOutput {
  /** Who answered: `beeuni`, `brave`, `tavily` or `searxng`. */
  provider: string;
  /** One entry per query, in the order the queries were given. */
  searches: WebSearch[];
}

/** What the tool reads from the call's context. */
interface ToolContext {
  env?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

/**
 * The shape of a tool module's default export: `{ description, parameters,
 * execute(args, context) }`. Declared here rather than imported from the
 * toolkit, so a copy of this file type-checks in any project as it is.
 */
interface ToolModule {
  description: string;
  parameters: Record<string, unknown>;
  execute(args: never, context: ToolContext): unknown;
}

type Env = Readonly<Record<string, string | undefined>>;

const TOOL = "web_search";
const DEFAULT_COUNT = 5;
const MAX_COUNT = 20;
const MAX_QUERIES = 10;
const DEFAULT_TIMEOUT_MS = 20_000;
const BRAVE_DEFAULT_URL = "https://api.search.brave.com";
const TAVILY_DEFAULT_URL = "https://api.tavily.com";

/** A configured search provider. */
interface Provider {
  id: "beeuni" | "brave" | "tavily" | "searxng";
  /** Name used in error messages. */
  label: string;
  /** Base URL, without a trailing slash. */
  base: string;
  /** Secret to send, and to keep out of every error message. */
  secret?: string;
  /** What to change when the provider rejects the credentials. */
  authHint: string;
  /** What to change when the provider cannot be reached. */
  urlHint: string;
}

function setting(env: Env, name: string): string | undefined {
  const value = env[name];
  return typeof value === "string" && value.trim() !== ""
    ? value.trim()
    : undefined;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

function pickProvider(env: Env): Provider {
  const apiUrl = setting(env, "BEEUNI_API_URL");
  const token = setting(env, "BEEUNI_TOKEN");
  if (apiUrl && token) {
    return {
      id: "beeuni",
      label: "Beeuni API",
      base: trimSlash(apiUrl),
      secret: token,
      authHint: "check BEEUNI_TOKEN",
      urlHint: "check BEEUNI_API_URL",
    };
  }
  const brave = setting(env, "BRAVE_API_KEY");
  if (brave) {
    return {
      id: "brave",
      label: "Brave Search API",
      base: trimSlash(setting(env, "BRAVE_API_URL") ?? BRAVE_DEFAULT_URL),
      secret: brave,
      authHint: "check BRAVE_API_KEY",
      urlHint: "check BRAVE_API_URL",
    };
  }
  const tavily = setting(env, "TAVILY_API_KEY");
  if (tavily) {
    return {
      id: "tavily",
      label: "Tavily API",
      base: trimSlash(setting(env, "TAVILY_API_URL") ?? TAVILY_DEFAULT_URL),
      secret: tavily,
      authHint: "check TAVILY_API_KEY",
      urlHint: "check TAVILY_API_URL",
    };
  }
  const searxng = setting(env, "SEARXNG_URL");
  if (searxng) {
    return {
      id: "searxng",
      label: "SearXNG",
      base: trimSlash(searxng),
      authHint: "check SEARXNG_URL",
      urlHint: "check SEARXNG_URL",
    };
  }
  let half = "";
  if (apiUrl && !token) {
    half = " (BEEUNI_API_URL is set but BEEUNI_TOKEN is not)";
  }
  if (token && !apiUrl) {
    half = " (BEEUNI_TOKEN is set but BEEUNI_API_URL is not)";
  }
  throw new Error(
    `${TOOL} has no search provider${half}: set BEEUNI_API_URL and BEEUNI_TOKEN ` +
      "(Beeuni API), BRAVE_API_KEY (Brave Search API), TAVILY_API_KEY (Tavily) " +
      "or SEARXNG_URL (a SearXNG instance with JSON output enabled)",
  );
}

function timeoutMs(env: Env): number {
  const raw = setting(env, "BEEUNI_HTTP_TIMEOUT_MS");
  if (raw === undefined) return DEFAULT_TIMEOUT_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(
      `BEEUNI_HTTP_TIMEOUT_MS must be a whole number of milliseconds above 0: got "${raw}"`,
    );
  }
  return value;
}

/** Checks the queries split from the `query` argument. */
function checkQueries(queries: string[]): void {
  if (queries.length === 0) {
    throw new Error(
      `query is empty: pass one or more search queries separated by "|||"`,
    );
  }
  if (queries.length > MAX_QUERIES) {
    throw new Error(
      `query holds ${queries.length} queries: pass at most ${MAX_QUERIES}, separated by "|||"`,
    );
  }
}

function readCount(value: unknown): number {
  if (value === undefined || value === null || value === "") {
    return DEFAULT_COUNT;
  }
  const number = typeof value === "string" ? Number(value.trim()) : value;
  if (typeof number !== "number" || !Number.isInteger(number) || number < 1) {
    throw new Error(
      `count must be a whole number from 1 to ${MAX_COUNT}: got ${
        JSON.stringify(value)
      }`,
    );
  }
  return Math.min(number, MAX_COUNT);
}

// ---------------------------------------------------------------------------
// Text clean-up

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  middot: "·",
  bull: "•",
  copy: "©",
  reg: "®",
  trade: "™",
};

/** Plain text from a provider's snippet: tags dropped, entities decoded. */
function plainText(value: unknown): string {
  if (typeof value !== "string") return "";
  return value
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === "#") {
        const code = name[1] === "x" || name[1] === "X"
          ? parseInt(name.slice(2), 16)
          : parseInt(name.slice(1), 10);
        return code > 0 && code <= 0x10ffff
          ? String.fromCodePoint(code)
          : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, " ")
    .trim();
}

function optionalText(value: unknown): string | undefined {
  const text = plainText(value);
  return text === "" ? undefined : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// ---------------------------------------------------------------------------
// HTTP

/** A URL as shown in messages: no user name or password. */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = "";
    parsed.password = "";
    return parsed.href;
  } catch {
    return url;
  }
}

/** The provider's own words from an error body, shortened. */
function providerMessage(text: string): string {
  let message = "";
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body)) {
      const { error, detail, message: plain } = body;
      if (isObject(error) && typeof error.detail === "string") {
        message = error.detail;
      } else if (isObject(error) && typeof error.message === "string") {
        message = error.message;
      } else if (typeof error === "string") message = error;
      else if (isObject(detail) && typeof detail.error === "string") {
        message = detail.error;
      } else if (typeof detail === "string") message = detail;
      else if (typeof plain === "string") message = plain;
    }
  } catch {
    message = /<[a-z!]/i.test(text) ? "" : text;
  }
  message = message.replace(/\s+/g, " ").trim();
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}

function retryAfter(response: Response): string {
  const value = response.headers.get("retry-after")?.trim();
  if (!value) return "wait a moment and try again";
  return /^\d+$/.test(value)
    ? `retry after ${value} seconds`
    : `retry after ${value}`;
}

interface JsonRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Sends one request and returns the parsed JSON body, or throws an error that
 * names the provider and what to change.
 */
async function requestJson(
  provider: Provider,
  request: JsonRequest,
  signal: AbortSignal | undefined,
  limitMs: number,
): Promise<unknown> {
  const label = provider.label;
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(), limitMs);
  const combined = signal
    ? AbortSignal.any([signal, timer.signal])
    : timer.signal;
  const transport = (error: unknown): Error => {
    if (signal?.aborted) {
      return new Error(`${TOOL} stopped: the call was aborted`);
    }
    if (timer.signal.aborted) {
      return new Error(
        `${label} did not answer within ${limitMs} ms: try again, or raise BEEUNI_HTTP_TIMEOUT_MS`,
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    return new Error(
      `cannot reach ${label} at ${
        shownUrl(request.url)
      }: ${reason}: ${provider.urlHint}`,
    );
  };
  try {
    let response: Response;
    let text: string;
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        // A key must not follow a redirect to another host.
        redirect: provider.secret ? "manual" : "follow",
        signal: combined,
      });
      text = await response.text();
    } catch (error) {
      throw transport(error);
    }
    const status = response.status;
    const said = providerMessage(text);
    const detail = said ? `: ${said}` : "";
    if (status === 401 || status === 403) {
      if (provider.id === "searxng" && status === 403) {
        throw new Error(
          `SearXNG at ${provider.base} refused JSON output (HTTP 403)${detail}: ` +
            "add json to search.formats in its settings.yml, or check SEARXNG_URL",
        );
      }
      const what = provider.id === "beeuni" ? "token" : "key";
      throw new Error(
        `${label} rejected the ${what} (HTTP ${status})${detail}: ${provider.authHint}`,
      );
    }
    if (status === 429) {
      throw new Error(
        `${label} rate limit reached (HTTP 429)${detail}: ${
          retryAfter(response)
        }`,
      );
    }
    if (status >= 500) {
      throw new Error(
        `${label} failed (HTTP ${status})${detail}: try again later`,
      );
    }
    if (status >= 300 && status < 400) {
      const location = response.headers.get("location") ?? "nowhere";
      throw new Error(
        `${label} answered with a redirect to "${
          shownUrl(location)
        }" (HTTP ${status}): ${provider.urlHint}, it must name the API itself`,
      );
    }
    if (status < 200 || status >= 300) {
      const hint = status === 404 ? `: ${provider.urlHint}` : "";
      throw new Error(
        `${label} refused the request (HTTP ${status})${detail}${hint}`,
      );
    }
    try {
      return JSON.parse(text);
    } catch {
      const type = response.headers.get("content-type") ?? "none";
      throw new Error(
        `${label} answered with a body that is not JSON (content type "${type}"): ${provider.urlHint}`,
      );
    }
  } finally {
    clearTimeout(handle);
  }
}

function malformed(provider: Provider, what: string): Error {
  return new Error(
    `${provider.label} answered with JSON that ${what}: ${provider.urlHint}`,
  );
}

// ---------------------------------------------------------------------------
// Providers

/** One result from a provider's fields, its title and snippet as plain text. */
function webResult(
  title: unknown,
  url: string,
  snippet: unknown,
  date: string | undefined,
): WebSearchResult {
  const result: WebSearchResult = {
    title: plainText(title),
    url,
    snippet: plainText(snippet),
  };
  if (date) result.date = date;
  return result;
}

async function searchBrave(
  provider: Provider,
  query: string,
  count: number,
  signal: AbortSignal | undefined,
  limitMs: number,
): Promise<WebSearchResult[]> {
  const url = new URL(`${provider.base}/res/v1/web/search`);
  url.searchParams.set("q", query);
  url.searchParams.set("count", String(count));
  const body = await requestJson(
    provider,
    {
      method: "GET",
      url: url.href,
      headers: {
        "accept": "application/json",
        "x-subscription-token": provider.secret ?? "",
      },
    },
    signal,
    limitMs,
  );
  if (!isObject(body)) throw malformed(provider, "is not an object");
  if (body.web === undefined) return [];
  if (!isObject(body.web) || !Array.isArray(body.web.results)) {
    throw malformed(provider, 'has no "web.results" list');
  }
  const results: WebSearchResult[] = [];
  for (const item of body.web.results) {
    if (!isObject(item) || typeof item.url !== "string") continue;
    const date = optionalText(item.page_age) ?? optionalText(item.age);
    results.push(webResult(item.title, item.url, item.description, date));
  }
  return results.slice(0, count);
}

async function searchTavily(
  provider: Provider,
  query: string,
  count: number,
  signal: AbortSignal | undefined,
  limitMs: number,
): Promise<WebSearchResult[]> {
  const body = await requestJson(
    provider,
    {
      method: "POST",
      url: `${provider.base}/search`,
      headers: {
        "accept": "application/json",
        "authorization": `Bearer ${provider.secret ?? ""}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({
        query,
        max_results: count,
        search_depth: "basic",
        include_answer: false,
        include_raw_content: false,
        include_images: false,
      }),
    },
    signal,
    limitMs,
  );
  if (!isObject(body) || !Array.isArray(body.results)) {
    throw malformed(provider, 'has no "results" list');
  }
  const results: WebSearchResult[] = [];
  for (const item of body.results) {
    if (!isObject(item) || typeof item.url !== "string") continue;
    const date = optionalText(item.published_date);
    results.push(webResult(item.title, item.url, item.content, date));
  }
  return results.slice(0, count);
}

async function searchSearxng(
  provider: Provider,
  query: string,
  count: number,
  signal: AbortSignal | undefined,
  limitMs: number,
): Promise<WebSearchResult[]> {
  const path = provider.base.endsWith("/search")
    ? provider.base
    : `${provider.base}/search`;
  let url: URL;
  try {
    url = new URL(path);
  } catch {
    throw new Error(
      `SEARXNG_URL is not a URL: got "${provider.base}": set it to the instance's address, e.g. "http://127.0.0.1:8080"`,
    );
  }
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  const body = await requestJson(
    provider,
    {
      method: "GET",
      url: url.href,
      headers: { "accept": "application/json" },
    },
    signal,
    limitMs,
  );
  if (!isObject(body) || !Array.isArray(body.results)) {
    throw malformed(provider, 'has no "results" list');
  }
  const results: WebSearchResult[] = [];
  for (const item of body.results) {
    if (!isObject(item) || typeof item.url !== "string") continue;
    const date = optionalText(item.publishedDate);
    results.push(webResult(item.title, item.url, item.content, date));
  }
  return results.slice(0, count);
}

async function searchBeeuni(
  provider: Provider,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  limitMs: number,
): Promise<WebSearchOutput> {
  const body = await requestJson(
    provider,
    {
      method: "POST",
      url: `${provider.base}/v1/tools/${TOOL}`,
      headers: {
        "accept": "application/json",
        "authorization": `Bearer ${provider.secret ?? ""}`,
        "content-type": "application/json",
      },
      body: JSON.stringify(args),
    },
    signal,
    limitMs,
  );
  if (!isObject(body) || !Array.isArray(body.searches)) {
    throw malformed(provider, `is not ${TOOL} output (no "searches" list)`);
  }
  return body as unknown as WebSearchOutput;
}

/** Replaces every occurrence of a secret in `message`. */
function redact(message: string, secret: string | undefined): string {
  return secret && secret.length >= 4
    ? message.split(secret).join("[redacted]")
    : message;
}

async function execute(
  args: Record<string, unknown>,
  context: ToolContext,
): Promise<WebSearchOutput> {
  const input = isObject(args) ? args : {};
  const env: Env = context?.env ?? {};
  const signal = context?.signal;
  const queries = String(input.query ?? "").split("|||").map((query) =>
    query.trim()
  ).filter(Boolean);
  checkQueries(queries);
  const count = readCount(input.count);
  const provider = pickProvider(env);
  const limitMs = timeoutMs(env);
  try {
    if (provider.id === "beeuni") {
      const body = { ...input, query: queries.join(" ||| "), count };
      return await searchBeeuni(provider, body, signal, limitMs);
    }
    const search = provider.id === "brave"
      ? searchBrave
      : provider.id === "tavily"
      ? searchTavily
      : searchSearxng;
    const settled = await Promise.allSettled(
      queries.map((query) => search(provider, query, count, signal, limitMs)),
    );
    if (signal?.aborted) {
      throw new Error(`${TOOL} stopped: the call was aborted`);
    }
    const failed = settled.filter((outcome) => outcome.status === "rejected");
    if (failed.length === settled.length) throw failed[0].reason;
    return {
      provider: provider.id,
      searches: settled.map((outcome, index): WebSearch =>
        outcome.status === "fulfilled"
          ? { query: queries[index], results: outcome.value }
          : {
            query: queries[index],
            results: [],
            error: outcome.reason instanceof Error
              ? outcome.reason.message
              : String(outcome.reason),
          }
      ),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(redact(message, provider.secret));
  }
}

/** The `web_search` tool module: description, JSON Schema and `execute`. */
const webSearch = {
  description:
    "Search the web. Returns, for each query, the top results with title, url, " +
    'snippet and date where known. Put several queries in one call separated by "|||" ' +
    "to run them at the same time.",
  parameters: {
    type: "object",
    properties: {
      query: {
        type: "string",
        description:
          'The search query. Several queries separated by "|||" run concurrently, e.g. ' +
          '"deno ffi ||| bun ffi".',
      },
      count: {
        type: "integer",
        minimum: 1,
        maximum: MAX_COUNT,
        description:
          `Results per query, 1 to ${MAX_COUNT} (default ${DEFAULT_COUNT}).`,
      },
    },
    required: ["query"],
  },
  execute,
} satisfies ToolModule;

export default webSearch;
