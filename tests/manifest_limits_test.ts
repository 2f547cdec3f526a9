// The manifest limits (lib/manifest/limits.ts): hostile or runaway input
// gets one positioned error and exit 1, never a crash, and the same verdict
// through the library and the CLI (V12, M2).

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  beeuni,
  evalJson,
  REPO_ROOT,
  type RunResult,
  tempRepo,
} from "./_helpers.ts";
import {
  type Diagnostic,
  limitDiagnostics,
  MANIFEST_LIMITS,
  parseManifest,
} from "../lib/manifest/mod.ts";
import { loadProject } from "../lib/project/mod.ts";

function brief(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) =>
    `${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.message}`
  );
}

/** The diagnostic lines of `beeuni validate`'s text output. */
function lines(result: RunResult): string[] {
  return result.stdout.split("\n").filter((line) => /:\d+:\d+: /.test(line));
}

function assertNoCrash(result: RunResult): void {
  assert.ok([0, 1].includes(result.code), `exit ${result.code}`);
  assert.doesNotMatch(result.stderr, /RangeError|stack|Fatal|\n\s+at /);
}

Deno.test("validate refuses a 10 MB manifest of `[` with one positioned error and exit 1, never a crash (V12)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "[".repeat(10 * 1024 * 1024),
  });
  const result = await beeuni(repo.dir, ["validate"]);
  assertNoCrash(result);
  assert.equal(result.code, 1);
  assert.deepEqual(lines(result), [
    'beeuni.yaml:1:1: error: cannot read "beeuni.yaml": it is 10 MiB, more than the limit of 1 MiB for one manifest file: split it into smaller files listed under `imports:`',
  ]);
});

Deno.test("a file nested thousands deep gets the same positioned error from the library and the CLI (V12)", async () => {
  const cases: Record<string, [string, string]> = {
    "flow.yaml": [
      "agents: {a: {x: " + "[".repeat(5000) + "]".repeat(5000) + "}}\n",
      "1:78",
    ],
    "block.yaml": ["tools:\n  " + "- ".repeat(100_000) + "a\n", "2:129"],
    "brackets.yaml": ["tools: " + "[".repeat(900_000), "1:71"],
    "maps.yaml": [
      Array.from({ length: 1000 }, (_, i) => " ".repeat(i) + "k:\n").join(""),
      "65:65",
    ],
  };
  await using repo = await tempRepo({
    "beeuni.yaml": "tools: {}\n",
    ...Object.fromEntries(
      Object.entries(cases).map(([path, [text]]) => [path, text]),
    ),
  });
  for (const [path, [, at]] of Object.entries(cases)) {
    const expected =
      `${path}:${at}: error: mappings and lists nest more than 64 levels deep here (the limit): flatten this part of ${path}`;
    const project = await loadProject({ cwd: repo.dir, manifest: path });
    assert.deepEqual(
      brief(project.diagnostics).filter((d) => d.includes("error")),
      [expected],
    );
    const result = await beeuni(repo.dir, ["validate", "--manifest", path]);
    assertNoCrash(result);
    assert.equal(result.code, 1);
    assert.deepEqual(lines(result).filter((d) => d.includes("error")), [
      expected,
    ]);
  }
});

Deno.test("nesting up to the limit is read; one level more is refused (V12)", async () => {
  const nested = (depth: number) =>
    "x: " + "[".repeat(depth - 1) + "]".repeat(depth - 1) + "\n";
  const read = async (text: string) =>
    (await parseManifest("/repo", "beeuni.yaml", () => text)).diagnostics;
  assert.deepEqual(await read(nested(MANIFEST_LIMITS.maxDepth)), []);
  assert.deepEqual(brief(await read(nested(MANIFEST_LIMITS.maxDepth + 1))), [
    "beeuni.yaml:1:67: error: mappings and lists nest more than 64 levels deep here (the limit): flatten this part of beeuni.yaml",
  ]);
});

