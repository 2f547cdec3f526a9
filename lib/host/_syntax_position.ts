// Where a syntax error is, when the runtime does not say: Node.js reports a
// syntax error in a JavaScript module it imports without the file or the
// position. Its own syntax check does say them, so the host runs it on the
// module and the local files it imports, in turn, until one fails.

import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { localImports, realPath } from "./_module_graph.ts";
import type { SourceAt } from "./_protocol.ts";

/** The most files checked for one error. */
const MAX_CHECKED = 50;

/** What `node --check` says of `source`: the error's line and column, or undefined when it parses. */
function check(
  node: string,
  source: string,
): Promise<{ line: number; col: number } | undefined> {
  return new Promise((resolve) => {
    const child = spawn(node, ["--input-type=module", "--check"], {
      stdio: ["pipe", "ignore", "pipe"],
    });
    let err = "";
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      if (err.length < 64 * 1024) err += chunk;
    });
    child.on("error", () => resolve(undefined));
    child.on("close", (code) => {
      if (code === 0) return resolve(undefined);
      const lines = err.split("\n");
      const where = /^\[stdin\]:(\d+)$/.exec(lines[0] ?? "");
      const caret = (lines[2] ?? "").indexOf("^");
      resolve(
        where ? { line: Number(where[1]), col: caret + 1 || 1 } : undefined,
      );
    });
    child.stdin!.on("error", () => {});
    child.stdin!.end(source);
  });
}

/**
 * The file and position of the syntax error that stopped `module` (an
 * absolute path) from loading, found with `node --check` (the executable
 * `node`) among the JavaScript files it reaches; undefined when none of
 * them fails the check.
 */
export async function locateSyntaxError(
  module: string,
  node: string,
): Promise<SourceAt | undefined> {
  const reached = localImports(new Map([["m", realPath(module)]]))?.get("m") ??
    new Set([realPath(module)]);
  const files = [...reached]
    .filter((file) => [".js", ".mjs"].includes(extname(file)))
    .slice(0, MAX_CHECKED);
  for (const file of files) {
    let source: string;
    try {
      source = await readFile(file, "utf8");
    } catch {
      continue;
    }
    const at = await check(node, source);
    if (at) return { file, ...at };
  }
  return undefined;
}
