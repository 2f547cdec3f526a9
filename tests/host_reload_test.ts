// Reloads told which files changed (P6): only the tools whose modules reach
// a changed file are imported anew; every other tool keeps its runner and
// the state in it. A changed manifest file reads the whole project again.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "./_daemon.ts";
import { call, manifest, project, tool } from "./_host.ts";
import { descendants } from "./_procs.ts";
import process from "node:process";

/** A tool that counts its calls in module state, prefixed with `label`. */
function counter(label: string, imports = ""): string {
  return `${imports}
let count = 0;
export default {
  description: "Counts its calls",
  parameters: { type: "object" },
  execute() {
    count++;
    return ${JSON.stringify(label)} + ":" + count;
  },
};
`;
}

const output = async (
  host: Parameters<typeof call>[0],
  name: string,
): Promise<string> => {
  const outcome = await call(host, name);
  assert.ok(outcome.ok, JSON.stringify(outcome));
  return outcome.output;
};

/** The runner processes of this test process's hosts, by command line. */
function runners(): string[] {
  return descendants(process.pid).map((p) => p.cmdline).filter((line) =>
    line.includes("runner")
  );
}

Deno.test("reload({ changed }) imports only the changed tool; the others keep their runner and its state (P6)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["a", "b"]),
    "tools/a.ts": counter("a1"),
    "tools/b.ts": counter("b"),
  });
  assert.equal(await output(p.host, "a"), "a1:1");
  assert.equal(await output(p.host, "b"), "b:1");
  assert.equal(await output(p.host, "b"), "b:2");
  const before = runners().length;
  await Deno.writeTextFile(join(p.dir, "tools/a.ts"), counter("a2"));
  const result = await p.host.reload({ changed: [join(p.dir, "tools/a.ts")] });
  assert.equal(result.ok, true);
  assert.deepEqual(result.reloaded, ["a"]);
  assert.equal(result.changed, false);
  // The new module answers at once; b's module state survived.
  assert.equal(await output(p.host, "a"), "a2:1");
  assert.equal(await output(p.host, "b"), "b:3");
  // a's old runner stopped: no more runner processes than before.
  let after = runners().length;
  for (let i = 0; i < 100 && after > before; i++) {
    await new Promise((r) => setTimeout(r, 20));
    after = runners().length;
  }
  assert.ok(after <= before, `runners before ${before}, after ${after}`);
});

Deno.test("reload({ changed }) with a shared helper reloads every project tool that imports it, and only those (P6)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["uses", "plain", "indirect"]),
    "tools/helper.ts": `export const word = "one";\n`,
    "tools/uses.ts": counter("uses", `import { word } from "./helper.ts";`)
      .replace(`"uses" + ":"`, `word + ":"`),
    "tools/indirect.ts": counter("indirect", `import "./uses.ts";`),
    "tools/plain.ts": counter("plain"),
  });
  assert.equal(await output(p.host, "uses"), "one:1");
  assert.equal(await output(p.host, "indirect"), "indirect:1");
  assert.equal(await output(p.host, "plain"), "plain:1");
  await Deno.writeTextFile(
    join(p.dir, "tools/helper.ts"),
    `export const word = "two";\n`,
  );
  const result = await p.host.reload({
    changed: [join(p.dir, "tools/helper.ts")],
  });
  assert.deepEqual(result.reloaded?.sort(), ["indirect", "uses"]);
  assert.equal(await output(p.host, "uses"), "two:1");
  assert.equal(await output(p.host, "indirect"), "indirect:1");
  assert.equal(await output(p.host, "plain"), "plain:2");
  // A file no tool is seen to import reloads every project tool.
  await Deno.writeTextFile(join(p.dir, "tools/loose.ts"), "export {};\n");
  const loose = await p.host.reload({
    changed: [join(p.dir, "tools/loose.ts")],
  });
  assert.deepEqual(loose.reloaded?.sort(), ["indirect", "plain", "uses"]);
  assert.equal(await output(p.host, "plain"), "plain:1");
});

