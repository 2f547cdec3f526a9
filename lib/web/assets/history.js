// @ts-check
/// <reference lib="dom" />
// The history: every call the daemon runs, from any caller, as it happens
// (server-sent events read with fetch).

import { ApiError, events } from "./api.js";
import { duration, h } from "./dom.js";
import { outcomeText } from "./views.js";

/** @import { PageCall } from "./api.js" */
/** @import { HistoryEvent } from "../_history.ts" */

/**
 * A call of the history: it has its id.
 * @typedef {PageCall & { id: string }} HistoryCall
 */

const MAX_ROWS = 200;

/**
 * @param {number} ms
 * @returns {string}
 */
function time(ms) {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}

/**
 * Starts following the history into `list` (an `<ol>`). `onOpen(record)`
 * runs when a row is clicked, `onCall(record, fresh)` when a call starts or
 * ends (`fresh`: the first the page heard of that call), `onReload(event)`
 * on each reload, `onStatus(text, ok)` when the connection changes,
 * `onDenied()` on a 401.
 * @param {object} options
 * @param {HTMLElement} options.list
 * @param {(record: HistoryCall) => void} options.onOpen
 * @param {(record: HistoryCall, fresh: boolean) => void} options.onCall
 * @param {(event: Extract<HistoryEvent, { type: "reload" }>) => void} options.onReload
 * @param {(text: string, ok: boolean) => void} options.onStatus
 * @param {() => void} options.onDenied
 * @returns {void}
 */
export function followHistory(
  { list, onOpen, onCall, onReload, onStatus, onDenied },
) {
  /** @type {Map<string, HistoryCall>} */
  const records = new Map();
  /** @type {Map<string, HTMLElement>} */
  const rows = new Map();
  /** @type {string | null} */
  let selected = null;

  /**
   * @param {HistoryCall} record
   * @returns {HTMLElement}
   */
  function rowOf(record) {
    const state = outcomeText(record);
    const kind = !record.outcome
      ? "running"
      : record.outcome.ok
      ? "ok"
      : "error";
    return h(
      "li",
      { dataset: { id: record.id, tool: record.name, state: kind } },
      h(
        "button",
        {
          type: "button",
          class: record.id === selected ? "selected" : null,
          on: {
            click: () => {
              selected = record.id;
              for (const [id, row] of rows) {
                row.firstElementChild?.classList.toggle(
                  "selected",
                  id === selected,
                );
              }
              onOpen(record);
            },
          },
        },
        h("span", { class: "time" }, time(record.startedAt)),
        h("strong", { class: "tool-name" }, record.name),
        h("span", { class: `badge state-${kind}` }, state),
        h("span", { class: "who" }, `${record.agent} · ${record.sessionId}`),
        h("span", { class: "duration" }, duration(record.durationMs)),
      ),
    );
  }

  /** @param {HistoryCall} record */
  function show(record) {
    const row = rowOf(record);
    const old = rows.get(record.id);
    if (old) old.replaceWith(row);
    else list.prepend(row);
    rows.set(record.id, row);
    for (const [id, oldest] of rows) {
      if (rows.size <= MAX_ROWS) break;
      oldest.remove();
      rows.delete(id);
      records.delete(id);
    }
  }

  /** @param {HistoryEvent} event */
  function take(event) {
    if (event.type === "call-start") {
      const known = records.get(event.id);
      const { type: _type, ...start } = event;
      const record = known ? { ...known, ...start } : start;
      records.set(event.id, record);
      show(record);
      onCall(record, !known);
    } else if (event.type === "call-end") {
      const known = records.get(event.id);
      const { type: _type, ...end } = event;
      /** @type {HistoryCall} */
      const record = known ??
        { ...end, args: undefined, startedAt: Date.now() - event.durationMs };
      record.durationMs = event.durationMs;
      record.outcome = event.outcome;
      records.set(event.id, record);
      show(record);
      onCall(record, !known);
    } else if (event.type === "reload") onReload(event);
  }

  (async () => {
    while (true) {
      try {
        onStatus("connecting", false);
        for await (const event of events()) {
          if (event.type === "open") onStatus("live", true);
          else take(event);
        }
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          onDenied();
          return;
        }
      }
      onStatus("reconnecting", false);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  })();
}
