// @ts-check
/// <reference lib="dom" />
// The page: pick an agent, see its tools and the ones that did not load,
// call one from a generated form or raw JSON, stop it, see the outcome in
// the tool's view, and follow every call in the history.

import {
  ApiError,
  callTool,
  fileDataUrl,
  getJson,
  signIn,
  stopSession,
  takeCode,
} from "./api.js";
import { duration, fill, h, isObject } from "./dom.js";
import { createForm } from "./form.js";
import { followHistory } from "./history.js";
import { followSessions, showSession } from "./sessions.js";
import { outcomeText, renderCall } from "./views.js";

/** @import { Listing, PageCall, ToolInfo } from "./api.js" */
/** @import { Form } from "./form.js" */
/** @import { HistoryCall } from "./history.js" */

/**
 * The element of the page with id `id`: index.html has each one asked
 * for, or the tool pane made it.
 * @param {string} id
 * @returns {HTMLElement}
 */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/**
 * The text box, list or button of the page with id `id`.
 * @param {string} id
 * @returns {HTMLElement & { value: string, disabled: boolean }}
 */
const control = (
  id,
) => /** @type {HTMLTextAreaElement | HTMLSelectElement | HTMLButtonElement} */ (
  byId(id)
);
const AGENT_KEY = "beeuni-agent";
const sessionId = `web-${crypto.randomUUID().slice(0, 8)}`;
const ctx = { fileDataUrl };

const FRESH =
  "For a fresh address, run `beeuni web` in the project (or restart the daemon): each address opens the page once, within a minute.";
const NO_SESSION =
  `This page opens from the address on the daemon's "web ui:" line: it ends in #code=…. ${FRESH}`;
const USED_CODE =
  `The daemon refused the one-time code in this address: it was used already, is over a minute old, or is not this daemon's. ${FRESH}`;
const ENDED =
  `The daemon no longer accepts this page's session (HTTP 401): it stopped or restarted. ${FRESH}`;

/**
 * This tab's call, as `settle` completes it from the history.
 * @typedef {object} TabCall
 * @property {string} name The tool's name.
 * @property {string | undefined} id The history's id of it, once seen.
 * @property {HistoryCall | undefined} host The history's record of it.
 * @property {HTMLElement} [article] Where the result pane shows it.
 */

const state = {
  /** The agent whose tools are listed (set by the first listing). */
  agent: "",
  /** @type {Listing | null} */
  listing: null,
  /** @type {ToolInfo | null} */
  tool: null,
  /** @type {Form | null} */
  form: null,
  mode: "form",
  running: false,
  stopped: false,
  /**
   * This tab's latest call (see `settle`).
   * @type {TabCall | null}
   */
  run: null,
  /**
   * The id of the history's call the result pane shows, if it does.
   * @type {string | null}
   */
  opened: null,
  /** Counts history entries opened, so that only the last click wins. */
  opening: 0,
};

/**
 * The tools listed now: there is a listing once the page has opened.
 * @returns {Listing}
 */
function listing() {
  return /** @type {Listing} */ (state.listing);
}

/**
 * The form of the tool open now: there is one while a tool is open.
 * @returns {Form}
 */
function form() {
  return /** @type {Form} */ (state.form);
}

/**
 * The message of a thrown error.
 * @param {unknown} error
 * @returns {string}
 */
function messageOf(error) {
  return /** @type {Error} */ (error).message;
}

/** @param {string} message */
function fatal(message) {
  const box = byId("fatal");
  box.replaceChildren(h("strong", null, "Cannot open the tools. "), message);
  box.hidden = false;
  byId("app").hidden = true;
}

function denied() {
  fatal(ENDED);
}

/** @param {unknown} error */
function failed(error) {
  if (error instanceof ApiError && error.status === 401) denied();
  else fatal(`the daemon cannot be reached: ${messageOf(error)}`);
}

// ---- agents and tools ----------------------------------------------------

