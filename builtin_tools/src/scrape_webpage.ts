/**
 * The `scrape_webpage` Beeuni tool: fetches one http(s) URL and returns its
 * readable content — Markdown for HTML, plain text for text types, indented
 * JSON for JSON — with the final URL, status, title and content type.
 *
 * The fetch follows at most 10 redirects, reads at most 5 MiB of body (then
 * stops and flags the result as truncated) and gives up after 30 s. Every hop
 * is checked against the address policy before any connection is made:
 * loopback, private, link-local, shared, unspecified, multicast and cloud
 * metadata addresses are refused after DNS resolution, and the connection goes
 * to the address that was checked (no second lookup).
 *
 * With `BEEUNI_API_URL` and `BEEUNI_TOKEN` set, the call is delegated to the
 * Beeuni API instead (`POST <BEEUNI_API_URL>/v1/tools/scrape_webpage`).
 *
 * Configuration is read from `context.env` alone.
 *
 * @module
 */

import { positiveSetting } from "./_env.ts";
import { readAddressPolicy } from "./_address_policy.ts";
import { parseDocument } from "./_dom.ts";
import { markdownConverter } from "./_markdown.ts";
import { documentTitle, readableContent } from "./_readable.ts";
import { decodeBody, sniffKind, textKind } from "./_page_body.ts";
import { checkScheme, type FetchLimits, fetchPage } from "./_pinned_http.ts";
import {
  type Env,
  messageOf,
  type ToolContext,
  type ToolModule,
} from "./_tool.ts";

/** The output JSON of one call. */
interface ScrapeResult {
  url: string;
  status: number;
  title: string;
  content_type: string;
  content: string;
  truncated: boolean;
  next_offset: number | null;
}

type Format = "markdown" | "text" | "html";

interface ScrapeArgs {
  url: URL;
  format: Format;
  maxLength: number;
  offset: number;
}

const DEFAULT_MAX_LENGTH = 20_000;
const MAX_MAX_LENGTH = 1_000_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;

// ---------------------------------------------------------------------------
// Arguments and configuration

function readArgs(raw: unknown): ScrapeArgs {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new Error(
      'invalid arguments: expected an object such as {"url": "https://example.com/"}',
    );
  }
  const args = raw as Record<string, unknown>;
  if (typeof args.url !== "string" || args.url.trim() === "") {
    throw new Error(
      'invalid arguments: "url" is required and must be an http or https URL string',
    );
  }
  let url: URL;
  try {
    url = new URL(args.url.trim());
  } catch {
    throw new Error(
      `invalid arguments: "url" is not a valid URL: "${args.url}"; give an absolute http or https URL`,
    );
  }
  checkScheme(url, `invalid arguments: "url" must use http or https`);
  url.hash = "";

  let format: Format = "markdown";
  if (args.format !== undefined && args.format !== null) {
    if (
      args.format !== "markdown" && args.format !== "text" &&
      args.format !== "html"
    ) {
      throw new Error(
        `invalid arguments: "format" must be "markdown", "text" or "html", not ${
          JSON.stringify(args.format)
        }`,
      );
    }
    format = args.format;
  }
  const maxLength = readInteger(
    args.max_length,
    "max_length",
    DEFAULT_MAX_LENGTH,
    1,
    MAX_MAX_LENGTH,
  );
  const offset = readInteger(
    args.offset,
    "offset",
    0,
    0,
    Number.MAX_SAFE_INTEGER,
  );
  return { url, format, maxLength, offset };
}

function readInteger(
  value: unknown,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined || value === null) return fallback;
  if (
    typeof value !== "number" || !Number.isInteger(value) || value < min ||
    value > max
  ) {
    throw new Error(
      `invalid arguments: "${name}" must be a whole number from ${min} to ${max}, not ${
        JSON.stringify(value)
      }`,
    );
  }
  return value;
}

interface Config extends FetchLimits {
  env: Env;
  timeoutMs: number;
}

function readConfig(env: Env): Config {
  return {
    env,
    timeoutMs: positiveSetting(
      env,
      "BEEUNI_HTTP_TIMEOUT_MS",
      DEFAULT_TIMEOUT_MS,
    ),
    maxBytes: positiveSetting(
      env,
      "BEEUNI_SCRAPE_MAX_BYTES",
      DEFAULT_MAX_BYTES,
    ),
    policy: readAddressPolicy(env),
  };
}

// ---------------------------------------------------------------------------
// The Beeuni API

