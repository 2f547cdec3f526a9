/**
 * Reading a request body as text, within a byte limit, with one policy for
 * every endpoint: a body over the limit is refused (413), and so is one
 * that is not UTF-8 (400, naming the byte offset where it stops being
 * UTF-8): nothing is read as a replacement character.
 *
 * @module
 */

/** Why a request body was refused: over the byte limit (413) or not UTF-8 (400). */
export class BodyTextError extends Error {
  /** The HTTP status to answer with: 413 or 400. */
  readonly status: 400 | 413;

  /** A refusal with `status` and `message`. */
  constructor(status: 400 | 413, message: string) {
    super(message);
    this.name = "BodyTextError";
    this.status = status;
  }
}

/**
 * The offset of the first byte of `bytes` that starts no well-formed UTF-8
 * sequence (a stray continuation byte, a sequence cut short, an overlong
 * form, a surrogate or a code point over U+10FFFF), or -1 when there is
 * none: the bytes the WHATWG decoder refuses.
 */
function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    if (lead < 0x80) {
      i++;
      continue;
    }
    let lower = 0x80;
    let upper = 0xbf;
    let follow: number;
    if (lead >= 0xc2 && lead <= 0xdf) follow = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      follow = 2;
      if (lead === 0xe0) lower = 0xa0;
      if (lead === 0xed) upper = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      follow = 3;
      if (lead === 0xf0) lower = 0x90;
      if (lead === 0xf4) upper = 0x8f;
    } else return i;
    for (let k = 1; k <= follow; k++) {
      const next = bytes[i + k];
      if (next === undefined || next < lower || next > upper) return i;
      lower = 0x80;
      upper = 0xbf;
    }
    i += follow + 1;
  }
  return -1;
}

const utf8 = new TextDecoder("utf-8");

/**
 * `bytes` as UTF-8 text. Decoding with replacement and scanning only when a
 * replacement character shows (for bytes that are not UTF-8, or one sent
 * as such) costs a quarter of a decoder that throws.
 */
function decode(bytes: Uint8Array): string {
  const text = utf8.decode(bytes);
  if (!text.includes("\uFFFD")) return text;
  const offset = invalidUtf8Offset(bytes);
  if (offset === -1) return text;
  throw new BodyTextError(
    400,
    `request body is not valid UTF-8 at byte offset ${offset}: send it encoded as UTF-8`,
  );
}

/**
 * The bytes of `stream`, or `undefined` (the stream cancelled) once more
 * than `limit` bytes have come.
 */
async function readAtMost(
  stream: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array | undefined> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The body of `request` as text. Throws a {@linkcode BodyTextError}: 413
 * when the body is over `limit` bytes (by its `Content-Length`, or for a
 * chunked body by the bytes received, the rest left unread), 400 when it is
 * not UTF-8. A request without a body reads as `""`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readBodyText } from "./read_body_text.ts";
 *
 * const request = new Request("http://127.0.0.1/", {
 *   method: "POST",
 *   body: '{"a": 1}',
 * });
 * assert.equal(await readBodyText(request, 1024), '{"a": 1}');
 * ```
 */
export async function readBodyText(
  request: Request,
  limit: number,
): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    if (Number(declared) > limit) {
      throw new BodyTextError(
        413,
        `request body too large: ${declared} bytes, the limit is ${limit}`,
      );
    }
    // The server delivers exactly Content-Length bytes.
    return decode(new Uint8Array(await request.arrayBuffer()));
  }
  if (request.body === null) return "";
  const bytes = await readAtMost(request.body, limit);
  if (bytes === undefined) {
    throw new BodyTextError(
      413,
      `request body too large: over ${limit} bytes, the limit`,
    );
  }
  return decode(bytes);
}
