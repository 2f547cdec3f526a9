/**
 * The `memory` Beeuni tool: a model keeps notes as files under
 * `<directory>/memory/`, the same folder it would edit with file tools.
 *
 * Commands: `view`, `create`, `str_replace`, `insert`, `delete` and `rename`.
 * Paths are relative to `memory/`; a leading `/memories/` or `memory/` names
 * that same folder, and `.`, an empty path or `/memories` name the folder
 * itself. Every path that would resolve outside the folder (`..`, other
 * absolute paths, symlinks leading out, percent-encoded or NUL tricks,
 * backslashes) is refused. Writes are atomic: a temporary file in the same
 * folder, then a rename; temporary files a killed write left
 * (`.<name>.<random>.memory-tmp`, over 60 seconds old) are removed from a
 * folder when the tool next writes in it or lists it. Works offline with no
 * configuration.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import {
  lstat,
  mkdir,
  readdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
} from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { isInside, refuseAmbiguousPath } from "./_paths.ts";
import type { FileToolContext as ToolContext, ToolModule } from "./_tool.ts";

const COMMANDS = [
  "view",
  "create",
  "str_replace",
  "insert",
  "delete",
  "rename",
] as const;

/** How deep `view` lists a folder. */
const LIST_DEPTH = 3;
/** At most this many entries in one listing. */
const LIST_LIMIT = 500;
/** Temporary files written by this tool, skipped by listings. */
const TEMP_FILE = /^\.[^/]+\.[0-9a-f]{16}\.memory-tmp$/;
/** A temporary file this old is a leftover of a killed write, never one under way. */
const STALE_TEMP_MS = 60_000;

/** A checked path inside the memory folder. */
interface MemoryPath {
  /** The memory folder's absolute path. */
  base: string;
  /** The target's absolute path. */
  full: string;
  /** Path relative to the memory folder, `/`-separated, `""` for the folder. */
  rel: string;
  /** How to print it: `memory/<rel>` or `memory/` for the folder. */
  shown: string;
}

function fail(message: string): never {
  throw new Error(message);
}

/** Turns the `path` argument into segments under `memory/`, refusing escapes. */
function pathSegments(raw: unknown, argName: string): string[] {
  if (raw === undefined || raw === null) raw = "";
  if (typeof raw !== "string") {
    fail(`${argName} must be a string, e.g. "notes.md"`);
  }
  const text = raw.trim();
  refuseAmbiguousPath(text, argName);
  let rest = text;
  if (rest === "/memories" || rest.startsWith("/memories/")) {
    rest = rest.slice("/memories".length);
    rest = rest.replace(/^\/+/, "");
  } else if (rest === "memory" || rest.startsWith("memory/")) {
    rest = rest.slice("memory".length).replace(/^\/+/, "");
  } else if (rest.startsWith("./memory/") || rest === "./memory") {
    rest = rest.slice("./memory".length).replace(/^\/+/, "");
  }
  if (rest.startsWith("/") || rest.startsWith("~") || /^[A-Za-z]:/.test(rest)) {
    fail(
      `${argName} "${text}" is absolute: use a path relative to memory/ (e.g. "notes.md" or "/memories/notes.md")`,
    );
  }
  const segments = rest.split("/").filter((part) =>
    part !== "" && part !== "."
  );
  if (segments.includes("..")) {
    fail(
      `${argName} "${text}" contains "..": paths must stay inside memory/`,
    );
  }
  return segments;
}

