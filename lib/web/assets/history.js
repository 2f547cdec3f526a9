// The history: every call the daemon runs, from any caller, as it happens
// (server-sent events read with fetch).

import { ApiError, events } from "./api.js";
import { duration, h } from "./dom.js";
import { outcomeText } from "./views.js";

const MAX_ROWS = 200;

function time(ms) {
  return new Date(ms).toLocaleTimeString([], { hour12: false });
}

/**
 * Starts following the history into `list` (an `<ol>`). `onOpen(record)`
 * runs when a row is clicked, `onCall(record, fresh)` when a call starts or
 * ends (`fresh`: the first the page heard of that call), `onReload(event)`
 * on each reload, `onStatus(text, ok)` when the connection changes,
 * `onDenied()` on a 401.
 */
export function followHistory(
  { list, onOpen, onCall, onReload, onStatus, onDenied },
) {
  const records = new Map();
  const rows = new Map();
  let selected = null;

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
                row.firstChild.classList.toggle("selected", id === selected);
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

  function show(record) {
    const row = rowOf(record);
    const old = rows.get(record.id);
    if (old) old.replaceWith(row);
    else list.prepend(row);
    rows.set(record.id, row);
    while (rows.size > MAX_ROWS) {
      const [id, oldest] = rows.entries().next().value;
      oldest.remove();
      rows.delete(id);
      records.delete(id);
    }
  }

  function take(event) {
    const known = records.get(event.id);
    if (event.type === "call-start") {
      const { type: _type, ...record } = event;
      records.set(event.id, known ? { ...known, ...record } : record);
      show(records.get(event.id));
      onCall(records.get(event.id), !known);
    } else if (event.type === "call-end") {
      const record = known ??
        { ...event, args: undefined, startedAt: Date.now() - event.durationMs };
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
