// Huge outputs (T6, H4) for the tests of the host, the daemon and the
// runtimes: a tool module returning one, the same text built in the test,
// T6's cut of it worked out from the whole text's bytes, and what /proc
// says about a process's peak memory.

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname } from "node:path";
import { pathToFileURL } from "node:url";
import type { RunResult } from "./_helpers.ts";
import type { TestDaemon } from "./_daemon.ts";
import { RawMcp } from "./_mcp.ts";

/**
 * About `mb` million bytes of text. `lines`: numbered lines of varying
 * length, some with 2-, 3- and 4-byte characters; `line`: one line of
 * such characters, with no line break.
 */
export function bigText(shape: string, mb: number): string {
  const target = mb * 1_000_000;
  if (shape === "line") return "abcé€😀".repeat(Math.ceil(target / 12));
  const lines = [];
  let length = 0;
  for (let i = 0; length < target; i++) {
    const line = i + " " + "x".repeat(i % 150) + (i % 7 === 0 ? " é€😀" : "") +
      "\n";
    lines.push(line);
    length += line.length;
  }
  return lines.join("");
}

/**
 * What the tool returns for `shape`: a text (`lines`, `line`, and `error`,
 * which it throws), a plain object (`json`), or content blocks (`content`:
 * two text blocks and an image).
 */
export function bigValue(shape: string, mb: number): unknown {
  if (shape === "json") {
    return {
      rows: Array.from(
        { length: Math.ceil(mb * 1_000_000 / 60) },
        (_, i) => ({ id: i, name: "é".repeat(i % 4) + "row" }),
      ),
    };
  }
  if (shape === "content") {
    return {
      content: [
        { type: "text", text: bigText("lines", mb / 2) },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "text", text: bigText("line", mb / 2) },
      ],
    };
  }
  return bigText(shape === "line" ? "line" : "lines", mb);
}

/** The image block of the `content` shape. */
export const IMAGE_BLOCK = {
  type: "image",
  data: "iVBORw0KGgo=",
  mimeType: "image/png",
};

/**
 * A tool module: `execute({ shape, mb })` returns {@linkcode bigValue}
 * (throws it for `error`; for `after-abort`, builds the `lines` text,
 * writes the file `started` in the project and returns the text once the
 * call is aborted). `probe` tries to
 * write and remove a file in `args.dir`, list it, and read `args.file`,
 * and returns `allowed` or `refused` for each.
 */
export const BIG_OUTPUT_TOOL = `const bigText = ${bigText.toString()};
const bigValue = ${bigValue.toString()};

export default {
  description: "Returns a huge output",
  parameters: {
    type: "object",
    properties: { shape: { type: "string" }, mb: { type: "number" } },
  },
  async execute(args, context) {
    if (args.shape === "probe") {
      const fs = await import("node:fs");
      const attempt = (act) => {
        try {
          act();
          return "allowed";
        } catch {
          return "refused";
        }
      };
      const probe = args.dir + "/.probe-" + Date.now();
      return {
        write: attempt(() => fs.writeFileSync(probe, "x")),
        remove: attempt(() => fs.unlinkSync(probe)),
        list: attempt(() => fs.readdirSync(args.dir)),
        read: attempt(() => fs.readFileSync(args.file)),
      };
    }
    if (args.shape === "after-abort") {
      // Built before the call is aborted: once it is, the runner has only
      // to measure and write it, and answers the host's pings meanwhile.
      const value = bigValue("lines", args.mb);
      const { writeFileSync } = await import("node:fs");
      writeFileSync(context.directory + "/started", "");
      await new Promise((resolve) =>
        context.signal.addEventListener("abort", resolve, { once: true })
      );
      return value;
    }
    const value = bigValue(args.shape, args.mb);
    if (args.shape === "error") throw new Error(value);
    return value;
  },
};
`;

/** The text the model would read whole for `shape` (T3, T4, content text). */
export function fullText(shape: string, mb: number): string {
  const value = bigValue(shape, mb);
  if (shape === "json") return JSON.stringify(value, null, 2);
  if (shape === "content") {
    const blocks = (value as { content: { text?: string }[] }).content;
    return blocks.flatMap((b) => b.text === undefined ? [] : [b.text])
      .join("\n\n");
  }
  // A thrown message is trimmed.
  return shape === "error" ? (value as string).trim() : value as string;
}

function lineCount(text: string): number {
  if (text === "") return 0;
  const breaks = text.split("\n").length - 1;
  return text.endsWith("\n") ? breaks : breaks + 1;
}

