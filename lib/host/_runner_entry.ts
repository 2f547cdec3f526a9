// Where the runner program is, in each form the toolkit ships in, told from
// this module's own URL:
//
// - source (`deno run cli.ts`, `node cli.ts`, `bun cli.ts`, JSR): this file
//   is `lib/host/_runner_entry.ts`; runners start from `_runner_main.ts`
//   beside it;
// - npm (JavaScript emitted by `tsc`): the same with `.js`;
// - bundle (one file from `deno bundle`): this code is inside the bundle and
//   nothing lies beside it; runners start the bundle file itself with the
//   runner marker as its first argument, which its entry checks first.
//
// Also names the toolkit's daemon entry in that form, for messages that
// tell a user how to start it.

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { RUNNER_MARKER } from "../common/mod.ts";

/** The forms the toolkit ships in. */
export type ToolkitForm = "source" | "npm" | "bundle";

/** The file that starts a runner and the arguments after it. */
export interface RunnerEntry {
  /** The form this code runs in. */
  form: ToolkitForm;
  /** The file (or, under Deno from JSR, the URL) to run. */
  file: string;
  /** The arguments after it. */
  args: string[];
  /** What Node.js must be allowed to read to load the runner's own code. */
  codeDir?: string;
}

const HERE = import.meta.url;

/** Which form this code runs in, told from this module's own URL. */
export function toolkitForm(url: string = HERE): ToolkitForm {
  const path = new URL(url).pathname;
  if (path.endsWith("/lib/host/_runner_entry.ts")) return "source";
  if (path.endsWith("/lib/host/_runner_entry.js")) return "npm";
  return "bundle";
}

function pathOf(url: URL): string {
  return url.protocol === "file:" ? fileURLToPath(url) : url.href;
}

/** The runner program for this copy of the toolkit. */
export function runnerEntry(url: string = HERE): RunnerEntry {
  const form = toolkitForm(url);
  if (form === "bundle") {
    const file = pathOf(new URL(url));
    return { form, file, args: [RUNNER_MARKER], codeDir: file };
  }
  const ext = form === "npm" ? "js" : "ts";
  return {
    form,
    file: pathOf(new URL(`./_runner_main.${ext}`, url)),
    args: [],
    // The runner's code is in lib/ (lib/host and the modules it imports).
    codeDir: pathOf(new URL("../", url)),
  };
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
  const entry = form === "bundle" ? [pathOf(new URL(url)), "daemon"] : [
    pathOf(new URL(`../../daemon.${form === "npm" ? "js" : "ts"}`, url)),
  ];
  return [runtime, ...entry, "--dir", directory].map(quote).join(" ");
}

/** The files of the toolkit's own at its root, in the source and npm forms. */
const OWN_NAMES = [
  "lib",
  "builtin_tools",
  "bin",
  "node_modules",
  "cli.ts",
  "cli.js",
  "daemon.ts",
  "daemon.js",
  "mod.ts",
  "mod.js",
  "deno.json",
  "deno.lock",
  "package.json",
  "package-lock.json",
];

/**
 * The toolkit's own files and folders, in the form this code runs in: the
 * code that hosts tools, which no tool may write. Listed by name rather
 * than as the toolkit's whole folder, since a project may live inside it
 * (the starter project of a source checkout).
 */
export function toolkitPaths(url: string = HERE): string[] {
  if (toolkitForm(url) === "bundle") return [pathOf(new URL(url))];
  const root = pathOf(new URL("../../", url));
  return OWN_NAMES.map((name) => join(root, name));
}
