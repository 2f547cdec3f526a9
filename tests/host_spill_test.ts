// Saved outputs (T6): where they go, how long they stay, and the cap on
// their size.

import assert from "node:assert/strict";
import { join } from "node:path";
import { call, manifest, project, tool } from "./_host.ts";
import { tempRepo } from "./_helpers.ts";
import { startDaemon } from "./_daemon.ts";

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