/**
 * The agents the picker offers: first the one a session gets (the agent a
 * call names when its caller names none), then the manifest's.
 * @param {Listing} listing
 * @returns {string[]}
 */
function agentChoices(listing) {
  return [
    listing.defaultAgent,
    ...listing.agents.filter((name) => name !== listing.defaultAgent),
  ];
}

/**
 * Lists the tools `agent` gets.
 * @param {string} agent
 */
async function loadTools(agent) {
  /** @type {Listing} */
  const listing = await getJson(
    `ui/api/tools?agent=${encodeURIComponent(agent)}`,
  );
  state.agent = agent;
  state.listing = listing;
  sessionStorage.setItem(AGENT_KEY, agent);
  renderAgents(listing);
  renderTools(listing);
}

/**
 * Lists the tools `agent` gets and keeps the open tool open (with its result), else opens the first.
 * @param {string} agent
 */
async function showAgent(agent) {
  await loadTools(agent);
  const { tools } = listing();
  const keep = tools.find((tool) => tool.name === state.tool?.name);
  if (keep) selectTool(keep, { keepResult: true });
  else if (tools.length > 0) selectTool(tools[0]);
  else {fill(
      byId("tool"),
      h("p", { class: "note" }, "This agent gets no tools."),
    );}
}

/** @param {Listing} listing */
function renderAgents(listing) {
  const names = agentChoices(listing);
  // An agent the manifest does not name (opened from the history) sees every tool.
  if (!names.includes(state.agent)) names.push(state.agent);
  /** @param {string} name */
  const label = (name) => {
    if (name === listing.defaultAgent) return `${name} (what a session gets)`;
    if (listing.agents.includes(name)) return name;
    return `${name} (not in the manifest: every tool)`;
  };
  const select = control("agent");
  select.replaceChildren(
    ...names.map((name) => h("option", { value: name }, label(name))),
  );
  select.value = state.agent;
}

/** @param {Listing} listing */
function renderTools(listing) {
  const list = h(
    "ul",
    { class: "tool-list" },
    listing.tools.map((tool) =>
      h(
        "li",
        null,
        h(
          "button",
          {
            type: "button",
            dataset: { tool: tool.name },
            class: tool.name === state.tool?.name ? "selected" : null,
            on: { click: () => selectTool(tool) },
          },
          h("strong", null, tool.name),
          h(
            "span",
            { class: `badge kind-${tool.kind.replace(/\W+/g, "-")}` },
            tool.kind,
          ),
          h("small", { class: "source" }, tool.source),
        ),
      )
    ),
  );
  const errors = listing.diagnostics.filter((d) => d.severity === "error");
  fill(
    byId("tools"),
    h(
      "h2",
      null,
      `Tools of ${state.agent}`,
      h("span", { class: "count" }, String(listing.tools.length)),
    ),
    list,
    listing.hidden.length > 0
      ? h(
        "p",
        { class: "note hidden-tools" },
        `Hidden from ${state.agent}: ${listing.hidden.join(", ")}`,
      )
      : null,
    listing.loadErrors.length > 0
      ? h(
        "section",
        { class: "load-errors" },
        h("h3", null, "Did not load"),
        h(
          "ul",
          null,
          listing.loadErrors.map((e) =>
            h(
              "li",
              { dataset: { tool: e.name } },
              h("strong", null, e.name),
              h("p", null, e.reason),
            )
          ),
        ),
      )
      : null,
    errors.length > 0
      ? h(
        "section",
        { class: "load-errors" },
        h("h3", null, "The manifest has errors"),
        h(
          "ul",
          null,
          errors.map((d) =>
            h("li", null, `${d.file}:${d.line}:${d.col}: ${d.message}`)
          ),
        ),
      )
      : null,
  );
}

// ---- one tool: form, run, stop -------------------------------------------

/**
 * The arguments in the tab shown; with `check`, the form marks its fields in error.
 * @param {{ check?: boolean }} [options]
 * @returns {{ value: unknown, errors: string[] }}
 */
