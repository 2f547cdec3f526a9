// The web UI's form, history and agent picker in real Chromium, used the way
// a new user does: type, click Run, click a history entry, read the
// durations (W1). A real daemon, a real browser, one page per step.

import assert from "node:assert/strict";
import { beeuni, tempRepo } from "./_helpers.ts";
import { startDaemon, type TestDaemon, waitFor } from "./_daemon.ts";
import {
  type Browser,
  finished,
  launchChromium,
  openPage,
  outputText,
  type Page,
  pickTool,
  toolNames,
} from "./_web.ts";

// The manifest's first agent sees one tool: a page opening on it would hide
// the others.
const MANIFEST = `tools:
  memory: beeuni:memory
  show: beeuni:show
  sign_up: tools/sign_up.ts
  nap: tools/nap.ts
agents:
  alpha:
    tools: [memory]
  zeta:
    tools: [show, sign_up]
`;

const SIGN_UP = `export default {
  description: "Signs someone up: echoes what it got.",
  parameters: {
    type: "object",
    properties: {
      name: { type: "string", description: "Full name" },
      nickname: { type: "string" },
      age: { type: "integer" },
      team: { type: "string", enum: ["red", "blue"] },
      code: { type: "string", minLength: 0, description: "May be empty" },
      address: {
        type: "object",
        properties: { city: { type: "string" }, street: { type: "string" } },
        required: ["city"],
      },
    },
    required: ["name", "team", "code"],
  },
  execute: (args) => ({ got: args }),
};
`;

// Takes a while, so that what the host measures and what a page would
// measure around its request differ.
const NAP = `export default {
  description: "Naps, then answers with 60,000 characters.",
  parameters: { type: "object", properties: { ms: { type: "integer" } } },
  async execute(args) {
    await new Promise((resolve) => setTimeout(resolve, args.ms ?? 120));
    return "z".repeat(60000);
  },
};
`;

/** A fresh one-time address of the page (each opens one browser context). */
async function freshAddress(daemon: TestDaemon): Promise<string> {
  const response = await daemon.fetch("/beeuni/web/code", { method: "POST" });
  assert.equal(response.status, 200);
  return (await response.json()).url;
}

/** The page's own session id, from the call in the result area. */
async function sessionOf(call: Page): Promise<string> {
  const who = await call.locator("header .note").first().textContent();
  return /session (web-[0-9a-f]{8})$/.exec(who)![1];
}

/** The arguments sign_up got, from the output of the call in the result area. */
async function got(page: Page): Promise<unknown> {
  return JSON.parse(await outputText(page)).got;
}

/** A duration as the page writes it: `85 ms`, `2.4 s`. */
function shown(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** The history's finished row of a call of `tool` whose row holds `text`. */
async function endedRow(page: Page, text: string, tool = ""): Promise<Page> {
  const which = tool === "" ? "" : `[data-tool="${tool}"]`;
  const row = page.locator(`#calls li${which}:not([data-state="running"])`, {
    hasText: text,
  });
  await row.waitFor();
  return row;
}

/**
 * Opens the page at a fresh address, waits until it follows the history,
 * runs `steps` on it, and checks that no script of the page failed.
 */
async function onFreshPage(
  daemon: TestDaemon,
  browser: Browser,
  steps: (page: Page) => Promise<void>,
): Promise<void> {
  const ui = await openPage(browser, await freshAddress(daemon));
  try {
    await ui.page.locator("#live.ok").waitFor();
    await steps(ui.page);
    assert.deepEqual(ui.errors, []);
  } finally {
    await ui.close();
  }
}

async function requiredFields(daemon: TestDaemon, page: Page) {
  await pickTool(page, "sign_up");
  // Nothing typed: Run stops at the two required fields left empty and
  // marks them; `code` may be empty ("minLength: 0"), so it is not marked.
  await page.click("#run");
  assert.deepEqual(
    await page.locator("#form-errors li").allTextContents(),
    [
      '"name" is required: fill it in',
      '"team" is required: choose a value',
    ],
  );
  const name = page.locator('[data-field="name"]');
  assert.match(await name.getAttribute("class"), /\binvalid\b/);
  assert.equal(
    await page.getAttribute('[data-path="name"]', "aria-invalid"),
    "true",
  );
  assert.equal(
    await name.locator(".field-error").textContent(),
    "Required: fill it in",
  );
  assert.equal(
    await page.locator('[data-field="team"] .field-error').textContent(),
    "Required: choose a value",
  );
  assert.equal(await page.locator('[data-field="code"].invalid').count(), 0);
  assert.equal(
    await page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).document.activeElement.dataset.path
    ),
    "name",
  );
  // No call was made.
  assert.equal(await page.locator("#result article.call").count(), 0);

  // Typing in a marked field takes its mark off.
  await page.fill('[data-path="name"]', "Ada Lovelace");
  assert.equal(await name.locator(".field-error").count(), 0);
  assert.equal(
    await page.getAttribute('[data-path="name"]', "aria-invalid"),
    null,
  );

  // A field of an optional object filled, its required one left empty.
  await page.selectOption('[data-path="team"]', { label: "red" });
  await page.fill('[data-path="address.street"]', "12 Quay Street");
  await page.click("#run");
  assert.deepEqual(
    await page.locator("#form-errors li").allTextContents(),
    ['"address.city" is required: fill it in'],
  );
  assert.equal(await page.locator("#result article.call").count(), 0);

  // Optional fields left empty are left out, the optional object too;
  // the field whose schema takes "" sends "".
  await page.fill('[data-path="address.street"]', "");
  await page.click("#run");
  const call = await finished(page);
  assert.equal(await call.getAttribute("data-state"), "ok");
  assert.deepEqual(await got(page), {
    name: "Ada Lovelace",
    team: "red",
    code: "",
  });
  assert.deepEqual(
    await page.locator("#form-errors li").allTextContents(),
    [],
  );
  // The two stopped Runs reached no one: this page's session made one call.
  const session = await sessionOf(call);
  await waitFor(
    "the call to reach the history",
    async () =>
      await page.locator("#calls li", { hasText: session }).count() === 1,
  );
  assert.equal(
    daemon.stderr().split("\n").filter((line) =>
      line.includes(`session=${session}`)
    ).length,
    1,
  );
}

