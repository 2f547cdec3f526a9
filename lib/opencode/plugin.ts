/**
 * The opencode plugin the daemon writes for the standard harness: one
 * file that registers every tool the daemon serves, with its description
 * and its exact JSON Schema, and forwards each call to
 * `POST <daemon>/beeuni/tools/<name>`.
 *
 * Its code is {@linkcode createBeeuniPlugin} (a type-checked module),
 * written out with `Function.prototype.toString()`; what the file fixes
 * is injected as one JSON literal: the tools, the output limits
 * ({@linkcode MAX_OUTPUT_BYTES}, {@linkcode MAX_OUTPUT_LINES}), the start
 * command and the path of the project's daemon record. The file:
 * - imports types only from `@opencode-ai/plugin` (erased when opencode
 *   loads it), and `node:fs/promises` and `node:process`, so nothing is
 *   installed;
 * - never throws while loading: every failure happens inside a tool call
 *   and becomes a tool error the model reads (a daemon that is down, a
 *   missing token, a refused call);
 * - finds the daemon at each call: its URL and token file come from the
 *   record the running daemon writes, so a daemon restarted on another
 *   port answers through the same file, and the token itself is never
 *   written into it;
 * - sets each tool's schema through the `tool.definition` hook
 *   (`output.jsonSchema`), so optional arguments stay optional;
 * - sends exactly the call body the daemon reads (`CallBody` of the HTTP stage),
 *   and passes opencode's abort signal to `fetch`, so a stopped turn
 *   closes the request and aborts the tool's `context.signal`;
 * - asks for the answer as server-sent events, shows each progress report
 *   of the tool as the running call's title (`ctx.metadata`), and attaches
 *   the images a tool returns as opencode attachments (data URLs).
 *
 * @module
 */

import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { removeStaleTemps, writeFileAtomic } from "../common/mod.ts";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "../host/mod.ts";
import {
  createBeeuniPlugin,
  type OpencodePluginTool,
  type PluginConstants,
} from "./_plugin_source.ts";

export type { OpencodePluginTool };

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
  /** The opencode config folder to write `plugins/beeuni.ts` into. */
  configDir: string;
}

/** The file name of the plugin inside `<configDir>/plugins/`. */
export const OPENCODE_PLUGIN_FILE = "beeuni.ts";

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
 * A JSON text that is also a safe JavaScript expression: the line and
 * paragraph separators are escaped so no engine reads them as line ends.
 */
function jsLiteral(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent)
    .replaceAll("\u2028", "\\u2028")
    .replaceAll("\u2029", "\\u2029");
}

/** A value for a one-line comment: no line ends. */
function commentSafe(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]/g, " ");
}

/**
 * The source text of the opencode plugin that forwards `tools` to the
 * daemon named in `recordFile`. Pure: the same options give the same
 * bytes, whatever port the daemon listens on.
 *
 * @returns The plugin's TypeScript source.
 *
 * @example
 * ```ts
 * import { renderOpencodePlugin } from "./plugin.ts";
 * const source = renderOpencodePlugin({
 *   recordFile: "/home/me/.local/state/beeuni/daemon/abc.daemon.json",
 *   tools: [{
 *     name: "lookup_order",
 *     description: "Look up an order",
 *     parameters: { type: "object", properties: { id: { type: "string" } } },
 *   }],
 * });
 * ```
 */
export function renderOpencodePlugin(options: OpencodePluginOptions): string {
  const constants: PluginConstants = {
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
  const of = options.projectDir === undefined
    ? ""
    : ` of ${commentSafe(options.projectDir)}`;
  return `// Written by the beeuni daemon${of}; rewritten on every start and reload. Do not edit.
// It forwards each tool call to POST <daemon>/beeuni/tools/<name>, reading the
// running daemon's address and token file at each call from
// ${commentSafe(options.recordFile)}
import type { Plugin } from "@opencode-ai/plugin";
import { readFile } from "node:fs/promises";
import process from "node:process";

const createBeeuniPlugin = ${createBeeuniPlugin.toString()};

export const BeeuniTools: Plugin = createBeeuniPlugin(${
    jsLiteral(constants, 2)
  }, { readFile, process });
`;
}

/**
 * Writes `text` to `path` atomically (mode 0644, folders 0755) unless the
 * file holds those bytes already; returns whether it wrote.
 */
export function writeIfChanged(path: string, text: string): boolean {
  try {
    if (readFileSync(path, "utf8") === text) return false;
  } catch {
    // Not written yet.
  }
  writeFileAtomic(path, text, { mode: 0o644, dirMode: 0o755 });
  return true;
}

/**
 * {@linkcode writeOpencodePlugin}, saying whether it wrote: `changed` is
 * false when the file held the same bytes already.
 */
export function placeOpencodePlugin(
  options: WriteOpencodePluginOptions,
): { path: string; changed: boolean } {
  const path = join(
    resolve(options.configDir),
    "plugins",
    OPENCODE_PLUGIN_FILE,
  );
  const changed = writeIfChanged(path, renderOpencodePlugin(options));
  removeStaleTemps(dirname(path), { names: [OPENCODE_PLUGIN_FILE] });
  return { path, changed };
}

/**
 * Writes the plugin rendered by {@linkcode renderOpencodePlugin} to
 * `<configDir>/plugins/beeuni.ts` atomically (a temporary file in the same
 * folder, then a rename; nothing is written when the bytes are the same),
 * creating the folders, and removes the temporary files a killed write of
 * it left there.
 *
 * @returns The plugin file's path.
 * @throws {Error} When the folder or the file cannot be written.
 */
export function writeOpencodePlugin(
  options: WriteOpencodePluginOptions,
): string {
  return placeOpencodePlugin(options).path;
}