async function callApi(
  args: Record<string, unknown>,
  config: Config,
  signal: AbortSignal,
): Promise<ScrapeResult> {
  const endpoint = `${
    String(config.env.BEEUNI_API_URL).replace(/\/+$/, "")
  }/v1/tools/scrape_webpage`;
  let response: Response;
  try {
    response = await fetch(endpoint, {
      method: "POST",
      headers: {
        "authorization": `Bearer ${config.env.BEEUNI_TOKEN}`,
        "content-type": "application/json",
        "accept": "application/json",
      },
      body: JSON.stringify(args),
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Error(
      `cannot reach the Beeuni API at "${endpoint}": ${
        messageOf(error)
      }; check BEEUNI_API_URL`,
    );
  }
  const text = await response.text();
  if (!response.ok) {
    let message = text.trim().slice(0, 500);
    try {
      const parsed = JSON.parse(text);
      const detail = parsed?.error?.message ?? parsed?.error ?? parsed?.message;
      if (typeof detail === "string") message = detail;
    } catch {
      // keep the raw text
    }
    const hint = response.status === 401 || response.status === 403
      ? "; check BEEUNI_TOKEN"
      : "";
    throw new Error(
      `the Beeuni API answered ${response.status} for scrape_webpage: ${
        message || response.statusText
      }${hint}`,
    );
  }
  let result: unknown;
  try {
    result = JSON.parse(text);
  } catch {
    throw new Error(
      `the Beeuni API answered scrape_webpage with a body that is not JSON: "${
        text.slice(0, 200)
      }"`,
    );
  }
  const record = result as Record<string, unknown>;
  if (
    record === null || typeof record !== "object" ||
    typeof record.url !== "string" || typeof record.content !== "string"
  ) {
    throw new Error(
      'the Beeuni API answered scrape_webpage without "url" and "content" strings',
    );
  }
  return record as unknown as ScrapeResult;
}

// ---------------------------------------------------------------------------
// The call

function window(text: string, offset: number, maxLength: number): {
  content: string;
  next: number | null;
} {
  let start = Math.min(offset, text.length);
  if (start > 0 && /[\udc00-\udfff]/.test(text[start] ?? "")) start--;
  let end = Math.min(start + maxLength, text.length);
  if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1] ?? "")) end--;
  return {
    content: text.slice(start, end),
    next: end < text.length ? end : null,
  };
}

async function scrape(
  rawArgs: unknown,
  context: ToolContext,
): Promise<ScrapeResult> {
  const args = readArgs(rawArgs);
  const env = context.env ?? {};
  const config = readConfig(env);
  const outer = context.signal;
  if (outer?.aborted) throw outer.reason;
  const controller = new AbortController();
  const timedOut = new Error(
    `timed out: "${args.url.href}" did not answer in full within ${config.timeoutMs} ms; try again later or raise BEEUNI_HTTP_TIMEOUT_MS`,
  );
  const timer = setTimeout(() => controller.abort(timedOut), config.timeoutMs);
  const onOuterAbort = (): void => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onOuterAbort, { once: true });
  const signal = controller.signal;
  try {
    if (env.BEEUNI_API_URL && env.BEEUNI_TOKEN) {
      const body: Record<string, unknown> = { url: args.url.href };
      const given = rawArgs as Record<string, unknown>;
      for (const key of ["format", "max_length", "offset"]) {
        if (given[key] !== undefined) body[key] = given[key];
      }
      return await callApi(body, config, signal);
    }
    const page = await fetchPage(args.url, config, signal);
    let kind = textKind(page.contentType);
    if (kind === null) {
      const sniffed = sniffKind(page.bytes);
      if (sniffed === "binary") {
        throw new Error(
          `cannot scrape "${page.url.href}": its content is binary (content type "${
            page.contentType || "none"
          }"); scrape_webpage reads HTML, text and JSON only`,
        );
      }
      kind = sniffed;
    }
    const decoded = decodeBody(page.bytes, page.charset, kind);
    let title = "";
    let full: string;
    if (kind === "html") {
      if (args.format === "html") {
        full = decoded;
        title = documentTitle(parseDocument(decoded));
      } else {
        const readable = readableContent(decoded, page.url);
        title = readable.title;
        full = markdownConverter(args.format === "markdown")(readable.root);
      }
    } else if (kind === "json") {
      try {
        full = JSON.stringify(
          JSON.parse(decoded.replace(/^\ufeff/, "")),
          null,
          2,
        );
      } catch {
        full = decoded;
      }
    } else {
      full = decoded.replace(/^\ufeff/, "").replace(/\r\n?/g, "\n");
    }
    const { content, next } = window(full, args.offset, args.maxLength);
    return {
      url: page.url.href,
      status: page.status,
      title,
      content_type: page.contentType,
      content,
      truncated: page.truncated || next !== null,
      next_offset: next,
    };
  } catch (error) {
    if (signal.aborted && signal.reason === timedOut) throw timedOut;
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
  }
}

/** The `scrape_webpage` tool module (its default export). */
const tool = {
  description:
    "Fetch one web page (http or https URL) and return its readable content: Markdown for HTML pages (navigation, scripts and boilerplate dropped), plain text for text files, indented JSON for JSON. Returns the final URL after redirects, the HTTP status, the page title and the content type. Long content is cut at max_length characters; pass next_offset back as offset to read on. Private and local network addresses are refused.",
  parameters: {
    type: "object",
    properties: {
      url: {
        type: "string",
        description: "The absolute http or https URL to fetch.",
      },
      format: {
        type: "string",
        enum: ["markdown", "text", "html"],
        description:
          'How to return an HTML page: "markdown" (default), "text" (plain text, no markup) or "html" (the page source). Text and JSON answers are returned as they are.',
      },
      max_length: {
        type: "integer",
        minimum: 1,
        maximum: MAX_MAX_LENGTH,
        description:
          `Most characters of content to return (default ${DEFAULT_MAX_LENGTH}).`,
      },
      offset: {
        type: "integer",
        minimum: 0,
        description:
          "Characters of content to skip, to read on from a previous call's next_offset (default 0).",
      },
    },
    required: ["url"],
    additionalProperties: false,
  },
  execute: scrape,
} satisfies ToolModule;

export default tool;
