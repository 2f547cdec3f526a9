// loadProject() and findManifest(): finding, reading and checking a project on disk (M1, M2, V4, V10).

import assert from "node:assert/strict";
import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { git, tempRepo } from "./_helpers.ts";
import {
  findManifest,
  isolatedLoader,
  loadProject,
  loadProjectIsolated,
} from "../lib/project/mod.ts";

const TOOL = `export default {
  description: "Says hello.",
  parameters: { type: "object", properties: {} },
  execute() {
    return "hello";
  },
};
`;

const MANIFEST =
  "tools:\n  web_search: beeuni:web_search\n  hello: tools/hello.ts\n";

Deno.test("findManifest() finds beeuni.yaml in the folder or the nearest one above it (M1)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": MANIFEST,
    "tools/hello.ts": TOOL,
    "deep/er/still/.keep": "",
    "nested/beeuni.yaml": "tools: {}\n",
  });
  assert.equal(findManifest(repo.dir), join(repo.dir, "beeuni.yaml"));
  assert.equal(
    findManifest(join(repo.dir, "deep/er/still")),
    join(repo.dir, "beeuni.yaml"),
  );
  assert.equal(
    findManifest(join(repo.dir, "nested")),
    join(repo.dir, "nested/beeuni.yaml"),
  );
});

Deno.test("findManifest() returns undefined when no folder up to / has beeuni.yaml (M1)", async () => {
  await using repo = await tempRepo({ "src/main.ts": "" });
  assert.equal(findManifest(join(repo.dir, "src")), undefined);
});

Deno.test("loadProject() from a subfolder uses the manifest's folder as the repository root (M1)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": MANIFEST,
    "tools/hello.ts": TOOL,
    "src/app/.keep": "",
  });
  const project = await loadProject({ cwd: join(repo.dir, "src/app") });
  assert.equal(project.root, repo.dir);
  assert.equal(project.manifest.manifestPath, "beeuni.yaml");
  assert.deepEqual(project.diagnostics, []);
  assert.deepEqual(
    project.toolSet.tools.map((tool) => [tool.name, tool.kind, tool.source]),
    [["web_search", "beeuni", "beeuni:web_search"], [
      "hello",
      "project",
      "tools/hello.ts",
    ]],
  );
  assert.deepEqual(project.facts, {
    modules: {
      "tools/hello.ts": { exists: true, insideRepo: true, tracked: true },
    },
    legacyTools: [],
  });
});

Deno.test("loadProject() throws a readable error naming where it looked when there is no manifest (M1)", async () => {
  await using repo = await tempRepo({ "src/main.ts": "" });
  await assert.rejects(
    () => loadProject({ cwd: join(repo.dir, "src") }),
    {
      message: `no beeuni.yaml found in "${
        join(repo.dir, "src")
      }" or any folder above it: run beeuni inside a project, or pass --manifest PATH`,
    },
  );
  await assert.rejects(
    () => loadProject({ cwd: repo.dir, manifest: "conf/beeuni.yaml" }),
    {
      message:
        `cannot read manifest "conf/beeuni.yaml": file not found (looked at ${
          join(repo.dir, "conf/beeuni.yaml")
        })`,
    },
  );
});

Deno.test("loadProject() takes --manifest as a file or a folder, relative to cwd (M1)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools: {}\n",
    "other/beeuni.yaml": MANIFEST,
    "other/tools/hello.ts": TOOL,
    "other/custom.yaml": "tools:\n  memory: beeuni:memory\n",
  });
  const byFile = await loadProject({
    cwd: repo.dir,
    manifest: "other/beeuni.yaml",
  });
  assert.equal(byFile.root, join(repo.dir, "other"));
  assert.deepEqual(byFile.diagnostics, []);
  const byFolder = await loadProject({ cwd: repo.dir, manifest: "other" });
  assert.equal(byFolder.root, join(repo.dir, "other"));
  assert.deepEqual(byFolder.toolSet, byFile.toolSet);
  const named = await loadProject({
    cwd: join(repo.dir, "other"),
    manifest: "custom.yaml",
  });
  assert.equal(named.manifest.manifestPath, "custom.yaml");
  assert.deepEqual(named.toolSet.tools.map((tool) => tool.name), ["memory"]);
});

