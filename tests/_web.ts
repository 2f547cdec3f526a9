// Helpers of the web UI tests: Debian's Chromium driven by playwright-core
// (installed from npm into the test cache), and pages that record dialogs
// and script errors.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { npmBin, npmCacheDir, testHomeEnv } from "./_npm_cache.ts";
import { startDaemon, type StartOptions, type TestDaemon } from "./_daemon.ts";

/** The playwright-core release the tests drive Chromium with. */
export const PLAYWRIGHT_VERSION = "1.65.1";
const CHROMIUM = "/usr/bin/chromium";

// The parts of playwright-core's API the tests use.
// deno-lint-ignore no-explicit-any
export type Page = any;
// deno-lint-ignore no-explicit-any
export type Browser = any;

async function ensureChromium(): Promise<void> {
  if (existsSync(CHROMIUM)) return;
  const out = await new Deno.Command("sh", {
    args: ["-c", "apt-get update && apt-get install -y chromium"],
    stdout: "piped",
    stderr: "piped",
    env: { DEBIAN_FRONTEND: "noninteractive" },
  }).output();
  if (!out.success || !existsSync(CHROMIUM)) {
    throw new Error(
      `cannot install Debian's chromium with apt-get: ${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
}

// deno-lint-ignore no-explicit-any
async function playwrightChromium(): Promise<any> {
  await ensureChromium();
  await npmBin("playwright-core", PLAYWRIGHT_VERSION, "playwright-core");
  const require = createRequire(
    join(npmCacheDir("playwright-core", PLAYWRIGHT_VERSION), "node_modules/"),
  );
  return require("playwright-core").chromium;
}

/** Debian's Chromium, headless, with the flags that keep it off the network. */
function chromiumOptions(): Record<string, unknown> {
  return {
    executablePath: CHROMIUM,
    headless: true,
    // Chromium writes crash-report settings and a dconf cache into its home.
    env: { ...Deno.env.toObject(), ...testHomeEnv("chromium") },
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  };
}

/**
 * Debian's Chromium, headless, off the network (a fresh profile in a
 * temporary folder, made by Playwright).
 */
export async function launchChromium(): Promise<Browser> {
  const chromium = await playwrightChromium();
  return await chromium.launch(chromiumOptions());
}

/**
 * Debian's Chromium, headless, off the network, with its profile kept in
 * `userDataDir` (as a user's browser keeps it): one browser context, which
 * closing ends the browser.
 */
export async function launchPersistentChromium(
  userDataDir: string,
): Promise<Browser> {
  const chromium = await playwrightChromium();
  return await chromium.launchPersistentContext(userDataDir, {
    ...chromiumOptions(),
    viewport: { width: 1440, height: 960 },
  });
}

/** An attribute of an element in the page. */
interface Attr {
  name: string;
  value: string;
}

/** A page, with every dialog it opened and every script error it hit. */
export interface WatchedPage {
  page: Page;
  /** The messages of `alert`, `confirm` and `prompt` dialogs (each dismissed). */
  dialogs: string[];
  /** Uncaught script errors. */
  errors: string[];
  close(): Promise<void>;
}

/** Opens a fresh browser context (its own storage) and a page in it; closing it closes the context. */
export async function openPage(
  browser: Browser,
  url: string,
): Promise<WatchedPage> {
  const context = await browser.newContext({
    viewport: { width: 1440, height: 960 },
  });
  return await openTab(context, url, () => context.close());
}

/** Opens a page (a tab) at `url` in `context`, sharing its storage; closing it closes the tab (or does `close`). */
export async function openTab(
  context: Browser,
  url: string,
  close?: () => Promise<void>,
): Promise<WatchedPage> {
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on("dialog", (dialog: Page) => {
    dialogs.push(dialog.message());
    dialog.dismiss().catch(() => {});
  });
  page.on("pageerror", (error: Error) => errors.push(error.message));
  await page.goto(url);
  return { page, dialogs, errors, close: close ?? (() => page.close()) };
}

/**
 * Elements on the page that tool output could have injected: scripts,
 * frames, plugins, anything whose id starts with `xss`, any attribute that
 * is an event handler or a `javascript:` address.
 */
export async function injected(page: Page): Promise<string[]> {
  return await page.evaluate(() => {
    // Runs in the page, where `document` exists.
    // deno-lint-ignore no-explicit-any
    const document = (globalThis as any).document;
    const found: string[] = [];
    for (const element of document.querySelectorAll("body *")) {
      const tag = element.tagName.toLowerCase();
      if (["script", "iframe", "object", "embed", "frame"].includes(tag)) {
        found.push(tag);
      }
      if (element.id.startsWith("xss")) found.push(`#${element.id}`);
      for (const attribute of element.attributes as Attr[]) {
        if (
          attribute.name.startsWith("on") ||
          /^\s*javascript:/i.test(attribute.value)
        ) found.push(`${tag}[${attribute.name}]`);
      }
    }
    return found;
  });
}