function readArgs({ check = false } = {}) {
  if (state.mode === "json") {
    const text = control("raw-json").value.trim();
    if (text === "") return { value: {}, errors: [] };
    try {
      const value = JSON.parse(text);
      if (typeof value !== "object" || value === null || Array.isArray(value)) {
        return { value, errors: ["the arguments must be a JSON object"] };
      }
      return { value, errors: [] };
    } catch (error) {
      return {
        value: undefined,
        errors: [`the JSON is not valid: ${messageOf(error)}`],
      };
    }
  }
  return check ? form().check() : form().read();
}

/** @param {"form" | "json"} mode */
function setMode(mode) {
  const errors = byId("form-errors");
  errors.replaceChildren();
  if (mode === state.mode) return;
  if (mode === "json") {
    control("raw-json").value = JSON.stringify(form().read().value, null, 2);
  } else {
    const { value, errors: problems } = readArgs();
    if (problems.length > 0) {
      errors.replaceChildren(...problems.map((p) => h("li", null, p)));
      return;
    }
    form().write(value);
  }
  state.mode = mode;
  /** @type {NodeListOf<HTMLElement>} */
  const tabs = document.querySelectorAll(".tabs button");
  for (const tab of tabs) {
    tab.classList.toggle("selected", tab.dataset.mode === mode);
    tab.setAttribute("aria-selected", String(tab.dataset.mode === mode));
  }
  byId("form-pane").hidden = mode !== "form";
  byId("json-pane").hidden = mode !== "json";
}

/**
 * Marks tool `name` as the one open in the list (none for `null`).
 * @param {string | null} name
 */
function markTool(name) {
  /** @type {NodeListOf<HTMLElement>} */
  const buttons = document.querySelectorAll(".tool-list button");
  for (const button of buttons) {
    button.classList.toggle("selected", button.dataset.tool === name);
  }
}

/**
 * @param {ToolInfo} tool
 * @param {{ keepResult?: boolean }} [options]
 */
function selectTool(tool, { keepResult = false } = {}) {
  const result = keepResult ? byId("result") : null;
  if (!keepResult) state.opened = null;
  state.tool = tool;
  const toolForm = createForm(tool.parameters);
  state.form = toolForm;
  state.mode = "form";
  markTool(tool.name);
  fill(
    byId("tool"),
    h("h2", null, tool.name),
    h("p", { class: "description" }, tool.description),
    h("p", { class: "note" }, `${tool.kind} · ${tool.source}`),
    h(
      "details",
      { class: "schema" },
      h("summary", null, "Parameters (JSON Schema)"),
      h("pre", null, JSON.stringify(tool.parameters, null, 2)),
    ),
    h(
      "div",
      { class: "tabs", role: "tablist" },
      h("button", {
        type: "button",
        role: "tab",
        class: "selected",
        "aria-selected": "true",
        dataset: { mode: "form" },
        on: { click: () => setMode("form") },
      }, "Form"),
      h("button", {
        type: "button",
        role: "tab",
        "aria-selected": "false",
        dataset: { mode: "json" },
        on: { click: () => setMode("json") },
      }, "JSON"),
    ),
    h("div", { id: "form-pane", class: "form" }, toolForm.element),
    h(
      "div",
      { id: "json-pane", hidden: true },
      h("textarea", {
        id: "raw-json",
        rows: 6,
        spellcheck: "false",
        "aria-label": "Arguments as JSON",
      }),
    ),
    h("ul", { id: "form-errors", class: "error" }),
    h(
      "div",
      { class: "actions" },
      h("button", {
        type: "button",
        id: "run",
        class: "primary",
        disabled: state.running,
        on: { click: run },
      }, "Run"),
      h("button", {
        type: "button",
        id: "stop",
        disabled: !state.running,
        on: { click: stop },
      }, "Stop"),
      h(
        "span",
        { id: "run-status", class: "note" },
        state.running ? "Running…" : null,
      ),
    ),
    result ?? h("div", { id: "result", "aria-live": "polite" }),
  );
}

