// The library is runtime-neutral: the same mod.ts parses, resolves and hosts
// tools under Bun, with `yaml` and `ajv` resolved through package.json.

import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "./_helpers.ts";
import { npmBin } from "./_npm_cache.ts";
import { formatToolsTable, loadProject } from "../mod.ts";

const BUN_VERSION = "1.4.5";

const SCRIPT = `
import { createHost, formatToolsTable, loadProject } from ${
  JSON.stringify(join(REPO_ROOT, "mod.ts"))
};
const [directory, tmpDir] = process.argv.slice(2);
const project = await loadProject({ cwd: directory });
const host = await createHost({ directory, tmpDir, log: () => {} });
const outcome = await host.call({
  name: "word_count",
  args: { text: "one two one" },
  sessionId: "s1",
  agent: "beeuni",
});
const missing = await host.call({
  name: "nope",
  args: {},
  sessionId: "s1",
  agent: "beeuni",
});
await host.close();
console.log(JSON.stringify({
  runtime: typeof Bun === "object" ? "bun" : "other",
  diagnostics: project.diagnostics.length,
  table: formatToolsTable(project.toolSet),
  outcome,
  missing,
}));
`;

Deno.test("mod.ts loads a project and hosts its tools under Bun", async () => {
  const bun = await npmBin("bun", BUN_VERSION, "bun");
  const dir = await Deno.makeTempDir({ prefix: "beeuni_bun_" });
  try {
    const script = join(dir, "smoke.ts");
    await Deno.writeTextFile(script, SCRIPT);
    const starter = join(REPO_ROOT, "examples", "starter");
    const out = await new Deno.Command(bun, {
      args: [script, starter, join(dir, "out")],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const result = JSON.parse(new TextDecoder().decode(out.stdout));
    const project = await loadProject({ cwd: starter });
    assert.equal(result.runtime, "bun");
    assert.equal(result.diagnostics, 0);
    assert.equal(result.table, formatToolsTable(project.toolSet));
    assert.equal(result.outcome.ok, true, JSON.stringify(result.outcome));
    const counted = JSON.parse(result.outcome.output);
    assert.equal(counted.words, 3);
    assert.equal(counted.distinct_words, 2);
    assert.deepEqual(result.missing, {
      ok: false,
      status: "not_found",
      error: "Tool nope not found",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