/** Saves a screenshot to `$BEEUNI_SCREENSHOTS/<name>.png` when that is set (`deno task screenshots`). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = Deno.env.get("BEEUNI_SCREENSHOTS");
  if (!dir) return;
  await Deno.mkdir(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}

// ---- driving the page ----------------------------------------------------

/** The web UI's address a daemon printed (`web ui: http://127.0.0.1:P/w/<hex>/#code=<code>`). */
export function uiAddress(daemon: TestDaemon): string {
  return /^web ui: (http:\/\/\S+)$/m.exec(daemon.stdout())![1];
}

/** Picks tool `name` in the page's list and waits for its form. */
export async function pickTool(page: Page, name: string): Promise<void> {
  await page.click(`.tool-list button[data-tool="${name}"]`);
  await page.locator("#tool h2", { hasText: name }).waitFor();
}

/** The finished call shown in the result area. */
export async function finished(page: Page): Promise<Page> {
  const call = page.locator('#result article.call:not([data-state="running"])');
  await call.waitFor();
  return call;
}

/** Runs `name` with `args` typed into the raw JSON editor. */
export async function runJson(
  page: Page,
  name: string,
  args: Record<string, unknown>,
): Promise<Page> {
  await pickTool(page, name);
  await page.click('.tabs button[data-mode="json"]');
  await page.fill("#raw-json", JSON.stringify(args));
  await page.click("#run");
  return await finished(page);
}

/** The output, as text, of the call in the result area. */
export async function outputText(page: Page): Promise<string> {
  return await page.locator("#result pre.raw-output").textContent();
}

/** The tools in the tool list, in order. */
export function toolNames(page: Page): Promise<string[]> {
  return page.locator(".tool-list button").evaluateAll(
    (buttons: { dataset: { tool: string } }[]) =>
      buttons.map((b) => b.dataset.tool),
  );
}

/** What {@linkcode checkPageWorks} checks, as a check's name. */
export const PAGE_WORKS =
  "the daemon's web UI, opened in Chromium from the address it prints, lists the tools, runs one and renders Markdown (W1)";

/**
 * Starts a daemon with `options` on `dir` (a copy of the starter project),
 * `--no-opencode` added to its `argv` (the page needs no opencode files),
 * opens its web UI from the address it printed, as a user does, and checks
 * what every form of the toolkit must serve: the page signs in and lists
 * the tools, runs `word_count` from its form, and renders a `show` of
 * Markdown through marked and DOMPurify (the libraries the daemon serves
 * beside the page), with no script error.
 */
export async function checkPageWorks(
  browser: Browser,
  dir: string,
  options: StartOptions,
): Promise<void> {
  const argv = options.argv && [...options.argv, "--no-opencode"];
  await using daemon = await startDaemon(dir, { ...options, argv });
  const ui = await openPage(browser, uiAddress(daemon));
  try {
    const page = ui.page;
    await page.locator("#live.ok").waitFor();
    await pickTool(page, "word_count");
    await page.fill('[data-path="text"]', "one two one");
    await page.click("#run");
    const counted = await finished(page);
    assert.equal(await counted.getAttribute("data-state"), "ok");
    assert.match(await counted.textContent(), /"distinct_words": 2/);
    const shown = await runJson(page, "show", {
      type: "markdown",
      content: "# Notes\n\n| a | b |\n| - | - |\n| 1 | 2 |\n",
    });
    await shown.locator('.markdown[data-state="rendered"] table').waitFor();
    assert.equal(
      await shown.locator(".markdown h1").textContent(),
      "Notes",
    );
    assert.deepEqual(ui.errors, []);
    assert.deepEqual(ui.dialogs, []);
  } finally {
    await ui.close();
  }
}