async function historyEntries(daemon: TestDaemon, page: Page) {
  // A call from the form, then another tool's call.
  await pickTool(page, "sign_up");
  await page.fill('[data-path="name"]', "Grace Hopper");
  await page.fill('[data-path="age"]', "85");
  await page.selectOption('[data-path="team"]', { label: "blue" });
  await page.click("#run");
  const session = await sessionOf(await finished(page));
  await pickTool(page, "show");
  await page.selectOption('[data-path="type"]', { label: "markdown" });
  await page.fill('[data-path="content"]', "# Notes");
  await page.click("#run");
  await finished(page);

  // The first call, opened from the history: its tool, its arguments in
  // the form, its result.
  const row = await endedRow(page, session, "sign_up");
  await row.locator("button").click();
  await page.locator("#result .from-history").waitFor();
  assert.equal(await page.locator("#tool h2").textContent(), "sign_up");
  assert.equal(
    await page.getAttribute(".tool-list button.selected", "data-tool"),
    "sign_up",
  );
  assert.equal(await page.inputValue('[data-path="name"]'), "Grace Hopper");
  assert.equal(await page.inputValue('[data-path="age"]'), "85");
  assert.equal(
    await page.locator('[data-path="team"] option:checked').textContent(),
    "blue",
  );
  const opened = page.locator("#result article.call");
  assert.equal(
    await opened.getAttribute("data-id"),
    await row.getAttribute("data-id"),
  );
  assert.equal(await opened.getAttribute("data-tool"), "sign_up");
  assert.deepEqual(await got(page), {
    name: "Grace Hopper",
    age: 85,
    team: "blue",
    code: "",
  });
  // Run from there runs it again, as it was.
  await page.click("#run");
  assert.equal(await page.locator("#result .from-history").count(), 0);
  await finished(page);
  assert.deepEqual(await got(page), {
    name: "Grace Hopper",
    age: 85,
    team: "blue",
    code: "",
  });

  // A call another agent made (with curl, say): the page switches to that
  // agent, its tool and its arguments.
  const other = await daemon.call("memory", {
    args: { command: "view", path: "." },
    sessionId: "curl-alpha",
    agent: "alpha",
  });
  assert.equal(other.status, 200);
  await (await endedRow(page, "curl-alpha")).locator("button").click();
  await page.locator("#tool h2", { hasText: "memory" }).waitFor();
  assert.equal(await page.inputValue("#agent"), "alpha");
  assert.deepEqual(await toolNames(page), ["memory"]);
  assert.equal(
    await page.locator('[data-path="command"] option:checked').textContent(),
    "view",
  );
  assert.equal(await page.inputValue('[data-path="path"]'), ".");
  assert.equal(
    await page.locator("#result article.call").getAttribute("data-tool"),
    "memory",
  );

  // Arguments the form cannot hold as they are (a string where the schema
  // wants a whole number) open in the JSON tab, exactly.
  const odd = { name: "Linus", team: "red", code: "x", age: "old" };
  await daemon.call("sign_up", {
    args: odd,
    sessionId: "curl-odd",
    agent: "zeta",
  });
  await (await endedRow(page, "curl-odd")).locator("button").click();
  await page.locator("#tool h2", { hasText: "sign_up" }).waitFor();
  assert.equal(await page.inputValue("#agent"), "zeta");
  assert.equal(await page.locator("#json-pane").isVisible(), true);
  assert.deepEqual(JSON.parse(await page.inputValue("#raw-json")), odd);

  // A call of a tool the agent does not get: the tool's name, why, and
  // the refusal; no form of another tool.
  const refused = await daemon.call("sign_up", {
    args: { name: "Eve" },
    sessionId: "curl-refused",
    agent: "alpha",
  });
  assert.equal(refused.status, 403);
  await (await endedRow(page, "curl-refused")).locator("button")
    .click();
  await page.locator("#tool .missing-tool").waitFor();
  assert.equal(await page.inputValue("#agent"), "alpha");
  assert.equal(await page.locator("#tool h2").textContent(), "sign_up");
  assert.equal(
    await page.locator("#tool .missing-tool").textContent(),
    'Agent "alpha" does not get tool "sign_up": pick an agent that does to run it again',
  );
  assert.equal(await page.locator("#form-pane").count(), 0);
  assert.equal(await page.locator(".tool-list button.selected").count(), 0);
  assert.match(
    await page.locator("#result .call-error").textContent(),
    /agent "alpha" may not use tool "sign_up"/,
  );
}

