/**
 * Content blocks: how a tool returns more than text (an image for the model
 * to see, audio, a document) and what every caller receives. A tool opts in
 * by returning exactly `{ content: [block, ...] }`, optionally with
 * `structuredContent: { ... }`; any other value is read as before (a string
 * as is, other JSON as indented JSON). Pure functions, shared by the host and
 * its runners.
 *
 * @module
 */

/** A resource a tool embeds in its result: text or base64 `blob`, named by `uri`. */
export type EmbeddedResource =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: string };

/**
 * One block of a tool's result. `data` and `blob` are base64. MCP clients
 * receive the blocks as they are; the HTTP route passes them on in
 * `content`; the text the model reads elsewhere is {@linkcode contentText}.
 */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource"; resource: EmbeddedResource };

/** What a tool returned, when it returned content blocks. */
export interface ContentReturn {
  /** The blocks, checked and stripped of unknown fields. */
  content: ContentBlock[];
  /** The `structuredContent` object it returned alongside, if any. */
  structured?: Record<string, unknown>;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function isBase64(value: unknown): value is string {
  return typeof value === "string" && value.length % 4 === 0 &&
    BASE64.test(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `value` is a plain object (`{}` or `Object.create(null)`), as JSON results are. */
export function isPlainObject(
  value: unknown,
): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function mimeType(value: unknown): value is string {
  return typeof value === "string" && /^[\w.+-]+\/[\w.+-]+$/.test(value);
}

function resourceOf(value: unknown): EmbeddedResource | undefined {
  if (!isObject(value) || typeof value.uri !== "string" || value.uri === "") {
    return undefined;
  }
  if (value.mimeType !== undefined && !mimeType(value.mimeType)) {
    return undefined;
  }
  const mime = value.mimeType === undefined ? {} : { mimeType: value.mimeType };
  if (typeof value.text === "string" && value.blob === undefined) {
    return { uri: value.uri, ...mime, text: value.text };
  }
  if (isBase64(value.blob) && value.text === undefined) {
    return { uri: value.uri, ...mime, blob: value.blob };
  }
  return undefined;
}

/** One block as the convention defines it, or `undefined` when it is not one. */
function blockOf(value: unknown): ContentBlock | undefined {
  if (!isObject(value)) return undefined;
  switch (value.type) {
    case "text":
      return typeof value.text === "string"
        ? { type: "text", text: value.text }
        : undefined;
    case "image":
    case "audio":
      return isBase64(value.data) && mimeType(value.mimeType)
        ? { type: value.type, data: value.data, mimeType: value.mimeType }
        : undefined;
    case "resource": {
      const resource = resourceOf(value.resource);
      return resource ? { type: "resource", resource } : undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The content blocks `value` carries, when a tool returned exactly
 * `{ content: [...] }` or `{ content: [...], structuredContent: {...} }`
 * with a non-empty list of valid blocks (`text`; `image` and `audio` with
 * base64 `data` and a `mimeType`; `resource` with a `uri` and `text` or
 * base64 `blob`). `undefined` for every other value, which is then turned
 * into text as before.
 *
 * @example
 * ```ts
 * import { contentReturn } from "./_content.ts";
 * contentReturn({ content: [{ type: "image", data: "iVBORw==", mimeType: "image/png" }] });
 * // { content: [{ type: "image", data: "iVBORw==", mimeType: "image/png" }] }
 * contentReturn({ content: "just a field" }); // undefined
 * ```
 */
export function contentReturn(value: unknown): ContentReturn | undefined {
  if (!isPlainObject(value) || !Array.isArray(value.content)) return undefined;
  for (const key of Object.keys(value)) {
    if (key !== "content" && key !== "structuredContent") return undefined;
  }
  const structured = value.structuredContent;
  if (structured !== undefined && !isPlainObject(structured)) return undefined;
  if (value.content.length === 0) return undefined;
  const content: ContentBlock[] = [];
  for (const item of value.content) {
    const block = blockOf(item);
    if (!block) return undefined;
    content.push(block);
  }
  return structured === undefined ? { content } : { content, structured };
}

/** How many bytes a base64 text decodes to. */
export function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

/**
 * The text a caller that shows only text reads for `blocks`: the text
 * blocks joined by blank lines; when there are none, one line per other
 * block saying what it is (`[image: image/png, 1234 bytes]`).
 */
export function contentText(blocks: readonly ContentBlock[]): string {
  const texts = blocks.flatMap((b) => b.type === "text" ? [b.text] : []);
  if (texts.length > 0) return texts.join("\n\n");
  return blocks.map((block) => {
    switch (block.type) {
      case "image":
      case "audio":
        return `[${block.type}: ${block.mimeType}, ${
          base64Bytes(block.data)
        } bytes]`;
      case "resource":
        return `[resource: ${block.resource.uri}]`;
      default:
        return "";
    }
  }).join("\n");
}

/**
 * The blocks to hand on once the text was cut: the cut `text` in place
 * of the text blocks, then every other block as it was.
 */
export function cutContent(
  blocks: readonly ContentBlock[],
  text: string,
): ContentBlock[] {
  return [
    { type: "text", text },
    ...blocks.filter((block) => block.type !== "text"),
  ];
}