/** Resolves `raw` inside `<directory>/memory/`, following symlinks to check they stay inside. */
async function resolvePath(
  context: ToolContext,
  raw: unknown,
  argName = "path",
): Promise<MemoryPath> {
  if (typeof context?.directory !== "string" || context.directory === "") {
    fail(
      "context.directory is missing: the host must pass the checkout folder",
    );
  }
  const segments = pathSegments(raw, argName);
  const base = join(context.directory, "memory");
  const full = join(base, ...segments);
  const rel = segments.join("/");
  const shown = rel === "" ? "memory/" : `memory/${rel}`;
  // The memory folder itself may be a symlink, but only to a place inside
  // the checkout.
  const realDirectory = await realpath(context.directory).catch(() =>
    fail(`the checkout folder "${context.directory}" does not exist`)
  );
  let realBase = base;
  if (await kindOf(base) === "file") {
    fail(
      `memory is a file, not a folder: move it away so memory/ can hold notes`,
    );
  }
  if (await exists(base)) {
    realBase = await realpath(base);
    if (!isInside(realDirectory, realBase)) {
      fail(
        `memory/ is a symlink that leads outside the checkout: make memory/ a plain folder`,
      );
    }
  }
  // Walk from the target up to the nearest existing path and check where
  // it really is.
  let probe = full;
  const missing: string[] = [];
  while (probe !== base && !(await exists(probe))) {
    missing.unshift(probe);
    probe = dirname(probe);
  }
  if (await exists(probe)) {
    const real = await realpath(probe).catch(() => probe);
    if (!isInside(realBase, real)) {
      fail(
        `${argName} "${
          String(raw)
        }" leads outside memory/ through a symlink: use a path inside memory/`,
      );
    }
  } else if (await isDanglingLink(probe)) {
    fail(
      `${argName} "${
        String(raw)
      }" goes through a broken symlink: use a path inside memory/`,
    );
  }
  for (const path of missing) {
    if (await isDanglingLink(path)) {
      fail(
        `${argName} "${
          String(raw)
        }" goes through a symlink that leads nowhere: use a path inside memory/`,
      );
    }
  }
  return { base, full, rel, shown };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

async function isDanglingLink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

async function kindOf(path: string): Promise<"file" | "folder" | "none"> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? "folder" : "file";
  } catch {
    return "none";
  }
}

/**
 * Removes the temporary files among `names` in `folder` (all of its
 * entries when not given) that a killed write left: older than
 * {@linkcode STALE_TEMP_MS}, so a write still under way keeps its file.
 */
async function removeStaleTemps(
  folder: string,
  names?: string[],
): Promise<void> {
  let entries = names;
  if (entries === undefined) {
    try {
      entries = await readdir(folder);
    } catch {
      return;
    }
  }
  const now = Date.now();
  for (const name of entries) {
    if (!TEMP_FILE.test(name)) continue;
    const path = join(folder, name);
    try {
      const info = await lstat(path);
      if (info.isFile() && now - info.mtimeMs >= STALE_TEMP_MS) {
        await unlink(path);
      }
    } catch {
      // Gone already: nothing to do.
    }
  }
}

/** Writes `text` to `path` atomically: a temporary file in the same folder, then a rename. */
async function writeAtomic(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await removeStaleTemps(dirname(path));
  const name = path.slice(dirname(path).length + 1);
  const temp = join(
    dirname(path),
    `.${name}.${randomBytes(8).toString("hex")}.memory-tmp`,
  );
  try {
    await writeFile(temp, text, { flag: "wx" });
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) fail("the call was stopped before it changed anything");
}

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line) => line.endsWith("\r") ? line.slice(0, -1) : line);
}

function numbered(lines: string[], first: number): string {
  const width = String(first + lines.length - 1).length;
  return lines.map((line, index) =>
    `${String(first + index).padStart(Math.max(width, 6))}\t${line}`
  ).join("\n");
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function requireString(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== "string") {
    fail(
      `${key} is required for command "${args.command}" and must be a string`,
    );
  }
  return value;
}

async function readText(target: MemoryPath, command: string): Promise<string> {
  const kind = await kindOf(target.full);
  if (kind === "none") {
    fail(
      `${target.shown} does not exist: view memory/ to list the files${
        command === "str_replace" || command === "insert"
          ? ", or create it first"
          : ""
      }`,
    );
  }
  if (kind === "folder") {
    fail(`${target.shown} is a folder: ${command} works on a file`);
  }
  const bytes = await readFile(target.full);
  if (bytes.includes(0)) {
    fail(
      `${target.shown} is a binary file (${bytes.length} bytes): memory works on text files`,
    );
  }
  return new TextDecoder().decode(bytes);
}

