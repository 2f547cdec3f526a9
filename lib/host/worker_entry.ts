/**
 * Where the tool host's worker script is, in each form the toolkit ships in:
 *
 * - **source** (`deno run cli.ts`, `node cli.ts`, `bun cli.ts`, JSR): this
 *   file is `lib/host/worker_entry.ts`; the worker starts from
 *   `lib/host/_boot.js` beside it.
 * - **npm** (JavaScript emitted by `tsc`): this file is
 *   `lib/host/worker_entry.js`; the worker starts from `_worker.js` beside it.
 * - **bundle** (one file from `deno bundle`): this code is inside the bundle,
 *   whose URL is `import.meta.url`; nothing lies beside it. The worker starts
 *   the bundle file itself, with {@linkcode WORKER_MARKER} set in its
 *   `workerData`. The bundle's entry calls {@linkcode isWorkerRun} before it
 *   does anything else and, when it is true, runs the worker's code instead of
 *   the CLI.
 *
 * Also names the toolkit's own daemon entry in that form, for messages that
 * tell a user how to start it.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { workerData } from "node:worker_threads";

/** The `workerData` key that tells a bundle it runs as the host's worker. */
export const WORKER_MARKER = "beeuniWorker";

/** The forms the toolkit ships in. */
export type ToolkitForm = "source" | "npm" | "bundle";

/** How to start a host worker: the script and the `workerData` to add. */
export interface WorkerEntry {
  /** The form this code runs in. */
  form: ToolkitForm;
  /** The script to start the worker from. */
  url: URL;
  /** Keys to merge into the worker's `workerData`. */
  workerData: Record<string, unknown>;
}

const HERE = import.meta.url;

/** Which form this code runs in, told from this module's own URL. */
export function toolkitForm(url: string = HERE): ToolkitForm {
  const path = new URL(url).pathname;
  if (path.endsWith("/lib/host/worker_entry.ts")) return "source";
  if (path.endsWith("/lib/host/worker_entry.js")) return "npm";
  return "bundle";
}

/** Where the host's worker script is, and what marks it, for this form. */
export function workerEntry(url: string = HERE): WorkerEntry {
  switch (toolkitForm(url)) {
    case "source":
      return {
        form: "source",
        url: new URL("./_boot.js", url),
        workerData: {},
      };
    case "npm":
      return { form: "npm", url: new URL("./_worker.js", url), workerData: {} };
    default:
      return {
        form: "bundle",
        url: new URL(url),
        workerData: { [WORKER_MARKER]: true },
      };
  }
}

/** Whether this thread was started as the host's worker from a bundle. */
export function isWorkerRun(): boolean {
  return typeof workerData === "object" && workerData !== null &&
    (workerData as Record<string, unknown>)[WORKER_MARKER] === true;
}

/** Runs the host's worker code in this thread: what a bundle does when {@linkcode isWorkerRun}. */
export async function runWorker(): Promise<void> {
  await import("./_worker.ts");
}

function quote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word)
    ? word
    : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The shell command that starts this toolkit's daemon on `directory` with
 * the program `runtime` (e.g. `bun`), in the form this code runs in:
 * `bun <root>/daemon.ts --dir <directory>` from source,
 * `bun <package>/daemon.js --dir <directory>` from npm,
 * `bun <bundle> daemon --dir <directory>` from a bundle.
 */
export function daemonCommand(
  runtime: string,
  directory: string,
  url: string = HERE,
): string {
  const form = toolkitForm(url);
  const entry = form === "bundle" ? [fileURLToPath(url), "daemon"] : [
    fileURLToPath(
      new URL(`../../daemon.${form === "npm" ? "js" : "ts"}`, url),
    ),
  ];
  return [runtime, ...entry, "--dir", directory].map(quote).join(" ");
}