/**
 * T6's cut of `full` as docs/host.md states it, worked out from the whole
 * text's bytes: the most whole lines (at most 1,999) that leave room for
 * the notice in its longest form, else the start of the first line cut
 * between characters; then the notice ending with `where`.
 */
export function expectedCut(full: string, where: string): string {
  const bytes = new TextEncoder().encode(full);
  const total = lineCount(full);
  const longest =
    `[output truncated: showing the first ${total} of ${total} lines (${bytes.length} of ${bytes.length} bytes); ${where}]`;
  const room = 51_200 - new TextEncoder().encode(longest).length - 2;
  let end = 0;
  let lines = 0;
  while (lines < 1_999) {
    const next = bytes.indexOf(0x0a, end);
    if (next === -1 || next + 1 > room) break;
    end = next + 1;
    lines++;
  }
  if (end === 0) {
    end = Math.min(room, bytes.length);
    while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  }
  const head = new TextDecoder().decode(bytes.subarray(0, end));
  const shown = lineCount(head);
  return `${head}${head.endsWith("\n") ? "" : "\n"}` +
    `[output truncated: showing the first ${shown} of ${total} lines (${end} of ${bytes.length} bytes); ${where}]`;
}

/** Asserts that the file at `path` holds exactly `full`, mode 0600. */
export function assertSavedWhole(path: string, full: string): void {
  const saved = readFileSync(path);
  const want = new TextEncoder().encode(full);
  assert.equal(saved.length, want.length, `bytes in ${path}`);
  assert.ok(Buffer.compare(saved, want) === 0, `${path} holds the whole text`);
  assert.equal(statSync(path).mode & 0o777, 0o600);
}

