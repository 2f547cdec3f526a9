// Saved outputs (T6): where they go, how long they stay, and the cap on
// their size.

import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { call, manifest, project, tool } from "./_host.ts";
import { age, tempDir, tempRepo } from "./_helpers.ts";
import { projectKey } from "../lib/common/mod.ts";
import { startDaemon, waitFor } from "./_daemon.ts";
import {
  assertSavedWhole,
  BIG_OUTPUT_TOOL,
  checkBigOutput,
  expectedCut,
  filesIn,
  fullText,
  IMAGE_BLOCK,
} from "./_big_output.ts";

/** A tool whose output is `args.mode` bytes of "x" after a line naming it. */
const BIG = tool(
  `return "output " + Date.now() + "\\n" + "x".repeat(Number(args.mode));`,
);

function saved(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}

Deno.test("saved outputs stay within tmpMaxBytes: the oldest go first (T6)", async () => {
  await using fx = await project({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG,
  }, { tmpMaxBytes: 150_000 });
  const dir = join(fx.dir, ".tool-output");
  const paths: string[] = [];
  for (let i = 0; i < 5; i++) {
    const outcome = await call(fx.host, "big", { mode: "60000" });
    assert.ok(outcome.ok && outcome.truncated && outcome.path);
    paths.push(outcome.path);
  }
  // Two 60 KB files fit in 150,000 bytes; the three older ones are gone.
  assert.deepEqual(
    saved(dir),
    paths.slice(3).map((path) => path.slice(dir.length + 1)).sort(),
  );
  const total = saved(dir).reduce(
    (sum, name) => sum + Deno.statSync(join(dir, name)).size,
    0,
  );
  assert.ok(total <= 150_000, `${total} bytes kept`);
});

Deno.test("files older than tmpRetentionMs, whatever their names, and temp files a killed save left, are removed at the next save and on close (T6)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_spill_" });
  try {
    // Left by an earlier host: an expired output, a recent one, a stale temp file.
    const expired = join(dir, "big-1700000000000-0123abcd.txt");
    const recent = join(dir, "big-1700000000001-0123abce.txt");
    const temp = join(
      dir,
      ".big-1700000000002-0123abcf.txt.0123456789abcdef.tmp",
    );
    const other = join(dir, "notes.txt");
    for (const path of [expired, recent, temp, other]) {
      Deno.writeTextFileSync(path, "old");
    }
    age(expired, 120);
    age(temp, 120);
    age(other, 120);
    let path = "";
    {
      await using fx = await project({
        "beeuni.yaml": manifest(["big"]),
        "tools/big.ts": BIG,
      }, { tmpDir: dir, tmpRetentionMs: 60_000 });
      const outcome = await call(fx.host, "big", { mode: "60000" });
      assert.ok(outcome.ok && outcome.path);
      path = outcome.path;
      assert.deepEqual(
        saved(dir),
        [
          basename(path),
          "big-1700000000001-0123abce.txt",
        ].sort(),
      );
      // Expires while the host runs: gone once it closes.
      age(recent, 120);
    }
    assert.deepEqual(saved(dir), [basename(path)]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an output larger than tmpMaxBytes is cut and not saved, and the model is told so (T6)", async () => {
  await using fx = await project({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG,
  }, { tmpMaxBytes: 55_000 });
  const outcome = await call(fx.host, "big", { mode: "60000" });
  assert.ok(outcome.ok);
  assert.equal(outcome.truncated, true);
  assert.equal(outcome.path, undefined);
  assert.ok(outcome.size! > 60_000);
  assert.match(
    outcome.output,
    /\n\[output truncated: showing the first 1 of 2 lines \(\d+ of \d+ bytes\); the full output was not saved: it is over the 55000-byte cap on saved outputs\]$/,
  );
  assert.deepEqual(saved(join(fx.dir, ".tool-output")), []);
});

Deno.test("the daemon saves outputs in the project's own 0700 folder inside the user's 0700 folder under TMPDIR, within --tmp-max-bytes (T6)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG,
  });
  await using tmp = await tempDir();
  await using daemon = await startDaemon(repo.dir, {
    args: ["--tmp-max-bytes", "100000", "--tmp-retention-ms", "3600000"],
    env: { TMPDIR: tmp.dir },
  });
  const body = { args: { mode: "60000" }, sessionId: "s1", agent: "beeuni" };
  const first = await daemon.call("big", body);
  const second = await daemon.call("big", body);
  const path = String(second.body.path);
  const folder = path.slice(0, path.lastIndexOf("/"));
  const uid = Deno.uid();
  assert.equal(
    folder,
    join(tmp.dir, `beeuni-tools-${uid}`, projectKey(repo.dir).slice(0, 16)),
  );
  assert.equal(Deno.statSync(folder).mode! & 0o777, 0o700);
  assert.equal(Deno.statSync(dirname(folder)).mode! & 0o777, 0o700);
  assert.equal(String(first.body.path).slice(0, folder.length), folder);
  // The first (60 KB) made room for the second within 100,000 bytes.
  assert.deepEqual(saved(folder), [path.slice(folder.length + 1)]);
});