/**
 * How this tab's call ended, as the history words it.
 * @param {number} status
 * @param {Record<string, any>} body
 * @returns {NonNullable<PageCall["outcome"]>}
 */
function outcomeOf(status, body) {
  if (typeof body.output === "string") {
    return {
      ok: true,
      output: body.output,
      truncated: body.truncated,
      size: body.size,
      path: body.path,
    };
  }
  const error = String(body.error ?? `HTTP ${status}`);
  /** @type {"error" | "not_found" | "forbidden" | "aborted"} */
  let kind = "error";
  if (status === 404) kind = "not_found";
  else if (status === 403) kind = "forbidden";
  else if (state.stopped && / was aborted$/.test(error)) kind = "aborted";
  return { ok: false, status: kind, error };
}

/**
 * Shows this tab's call `record` in `result`; the history gives it the
 * host's id, duration and outcome (below).
 * @param {TabCall} run
 * @param {PageCall} record
 * @param {HTMLElement} result
 */
function showRun(run, record, result) {
  run.article = renderCall(record, ctx);
  result.replaceChildren(run.article);
  settle(run);
}

/**
 * The history's record of this tab's call: its start, seen while the call
 * runs, names the call's id; its end the host's duration and outcome word,
 * which the result shows as the history does.
 * @param {TabCall} run
 */
function settle(run) {
  const article = run.article;
  if (run.id === undefined || !article) return;
  article.dataset.id = run.id;
  const host = run.host;
  if (host?.outcome === undefined || article.dataset.state === "running") {
    return;
  }
  // `renderCall` made both.
  const [time, badge] = [".duration", "header .badge"].map((
    selector,
  ) => /** @type {Element} */ (article.querySelector(selector)));
  time.textContent = duration(host.durationMs);
  badge.textContent = outcomeText(host);
}

async function run() {
  if (state.running) return;
  const tool = /** @type {ToolInfo} */ (state.tool);
  const { value: args, errors } = readArgs({ check: true });
  byId("form-errors").replaceChildren(...errors.map((p) => h("li", null, p)));
  if (errors.length > 0) return;
  state.running = true;
  state.stopped = false;
  state.opened = null;
  control("run").disabled = true;
  control("stop").disabled = false;
  byId("run-status").textContent = "Running…";
  /** @type {PageCall} */
  const record = {
    name: tool.name,
    agent: state.agent,
    sessionId,
    args,
    startedAt: Date.now(),
  };
  /** @type {TabCall} */
  const call = { name: tool.name, id: undefined, host: undefined };
  state.run = call;
  const result = byId("result");
  showRun(call, record, result);
  try {
    const { status, body } = await callTool(tool.name, {
      args,
      sessionId,
      agent: state.agent,
    });
    record.outcome = outcomeOf(status, body);
    showRun(call, record, result);
    byId("run-status").textContent = "";
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) denied();
    else {byId("run-status").textContent =
        `The call did not reach the daemon: ${messageOf(error)}`;}
  } finally {
    state.running = false;
    control("run").disabled = false;
    control("stop").disabled = true;
  }
}

async function stop() {
  state.stopped = true;
  control("stop").disabled = true;
  try {
    await stopSession(sessionId);
  } catch (error) {
    byId("run-status").textContent = `Cannot stop the call: ${
      messageOf(error)
    }`;
  }
}

// ---- history -------------------------------------------------------------

/**
 * `value` as JSON with every object's keys in order, to compare two values.
 * @param {unknown} value
 * @returns {string}
 */
function canonical(value) {
  return JSON.stringify(
    value,
    (_key, item) =>
      isObject(item)
        ? Object.fromEntries(
          Object.entries(item).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
        )
        : item,
  );
}

/**
 * Puts `args` in the form, or in the JSON tab when the form cannot hold them as they are.
 * @param {unknown} args
 */
