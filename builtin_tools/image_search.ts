/**
 * `image_search`: searches for images for one or more queries and returns
 * them grouped per query (title, image url, thumbnail url, source page, width
 * and height where known).
 *
 * Providers, in order of preference: the Beeuni API (`BEEUNI_API_URL` and
 * `BEEUNI_TOKEN`), Brave Search API (`BRAVE_API_KEY`), Tavily
 * (`TAVILY_API_KEY`), a SearXNG instance (`SEARXNG_URL`). Configuration is
 * read from `context.env` only. This file imports nothing, so a copy in a
 * project runs as it is.
 *
 * @module
 */

/**
 * One image. `source_url`, `width` and `height` are present only when the
 * provider gives them.
 */
export interface ImageResult {
  /** Title or description of the image, plain text; may be empty. */
  title: string;
  /** Address of the full-size image. */
  image_url: string;
  /** Address of a small preview; the image itself when the provider has none. */
  thumbnail_url: string;
  /** Address of the page the image appears on. */
  source_url?: string;
  /** Width of the full-size image in pixels. */
  width?: number;
  /** Height of the full-size image in pixels. */
  height?: number;
}

/** The images found for one query. */
export interface ImageSearch {
  /** The query as it was sent. */
  query: string;
  /** The images, best first. Empty when the query failed. */
  results: ImageResult[];
  /** Why this query failed, when others of the same call succeeded. */
  error?: string;
}

/** The output of `image_search`. */
export interface ImageSearchOutput {
  /** Who answered: `beeuni`, `brave`, `tavily` or `searxng`. */
  provider: string;
  /** One entry per query, in the order the queries were given. */
  searches: ImageSearch[];
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

const TOOL = "image_search";
const DEFAULT_COUNT = 10;
const MAX_COUNT = 50;
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

/** Plain text from a provider's title: tags dropped, entities decoded. */
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

function positive(value: unknown): number | undefined {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number > 0
    ? number
    : undefined;
}

/** An absolute http(s) address, or undefined. `//host/x` becomes https. */
function address(value: unknown): string | undefined {
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const text = value.trim().startsWith("//")
    ? `https:${value.trim()}`
    : value.trim();
  return /^https?:\/\//i.test(text) ? text : undefined;
}

function image(
  title: unknown,
  imageUrl: string,
  thumbnail: unknown,
  source: unknown,
  width: unknown,
  height: unknown,
): ImageResult {
  const result: ImageResult = {
    title: plainText(title),
    image_url: imageUrl,
    thumbnail_url: address(thumbnail) ?? imageUrl,
  };
  const page = address(source);
  if (page) result.source_url = page;
  const w = positive(width);
  const h = positive(height);
  if (w && h) {
    result.width = w;
    result.height = h;
  }
  return result;
}

async function searchBrave(
  provider: Provider,
  query: string,
  count: number,
  signal: AbortSignal | undefined,
  limitMs: number,
): Promise<ImageResult[]> {
  const url = new URL(`${provider.base}/res/v1/images/search`);
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
  if (!isObject(body) || !Array.isArray(body.results)) {
    throw malformed(provider, 'has no "results" list');
  }
  const results: ImageResult[] = [];
  for (const item of body.results) {
    if (!isObject(item)) continue;
    const properties = isObject(item.properties) ? item.properties : {};
    const thumbnail = isObject(item.thumbnail) ? item.thumbnail : {};
    const imageUrl = address(properties.url);
    if (!imageUrl) continue;
    results.push(
      image(
        item.title,
        imageUrl,
        thumbnail.src,
        item.url,
        properties.width,
        properties.height,
      ),
    );
  }
  return results.slice(0, count);
}

async function searchTavily(
  provider: Provider,
  query: string,
  count: number,
  signal: AbortSignal | undefined,
  limitMs: number,
): Promise<ImageResult[]> {
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
        search_depth: "basic",
        include_answer: false,
        include_raw_content: false,
        include_images: true,
        include_image_descriptions: true,
      }),
    },
    signal,
    limitMs,
  );
  if (!isObject(body) || !Array.isArray(body.images)) {
    throw malformed(provider, 'has no "images" list');
  }
  const results: ImageResult[] = [];
  for (const item of body.images) {
    const imageUrl = address(isObject(item) ? item.url : item);
    if (!imageUrl) continue;
    const description = isObject(item) ? item.description : "";
    results.push(
      image(description, imageUrl, undefined, undefined, undefined, undefined),
    );
  }
  return results.slice(0, count);
}

async function searchSearxng(
  provider: Provider,
  query: string,
  count: number,
  signal: AbortSignal | undefined,
  limitMs: number,
): Promise<ImageResult[]> {
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
  url.searchParams.set("categories", "images");
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
  const results: ImageResult[] = [];
  for (const item of body.results) {
    if (!isObject(item)) continue;
    const imageUrl = address(item.img_src);
    if (!imageUrl) continue;
    const size = typeof item.resolution === "string"
      ? /(\d+)\s*[x×]\s*(\d+)/i.exec(item.resolution)
      : null;
    results.push(
      image(
        item.title,
        imageUrl,
        item.thumbnail_src ?? item.thumbnail,
        item.url,
        size?.[1],
        size?.[2],
      ),
    );
  }
  return results.slice(0, count);
}

async function searchBeeuni(
  provider: Provider,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
  limitMs: number,
): Promise<ImageSearchOutput> {
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
  return body as unknown as ImageSearchOutput;
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
): Promise<ImageSearchOutput> {
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
      searches: settled.map((outcome, index): ImageSearch =>
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

/** The `image_search` tool module: description, JSON Schema and `execute`. */
const imageSearch = {
  description:
    "Search for images. Returns, for each query, images with title, image_url, " +
    "thumbnail_url, and source_url, width and height where known. Put several " +
    'queries in one call separated by "|||" to run them at the same time.',
  parameters: {
    type: "object",
    properties: {
      query: {
        type: "string",
        description:
          'What to find images of. Several queries separated by "|||" run concurrently, ' +
          'e.g. "red panda ||| snow leopard".',
      },
      count: {
        type: "integer",
        minimum: 1,
        maximum: MAX_COUNT,
        description:
          `Images per query, 1 to ${MAX_COUNT} (default ${DEFAULT_COUNT}).`,
      },
    },
    required: ["query"],
  },
  execute,
} satisfies ToolModule;

export default imageSearch;