async function listFolder(target: MemoryPath): Promise<string> {
  const lines: string[] = [];
  let files = 0;
  let folders = 0;
  let truncated = false;
  async function walk(folder: string, depth: number): Promise<void> {
    const entries = await readdir(folder, { withFileTypes: true });
    await removeStaleTemps(folder, entries.map((entry) => entry.name));
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      if (TEMP_FILE.test(entry.name)) continue;
      if (lines.length >= LIST_LIMIT) {
        truncated = true;
        return;
      }
      const full = join(folder, entry.name);
      const indent = "  ".repeat(depth);
      const rel = relative(target.base, full).split(sep).join("/");
      if (entry.isDirectory()) {
        folders++;
        if (depth + 1 >= LIST_DEPTH) {
          lines.push(`${indent}- memory/${rel}/ (not listed: view it)`);
        } else {
          lines.push(`${indent}- memory/${rel}/`);
          await walk(full, depth + 1);
        }
      } else if (entry.isSymbolicLink()) {
        lines.push(`${indent}- memory/${rel} (symlink)`);
      } else {
        files++;
        const info = await stat(full);
        lines.push(`${indent}- memory/${rel} (${formatSize(info.size)})`);
      }
    }
  }
  await walk(target.full, 0);
  if (lines.length === 0) {
    return `${target.shown} is empty. Create a file with command "create".`;
  }
  const head = `${target.shown}: ${files} ${
    files === 1 ? "file" : "files"
  }, ${folders} ${folders === 1 ? "folder" : "folders"}${
    truncated ? ` (the first ${LIST_LIMIT} entries)` : ""
  }`;
  return `${head}\n${lines.join("\n")}`;
}

async function view(
  context: ToolContext,
  args: Record<string, unknown>,
): Promise<string> {
  const target = await resolvePath(context, args.path);
  const kind = await kindOf(target.full);
  if (kind === "none") {
    if (target.rel === "") {
      return `memory/ is empty. Create a file with command "create".`;
    }
    fail(`${target.shown} does not exist: view memory/ to list the files`);
  }
  if (kind === "folder") {
    if (args.view_range !== undefined && args.view_range !== null) {
      fail(`${target.shown} is a folder: view_range works on a file`);
    }
    return await listFolder(target);
  }
  const text = await readText(target, "view");
  const lines = splitLines(text);
  if (lines.length === 0) return `${target.shown} is empty (0 lines)`;
  let start = 1;
  let end = lines.length;
  if (args.view_range !== undefined && args.view_range !== null) {
    const range = args.view_range;
    if (
      !Array.isArray(range) || range.length !== 2 ||
      !range.every((n) => Number.isInteger(n))
    ) {
      fail(
        `view_range must be two whole numbers [start, end], e.g. [1, 20]; end -1 reads to the end`,
      );
    }
    const [from, to] = range as number[];
    if (from < 1 || from > lines.length) {
      fail(
        `view_range start ${from} is outside ${target.shown}, which has ${lines.length} lines: use 1 to ${lines.length}`,
      );
    }
    if (to !== -1 && (to < from || to > lines.length)) {
      fail(
        `view_range end ${to} is invalid for ${target.shown} (${lines.length} lines): use ${from} to ${lines.length}, or -1 for the end`,
      );
    }
    start = from;
    end = to === -1 ? lines.length : to;
  }
  return `${target.shown}, lines ${start}-${end} of ${lines.length}:\n${
    numbered(lines.slice(start - 1, end), start)
  }`;
}

async function create(
  context: ToolContext,
  args: Record<string, unknown>,
): Promise<string> {
  const target = await resolvePath(context, args.path);
  const text = requireString(args, "file_text");
  if (target.rel === "") {
    fail(
      `path names the memory folder itself: give a file name, e.g. "notes.md"`,
    );
  }
  const kind = await kindOf(target.full);
  if (kind === "folder") {
    fail(`${target.shown} is a folder: pick a file name`);
  }
  checkAborted(context.signal);
  await writeParentsChecked(target);
  await writeAtomic(target.full, text);
  const size = new TextEncoder().encode(text).length;
  const lines = splitLines(text).length;
  return `${
    kind === "file" ? "Overwrote" : "Created"
  } ${target.shown} (${lines} ${
    lines === 1 ? "line" : "lines"
  }, ${size} bytes)`;
}

