// The layout's rules, checked on the sources: each stage imports only the
// stages below it and only through their faces (mod.ts); private files are
// imported only from their own folder; runtime globals appear only in the
// runtime adapters; faces name their exports.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";

const LIB = join(REPO_ROOT, "lib");

/** The package's entry points: the modules deno.json exports, at the root. */
const ENTRIES: string[] = Object.values(
  JSON.parse(readFileSync(join(REPO_ROOT, "deno.json"), "utf8"))
    .exports as Record<string, string>,
).map((file) => join(REPO_ROOT, file));

/** Which stages each stage may import (its own folder is always allowed). */
const ALLOWED: Record<string, string[]> = {
  common: [],
  runtime: ["common"],
  manifest: ["common"],
  project: ["manifest", "common"],
  secrets: ["common"],
  schema_targets: [],
  host: ["project", "manifest", "common", "runtime"],
  telemetry: ["host", "common"],
  sessions: [
    "telemetry",
    "host",
    "project",
    "schema_targets",
    "secrets",
    "common",
    "runtime",
  ],
  http: ["host", "schema_targets", "manifest", "common"],
  mcp: ["http", "host", "manifest", "common"],
  web: ["http", "sessions", "host", "manifest", "common"],
  opencode: ["http", "host", "manifest", "common"],
  eject: ["project", "manifest", "common"],
  migrate: ["project", "manifest", "common"],
  daemon: [
    "telemetry",
    "web",
    "sessions",
    "mcp",
    "opencode",
    "http",
    "host",
    "project",
    "manifest",
    "secrets",
    "common",
    "runtime",
  ],
  standard_harness: [
    "daemon",
    "sessions",
    "project",
    "secrets",
    "common",
    "runtime",
  ],
  cli: [
    "telemetry",
    "standard_harness",
    "sessions",
    "schema_targets",
    "daemon",
    "web",
    "mcp",
    "opencode",
    "eject",
    "migrate",
    "http",
    "host",
    "project",
    "manifest",
    "secrets",
    "common",
    "runtime",
  ],
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|js)$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** The relative modules a source file imports, statically or by `import("…")`. */
function imports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const found = [
    ...source.matchAll(/\bfrom\s+["'](\.[^"']+)["']/g),
    ...source.matchAll(/\bimport\s*\(\s*["'](\.[^"']+)["']\s*\)/g),
    ...source.matchAll(/^import\s+["'](\.[^"']+)["']/gm),
  ];
  return found.map((match) => resolve(dirname(file), match[1]));
}

/** The stage folder a path is in (`lib/<stage>/…`), or undefined outside lib/. */
function stageOf(path: string): string | undefined {
  const rel = relative(LIB, path);
  if (rel.startsWith("..")) return undefined;
  return rel.split(/[\\/]/)[0];
}

Deno.test("every lib/ folder is a known stage with a mod.ts face and no index.ts", () => {
  const folders = readdirSync(LIB, { withFileTypes: true });
  for (const folder of folders) {
    assert.ok(folder.isDirectory(), `lib/${folder.name} is not a folder`);
    assert.ok(
      folder.name in ALLOWED,
      `lib/${folder.name} is not a known stage`,
    );
    const files = readdirSync(join(LIB, folder.name));
    assert.ok(files.includes("mod.ts"), `lib/${folder.name} has no mod.ts`);
    assert.ok(
      !files.includes("index.ts"),
      `lib/${folder.name} has an index.ts`,
    );
  }
});

Deno.test("the package root holds its entry points and nothing else: every root module is in deno.json's exports, and every export is a root module", () => {
  const roots = readdirSync(REPO_ROOT).filter((name) => /\.(ts|js)$/.test(name))
    .map((name) => join(REPO_ROOT, name));
  assert.deepEqual(roots.toSorted(), ENTRIES.toSorted());
});

Deno.test("stages import only the stages below them, and only through their faces", () => {
  const problems: string[] = [];
  for (const file of [...sourceFiles(LIB), ...ENTRIES]) {
    const from = stageOf(file);
    const name = relative(REPO_ROOT, file);
    for (const target of imports(file)) {
      const to = stageOf(target);
      if (to === undefined || to === from) continue;
      const base = target.split(/[\\/]/).pop()!;
      if (base !== "mod.ts") {
        problems.push(
          `${name} imports ${
            relative(REPO_ROOT, target)
          }, not lib/${to}/mod.ts`,
        );
      }
      if (from !== undefined && !ALLOWED[from].includes(to)) {
        problems.push(`${name} (stage ${from}) imports stage ${to}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("private files (_*) are imported only from their own folder and its assets", () => {
  const problems: string[] = [];
  const all = [
    ...sourceFiles(LIB),
    ...sourceFiles(join(REPO_ROOT, "builtin_tools")),
  ];
  for (const file of [...all, ...ENTRIES]) {
    for (const target of imports(file)) {
      const base = target.split(/[\\/]/).pop()!;
      // A folder's own files include its assets (the web UI's scripts
      // import the types of the routes they call).
      const own = relative(dirname(target), dirname(file));
      if (base.startsWith("_") && own.startsWith("..")) {
        problems.push(
          `${relative(REPO_ROOT, file)} imports private ${
            relative(REPO_ROOT, target)
          }`,
        );
      }
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("runtime globals (Deno, Bun, a bare process) appear only in lib/runtime/", () => {
  const problems: string[] = [];
  const files = [
    ...sourceFiles(LIB).filter((f) => stageOf(f) !== "runtime"),
    ...ENTRIES,
  ];
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const source = text
      // Comments and strings may name them.
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "")
      .replace(
        /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g,
        '""',
      );
    const importsProcess = /import process from "node:process"/.test(text);
    const uses = [
      /\bDeno\.\w/.test(source) && "Deno",
      /\bBun\.\w/.test(source) && "Bun",
      !importsProcess && /(?<![.\w])process\.\w/.test(source) && "process",
    ].filter(Boolean);
    if (uses.length > 0) {
      problems.push(`${relative(REPO_ROOT, file)} uses ${uses.join(", ")}`);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("faces name their exports: no export * in entry points or mod.ts files", () => {
  const faces = [
    ...ENTRIES,
    ...sourceFiles(LIB).filter((f) => f.endsWith("mod.ts")),
  ];
  for (const face of faces) {
    assert.doesNotMatch(
      readFileSync(face, "utf8"),
      /export \*/,
      relative(REPO_ROOT, face),
    );
  }
});
