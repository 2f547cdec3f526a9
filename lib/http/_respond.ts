// JSON answers, path segments and the length of caller strings.

import { callerStringProblem } from "../common/mod.ts";
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