Deno.test("outputs of megabytes are cut where the tool ran, as T6 cuts them, and saved whole with no temporary file left (T6, H4)", async () => {
  await using fx = await project({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG_OUTPUT_TOOL,
  });
  const dir = join(fx.dir, ".tool-output");
  const sizes: Record<string, number> = {
    lines: 24,
    line: 6,
    json: 6,
    error: 6,
    content: 6,
  };
  for (const [shape, mb] of Object.entries(sizes)) {
    const outcome = await call(fx.host, "big", { shape, mb });
    const full = fullText(shape, mb);
    assert.equal(outcome.truncated, true, shape);
    assert.equal(outcome.size, new TextEncoder().encode(full).length, shape);
    const path = outcome.path!;
    assert.equal(dirname(path), dir, shape);
    assert.match(
      basename(path),
      new RegExp(
        `^big${shape === "error" ? "-error" : ""}-\\d+-[0-9a-f]{8}\\.txt$`,
      ),
    );
    const text = outcome.ok ? outcome.output : outcome.error;
    assert.equal(
      text,
      expectedCut(full, `the full output is in ${path}`),
      shape,
    );
    assertSavedWhole(path, full);
    if (shape === "error") {
      assert.equal(!outcome.ok && outcome.status, "error");
    } else {
      assert.ok(outcome.ok, shape);
      assert.equal(outcome.structured, undefined, shape);
      if (shape === "content") {
        assert.deepEqual(outcome.content, [
          { type: "text", text },
          IMAGE_BLOCK,
        ]);
      } else assert.equal(outcome.content, undefined, shape);
    }
    assert.deepEqual(
      filesIn(dir).filter((name) => name.startsWith(".")),
      [],
      `temporary files after ${shape}`,
    );
  }
  assert.equal(filesIn(dir).length, Object.keys(sizes).length);
});

Deno.test("a huge output over tmpMaxBytes is cut where the tool ran and nothing is written (T6)", async () => {
  await using fx = await project({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG_OUTPUT_TOOL,
  }, { tmpMaxBytes: 10_000_000 });
  const outcome = await call(fx.host, "big", { shape: "lines", mb: 20 });
  const full = fullText("lines", 20);
  assert.ok(outcome.ok);
  assert.equal(outcome.truncated, true);
  assert.equal(outcome.path, undefined);
  assert.equal(outcome.size, new TextEncoder().encode(full).length);
  assert.equal(
    outcome.output,
    expectedCut(
      full,
      "the full output was not saved: it is over the 10000000-byte cap on saved outputs",
    ),
  );
  assert.deepEqual(filesIn(join(fx.dir, ".tool-output")), []);
});

Deno.test("the file of a huge output whose call was aborted meanwhile is removed (T6)", async () => {
  await using fx = await project({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG_OUTPUT_TOOL,
  });
  const dir = join(fx.dir, ".tool-output");
  // Sees the temporary file appear however briefly it stays.
  using watcher = Deno.watchFs(dir);
  const created = new Set<string>();
  void (async () => {
    for await (const event of watcher) {
      if (event.kind !== "create") continue;
      for (const path of event.paths) created.add(basename(path));
    }
  })();
  const controller = new AbortController();
  const calling = call(fx.host, "big", { shape: "after-abort", mb: 20 }, {
    signal: controller.signal,
  });
  await waitFor("the call to start", () => filesIn(fx.dir).includes("started"));
  controller.abort();
  const outcome = await calling;
  assert.equal(!outcome.ok && outcome.status, "aborted");
  // The tool returns once aborted; its runner writes the output to a
  // temporary file, which the host removes when the result comes in.
  await waitFor(
    "the runner to write the output",
    () => [...created].some((name) => /^\.big-.*\.tmp$/.test(name)),
  );
  await waitFor("the host to remove it", () => filesIn(dir).length === 0);
  assert.deepEqual(await call(fx.host, "big", { shape: "line", mb: 0.01 }), {
    ok: true,
    output: fullText("line", 0.01),
  });
  assert.deepEqual(filesIn(dir), []);
});

Deno.test("a daemon's memory does not grow with a tool's output: 40 MB come back cut and saved, the daemon's peak grows by far less (T6)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG_OUTPUT_TOOL,
  });
  await using daemon = await startDaemon(repo.dir);
  // Holding the output once would take 40 MB (twice that as UTF-16).
  await checkBigOutput(daemon, "big", 40);
});