function fillArgs(args) {
  form().write(args);
  if (canonical(form().read().value) === canonical(args)) return;
  setMode("json");
  control("raw-json").value = JSON.stringify(args, null, 2) ?? "";
}

/**
 * The tool pane for a call of a tool `state.agent` does not get now: its name, why, and no form.
 * @param {string} name
 */
function showMissingTool(name) {
  state.tool = null;
  state.form = null;
  state.mode = "form";
  markTool(null);
  const failed = listing().loadErrors.find((e) => e.name === name);
  let why = `No tool "${name}" is loaded now`;
  if (failed) why = `Tool "${name}" did not load: ${failed.reason}`;
  else if (listing().hidden.includes(name)) {
    why =
      `Agent "${state.agent}" does not get tool "${name}": pick an agent that does to run it again`;
  }
  fill(
    byId("tool"),
    h("h2", null, name),
    h("p", { class: "note missing-tool" }, why),
    h("div", { id: "result", "aria-live": "polite" }),
  );
}

/**
 * Shows a call from the history in the result pane.
 * @param {HistoryCall} record
 */
function showOpened(record) {
  const call = renderCall(record, ctx);
  call.dataset.id = record.id;
  byId("result")?.replaceChildren(
    h("p", { class: "note from-history" }, "From the history:"),
    call,
  );
}

/**
 * Opens a call from the history as its caller made it: its agent, its tool
 * with its arguments in the form, and its result.
 * @param {HistoryCall} record
 */
async function openRecord(record) {
  const ticket = ++state.opening;
  if (record.agent !== state.agent) await loadTools(record.agent);
  if (ticket !== state.opening) return;
  const tool = listing().tools.find((t) => t.name === record.name);
  if (tool) {
    selectTool(tool);
    fillArgs(record.args);
  } else showMissingTool(record.name);
  state.opened = record.id;
  showOpened(record);
}

/**
 * A call's start or end, as the history took it (`fresh`: the first the page heard of it).
 * @param {HistoryCall} record
 * @param {boolean} fresh
 */
function onCall(record, fresh) {
  const run = state.run;
  if (
    run && run.id === undefined && fresh && !record.outcome &&
    record.sessionId === sessionId && record.name === run.name
  ) run.id = record.id;
  if (run && record.id === run.id) {
    run.host = record;
    settle(run);
  }
  if (record.id === state.opened) showOpened(record);
}

/**
 * Signs in with the address's code, if any; resolves to what to say should
 * the page have no session (a page that has one opens all the same).
 * @returns {Promise<string>}
 */
async function openSession() {
  const code = takeCode();
  if (code === undefined) return NO_SESSION;
  try {
    await signIn(code);
    return NO_SESSION;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return USED_CODE;
    return `The daemon did not take the one-time code: ${
      messageOf(error)
    }. ${FRESH}`;
  }
}

async function main() {
  const withoutSession = await openSession();
  try {
    /** @type {Listing} */
    const first = await getJson("ui/api/tools");
    const saved = sessionStorage.getItem(AGENT_KEY);
    const names = agentChoices(first);
    await showAgent(saved && names.includes(saved) ? saved : names[0]);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      fatal(withoutSession);
    } else failed(error);
    return;
  }
  const agents = control("agent");
  agents.addEventListener("change", () => {
    showAgent(agents.value).catch(failed);
  });
  followHistory({
    list: byId("calls"),
    onOpen: (record) => openRecord(record).catch(failed),
    onCall,
    onReload: (event) => {
      if (event.ok && event.changed) showAgent(state.agent).catch(failed);
    },
    onStatus: (text, ok) => {
      const live = byId("live");
      live.textContent = text;
      live.classList.toggle("ok", ok);
    },
    onDenied: denied,
  });
  /** @type {AbortController | null} */
  let watching = null;
  followSessions({
    list: byId("sessions"),
    onOpen: (session) => {
      watching?.abort();
      watching = new AbortController();
      state.tool = null;
      markTool(null);
      showSession(byId("tool"), session, ctx, watching.signal);
    },
  });
}

main();
