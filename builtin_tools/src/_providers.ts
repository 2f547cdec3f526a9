/**
 * The search providers `web_search` and `image_search` share: which one is
 * configured, and one JSON request to it whose every failure becomes an
 * error that names the provider and what to change.
 *
 * @module
 */

import { setting } from "./_env.ts";
import { type Env, isObject, messageOf } from "./_tool.ts";

/** A configured search provider. */
export interface Provider {
  /** Who answers: reported as the output's `provider`. */
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

/** How a provider is configured: its key and base URL variables. */
interface ProviderSpec {
  id: Provider["id"];
  label: string;
  /** The variable holding the key or token; none for a keyless provider. */
  keyVar?: string;
  /** The variable holding the base URL. */
  urlVar: string;
  /** The base URL when `urlVar` is unset; none when it must be set. */
  defaultUrl?: string;
}

/** The providers, in order of preference. */
const PROVIDERS: readonly ProviderSpec[] = [
  {
    id: "beeuni",
    label: "Beeuni API",
    keyVar: "BEEUNI_TOKEN",
    urlVar: "BEEUNI_API_URL",
  },
  {
    id: "brave",
    label: "Brave Search API",
    keyVar: "BRAVE_API_KEY",
    urlVar: "BRAVE_API_URL",
    defaultUrl: "https://api.search.brave.com",
  },
  {
    id: "tavily",
    label: "Tavily API",
    keyVar: "TAVILY_API_KEY",
    urlVar: "TAVILY_API_URL",
    defaultUrl: "https://api.tavily.com",
  },
  { id: "searxng", label: "SearXNG", urlVar: "SEARXNG_URL" },
];

/**
 * The first provider whose configuration is present in `env`. Throws an
 * error listing what to set when there is none.
 */
export function pickProvider(env: Env, tool: string): Provider {
  for (const spec of PROVIDERS) {
    const secret = spec.keyVar ? setting(env, spec.keyVar) : undefined;
    const base = setting(env, spec.urlVar) ?? spec.defaultUrl;
    if ((spec.keyVar && !secret) || !base) continue;
    return {
      id: spec.id,
      label: spec.label,
      base: base.replace(/\/+$/, ""),
      secret,
      authHint: `check ${spec.keyVar ?? spec.urlVar}`,
      urlHint: `check ${spec.urlVar}`,
    };
  }
  const apiUrl = setting(env, "BEEUNI_API_URL");
  const token = setting(env, "BEEUNI_TOKEN");
  const half = apiUrl && !token
    ? " (BEEUNI_API_URL is set but BEEUNI_TOKEN is not)"
    : token && !apiUrl
    ? " (BEEUNI_TOKEN is set but BEEUNI_API_URL is not)"
    : "";
  throw new Error(
    `${tool} has no search provider${half}: set BEEUNI_API_URL and BEEUNI_TOKEN ` +
      "(Beeuni API), BRAVE_API_KEY (Brave Search API), TAVILY_API_KEY (Tavily) " +
      "or SEARXNG_URL (a SearXNG instance with JSON output enabled)",
  );
}

/** One provider request of a call: who, and within what limits. */
export interface ProviderCall {
  /** The tool making the request, named when the call is aborted. */
  tool: string;
  provider: Provider;
  /** The call's signal. */
  signal: AbortSignal | undefined;
  /** Time limit of each request in milliseconds. */
  limitMs: number;
}

/** A request to send: method, full URL, headers and body. */
export interface JsonRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
}

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

/** The error for an answer whose status is not 2xx. */
function statusError(
  provider: Provider,
  response: Response,
  text: string,
): Error {
  const { label } = provider;
  const status = response.status;
  const said = providerMessage(text);
  const detail = said ? `: ${said}` : "";
  if (provider.id === "searxng" && status === 403) {
    return new Error(
      `SearXNG at ${provider.base} refused JSON output (HTTP 403)${detail}: ` +
        "add json to search.formats in its settings.yml, or check SEARXNG_URL",
    );
  }
  if (status === 401 || status === 403) {
    const what = provider.id === "beeuni" ? "token" : "key";
    return new Error(
      `${label} rejected the ${what} (HTTP ${status})${detail}: ${provider.authHint}`,
    );
  }
  if (status === 429) {
    return new Error(
      `${label} rate limit reached (HTTP 429)${detail}: ${
        retryAfter(response)
      }`,
    );
  }
  if (status >= 500) {
    return new Error(
      `${label} failed (HTTP ${status})${detail}: try again later`,
    );
  }
  if (status >= 300 && status < 400) {
    const location = response.headers.get("location") ?? "nowhere";
    return new Error(
      `${label} answered with a redirect to "${
        shownUrl(location)
      }" (HTTP ${status}): ${provider.urlHint}, it must name the API itself`,
    );
  }
  const hint = status === 404 ? `: ${provider.urlHint}` : "";
  return new Error(
    `${label} refused the request (HTTP ${status})${detail}${hint}`,
  );
}

/**
 * Sends one request and returns the parsed JSON body, or throws an error that
 * names the provider and what to change.
 */
export async function requestJson(
  call: ProviderCall,
  request: JsonRequest,
): Promise<unknown> {
  const { provider, signal, limitMs } = call;
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(), limitMs);
  const combined = signal
    ? AbortSignal.any([signal, timer.signal])
    : timer.signal;
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
      if (signal?.aborted) throw aborted(call.tool);
      if (timer.signal.aborted) {
        throw new Error(
          `${provider.label} did not answer within ${limitMs} ms: try again, or raise BEEUNI_HTTP_TIMEOUT_MS`,
        );
      }
      throw new Error(
        `cannot reach ${provider.label} at ${shownUrl(request.url)}: ${
          messageOf(error)
        }: ${provider.urlHint}`,
      );
    }
    if (response.status < 200 || response.status >= 300) {
      throw statusError(provider, response, text);
    }
    try {
      return JSON.parse(text);
    } catch {
      const type = response.headers.get("content-type") ?? "none";
      throw new Error(
        `${provider.label} answered with a body that is not JSON (content type "${type}"): ${provider.urlHint}`,
      );
    }
  } finally {
    clearTimeout(handle);
  }
}

/** The error for a call the user stopped. */
export function aborted(tool: string): Error {
  return new Error(`${tool} stopped: the call was aborted`);
}

/** The error for an answer of the wrong shape: `what` says what is wrong. */
export function malformed(provider: Provider, what: string): Error {
  return new Error(
    `${provider.label} answered with JSON that ${what}: ${provider.urlHint}`,
  );
}

/** Replaces every occurrence of a secret in `message`. */
export function redact(message: string, secret: string | undefined): string {
  return secret && secret.length >= 4
    ? message.split(secret).join("[redacted]")
    : message;
}
