/**
 * The opencode plugin the daemon writes for the standard harness: two
 * files in `<configDir>/plugins/`. `beeuni.ts` is the plugin's code, the
 * module `_plugin_source.ts` copied byte for byte: the same bytes whatever
 * the project, the tools or the runtime that writes it. `beeuni.json`
 * beside it is its data ({@linkcode PluginData}): the tools with their
 * descriptions and exact JSON Schemas, opencode's output limits
 * ({@linkcode MAX_OUTPUT_BYTES}, {@linkcode MAX_OUTPUT_LINES}), the start
 * command and the path of the project's daemon record. The plugin:
 * - imports `node:fs/promises` and `node:process` and nothing else, so
 *   nothing is installed;
 * - never throws while loading: every failure happens inside a tool call
 *   and becomes a tool error the model reads (a daemon that is down, a
 *   missing token, a refused call), and a missing data file registers no
 *   tool;
 * - finds the daemon at each call: its URL and token file come from the
 *   record the running daemon writes, so a daemon restarted on another
 *   port answers through the same files, and the token itself is never
 *   written into them;
 * - sets each tool's schema through the `tool.definition` hook
 *   (`output.jsonSchema`), so optional arguments stay optional;
 * - sends exactly the call body the daemon reads (`CallBody` of the HTTP
 *   stage), and passes opencode's abort signal to `fetch`, so a stopped
 *   turn closes the request and aborts the tool's `context.signal`;
 * - asks for the answer as server-sent events, shows each progress report
 *   of the tool as the running call's title (`ctx.metadata`), and attaches
 *   the images a tool returns as opencode attachments (data URLs).
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { removeStaleTemps, writeFileAtomicAsync } from "../common/mod.ts";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "../host/mod.ts";
import type { OpencodePluginTool, PluginData } from "./_plugin_source.ts";
import { PLUGIN_SOURCE } from "./_plugin_text.ts";

export type { OpencodePluginTool, PluginData };

/** What {@linkcode renderOpencodePlugin} needs. */
export interface OpencodePluginOptions {
  /**
   * Absolute path of the project's daemon record (a `DaemonRecord`),
   * read at each call for the running daemon's URL and token file.
   */
  recordFile: string;
  /** The tools the daemon serves. */
  tools: readonly OpencodePluginTool[];
  /** The project folder the daemon serves; named in the "daemon is down" error. */
  projectDir?: string;
}

/** What {@linkcode writeOpencodePlugin} needs. */
export interface WriteOpencodePluginOptions extends OpencodePluginOptions {
  /** The opencode config folder to write `plugins/beeuni.ts` and `plugins/beeuni.json` into. */
  configDir: string;
}

/** The plugin's two files, as {@linkcode renderOpencodePlugin} gives them. */
export interface OpencodePluginFiles {
  /** The text of `beeuni.ts`: the plugin's code, the same for every project. */
  source: string;
  /** The text of `beeuni.json`: the plugin's data, as JSON. */
  data: string;
}

/** The file name of the plugin inside `<configDir>/plugins/`. */
export const OPENCODE_PLUGIN_FILE = "beeuni.ts";

/** The file name of the plugin's data, beside it. */
export const OPENCODE_PLUGIN_DATA_FILE = "beeuni.json";

/** The project's own opencode folder, the daemon's default: `<root>/.opencode`. */
export const PROJECT_OPENCODE_DIR = ".opencode";

/**
 * opencode's global config folder: `$XDG_CONFIG_HOME/opencode`, or
 * `~/.config/opencode`.
 *
 * @returns The folder's absolute path, which may not exist yet.
 */
export function opencodeConfigDir(
  env: Record<string, string | undefined> = {},
): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) return join(xdg, "opencode");
  const home = env.HOME || env.USERPROFILE || homedir();
  return join(home, ".config", "opencode");
}

/**
 * The two files of the opencode plugin that forwards `tools` to the daemon
 * named in `recordFile`. Pure: the same options give the same bytes,
 * whatever port the daemon listens on and whatever runtime runs this.
 *
 * @returns The plugin's TypeScript source and its data as JSON text.
 *
 * @example
 * ```ts
 * import { renderOpencodePlugin } from "./plugin.ts";
 * const { source, data } = renderOpencodePlugin({
 *   recordFile: "/home/me/.local/state/beeuni/daemon/abc.daemon.json",
 *   tools: [{
 *     name: "lookup_order",
 *     description: "Look up an order",
 *     parameters: { type: "object", properties: { id: { type: "string" } } },
 *   }],
 * });
 * ```
 */
export function renderOpencodePlugin(
  options: OpencodePluginOptions,
): OpencodePluginFiles {
  const of = options.projectDir === undefined
    ? ""
    : ` of ${options.projectDir}`;
  const data: PluginData = {
    about:
      `Written by the beeuni daemon${of} for ${OPENCODE_PLUGIN_FILE} beside it; rewritten on every start and reload. Do not edit.`,
    recordFile: options.recordFile,
    startHint: options.projectDir === undefined
      ? "beeuni daemon --dir <project>"
      : `beeuni daemon --dir ${options.projectDir}`,
    maxBytes: MAX_OUTPUT_BYTES,
    maxLines: MAX_OUTPUT_LINES,
    tools: options.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
    })),
  };
  return {
    source: PLUGIN_SOURCE,
    data: `${JSON.stringify(data, null, 2)}\n`,
  };
}

/**
 * Writes `text` to `path` atomically (mode 0644, folders 0755) unless the
 * file holds those bytes already; resolves to whether it wrote. Never
 * blocks the event loop.
 */
export async function writeIfChanged(
  path: string,
  text: string,
): Promise<boolean> {
  try {
    if (await readFile(path, "utf8") === text) return false;
  } catch {
    // Not written yet.
  }
  await writeFileAtomicAsync(path, text, { mode: 0o644, dirMode: 0o755 });
  return true;
}

/**
 * {@linkcode writeOpencodePlugin}, saying whether it wrote: `changed` is
 * false when both files held the same bytes already.
 */
export async function placeOpencodePlugin(
  options: WriteOpencodePluginOptions,
): Promise<{ path: string; changed: boolean }> {
  const dir = join(resolve(options.configDir), "plugins");
  const path = join(dir, OPENCODE_PLUGIN_FILE);
  const { source, data } = renderOpencodePlugin(options);
  // The data first: a plugin loaded in between finds the new tools, or
  // (the first time) none.
  const dataChanged = await writeIfChanged(
    join(dir, OPENCODE_PLUGIN_DATA_FILE),
    data,
  );
  const sourceChanged = await writeIfChanged(path, source);
  removeStaleTemps(dirname(path), {
    names: [OPENCODE_PLUGIN_FILE, OPENCODE_PLUGIN_DATA_FILE],
  });
  return { path, changed: dataChanged || sourceChanged };
}

/**
 * Writes the plugin rendered by {@linkcode renderOpencodePlugin} to
 * `<configDir>/plugins/beeuni.ts` and its data to `beeuni.json` beside it,
 * each atomically (a temporary file in the same folder, then a rename;
 * nothing is written when the bytes are the same), creating the folders,
 * and removes the temporary files a killed write of them left there.
 * Never blocks the event loop.
 *
 * @returns A promise of the plugin file's path; it rejects when the folder
 * or a file cannot be written.
 */
export async function writeOpencodePlugin(
  options: WriteOpencodePluginOptions,
): Promise<string> {
  return (await placeOpencodePlugin(options)).path;
}