/**
 * A hostile tool: `{ mode: "flood", dir, bytes }` writes 200 files named
 * anything (`junk-<i>…`; ten shaped like temporary files) of `bytes` bytes
 * each into `dir`, and a subfolder with a folder and files in it.
 */
const FLOOD = tool(`
    const fs = await import("node:fs");
    const shapes = [
      (i) => "junk-" + i,
      (i) => ".junk-" + i,
      (i) => "junk-" + i + "-é ü.txt",
      (i) => "big-" + i + "-00000000.txt",
    ];
    const names = [];
    for (let i = 0; i < 200; i++) {
      const name = i % 20 === 0
        ? ".junk-" + i + ".txt." + "0123456789abcdef" + ".tmp"
        : shapes[i % shapes.length](i);
      fs.writeFileSync(args.dir + "/" + name, "x".repeat(args.bytes));
      names.push(name);
    }
    fs.mkdirSync(args.dir + "/sub/deeper", { recursive: true });
    fs.writeFileSync(args.dir + "/sub/file", "x".repeat(args.bytes));
    fs.writeFileSync(args.dir + "/sub/deeper/file", "x".repeat(args.bytes));
    return JSON.stringify(names);
`);

/** The names and sizes of the files in `dir`, and whether it holds anything else. */
function contents(
  dir: string,
): { files: Map<string, number>; other: string[] } {
  const files = new Map<string, number>();
  const other: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const info = Deno.lstatSync(join(dir, entry.name));
    if (info.isFile) files.set(entry.name, info.size);
    else other.push(entry.name);
  }
  return { files, other: other.sort() };
}

/** Whether `name` is shaped like a temporary file being written. */
const isTemp = (name: string) => /^\..+\.[0-9a-f]{16}\.tmp$/.test(name);

Deno.test("files of any name, folders and symlinks a hostile tool leaves in the folder of saved outputs are swept: by size, oldest first, and by age (T6, H2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": manifest(["big", "flood"]),
    "tools/big.ts": BIG,
    "tools/flood.ts": FLOOD,
  });
  await using tmp = await tempDir();
  await using daemon = await startDaemon(repo.dir, {
    args: ["--tmp-max-bytes", "1000000", "--tmp-retention-ms", "3600000"],
    env: { TMPDIR: tmp.dir },
  });
  const big = async () => {
    const { body } = await daemon.call("big", {
      args: { mode: "60000" },
      sessionId: "s1",
      agent: "beeuni",
    });
    assert.equal(body.truncated, true, JSON.stringify(body).slice(0, 300));
    return String(body.path);
  };
  const first = await big();
  const folder = dirname(first);
  // The tool finds the folder from the path it is given, and fills it.
  const { status, body } = await daemon.call("flood", {
    args: { mode: "flood", dir: folder, bytes: 10_000 },
    sessionId: "s1",
    agent: "beeuni",
  });
  assert.equal(status, 200, JSON.stringify(body));
  const junk: string[] = JSON.parse(String(body.output));
  assert.equal(junk.length, 200);
  const temps = junk.filter(isTemp);
  assert.equal(temps.length, 10);
  // And symlinks to a file and a folder outside, which must stay whole.
  const canary = join(tmp.dir, "canary");
  Deno.mkdirSync(join(canary, "inside"), { recursive: true });
  Deno.writeTextFileSync(join(canary, "inside", "keep"), "keep");
  Deno.symlinkSync(join(canary, "inside", "keep"), join(folder, "link-file"));
  Deno.symlinkSync(join(canary, "inside"), join(folder, "link-dir"));
  assert.deepEqual(contents(folder).other, ["link-dir", "link-file", "sub"]);
  // Junk i was last written 300 - i seconds ago: older than `first`.
  const old = junk.filter((name) => !isTemp(name));
  old.forEach((name, i) => age(join(folder, name), 300 - i));

  // By size: the oldest go until the new output fits in 1,000,000 bytes.
  const second = await big();
  const after = contents(folder);
  assert.deepEqual(after.other, []);
  assert.equal(Deno.readTextFileSync(join(canary, "inside", "keep")), "keep");
  const counted = [...after.files].filter(([name]) => !isTemp(name));
  const total = counted.reduce((sum, [, size]) => sum + size, 0);
  assert.ok(total <= 1_000_000, `${total} bytes kept`);
  assert.ok(
    after.files.has(basename(first)) && after.files.has(basename(second)),
  );
  // Temporary files being written (under 60 s old) are left alone.
  for (const name of temps) assert.ok(after.files.has(name), name);
  // What is left of the junk is its newest part, and not all of it went.
  const left = old.filter((name) => after.files.has(name));
  assert.deepEqual(left, old.slice(old.length - left.length));
  assert.ok(left.length > 0 && left.length < old.length, `${left.length} left`);
  assert.equal(
    total,
    10_000 * left.length + after.files.get(basename(first))! +
      after.files.get(basename(second))!,
  );

  // By age: past tmpRetentionMs (and temporary files past 60 s) they go.
  for (const name of [...left, ...temps, basename(first)]) {
    age(join(folder, name), 7_200);
  }
  const third = await big();
  assert.deepEqual(saved(folder), [basename(second), basename(third)].sort());
});