/** Fails when a parent of `target` is a file rather than a folder. */
async function writeParentsChecked(target: MemoryPath): Promise<void> {
  let parent = dirname(target.full);
  while (parent.length > target.base.length) {
    const kind = await kindOf(parent);
    if (kind === "file") {
      const rel = relative(target.base, parent).split(sep).join("/");
      fail(`memory/${rel} is a file, so it cannot hold ${target.shown}`);
    }
    if (kind === "folder") return;
    parent = dirname(parent);
  }
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function snippet(text: string, firstLine: number, lastLine: number): string {
  const lines = splitLines(text);
  const from = Math.max(1, firstLine - 2);
  const to = Math.min(lines.length, lastLine + 2);
  if (lines.length === 0) return "(the file is now empty)";
  return numbered(lines.slice(from - 1, to), from);
}

async function strReplace(
  context: ToolContext,
  args: Record<string, unknown>,
): Promise<string> {
  const target = await resolvePath(context, args.path);
  let oldStr = requireString(args, "old_str");
  let newStr = args.new_str === undefined || args.new_str === null
    ? ""
    : requireString(args, "new_str");
  if (oldStr === "") {
    fail(`old_str is empty: give the exact text to replace`);
  }
  const text = await readText(target, "str_replace");
  // In a CRLF file, text copied from `view` has bare \n line ends.
  if (text.includes("\r\n") && !oldStr.includes("\r")) {
    oldStr = oldStr.replaceAll("\n", "\r\n");
    if (!newStr.includes("\r")) newStr = newStr.replaceAll("\n", "\r\n");
  }
  const hits: number[] = [];
  for (
    let at = text.indexOf(oldStr);
    at !== -1;
    at = text.indexOf(oldStr, at + 1)
  ) {
    hits.push(at);
  }
  if (hits.length === 0) {
    fail(
      `old_str was not found in ${target.shown}: nothing changed; view the file and copy the text exactly, whitespace included`,
    );
  }
  if (hits.length > 1) {
    const lines = hits.map((at) => lineOf(text, at));
    fail(
      `old_str occurs ${hits.length} times in ${target.shown} (lines ${
        lines.join(", ")
      }): nothing changed; include more surrounding text so it matches once`,
    );
  }
  const at = hits[0];
  const updated = text.slice(0, at) + newStr + text.slice(at + oldStr.length);
  checkAborted(context.signal);
  await writeAtomic(target.full, updated);
  const first = lineOf(updated, at);
  const last = lineOf(updated, at + newStr.length);
  return `Edited ${target.shown}: replaced 1 occurrence at line ${
    lineOf(text, at)
  }\n${snippet(updated, first, last)}`;
}

async function insert(
  context: ToolContext,
  args: Record<string, unknown>,
): Promise<string> {
  const target = await resolvePath(context, args.path);
  const insertText = requireString(args, "insert_text");
  const at = args.insert_line;
  if (typeof at !== "number" || !Number.isInteger(at)) {
    fail(
      `insert_line is required for command "insert" and must be a whole number (0 inserts at the top)`,
    );
  }
  const text = await readText(target, "insert");
  const lines = splitLines(text);
  if (at < 0 || at > lines.length) {
    fail(
      `insert_line ${at} is outside ${target.shown}, which has ${lines.length} lines: use 0 to ${lines.length}`,
    );
  }
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const added = splitLines(insertText.replace(/\r\n/g, "\n"));
  if (added.length === 0) added.push("");
  const result = [...lines.slice(0, at), ...added, ...lines.slice(at)];
  const endsWithEol = text === "" || text.endsWith("\n") || at === lines.length;
  const updated = result.join(eol) + (endsWithEol ? eol : "");
  checkAborted(context.signal);
  await writeAtomic(target.full, updated);
  return `Inserted ${added.length} ${
    added.length === 1 ? "line" : "lines"
  } into ${target.shown} after line ${at}\n${
    snippet(updated, at + 1, at + added.length)
  }`;
}

async function remove(
  context: ToolContext,
  args: Record<string, unknown>,
): Promise<string> {
  const target = await resolvePath(context, args.path);
  if (target.rel === "") {
    fail(
      `path names the memory folder itself: delete the files or folders in it one by one`,
    );
  }
  const kind = await kindOf(target.full);
  if (kind === "none") {
    fail(`${target.shown} does not exist: view memory/ to list the files`);
  }
  checkAborted(context.signal);
  await rm(target.full, { recursive: kind === "folder" });
  return `Deleted ${target.shown}${
    kind === "folder" ? " and everything in it" : ""
  }`;
}

async function move(
  context: ToolContext,
  args: Record<string, unknown>,
): Promise<string> {
  const from = await resolvePath(context, args.path);
  if (args.new_path === undefined || args.new_path === null) {
    fail(`new_path is required for command "rename", e.g. "archive/notes.md"`);
  }
  const to = await resolvePath(context, args.new_path, "new_path");
  if (from.rel === "" || to.rel === "") {
    fail(
      `rename works on files and folders inside memory/, not the folder itself`,
    );
  }
  const kind = await kindOf(from.full);
  if (kind === "none") {
    fail(`${from.shown} does not exist: view memory/ to list the files`);
  }
  if (await kindOf(to.full) !== "none" || await isDanglingLink(to.full)) {
    fail(
      `${to.shown} already exists: delete it first or pick another new_path`,
    );
  }
  if (kind === "folder" && (to.rel + "/").startsWith(from.rel + "/")) {
    fail(`cannot move ${from.shown} into itself (${to.shown})`);
  }
  checkAborted(context.signal);
  await writeParentsChecked(to);
  await mkdir(dirname(to.full), { recursive: true });
  await rename(from.full, to.full);
  return `Renamed ${from.shown}${kind === "folder" ? "/" : ""} to ${to.shown}${
    kind === "folder" ? "/" : ""
  }`;
}

/** The `memory` tool module: `{ description, parameters, execute }`. */
const memory = {
  description:
    "Keep notes across sessions as text files in the memory/ folder. " +
    "Commands: view (list a folder, or show a file with numbered lines), " +
    "create (write a file, replacing it if it exists), str_replace (replace " +
    "text that occurs exactly once), insert (add text after a line; 0 = top), " +
    "delete (a file or folder), rename (move to new_path). Paths are relative " +
    'to memory/ ("notes.md"); "/memories/notes.md" names the same file. ' +
    "View memory/ at the start of a task to see what you already know.",
  parameters: {
    type: "object",
    properties: {
      command: {
        type: "string",
        enum: [...COMMANDS],
        description: "What to do.",
      },
      path: {
        type: "string",
        description:
          'File or folder inside memory/, e.g. "notes.md" or "/memories/projects/a.md"; "." or "" is the folder itself.',
      },
      view_range: {
        type: "array",
        items: { type: "integer" },
        minItems: 2,
        maxItems: 2,
        description:
          "view only: [start, end] lines to show, 1-based, inclusive; end -1 reads to the end.",
      },
      file_text: {
        type: "string",
        description: "create only: the whole content of the file.",
      },
      old_str: {
        type: "string",
        description:
          "str_replace only: the exact text to replace; it must occur exactly once.",
      },
      new_str: {
        type: "string",
        description: 'str_replace only: the replacement text (default "").',
      },
      insert_line: {
        type: "integer",
        minimum: 0,
        description:
          "insert only: the line after which to insert; 0 inserts at the top.",
      },
      insert_text: {
        type: "string",
        description: "insert only: the text to insert.",
      },
      new_path: {
        type: "string",
        description: "rename only: the new path inside memory/.",
      },
    },
    required: ["command", "path"],
  },
  async execute(
    args: Record<string, unknown>,
    context: ToolContext,
  ): Promise<string> {
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      fail(`arguments must be an object with "command" and "path"`);
    }
    const command = args.command;
    switch (command) {
      case "view":
        return await view(context, args);
      case "create":
        return await create(context, args);
      case "str_replace":
        return await strReplace(context, args);
      case "insert":
        return await insert(context, args);
      case "delete":
        return await remove(context, args);
      case "rename":
        return await move(context, args);
      default:
        fail(
          `unknown command ${JSON.stringify(command ?? null)}: use one of ${
            COMMANDS.join(", ")
          }`,
        );
    }
  },
} satisfies ToolModule;

export default memory;