async function durations(daemon: TestDaemon, page: Page) {
  await pickTool(page, "nap");
  await page.fill('[data-path="ms"]', "150");
  await page.click("#run");
  const call = await finished(page);
  const session = await sessionOf(call);
  // The host's measure: its log line, and the history's call-end event.
  let hostMs = -1;
  await waitFor("the host to log the call", () => {
    const line = new RegExp(
      `\\[tools\\] call nap agent=beeuni session=${session} (\\d+)ms ok`,
    ).exec(daemon.stderr());
    if (line) hostMs = Number(line[1]);
    return line !== null;
  });
  assert.ok(hostMs >= 150, String(hostMs));
  const row = await endedRow(page, session);
  await call.locator(".duration", { hasText: /\S/ }).waitFor();
  assert.equal(await call.locator(".duration").textContent(), shown(hostMs));
  assert.equal(await row.locator(".duration").textContent(), shown(hostMs));
  // Both are this call.
  assert.equal(
    await call.getAttribute("data-id"),
    await row.getAttribute("data-id"),
  );
  // Opened from the history, the call shows the same.
  await row.locator("button").click();
  await page.locator("#result .from-history").waitFor();
  assert.equal(
    await page.locator("#result .duration").textContent(),
    shown(hostMs),
  );
}

async function defaultView(page: Page, dir: string) {
  assert.equal(await page.inputValue("#agent"), "beeuni");
  assert.deepEqual(
    await page.locator("#agent option").evaluateAll(
      (options: { value: string; textContent: string }[]) =>
        options.map((o) => [o.value, o.textContent]),
    ),
    [
      ["beeuni", "beeuni (what a session gets)"],
      ["alpha", "alpha"],
      ["zeta", "zeta"],
    ],
  );
  // The tools `beeuni tools ls` lists, with their kinds and sources, in
  // its order, and none hidden.
  const ls = await beeuni(dir, ["tools", "ls", "--json"]);
  assert.equal(ls.code, 0, ls.stderr);
  assert.deepEqual(
    await page.locator(".tool-list button").evaluateAll(
      (buttons: { textContent: string }[]) => buttons.map((b) => b.textContent),
    ),
    JSON.parse(ls.stdout).tools.map((t: Record<string, string>) =>
      t.name + t.kind + t.source
    ),
  );
  assert.equal(await page.locator(".hidden-tools").count(), 0);
  // A run from the default view is a call as agent "beeuni".
  await pickTool(page, "show");
  await page.selectOption('[data-path="type"]', { label: "markdown" });
  await page.fill('[data-path="content"]', "hello");
  await page.click("#run");
  const call = await finished(page);
  assert.equal(await call.getAttribute("data-state"), "ok");
  assert.match(
    await call.locator("header .note").first().textContent(),
    /^agent beeuni · /,
  );
  // The manifest's agents come after it.
  await page.selectOption("#agent", "alpha");
  await page.locator("#tools h2", { hasText: "alpha" }).waitFor();
  assert.deepEqual(await toolNames(page), ["memory"]);
}

Deno.test("the web UI's form, history and agent picker do what a user expects (W1)", async (t) => {
  await using repo = await tempRepo({
    "beeuni.yaml": MANIFEST,
    "tools/sign_up.ts": SIGN_UP,
    "tools/nap.ts": NAP,
  });
  const daemon = await startDaemon(repo.dir, { args: ["--no-opencode"] });
  const browser: Browser = await launchChromium();
  try {
    await t.step(
      "the page opens on what a session gets, agent beeuni (every tool `beeuni tools ls` lists), with the manifest's agents after it (M4, A1)",
      () => onFreshPage(daemon, browser, (page) => defaultView(page, repo.dir)),
    );
    await t.step(
      "Run stops at a required field left empty, marking it with a message; optional fields left empty are left out, not sent as empty strings (W1)",
      () =>
        onFreshPage(daemon, browser, (page) => requiredFields(daemon, page)),
    );
    await t.step(
      "a history entry opens its own call: its agent, its tool, its arguments in the form (or the JSON tab) and its result (W1)",
      () =>
        onFreshPage(daemon, browser, (page) => historyEntries(daemon, page)),
    );
    await t.step(
      "the result and the history show one duration for a call, the host's (W1)",
      () => onFreshPage(daemon, browser, (page) => durations(daemon, page)),
    );
  } finally {
    await browser.close();
    await daemon.stop();
  }
});
