/**
 * `image_search`: searches for images for one or more queries and returns
 * them grouped per query (title, image url, thumbnail url, source page, width
 * and height where known).
 *
 * Providers, in order of preference: the Beeuni API (`BEEUNI_API_URL` and
 * `BEEUNI_TOKEN`), Brave Search API (`BRAVE_API_KEY`), Tavily
 * (`TAVILY_API_KEY`), a SearXNG instance (`SEARXNG_URL`). Configuration is
 * read from `context.env` only.
 *
 * @module
 */

import type { ProviderCall } from "./_providers.ts";
import * as search from "./_search.ts";
import { isObject, type ToolModule } from "./_tool.ts";

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

/** The output of `image_search`. */
export type ImageSearchOutput = search.SearchOutput<ImageResult>;

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

/** What a provider says of one image, before it is checked. */
interface ImageFields {
  title?: unknown;
  image: unknown;
  thumbnail?: unknown;
  source?: unknown;
  width?: unknown;
  height?: unknown;
}

/** The images among `items` that have an address, at most `count`. */
function images(
  items: unknown[],
  count: number,
  fields: (item: unknown) => ImageFields,
): ImageResult[] {
  const results: ImageResult[] = [];
  for (const item of items) {
    const found = fields(item);
    const imageUrl = address(found.image);
    if (!imageUrl) continue;
    const result: ImageResult = {
      title: search.plainText(found.title),
      image_url: imageUrl,
      thumbnail_url: address(found.thumbnail) ?? imageUrl,
    };
    const page = address(found.source);
    if (page) result.source_url = page;
    const w = positive(found.width);
    const h = positive(found.height);
    if (w && h) {
      result.width = w;
      result.height = h;
    }
    results.push(result);
  }
  return results.slice(0, count);
}

/** `item` as an object, or an empty one. */
function fieldsOf(item: unknown): Record<string, unknown> {
  return isObject(item) ? item : {};
}

async function searchBrave(
  call: ProviderCall,
  query: string,
  count: number,
): Promise<ImageResult[]> {
  const body = await search.braveGet(call, "images", query, count);
  return images(search.resultList(call, body), count, (item) => {
    const { title, url, properties, thumbnail } = fieldsOf(item);
    const image = fieldsOf(properties);
    return {
      title,
      image: image.url,
      thumbnail: fieldsOf(thumbnail).src,
      source: url,
      width: image.width,
      height: image.height,
    };
  });
}

async function searchTavily(
  call: ProviderCall,
  query: string,
  count: number,
): Promise<ImageResult[]> {
  const body = await search.tavilyPost(call, {
    query,
    search_depth: "basic",
    include_answer: false,
    include_raw_content: false,
    include_images: true,
    include_image_descriptions: true,
  });
  return images(
    search.resultList(call, body, "images"),
    count,
    (item) =>
      isObject(item)
        ? { title: item.description, image: item.url }
        : { image: item },
  );
}

async function searchSearxng(
  call: ProviderCall,
  query: string,
  count: number,
): Promise<ImageResult[]> {
  const body = await search.searxngGet(call, query, { categories: "images" });
  return images(search.resultList(call, body), count, (item) => {
    const fields = fieldsOf(item);
    const size = typeof fields.resolution === "string"
      ? /(\d+)\s*[x×]\s*(\d+)/i.exec(fields.resolution)
      : null;
    return {
      title: fields.title,
      image: fields.img_src,
      thumbnail: fields.thumbnail_src ?? fields.thumbnail,
      source: fields.url,
      width: size?.[1],
      height: size?.[2],
    };
  });
}

const SPEC: search.SearchSpec<ImageResult> = {
  tool: "image_search",
  defaultCount: 10,
  maxCount: 50,
  providers: {
    brave: searchBrave,
    tavily: searchTavily,
    searxng: searchSearxng,
  },
};

/** The `image_search` tool module: description, JSON Schema and `execute`. */
const imageSearch = {
  description:
    "Search for images. Returns, for each query, images with title, image_url, " +
    "thumbnail_url, and source_url, width and height where known. Put several " +
    'queries in one call separated by "|||" to run them at the same time.',
  parameters: search.searchParameters(SPEC, {
    query:
      'What to find images of. Several queries separated by "|||" run concurrently, ' +
      'e.g. "red panda ||| snow leopard".',
    count: "Images",
  }),
  execute: search.searchExecute(SPEC),
} satisfies ToolModule;

export default imageSearch;