Deno.test("reload({ changed }) reads the whole project when a manifest file changed or a tool module went away (P6, D5)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["a", "b"]),
    "tools/a.ts": counter("a"),
    "tools/b.ts": counter("b"),
  });
  assert.equal(await output(p.host, "b"), "b:1");
  await Deno.writeTextFile(
    join(p.dir, "beeuni.yaml"),
    manifest(["a", "b", "c"]),
  );
  await Deno.writeTextFile(join(p.dir, "tools/c.ts"), counter("c"));
  const whole = await p.host.reload({
    changed: [join(p.dir, "beeuni.yaml"), join(p.dir, "tools/c.ts")],
  });
  assert.equal(whole.ok, true);
  assert.equal(whole.changed, true);
  assert.deepEqual(p.host.list().map((t) => t.name).slice(0, 3), [
    "a",
    "b",
    "c",
  ]);
  assert.equal(await output(p.host, "c"), "c:1");
  assert.equal(await output(p.host, "a"), "a:1");
  // A module removed is the manifest's error (V4): refused, old tools serve.
  await Deno.remove(join(p.dir, "tools/a.ts"));
  const gone = await p.host.reload({ changed: [join(p.dir, "tools/a.ts")] });
  assert.equal(gone.ok, false);
  assert.ok(gone.diagnostics.some((d) => d.severity === "error"));
  assert.equal(await output(p.host, "a"), "a:2");
});

Deno.test("reload({ changed }) of a module that no longer loads reports why, and a fix serves it again (P6, T8)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["a", "b"]),
    "tools/a.ts": counter("a"),
    "tools/b.ts": counter("b"),
  });
  assert.equal(await output(p.host, "b"), "b:1");
  const file = join(p.dir, "tools/a.ts");
  await Deno.writeTextFile(file, `export default { description: "x" };\n`);
  const broken = await p.host.reload({ changed: [file] });
  assert.equal(broken.ok, true);
  assert.equal(broken.changed, true);
  assert.deepEqual(p.host.loadErrors().map((e) => e.name), ["a"]);
  const refused = await call(p.host, "a");
  assert.equal(refused.ok, false);
  assert.equal(!refused.ok && refused.status, "not_found");
  assert.ok(
    p.logs.includes(
      '[tools]   a: parameters must be a JSON Schema object with type: "object"',
    ),
    p.logs.join("\n"),
  );
  await Deno.writeTextFile(file, counter("fixed"));
  const fixed = await p.host.reload({ changed: [file] });
  assert.equal(fixed.changed, true);
  assert.deepEqual(p.host.loadErrors(), []);
  assert.equal(await output(p.host, "a"), "fixed:1");
  assert.equal(await output(p.host, "b"), "b:2");
});

Deno.test("a call running on a tool's old module finishes on it while new calls get the new module (P6, D5)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["slow"]),
    // Runs until the test lets it end, so the reload comes while it runs.
    "tools/slow.ts": tool(
      `const fs = await import("node:fs");
      fs.writeFileSync(context.directory + "/started", "");
      while (!fs.existsSync(context.directory + "/release")) {
        await new Promise((r) => setTimeout(r, 10));
      }
      return "old";`,
    ),
  });
  const running = call(p.host, "slow");
  await waitFor(
    "the slow call to start",
    () => existsSync(join(p.dir, "started")),
  );
  const file = join(p.dir, "tools/slow.ts");
  await Deno.writeTextFile(file, tool(`return "new";`));
  const result = await p.host.reload({ changed: [file] });
  assert.deepEqual(result.reloaded, ["slow"]);
  assert.deepEqual(await call(p.host, "slow"), { ok: true, output: "new" });
  await Deno.writeTextFile(join(p.dir, "release"), "");
  assert.deepEqual(await running, { ok: true, output: "old" });
});