Deno.test("an import chain of 4,000 files costs no call stack, and the default limit stops it at depth 32 (M2)", async () => {
  const files: Record<string, string> = {
    "beeuni.yaml": "imports: [f0.yaml]\ntools: {}\n",
  };
  for (let i = 0; i < 4000; i++) {
    files[`f${i}.yaml`] = i < 3999 ? `imports: [f${i + 1}.yaml]\n` : "{}\n";
  }
  const read = (path: string) => files[path];
  const deep = await parseManifest("/repo", "beeuni.yaml", read, {
    limits: { maxImportDepth: 5000, maxImports: 5000 },
  });
  assert.deepEqual(deep.diagnostics, []);
  assert.equal(deep.files.length, 4001);

  const bounded = await parseManifest("/repo", "beeuni.yaml", read);
  assert.equal(bounded.files.length, 33);
  assert.equal(bounded.diagnostics.length, 1);
  const [error] = bounded.diagnostics;
  assert.deepEqual([error.file, error.line, error.col, error.rule], [
    "f31.yaml",
    1,
    11,
    "M2",
  ]);
  assert.match(
    error.message,
    /^cannot import "f32\.yaml": it would sit 33 imports below the root, deeper than the limit of 32: import it from a file nearer the root \(import chain: beeuni\.yaml -> f0\.yaml -> .* -> f32\.yaml\)$/,
  );
});

Deno.test("more imported files than the limit get one positioned error (M2)", async () => {
  const files: Record<string, string> = {
    "beeuni.yaml": `imports: [${
      Array.from({ length: 300 }, (_, i) => `i${i}.yaml`).join(", ")
    }]\n`,
  };
  for (let i = 0; i < 300; i++) files[`i${i}.yaml`] = "{}\n";
  const manifest = await parseManifest("/repo", "beeuni.yaml", (p) => files[p]);
  assert.equal(manifest.files.length, 257);
  assert.deepEqual(brief(manifest.diagnostics), [
    'beeuni.yaml:1:2717: error: cannot import "i256.yaml": the manifest already imports 256 files (the limit): merge some of them',
  ]);
});

Deno.test("a mapping or list past the entries limit gets one error at its first entry too many (V12)", async () => {
  const tools = Array.from(
    { length: 10_001 },
    (_, i) => `  t${i}: tools/t.ts\n`,
  ).join("");
  const map = await parseManifest(
    "/repo",
    "beeuni.yaml",
    () => `tools:\n${tools}`,
  );
  assert.deepEqual(brief(map.diagnostics), [
    "beeuni.yaml:10002:3: error: this mapping has more than 10000 entries (the limit): split it across files listed under `imports:`",
  ]);
  const list = await parseManifest(
    "/repo",
    "beeuni.yaml",
    () =>
      `agents:\n  a:\n    tools: [${
        Array.from({ length: 10_001 }, () => "read").join(", ")
      }]\n`,
  );
  assert.deepEqual(brief(list.diagnostics), [
    `beeuni.yaml:3:${
      13 + 6 * 10_000
    }: error: this list has more than 10000 entries (the limit): split it across files listed under \`imports:\``,
  ]);
});

Deno.test("a duplicate key among 10,000 is reported once, at the repeat (V12)", async () => {
  const tools = Array.from(
    { length: 9_999 },
    (_, i) => `  t${i}: tools/t.ts\n`,
  ).join("");
  const manifest = await parseManifest(
    "/repo",
    "beeuni.yaml",
    () => `tools:\n${tools}  t5: tools/u.ts\n`,
  );
  assert.deepEqual(brief(manifest.diagnostics), [
    "beeuni.yaml:10001:3: error: malformed YAML: Map keys must be unique",
  ]);
});

Deno.test("duplicate keys are checked in linear time: 200,000 keys finish (hang guard 60 s)", async () => {
  // The library's own check compares every key with every earlier one:
  // 2e10 comparisons here. Run in a child process so the guard can stop it.
  const script = `
    import { parseManifest } from ${
    JSON.stringify(join(REPO_ROOT, "lib/manifest/mod.ts"))
  };
    const text = "x:\\n" + Array.from({ length: 200000 }, (_, i) => "  k" + i + ": 1\\n").join("") + "  k7: 2\\n";
    const m = await parseManifest("/repo", "beeuni.yaml", () => text, {
      limits: { maxEntries: 1e6, maxNodes: 1e7, maxFileBytes: 1e8, maxTotalBytes: 1e8 },
    });
    console.log(JSON.stringify(m.diagnostics.map((d) => [d.line, d.col, d.message])));
  `;
  assert.deepEqual(await evalJson(script, REPO_ROOT), [
    [200_002, 3, "malformed YAML: Map keys must be unique"],
  ]);
});

