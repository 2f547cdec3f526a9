/**
 * What `web_search` and `image_search` share: the `query`/`count`
 * arguments, one request per query to the configured provider at the same
 * time, the Beeuni API's pass-through, and the output grouped per query.
 * Each tool brings only how it asks each provider and reads its answer.
 *
 * @module
 */

import { decodeHTML } from "entities";
import { positiveSetting } from "./_env.ts";
import {
  aborted,
  malformed,
  pickProvider,
  type ProviderCall,
  redact,
  requestJson,
} from "./_providers.ts";
import { isObject, messageOf, type ToolContext } from "./_tool.ts";

/** The results of one query. */
export interface QueryResults<Result> {
  /** The query as it was sent. */
  query: string;
  /** The results, best first. Empty when the query failed. */
  results: Result[];
  /** Why this query failed, when others of the same call succeeded. */
  error?: string;
}

/** The output of a search tool. */
export interface SearchOutput<Result> {
  /** Who answered: `beeuni`, `brave`, `tavily` or `searxng`. */
  provider: string;
  /** One entry per query, in the order the queries were given. */
  searches: QueryResults<Result>[];
}

/** Asks one provider for one query; resolves to at most `count` results. */
export type ProviderSearch<Result> = (
  call: ProviderCall,
  query: string,
  count: number,
) => Promise<Result[]>;

/** What a search tool brings: its name, its count limits, its providers. */
export interface SearchSpec<Result> {
  /** The tool's name, as in messages and the Beeuni API's path. */
  tool: string;
  /** Results per query when `count` is not given. */
  defaultCount: number;
  /** The largest `count`; a larger one is lowered to it. */
  maxCount: number;
  /** How each keyed or keyless provider is asked. */
  providers: Record<"brave" | "tavily" | "searxng", ProviderSearch<Result>>;
}

const MAX_QUERIES = 10;
const DEFAULT_TIMEOUT_MS = 20_000;

/** The queries of a `query` argument: split at `|||`, trimmed, checked. */
function readQueries(value: unknown): string[] {
  const queries = String(value ?? "").split("|||").map((query) => query.trim())
    .filter(Boolean);
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
  return queries;
}

function readCount(value: unknown, spec: SearchSpec<unknown>): number {
  if (value === undefined || value === null || value === "") {
    return spec.defaultCount;
  }
  const number = typeof value === "string" ? Number(value.trim()) : value;
  if (typeof number !== "number" || !Number.isInteger(number) || number < 1) {
    throw new Error(
      `count must be a whole number from 1 to ${spec.maxCount}: got ${
        JSON.stringify(value)
      }`,
    );
  }
  return Math.min(number, spec.maxCount);
}

/** Plain text from a provider's title or snippet: tags dropped, entities decoded. */
export function plainText(value: unknown): string {
  if (typeof value !== "string") return "";
  return decodeHTML(value.replace(/<[^>]*>/g, "")).replace(/\s+/g, " ").trim();
}

/** {@linkcode plainText}, or undefined when that is empty. */
export function optionalText(value: unknown): string | undefined {
  const text = plainText(value);
  return text === "" ? undefined : text;
}

/** The JSON Schema of `{ query, count }` for a search tool. */
export function searchParameters(
  spec: SearchSpec<unknown>,
  about: { query: string; count: string },
): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      query: { type: "string", description: about.query },
      count: {
        type: "integer",
        minimum: 1,
        maximum: spec.maxCount,
        description:
          `${about.count} per query, 1 to ${spec.maxCount} (default ${spec.defaultCount}).`,
      },
    },
    required: ["query"],
  };
}