/** The files in `dir`, sorted; temporary files are those starting with a dot. */
export function filesIn(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** The most resident memory process `pid` has used, in bytes (`VmHWM`). */
export function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

/**
 * Calls `tool` (a {@linkcode BIG_OUTPUT_TOOL}) through `daemon` for `mb`
 * megabytes of lines, after a small call that starts its runner, and
 * checks what the caller gets (T6's cut, `size`, `path`), the saved file,
 * that no temporary file is left beside it, and that the daemon's peak
 * memory grew by less than 10 MB: it never held the output.
 */
export async function checkBigOutput(
  daemon: TestDaemon,
  tool: string,
  mb: number,
): Promise<string> {
  const call = (args: Record<string, unknown>) =>
    daemon.call(tool, { args, sessionId: "s1", agent: "beeuni" });
  await call({ shape: "lines", mb: 0.1 });
  const before = peakRss(daemon.pid);
  const { status, body } = await call({ shape: "lines", mb });
  const grown = peakRss(daemon.pid) - before;
  const full = fullText("lines", mb);
  assert.equal(status, 200);
  assert.equal(body.truncated, true);
  assert.equal(body.size, new TextEncoder().encode(full).length);
  const path = String(body.path);
  assert.equal(body.output, expectedCut(full, `the full output is in ${path}`));
  assertSavedWhole(path, full);
  assert.deepEqual(
    filesIn(dirname(path)).filter((name) => name.startsWith(".")),
    [],
  );
  assert.ok(grown < 10_000_000, `the daemon's peak grew by ${grown} bytes`);
  return path;
}

/**
 * Checks that `tool` (a {@linkcode BIG_OUTPUT_TOOL}) run by `daemon` may
 * create and remove a file in the folder of the saved output at `path`,
 * but neither list that folder nor read the saved output (H2, T6).
 */
export async function checkSavedOutputsConfined(
  daemon: TestDaemon,
  tool: string,
  path: string,
): Promise<void> {
  const { body } = await daemon.call(tool, {
    args: { shape: "probe", dir: dirname(path), file: path },
    sessionId: "s1",
    agent: "beeuni",
  });
  assert.deepEqual(JSON.parse(String(body.output)), {
    write: "allowed",
    remove: "allowed",
    list: "refused",
    read: "refused",
  });
}

/**
 * Asserts what a caller reads for a text cut by T6: at most 51,200 bytes,
 * exactly {@linkcode expectedCut} of `full` with the notice naming a file,
 * and that file holding `full` byte for byte. Returns the file's path.
 */
export function assertCutAndSaved(text: string, full: string): string {
  const bytes = new TextEncoder().encode(text).length;
  assert.ok(bytes <= 51_200, `the caller got ${bytes} bytes`);
  const path = /\[output truncated: [^\n]*; the full output is in (.+)\]$/
    .exec(text)?.[1];
  assert.ok(path !== undefined, `no notice naming a file: ${text.slice(-300)}`);
  assert.equal(text, expectedCut(full, `the full output is in ${path}`));
  assertSavedWhole(path, full);
  return path;
}

/** The shapes each caller is checked with: text lines, a JSON object, a thrown error. */
export const CALLER_SHAPES = ["lines", "json", "error"] as const;

/** How many megabytes of each shape the callers' checks ask for. */
const CALLER_MB = 3;

/**
 * Calls `tool` (a {@linkcode BIG_OUTPUT_TOOL}) through `daemon`'s HTTP
 * route for megabytes of lines, a JSON object and a thrown error, and
 * checks each answer: the cut text (at most 51,200 bytes) in `output` with
 * `truncated`, `size` and `path`, or in `error`, and the whole text saved
 * at the path the notice names (T6, H4).
 */
export async function checkBigOutputsOverHttp(
  daemon: TestDaemon,
  tool: string,
): Promise<void> {
  for (const shape of CALLER_SHAPES) {
    const full = fullText(shape, CALLER_MB);
    const { status, body } = await daemon.call(tool, {
      args: { shape, mb: CALLER_MB },
      sessionId: "s1",
      agent: "beeuni",
    });
    assert.equal(status, 200, shape);
    if (shape === "error") {
      assert.deepEqual(Object.keys(body), ["error"], shape);
      const path = assertCutAndSaved(String(body.error), full);
      assert.match(basename(path), new RegExp(`^${tool}-error-`));
      continue;
    }
    assert.deepEqual(
      Object.keys(body).sort(),
      ["output", "path", "size", "truncated"],
      shape,
    );
    assert.equal(body.truncated, true, shape);
    assert.equal(body.size, new TextEncoder().encode(full).length, shape);
    assert.equal(assertCutAndSaved(String(body.output), full), body.path);
  }
}

/**
 * The same over MCP at `daemon`'s `/mcp`: the cut text as the `text`
 * block, a `resource_link` to the saved file with its size (no
 * `structuredContent` for the cut object), and `isError` with the cut
 * message for the thrown error (C2, T6, H4).
 */
export async function checkBigOutputsOverMcp(
  daemon: TestDaemon,
  tool: string,
): Promise<void> {
  const mcp = new RawMcp(`${daemon.url}/mcp`, daemon.token);
  await mcp.initialize();
  for (const shape of CALLER_SHAPES) {
    const full = fullText(shape, CALLER_MB);
    const response = await mcp.request("tools/call", {
      name: tool,
      arguments: { shape, mb: CALLER_MB },
    });
    const result = response.result;
    assert.ok(result, JSON.stringify(response).slice(0, 500));
    assert.equal(result.content[0].type, "text", shape);
    const path = assertCutAndSaved(result.content[0].text, full);
    assert.equal(result.structuredContent, undefined, shape);
    if (shape === "error") {
      assert.equal(result.isError, true);
      assert.equal(result.content.length, 1);
      continue;
    }
    assert.equal(result.isError, undefined, shape);
    assert.deepEqual(result.content.slice(1), [{
      type: "resource_link",
      uri: pathToFileURL(path).href,
      name: basename(path),
      description: "The tool's whole output",
      mimeType: "text/plain",
      size: new TextEncoder().encode(full).length,
    }], shape);
  }
}

/**
 * The same through `beeuni tools call` (`run` runs the CLI with the given
 * arguments): the cut output on standard output and exit 0, the cut error
 * on standard error and exit 1, each whole in the file its notice names
 * (T6, H4).
 */
export async function checkBigOutputsOverToolsCall(
  run: (args: string[]) => Promise<RunResult>,
  tool: string,
): Promise<void> {
  for (const shape of CALLER_SHAPES) {
    const full = fullText(shape, CALLER_MB);
    const out = await run([
      "tools",
      "call",
      tool,
      "--args",
      JSON.stringify({ shape, mb: CALLER_MB }),
    ]);
    const printed = shape === "error" ? out.stderr : out.stdout;
    assert.equal(out.code, shape === "error" ? 1 : 0, out.stderr.slice(-500));
    if (shape === "error") assert.equal(out.stdout, "");
    assert.ok(printed.endsWith("\n"), shape);
    assertCutAndSaved(printed.slice(0, -1), full);
  }
}
