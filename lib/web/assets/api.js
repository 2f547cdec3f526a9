// @ts-check
/// <reference lib="dom" />
// Talking to the daemon. The page never holds the daemon's token: the
// address the daemon prints carries a one-time code in its fragment (never
// sent to a server), which the page trades for a session cookie the
// browser keeps (HttpOnly: no script reads it) and sends on every request
// under the page's secret path. Every address here is relative, so it
// stays under that path.

/** @import { ToolsBody } from "../_api.ts" */
/** @import { CallRecord, HistoryEvent } from "../_history.ts" */
/** @import { SessionRecord } from "../../sessions/mod.ts" */

/**
 * What `ui/api/tools` answers: the tools an agent gets, and more.
 * @typedef {ToolsBody} Listing
 */

/**
 * A tool as `ui/api/tools` lists it.
 * @typedef {ToolsBody["tools"][number]} ToolInfo
 */

/**
 * A call as the page shows it: one of the history's, or this tab's own
 * or a session's (which have no id until the history names them, and do
 * not say how they reached the daemon).
 * @typedef {Omit<CallRecord, "id" | "transport"> & { id?: string, transport?: CallRecord["transport"] }} PageCall
 */

/**
 * What `ui/api/events` sends: `{ type: "open" }` once connected, then the
 * history's events.
 * @typedef {{ type: "open" } | HistoryEvent} PageEvent
 */

/** A refused or failed request, with the daemon's status and message. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   */
  constructor(status, message) {
    super(message);
    /** The HTTP status; 401: the page's session ended. */
    this.status = status;
  }
}

/**
 * The one-time code the address's fragment brought (`#code=…`), which then
 * leaves the address bar; `undefined` when there is none.
 * @returns {string | undefined}
 */
export function takeCode() {
  const code = /(?:^#|&)code=([^&]*)/.exec(location.hash);
  if (code) history.replaceState(null, "", location.pathname + location.search);
  return code?.[1];
}

/**
 * @param {string} path
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
async function request(path, init = {}) {
  const response = await fetch(path, { ...init, credentials: "same-origin" });
  if (response.status === 401) {
    await response.body?.cancel();
    throw new ApiError(401, "the daemon refused this page's session");
  }
  return response;
}

/**
 * Trades a one-time code for the session cookie; throws the daemon's refusal.
 * @param {string} code
 * @returns {Promise<void>}
 */
export async function signIn(code) {
  const response = await fetch("beeuni/web/session", {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code }),
  });
  if (!response.ok) {
    throw new ApiError(response.status, await errorOf(response));
  }
}

/**
 * @param {Response} response
 * @returns {Promise<string>}
 */
async function errorOf(response) {
  try {
    const body = await response.json();
    if (typeof body?.error === "string") return body.error;
  } catch {
    // Not JSON: say what the status was.
  }
  return `the daemon answered HTTP ${response.status}`;
}

/**
 * GETs a JSON route of the page's API.
 * @param {string} path
 * @returns {Promise<any>}
 */
export async function getJson(path) {
  const response = await request(path);
  if (!response.ok) {
    throw new ApiError(response.status, await errorOf(response));
  }
  return await response.json();
}

/**
 * Calls tool `name`; resolves to the HTTP status and the JSON answer.
 * @param {string} name
 * @param {{ args: unknown, sessionId: string, agent: string }} body
 * @returns {Promise<{ status: number, body: Record<string, any> }>}
 */
export async function callTool(name, body) {
  const response = await request(`beeuni/tools/${encodeURIComponent(name)}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  let answer;
  try {
    answer = await response.json();
  } catch {
    answer = { error: `the daemon answered HTTP ${response.status}` };
  }
  return { status: response.status, body: answer };
}

/**
 * Stops every running call of session `id`; resolves to how many.
 * @param {string} id
 * @returns {Promise<number>}
 */
export async function stopSession(id) {
  const response = await request(
    `beeuni/sessions/${encodeURIComponent(id)}/stop`,
    { method: "POST" },
  );
  if (!response.ok) {
    throw new ApiError(response.status, await errorOf(response));
  }
  return (await response.json()).stopped;
}

/**
 * The bytes of a file a `show` call named, as a `data:` address of `mime`.
 * @param {string} path
 * @param {string} mime
 * @returns {Promise<string>}
 */
export async function fileDataUrl(path, mime) {
  const response = await request(
    `ui/api/file?path=${encodeURIComponent(path)}`,
  );
  if (!response.ok) {
    throw new ApiError(response.status, await errorOf(response));
  }
  const blob = new Blob([await response.arrayBuffer()], { type: mime });
  return await new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(/** @type {string} */ (reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/**
 * `{ type: "open" }` once connected, then the history's server-sent events, one at a time.
 * @param {AbortSignal} [signal]
 * @returns {AsyncGenerator<PageEvent, void>}
 */
export function events(signal) {
  return eventStream("ui/api/events", signal);
}

/**
 * `{ type: "open" }` once connected, then the session's records, live until its end.
 * @param {string} id
 * @param {AbortSignal} [signal]
 * @returns {AsyncGenerator<{ type: "open" } | SessionRecord, void>}
 */
export function sessionEvents(id, signal) {
  return eventStream(`ui/api/sessions/${encodeURIComponent(id)}`, signal);
}

/**
 * `{ type: "open" }` once connected, then the server-sent events of `path`.
 * @template T
 * @param {string} path
 * @param {AbortSignal} [signal]
 * @returns {AsyncGenerator<{ type: "open" } | T, void>}
 */
async function* eventStream(path, signal) {
  const response = await request(path, { signal });
  if (!response.ok || response.body === null) {
    throw new ApiError(response.status, await errorOf(response));
  }
  yield { type: "open" };
  const reader = response.body.pipeThrough(new TextDecoderStream())
    .getReader();
  let buffer = "";
  while (true) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split("\n")
        .filter((line) => line.startsWith("data: "))
        .map((line) => line.slice(6))
        .join("\n");
      if (data !== "") yield JSON.parse(data);
    }
  }
}
