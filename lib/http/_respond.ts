// JSON answers and reading request bodies within a limit.

import { callerStringProblem, readAtMost } from "../common/mod.ts";
import { HttpError } from "./call_body.ts";

/** A JSON response: the body on one line, no caching. */
export function json(
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): Response {
  // Setting the headers one by one costs half what a headers record does.
  const response = new Response(JSON.stringify(body) + "\n", { status });
  response.headers.set("content-type", "application/json; charset=utf-8");
  response.headers.set("cache-control", "no-store");
  if (headers) {
    for (const [key, value] of Object.entries(headers)) {
      response.headers.set(key, value);
    }
  }
  return response;
}

/** The 405 for a route asked with another method. */
export function methodNotAllowed(allow: string): Response {
  return json(405, { error: `method not allowed: use ${allow}` }, { allow });
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new HttpError(400, "request body is not valid UTF-8");
  }
}

async function readChunked(
  body: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array> {
  const bytes = await readAtMost(body, limit);
  if (bytes === undefined) {
    throw new HttpError(
      413,
      `request body too large: over ${limit} bytes, the limit`,
    );
  }
  return bytes;
}

/**
 * The request body as UTF-8 text, refused with 413 when it is over `limit`
 * bytes: by its `Content-Length`, or for a chunked body, by the bytes
 * received.
 */
export async function readBody(
  request: Request,
  limit: number,
): Promise<string> {
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    if (Number(declared) > limit) {
      throw new HttpError(
        413,
        `request body too large: ${declared} bytes, the limit is ${limit}`,
      );
    }
    // The server delivers exactly Content-Length bytes.
    return decodeUtf8(new Uint8Array(await request.arrayBuffer()));
  }
  if (request.body === null) return "";
  return decodeUtf8(await readChunked(request.body, limit));
}

/** One segment of a path, percent-decoded; a 400 when the encoding is malformed. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, "malformed percent-encoding in the path");
  }
}

/** A 400 {@linkcode HttpError} when `value`, which `what` names, is over the length limit of caller strings. */
export function checkCallerString(what: string, value: string): void {
  const problem = callerStringProblem(what, value);
  if (problem !== undefined) throw new HttpError(400, problem);
}

/** A 400 {@linkcode HttpError} naming the first query parameter (name or value) over the length limit of caller strings. */
export function checkQuery(url: URL): void {
  for (const [name, value] of url.searchParams) {
    checkCallerString("the name of a query parameter", name);
    checkCallerString(`"${name}"`, value);
  }
}