Deno.test("a dedented line near the end of a 1 MiB manifest is named, each move tried walking only the lines near it (hang guard 60 s)", async () => {
  const script = `
    import { parseManifest } from ${
    JSON.stringify(join(REPO_ROOT, "lib/manifest/mod.ts"))
  };
    const lines = ["tools:"];
    for (let i = 0; lines.join("\\n").length < 990000; i += 1000) {
      for (let j = i; j < i + 1000; j++) lines.push("  tool_" + j + ": tools/t" + j + ".ts");
    }
    const at = lines.length - 3;
    lines[at] = lines[at].trimStart();
    const text = lines.join("\\n") + "\\n";
    const m = await parseManifest("/repo", "beeuni.yaml", () => text);
    console.log(JSON.stringify([at + 1, m.diagnostics.map((d) => [d.line, d.col, d.message])]));
  `;
  const [line, found] = await evalJson<[number, [number, number, string][]]>(
    script,
    REPO_ROOT,
  );
  assert.deepEqual(found, [[
    line,
    1,
    "malformed YAML: bad indentation: this line starts at column 1, left of the entries it belongs with (column 3), so the lines below it no longer fit; move it to column 3",
  ]]);
});

Deno.test("150,000 findings from one file do not overflow the stack; loadProject() reports the limit and a closing count", async () => {
  const text = "tools:\n" +
    Array.from({ length: 150_000 }, (_, i) => `  t${i}: 1\n`).join("");
  const manifest = await parseManifest("/repo", "beeuni.yaml", () => text, {
    limits: {
      maxEntries: 1e6,
      maxNodes: 1e7,
      maxFileBytes: 1e8,
      maxTotalBytes: 1e8,
    },
  });
  assert.equal(manifest.diagnostics.length, 150_000);

  // Warnings first, an error last: the closing line keeps the verdict.
  const names = Array.from({ length: 1_200 }, (_, i) => `nope_${i}`);
  await using repo = await tempRepo({
    "beeuni.yaml": `agents:\n  a:\n    tools: [${
      names.join(", ")
    }]\ntools:\n  web_search: beeuni:image_search\n`,
  });
  const project = await loadProject({ cwd: repo.dir });
  assert.equal(project.diagnostics.length, MANIFEST_LIMITS.maxDiagnostics + 1);
  const last = project.diagnostics.at(-1)!;
  assert.equal(last.severity, "error");
  assert.equal(
    last.message,
    "201 more findings from here on are not shown (1 error, 200 warnings): at most 1000 are reported; fix the ones above and check again",
  );
  const result = await beeuni(repo.dir, ["validate"]);
  assert.equal(result.code, 1);
  assert.equal(lines(result).length, MANIFEST_LIMITS.maxDiagnostics + 1);
});

Deno.test("limitDiagnostics() keeps a list within the limit as it is", () => {
  const d: Diagnostic = {
    file: "beeuni.yaml",
    line: 1,
    col: 1,
    severity: "warning",
    rule: "V9",
    message: "m",
  };
  assert.deepEqual(limitDiagnostics([d, d], 2), [d, d]);
  assert.deepEqual(
    brief(limitDiagnostics([d, d, d], 1)),
    [
      "beeuni.yaml:1:1: warning: m",
      "beeuni.yaml:1:1: warning: 2 more findings from here on are not shown (0 errors, 2 warnings): at most 1 are reported; fix the ones above and check again",
    ],
  );
});

Deno.test("more YAML nodes than the limit stop the read with a positioned error (V12)", async () => {
  const files: Record<string, string> = {
    "beeuni.yaml": "imports: [a.yaml, b.yaml]\n",
    "a.yaml": `x: [${Array.from({ length: 9_000 }, () => "a").join(",")}]\n`,
    "b.yaml": `y: [${Array.from({ length: 9_000 }, () => "b").join(",")}]\n`,
  };
  const manifest = await parseManifest(
    "/repo",
    "beeuni.yaml",
    (p) => files[p],
    {
      limits: { maxNodes: 10_000 },
    },
  );
  assert.deepEqual(brief(manifest.diagnostics), [
    "b.yaml:1:1983: error: the manifest files hold more than 10000 YAML values up to here (keys, values, lists and mappings; the limit): make them smaller",
  ]);
});

Deno.test("docs/manifest.md states every limit with its default", async () => {
  const docs = await Deno.readTextFile(join(REPO_ROOT, "docs/manifest.md"));
  for (const [name, value] of Object.entries(MANIFEST_LIMITS)) {
    const row = docs.split("\n").find((line) => line.includes(`\`${name}\``));
    assert.ok(row, `docs/manifest.md has no row for ${name}`);
    const shown = value.toLocaleString("en-US");
    assert.ok(
      row.includes(shown) ||
        (value >= 1024 * 1024 && row.includes(`${value / 1024 / 1024} MiB`)),
      `the row for ${name} does not give its default ${shown}: ${row}`,
    );
  }
});