Deno.test("two projects save into folders of their own, and neither's sweep removes the other's outputs (T6)", async () => {
  await using a = await tempRepo({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG,
  });
  await using b = await tempRepo({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG,
  });
  await using tmp = await tempDir();
  const body = { args: { mode: "60000" }, sessionId: "s1", agent: "beeuni" };
  await using first = await startDaemon(a.dir, { env: { TMPDIR: tmp.dir } });
  const kept = String((await first.call("big", body)).body.path);
  // Older than b's retention time, and than a's size cap would allow with b's.
  age(kept, 3_600);
  await using second = await startDaemon(b.dir, {
    args: ["--tmp-max-bytes", "100000", "--tmp-retention-ms", "1000"],
    env: { TMPDIR: tmp.dir },
  });
  let last = "";
  for (let i = 0; i < 3; i++) {
    last = String((await second.call("big", body)).body.path);
  }
  const user = join(tmp.dir, `beeuni-tools-${Deno.uid()}`);
  assert.equal(dirname(kept), join(user, projectKey(a.dir).slice(0, 16)));
  assert.equal(dirname(last), join(user, projectKey(b.dir).slice(0, 16)));
  assert.deepEqual(saved(dirname(last)), [basename(last)]);
  assert.deepEqual(saved(dirname(kept)), [basename(kept)]);
  const again = String((await first.call("big", body)).body.path);
  assert.deepEqual(
    saved(dirname(kept)),
    [basename(again), basename(kept)].sort(),
  );
  assert.deepEqual(saved(dirname(last)), [basename(last)]);
  assert.deepEqual(
    saved(user),
    [
      projectKey(a.dir).slice(0, 16),
      projectKey(b.dir).slice(0, 16),
    ].sort(),
  );
});

Deno.test("a project's folder that cannot be trusted (a symlink, open permissions) is not used: a private folder is made instead (T6)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG,
  });
  await using tmp = await tempDir();
  const user = join(tmp.dir, `beeuni-tools-${Deno.uid()}`);
  const own = join(user, projectKey(repo.dir).slice(0, 16));
  const elsewhere = join(tmp.dir, "elsewhere");
  Deno.mkdirSync(elsewhere, { mode: 0o700 });
  Deno.mkdirSync(user, { mode: 0o700 });
  const body = { args: { mode: "60000" }, sessionId: "s1", agent: "beeuni" };
  const setups: [string, () => void][] = [
    ["a symlink", () => Deno.symlinkSync(elsewhere, own)],
    ["open permissions", () => {
      Deno.removeSync(own);
      Deno.mkdirSync(own);
      Deno.chmodSync(own, 0o777);
    }],
    ["an open user folder", () => {
      Deno.chmodSync(own, 0o700);
      Deno.chmodSync(user, 0o755);
    }],
  ];
  for (const [what, setup] of setups) {
    setup();
    await using daemon = await startDaemon(repo.dir, {
      env: { TMPDIR: tmp.dir },
    });
    const path = String((await daemon.call("big", body)).body.path);
    assert.match(dirname(path), /\/beeuni-tools-[^/]{6}$/, what);
    assert.equal(dirname(dirname(path)), tmp.dir, what);
    assert.equal(Deno.statSync(dirname(path)).mode! & 0o777, 0o700, what);
    assert.deepEqual(saved(elsewhere), [], what);
    assert.deepEqual(saved(own), [], what);
  }
});

Deno.test("a folder flooded with more entries than a sweep looks at loses the older half of those it looked at at each save, and saves go on (T6)", async () => {
  await using fx = await project({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG,
  });
  const dir = join(fx.dir, ".tool-output");
  Deno.mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 4_000; i++) {
    Deno.writeTextFileSync(join(dir, `f${i}`), "x");
  }
  const counts: number[] = [];
  for (let i = 0; i < 4; i++) {
    const outcome = await call(fx.host, "big", { mode: "60000" });
    assert.ok(outcome.ok && outcome.path);
    counts.push(saved(dir).length);
  }
  // 2,000 looked at, 1,000 removed, one saved; then no longer flooded.
  assert.deepEqual(counts, [3_001, 2_002, 1_003, 1_004]);
});