/** Sends the whole call to the Beeuni API, whose answer is the output. */
async function viaBeeuni<Result>(
  call: ProviderCall,
  args: Record<string, unknown>,
): Promise<SearchOutput<Result>> {
  const body = await requestJson(call, {
    method: "POST",
    url: `${call.provider.base}/v1/tools/${call.tool}`,
    headers: {
      "accept": "application/json",
      "authorization": `Bearer ${call.provider.secret ?? ""}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(args),
  });
  if (!isObject(body) || !Array.isArray(body.searches)) {
    throw malformed(
      call.provider,
      `is not ${call.tool} output (no "searches" list)`,
    );
  }
  return body as unknown as SearchOutput<Result>;
}

/**
 * The `execute` of a search tool: runs every query of the call at the same
 * time and groups the results per query. A query that fails while others
 * succeed carries its `error`; when every query fails the call fails with
 * the first one's error. No message ever holds the provider's key.
 */
export function searchExecute<Result>(
  spec: SearchSpec<Result>,
): (
  args: Record<string, unknown>,
  context: ToolContext,
) => Promise<SearchOutput<Result>> {
  return async (args, context) => {
    const input = isObject(args) ? args : {};
    const env = context?.env ?? {};
    const signal = context?.signal;
    const queries = readQueries(input.query);
    const count = readCount(input.count, spec);
    const provider = pickProvider(env, spec.tool);
    const call: ProviderCall = {
      tool: spec.tool,
      provider,
      signal,
      limitMs: positiveSetting(
        env,
        "BEEUNI_HTTP_TIMEOUT_MS",
        DEFAULT_TIMEOUT_MS,
      ),
    };
    try {
      if (provider.id === "beeuni") {
        const body = { ...input, query: queries.join(" ||| "), count };
        return await viaBeeuni<Result>(call, body);
      }
      const search = spec.providers[provider.id];
      const settled = await Promise.allSettled(
        queries.map((query) => search(call, query, count)),
      );
      if (signal?.aborted) throw aborted(spec.tool);
      const failed = settled.filter((outcome) => outcome.status === "rejected");
      if (failed.length === settled.length) throw failed[0].reason;
      return {
        provider: provider.id,
        searches: settled.map((outcome, index): QueryResults<Result> =>
          outcome.status === "fulfilled"
            ? { query: queries[index], results: outcome.value }
            : {
              query: queries[index],
              results: [],
              error: messageOf(outcome.reason),
            }
        ),
      };
    } catch (error) {
      throw new Error(redact(messageOf(error), provider.secret));
    }
  };
}

/** `GET <BRAVE_API_URL>/res/v1/<kind>/search?q=&count=`, with the key. */
export function braveGet(
  call: ProviderCall,
  kind: "web" | "images",
  query: string,
  count: number,
): Promise<unknown> {
  const url = new URL(`${call.provider.base}/res/v1/${kind}/search`);
  url.searchParams.set("q", query);
  url.searchParams.set("count", String(count));
  return requestJson(call, {
    method: "GET",
    url: url.href,
    headers: {
      "accept": "application/json",
      "x-subscription-token": call.provider.secret ?? "",
    },
  });
}

/** `POST <TAVILY_API_URL>/search` with `body` and the key. */
export function tavilyPost(
  call: ProviderCall,
  body: Record<string, unknown>,
): Promise<unknown> {
  return requestJson(call, {
    method: "POST",
    url: `${call.provider.base}/search`,
    headers: {
      "accept": "application/json",
      "authorization": `Bearer ${call.provider.secret ?? ""}`,
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
}

/** `GET <SEARXNG_URL>/search?q=&format=json` plus `params`. */
export async function searxngGet(
  call: ProviderCall,
  query: string,
  params: Record<string, string> = {},
): Promise<unknown> {
  const base = call.provider.base;
  let url: URL;
  try {
    url = new URL(base.endsWith("/search") ? base : `${base}/search`);
  } catch {
    throw new Error(
      `SEARXNG_URL is not a URL: got "${base}": set it to the instance's address, e.g. "http://127.0.0.1:8080"`,
    );
  }
  url.searchParams.set("q", query);
  url.searchParams.set("format", "json");
  for (const [name, value] of Object.entries(params)) {
    url.searchParams.set(name, value);
  }
  return await requestJson(call, {
    method: "GET",
    url: url.href,
    headers: { "accept": "application/json" },
  });
}

/** The `results` list of a provider's answer, or an error naming it. */
export function resultList(
  call: ProviderCall,
  body: unknown,
  key = "results",
): unknown[] {
  if (!isObject(body) || !Array.isArray(body[key])) {
    throw malformed(call.provider, `has no "${key}" list`);
  }
  return body[key];
}