Deno.test("loadProject() checks git tracking from a manifest in a subfolder of a larger repository (V10)", async () => {
  await using repo = await tempRepo(
    {
      "examples/demo/beeuni.yaml":
        "tools:\n  show: beeuni:show\n  hello: tools/hello.ts\n  fresh: tools/fresh.ts\n",
      "examples/demo/tools/hello.ts": TOOL,
      "examples/demo/tools/fresh.ts": TOOL,
    },
    { untracked: ["examples/demo/tools/fresh.ts"] },
  );
  const project = await loadProject({
    cwd: repo.dir,
    manifest: "examples/demo/beeuni.yaml",
  });
  assert.deepEqual(project.facts.modules, {
    "tools/hello.ts": { exists: true, insideRepo: true, tracked: true },
    "tools/fresh.ts": { exists: true, insideRepo: true, tracked: false },
  });
  assert.deepEqual(project.diagnostics.map((d) => [d.rule, d.line]), [[
    "V10",
    4,
  ]]);
});

Deno.test("loadProject() outside any git repository counts every module as untracked (V10)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_nogit_" });
  try {
    await Deno.mkdir(join(dir, "tools"));
    await Deno.writeTextFile(join(dir, "beeuni.yaml"), MANIFEST);
    await Deno.writeTextFile(join(dir, "tools/hello.ts"), TOOL);
    const project = await loadProject({ cwd: dir });
    assert.deepEqual(project.diagnostics.map((d) => d.rule), ["V10"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("loadProject() refuses an import symlinked from outside the repository (M2)", async () => {
  const outside = await Deno.makeTempDir({ prefix: "beeuni_outside_" });
  try {
    await Deno.writeTextFile(
      join(outside, "shared.yaml"),
      "tools:\n  memory: beeuni:memory\n",
    );
    await using repo = await tempRepo({
      "beeuni.yaml": "imports:\n  - shared.yaml\n  - local.yaml\n",
      "real/local.yaml": "agents:\n  a:\n    tools: none\n",
    });
    await symlink(join(outside, "shared.yaml"), join(repo.dir, "shared.yaml"));
    await symlink("real/local.yaml", join(repo.dir, "local.yaml"));
    await git(repo.dir, "add", "shared.yaml", "local.yaml");
    await git(repo.dir, "commit", "-q", "-m", "links");
    const project = await loadProject({ cwd: repo.dir });
    assert.deepEqual(
      project.diagnostics.map((d) =>
        `${d.file}:${d.line}:${d.col}: ${d.rule} ${d.message}`
      ),
      [
        'beeuni.yaml:2:5: M2 cannot import "shared.yaml": it leads outside the repository through a symlink (import chain: beeuni.yaml -> shared.yaml)',
      ],
    );
    assert.deepEqual(project.manifest.files.map((file) => file.path), [
      "beeuni.yaml",
      "local.yaml",
    ]);
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("loadProject() tells files, symlinks out and missing modules apart in folders of many modules (V4, V5)", async () => {
  const outside = await Deno.makeTempDir({ prefix: "beeuni_outside_" });
  try {
    const names = Array.from({ length: 10 }, (_, i) => `t${i}`);
    const files: Record<string, string> = {};
    for (const name of names) {
      files[`many/${name}.ts`] = TOOL;
      files[`real/${name}.ts`] = TOOL;
      await Deno.writeTextFile(join(outside, `${name}.ts`), TOOL);
    }
    const lines = ["tools:"];
    const declare = (name: string, path: string) =>
      lines.push(`  ${name}: ${path}`);
    for (const name of names) {
      declare(`many_${name}`, `many/${name}.ts`);
      declare(`in_${name}`, `linked_in/${name}.ts`);
      declare(`out_${name}`, `linked_out/${name}.ts`);
    }
    declare("missing", "many/missing.ts");
    declare("folder", "many/folder.ts");
    declare("link_out", "many/link_out.ts");
    declare("link_in", "many/link_in.ts");
    files["beeuni.yaml"] = lines.join("\n") + "\n";
    await using repo = await tempRepo(files);
    await Deno.mkdir(join(repo.dir, "many/folder.ts"));
    await symlink(join(outside, "t0.ts"), join(repo.dir, "many/link_out.ts"));
    await symlink("t1.ts", join(repo.dir, "many/link_in.ts"));
    await symlink("real", join(repo.dir, "linked_in"));
    await symlink(outside, join(repo.dir, "linked_out"));
    const project = await loadProject({ cwd: repo.dir, tracking: false });
    const facts = (exists: boolean, insideRepo: boolean) => ({
      exists,
      insideRepo,
      tracked: true,
    });
    const expected: Record<string, ReturnType<typeof facts>> = {};
    for (const name of names) {
      expected[`many/${name}.ts`] = facts(true, true);
      expected[`linked_in/${name}.ts`] = facts(true, true);
      expected[`linked_out/${name}.ts`] = facts(true, false);
    }
    expected["many/missing.ts"] = facts(false, true);
    expected["many/folder.ts"] = facts(false, true);
    expected["many/link_out.ts"] = facts(true, false);
    expected["many/link_in.ts"] = facts(true, true);
    assert.deepEqual(project.facts.modules, expected);
    const rules = project.diagnostics.filter((d) => d.severity === "error")
      .map((d) => `${d.line} ${d.rule}`);
    assert.deepEqual(rules, [
      ...names.map((_, i) => `${4 + 3 * i} V4`),
      "32 V5",
      "33 V5",
      "34 V4",
    ]);
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("loadProject() reads CRLF manifests and imports (M2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml":
      "imports:\r\n  - more.yaml\r\ntools:\r\n  web_search: beeuni:web_search\r\n",
    "more.yaml": "tools:\r\n  hello: tools/hello.ts\r\n",
    "tools/hello.ts": TOOL,
  });
  const project = await loadProject({ cwd: repo.dir });
  assert.deepEqual(project.diagnostics, []);
  assert.deepEqual(project.toolSet.tools.map((tool) => tool.source), [
    "beeuni:web_search",
    "tools/hello.ts",
  ]);
});

/** A project whose manifest is large but within the limits it is read with. */
/**
 * A project importing 8 files of `entries` entries each. The files start
 * with an anchor, so the `yaml` library reads them (the reader of plain
 * manifests needs far less memory, and the heap test needs a reader that
 * outgrows its heap).
 */
function largeProject(entries: number): Record<string, string> {
  const imports: string[] = [];
  const files: Record<string, string> = {};
  for (let f = 0; f < 8; f++) {
    const path = `data/f${f}.yaml`;
    imports.push(path);
    files[path] = `x-data: &data\n${
      Array.from({ length: entries }, (_, i) => `  k${i}: [a, b, c]\n`).join("")
    }`;
  }
  files["beeuni.yaml"] = `imports: [${
    imports.join(", ")
  }]\ntools:\n  web_search: beeuni:web_search\n`;
  return files;
}

Deno.test("loadProjectIsolated() gives what loadProject() gives, while the caller's event loop keeps turning", async () => {
  await using repo = await tempRepo(largeProject(2_000));
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  let isolated;
  try {
    isolated = await loadProjectIsolated({ cwd: repo.dir, tracking: false });
  } finally {
    clearInterval(timer);
  }
  // A read on this thread holds the loop until it ends; the worker's does not.
  assert.ok(ticks > 0, "no timer fired during the isolated load");
  const local = await loadProject({ cwd: repo.dir, tracking: false });
  assert.deepEqual(isolated, local);
  assert.equal(isolated.manifest.files.length, 9);
});

Deno.test("an isolated load that outgrows its worker's heap ends with a readable error; the caller and the next load live on", async () => {
  await using repo = await tempRepo({
    ...largeProject(9_000),
    "small.yaml": "tools:\n  web_search: beeuni:web_search\n",
  });
  const loader = isolatedLoader({ heapMb: 32, timeoutMs: 15_000 });
  try {
    // Near its heap limit a worker either fails at once or slows down in
    // garbage collection until the time limit ends it: both are contained.
    await assert.rejects(
      loader.load({
        cwd: repo.dir,
        tracking: false,
        limits: { maxNodes: 1e7 },
      }),
      /^Error: reading the manifest (needs more than 32 MB of memory|took longer than 15 s): make it smaller$/,
    );
    // A fresh worker reads the next load.
    const small = await loader.load({ cwd: repo.dir, manifest: "small.yaml" });
    assert.deepEqual(small.toolSet.tools.map((t) => t.name), ["web_search"]);
  } finally {
    await loader.close();
  }
  // Within the default limits the large project is one positioned error.
  const project = await loadProjectIsolated({ cwd: repo.dir, tracking: false });
  assert.deepEqual(
    project.diagnostics.map((d) => [d.file, d.line, d.severity]),
    [["data/f2.yaml", 1_997, "error"]],
  );
  assert.match(project.diagnostics[0].message, /more than 100000 YAML values/);
});

Deno.test("loadProjectIsolated() rejects like loadProject() when there is no manifest", async () => {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_none_" });
  try {
    await assert.rejects(
      loadProjectIsolated({ cwd: dir, manifest: "missing.yaml" }),
      /missing\.yaml/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
