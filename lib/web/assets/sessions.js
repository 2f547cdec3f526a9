// @ts-check
/// <reference lib="dom" />
// The project's sessions (`beeuni sessions new`): the list, and one
// session's log, live while it runs, each tool call in its tool's view.

import { ApiError, getJson, sessionEvents } from "./api.js";
import { fill, h } from "./dom.js";
import { renderCall } from "./views.js";

/** @import { SessionRecord, SessionSummary } from "../../sessions/mod.ts" */
/** @import { PageCall } from "./api.js" */
/** @import { ViewContext } from "./views.js" */

/**
 * A tool call's record of a session.
 * @typedef {Extract<SessionRecord, { type: "tool-call" }>} ToolCallRecord
 */

/**
 * A tool call's answer in a session.
 * @typedef {Extract<SessionRecord, { type: "tool-result" }>} ToolResultRecord
 */

const REFRESH_MS = 3000;

/**
 * A session's tool call as the history's record, for the tool views.
 * @param {SessionSummary} session
 * @param {{ callId: string, name: string, args: unknown }} call
 * @param {ToolResultRecord} [result]
 * @returns {PageCall}
 */
function callRecord(session, call, result) {
  return {
    id: `${session.id}:${call.callId}`,
    name: call.name,
    agent: session.agent,
    sessionId: session.id,
    args: call.args,
    startedAt: Date.parse(session.startedAt),
    durationMs: result?.durationMs,
    outcome: result === undefined
      ? undefined
      : result.status === "ok"
      ? { ok: true, output: result.output }
      : { ok: false, status: result.status, error: result.output },
  };
}

/**
 * Keeps `list` (an `<ol>`) filled with the project's sessions, newest
 * first; `onOpen(session)` runs when one is clicked.
 * @param {object} options
 * @param {HTMLElement} options.list
 * @param {(session: SessionSummary) => void} options.onOpen
 * @returns {void}
 */
export function followSessions({ list, onOpen }) {
  /** @type {string | null} */
  let selected = null;
  async function refresh() {
    /** @type {SessionSummary[]} */
    let sessions;
    try {
      ({ sessions } = await getJson("ui/api/sessions"));
    } catch {
      return;
    }
    fill(
      list,
      ...sessions.map((session) =>
        h(
          "li",
          { dataset: { id: session.id, state: session.status } },
          h(
            "button",
            {
              type: "button",
              class: session.id === selected ? "selected" : null,
              on: {
                click: () => {
                  selected = session.id;
                  onOpen(session);
                  refresh();
                },
              },
            },
            h("strong", { class: "tool-name" }, session.id),
            h(
              "span",
              { class: `badge state-${session.status}` },
              session.status,
            ),
            h("span", { class: "who" }, `${session.agent} · ${session.model}`),
          ),
        )
      ),
    );
  }
  refresh();
  setInterval(refresh, REFRESH_MS);
}

/**
 * Shows `session`'s log in `pane`, live until it ends or `signal` aborts:
 * the prompt, the model's text, each call in its tool's view, the end.
 * @param {HTMLElement} pane
 * @param {SessionSummary} session
 * @param {ViewContext} ctx
 * @param {AbortSignal} signal
 * @returns {Promise<void>}
 */
export async function showSession(pane, session, ctx, signal) {
  const log = h("div", { class: "session-log" });
  fill(
    pane,
    h("h2", null, `Session ${session.id}`),
    h(
      "p",
      { class: "note" },
      `agent ${session.agent} · ${session.harness} · ${session.model} · started ${session.startedAt}`,
    ),
    log,
  );
  /** @type {Map<string, { call: ToolCallRecord, shown: HTMLElement }>} */
  const calls = new Map();
  try {
    for await (const record of sessionEvents(session.id, signal)) {
      if (record.type === "start") {
        log.append(
          h("h3", null, "Prompt"),
          h("pre", { class: "prompt" }, record.prompt),
        );
      } else if (record.type === "text") {
        log.append(h("pre", { class: "model-text" }, record.text));
      } else if (record.type === "tool-call") {
        const shown = renderCall(callRecord(session, record), ctx);
        calls.set(record.callId, { call: record, shown });
        log.append(shown);
      } else if (record.type === "tool-result") {
        const entry = calls.get(record.callId);
        const call = entry?.call ??
          { callId: record.callId, name: record.name, args: {} };
        const shown = renderCall(callRecord(session, call, record), ctx);
        if (entry) entry.shown.replaceWith(shown);
        else log.append(shown);
      } else if (record.type === "end") {
        log.append(
          h(
            "p",
            { class: `session-end state-${record.status}` },
            record.status === "done"
              ? "The session ended."
              : `The session failed: ${record.error ?? ""}`,
          ),
        );
      }
    }
  } catch (error) {
    if (signal.aborted) return;
    log.append(
      h(
        "p",
        { class: "error" },
        error instanceof ApiError ? error.message : String(error),
      ),
    );
  }
}
