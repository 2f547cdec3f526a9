/**
 * The body of `POST /beeuni/tools/<name>`, as every caller sends it (the
 * opencode plugin, curl, tests) and as the daemon checks it.
 *
 * @module
 */

import { callerStringProblem, isPlainObject } from "../common/mod.ts";

/** One tool call over HTTP. */
export interface CallBody {
  /** The tool's arguments; `{}` when omitted. */
  args: Record<string, unknown>;
  /** The session the call belongs to (`context.sessionId`). */
  sessionId: string;
  /** The calling agent (`context.agent`). */
  agent: string;
  /** The session agent that started `agent` as a subagent. */
  parentAgent?: string;
}

/** A failure of the request itself: an HTTP status and the `error` text. */
export class HttpError extends Error {
  /** The HTTP status to answer with. */
  readonly status: number;

  /** A refusal with `status` and `message`. */
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const EXAMPLE = '{ "args": {...}, "sessionId": "...", "agent": "..." }';

/**
 * Checks the JSON text of a tool call's body. With `defaultAgent`, a body
 * without `agent` acts as it.
 *
 * @returns The call: its arguments (`{}` when omitted), session and agents.
 * @throws {HttpError} A 400 naming the faulty field, or saying the text is
 * not a JSON object.
 */
export function parseCallBody(
  text: string,
  defaultAgent?: string,
): CallBody {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new HttpError(
      400,
      text.trim() === ""
        ? `request body is empty: send JSON ${EXAMPLE}`
        : "request body is not valid JSON",
    );
  }
  if (!isPlainObject(data)) {
    throw new HttpError(400, `request body must be a JSON object: ${EXAMPLE}`);
  }
  const args = data.args === undefined ? {} : data.args;
  if (!isPlainObject(args)) {
    throw new HttpError(400, '"args" must be a JSON object');
  }
  for (const field of ["sessionId", "agent"] as const) {
    const value = field === "agent" && data.agent === undefined
      ? defaultAgent
      : data[field];
    if (value === undefined) {
      throw new HttpError(400, `missing "${field}": a non-empty string`);
    }
    if (typeof value !== "string" || value === "") {
      throw new HttpError(400, `"${field}" must be a non-empty string`);
    }
  }
  const parentAgent = data.parentAgent;
  if (
    parentAgent !== undefined && parentAgent !== null &&
    (typeof parentAgent !== "string" || parentAgent === "")
  ) {
    throw new HttpError(400, '"parentAgent" must be a non-empty string');
  }
  for (const field of ["sessionId", "agent", "parentAgent"] as const) {
    const value = data[field];
    const problem = typeof value === "string"
      ? callerStringProblem(`"${field}"`, value)
      : undefined;
    if (problem !== undefined) throw new HttpError(400, problem);
  }
  return {
    args,
    sessionId: data.sessionId as string,
    agent: (data.agent ?? defaultAgent) as string,
    parentAgent: typeof parentAgent === "string" ? parentAgent : undefined,
  };
}
