// Tool modules resolve packages the Node way from a node_modules beside or
// above them, whatever the toolkit's own config holds, and nothing is
// written into the toolkit (T7, T9); relative paths resolve from the
// project root (T5); every module format loads.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createHost } from "../mod.ts";
import { beeuni, REPO_ROOT } from "./_helpers.ts";
import { startDaemon } from "./_daemon.ts";
import { packagesMonorepo } from "./_packages.ts";

const CALL = { args: {}, sessionId: "s1", agent: "beeuni" };

/** A fingerprint of what the toolkit holds that a tool could write into. */
function toolkitState(): string {
  const hash = createHash("sha256");
  hash.update(readFileSync(join(REPO_ROOT, "deno.lock")));
  for (const entry of Deno.readDirSync(join(REPO_ROOT, "node_modules"))) {
    hash.update(entry.name);
  }
  return hash.digest("hex");
}

Deno.test("packages resolve from node_modules beside or two folders above the module, each tool its own version (T7, T9)", async () => {
  const mono = await packagesMonorepo();
  const app = join(mono, "packages/app");
  const before = toolkitState();
  const logs: string[] = [];
  await using host = await createHost({
    directory: app,
    log: (line) => logs.push(line),
  });
  const expected: Record<string, string> = {
    zod4: "zod 4",
    zod3: "zod 3 ok",
    cjs_only: "true false",
    conditional: "id of 21",
    scoped: "true",
    reads_data: "data from the project root",
    format_mts: "mts",
    format_cts: "cts",
    format_mjs: "mjs",
    format_cjs: "cjs",
    format_js_esm: "js esm",
    format_js_cjs: "js cjs",
  };
  for (const [name, output] of Object.entries(expected)) {
    assert.deepEqual(
      await host.call({ name, ...CALL }),
      { ok: true, output },
      `${name}: ${logs.join("\n")}`,
    );
  }
  // zod 4's z.toJSONSchema() as parameters (T9).
  const zod4 = host.list().find((tool) => tool.name === "zod4")!;
  assert.equal(zod4.parameters.type, "object");
  assert.deepEqual(zod4.parameters.required, ["city"]);
  assert.deepEqual(
    (zod4.parameters.properties as Record<string, unknown>).city,
    { type: "string", description: "A city" },
  );
  // A package installed nowhere: the exact T9 text and a hint that works.
  const missing = host.loadErrors().find((e) => e.name === "missing");
  assert.match(
    missing?.reason ?? "",
    /Cannot find package 'left-pad': install it with npm in the project \(npm install left-pad\)/,
  );
  assert.equal(toolkitState(), before);
});

Deno.test("relative paths resolve from the project root through tools call from a subfolder and a daemon started elsewhere (T5)", async () => {
  const mono = await packagesMonorepo();
  const app = join(mono, "packages/app");
  const sub = await beeuni(join(app, "tools/v3"), [
    "tools",
    "call",
    "reads_data",
  ]);
  assert.equal(sub.stdout, "data from the project root\n", sub.stderr);
  assert.equal(sub.code, 0);
  await using daemon = await startDaemon(app, { args: ["--no-opencode"] });
  assert.deepEqual((await daemon.call("reads_data", CALL)).body, {
    output: "data from the project root",
  });
});
