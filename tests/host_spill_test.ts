// Saved outputs (T6): where they go, how long they stay, and the cap on
// their size.

import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { call, manifest, project, tool } from "./_host.ts";
import { tempRepo } from "./_helpers.ts";
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

function age(path: string, seconds: number): void {
  const past = new Date(Date.now() - seconds * 1000);
  Deno.utimeSync(path, past, past);
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

Deno.test("saved outputs older than tmpRetentionMs, and temp files a killed save left, are removed at the next save and on close (T6)", async () => {
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
    {
      await using fx = await project({
        "beeuni.yaml": manifest(["big"]),
        "tools/big.ts": BIG,
      }, { tmpDir: dir, tmpRetentionMs: 60_000 });
      const outcome = await call(fx.host, "big", { mode: "60000" });
      assert.ok(outcome.ok && outcome.path);
      assert.deepEqual(
        saved(dir),
        [
          outcome.path.slice(dir.length + 1),
          "big-1700000000001-0123abce.txt",
          "notes.txt",
        ].sort(),
      );
      // Expires while the host runs: gone once it closes.
      age(recent, 120);
    }
    assert.equal(saved(dir).length, 2);
    assert.ok(!saved(dir).includes("big-1700000000001-0123abce.txt"));
    assert.ok(saved(dir).includes("notes.txt"));
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

Deno.test("the daemon saves outputs in the user's 0700 folder under TMPDIR, within --tmp-max-bytes (T6)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": manifest(["big"]),
    "tools/big.ts": BIG,
  });
  await using daemon = await startDaemon(repo.dir, {
    args: ["--tmp-max-bytes", "100000", "--tmp-retention-ms", "3600000"],
  });
  const body = { args: { mode: "60000" }, sessionId: "s1", agent: "beeuni" };
  const first = await daemon.call("big", body);
  const second = await daemon.call("big", body);
  const path = String(second.body.path);
  const folder = path.slice(0, path.lastIndexOf("/"));
  const uid = Deno.uid();
  assert.match(folder, new RegExp(`/beeuni-tools-${uid}$`));
  assert.equal(Deno.statSync(folder).mode! & 0o777, 0o700);
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
