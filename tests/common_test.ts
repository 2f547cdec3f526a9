import assert from "node:assert/strict";
import { join } from "node:path";
import {
  escapeControl,
  removeStaleTemps,
  withFileLock,
  writeFileAtomic,
} from "../lib/common/mod.ts";
import { age, tempDir } from "./_helpers.ts";

Deno.test("withFileLock() waits for a running holder and names the lock file when it times out", async () => {
  await using tmp = await tempDir("beeuni_common_");
  const target = join(tmp.dir, "store.json");
  const holder = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    Deno.writeTextFileSync(`${target}.lock`, `${holder.pid} 00ff\n`);
    assert.throws(
      () => withFileLock(target, () => "ran", { timeoutMs: 300 }),
      (error: Error) =>
        error.message.startsWith(
          `cannot lock "${target}": process ${holder.pid}`,
        ) &&
        error.message.includes(`${target}.lock`),
    );
  } finally {
    holder.kill("SIGKILL");
    await holder.status;
  }
  // Its holder is gone: the lock is taken over, then released.
  assert.equal(withFileLock(target, () => "ran", { timeoutMs: 300 }), "ran");
  assert.deepEqual([...Deno.readDirSync(tmp.dir)], []);
});

Deno.test("withFileLock() takes over a lock left empty or older than staleMs, and never removes a lock it does not hold", async () => {
  await using tmp = await tempDir("beeuni_common_");
  const target = join(tmp.dir, "store.json");
  // A holder killed before it wrote its process id.
  Deno.writeTextFileSync(`${target}.lock`, "");
  age(`${target}.lock`, 10);
  assert.equal(withFileLock(target, () => 1, { timeoutMs: 300 }), 1);
  // A live process id (this one's parent) on a lock too old to be held still.
  Deno.writeTextFileSync(`${target}.lock`, `${Deno.ppid} 00ff\n`);
  age(`${target}.lock`, 60);
  assert.equal(withFileLock(target, () => 2, { timeoutMs: 300 }), 2);
  // A lock replaced while held (taken over as stale) stays with its new holder.
  withFileLock(target, () => {
    Deno.writeTextFileSync(`${target}.lock`, `${Deno.ppid} 0abc\n`);
  });
  assert.equal(
    Deno.readTextFileSync(`${target}.lock`),
    `${Deno.ppid} 0abc\n`,
  );
});

Deno.test("removeStaleTemps() removes only old temporary files of writeFileAtomic's shape", async () => {
  await using tmp = await tempDir("beeuni_common_");
  const path = (name: string) => join(tmp.dir, name);
  writeFileAtomic(path("a.json"), "{}");
  const files = {
    old: ".a.json.0123456789abcdef.tmp",
    fresh: ".a.json.fedcba9876543210.tmp",
    other: ".b.json.0123456789abcdef.tmp",
    user: ".a.json.notatemp.tmp",
  };
  for (const name of Object.values(files)) {
    Deno.writeTextFileSync(path(name), "x");
  }
  Deno.mkdirSync(path(".dir.0123456789abcdef.tmp"));
  for (const name of [files.old, files.other, files.user]) age(path(name), 120);
  age(path(".dir.0123456789abcdef.tmp"), 120);

  assert.deepEqual(removeStaleTemps(tmp.dir, { names: ["a.json"] }), [
    path(files.old),
  ]);
  assert.deepEqual(removeStaleTemps(tmp.dir), [path(files.other)]);
  assert.deepEqual(removeStaleTemps(tmp.dir, { graceMs: 0 }), [
    path(files.fresh),
  ]);
  assert.deepEqual(
    [...Deno.readDirSync(tmp.dir)].map((e) => e.name).sort(),
    [".a.json.notatemp.tmp", ".dir.0123456789abcdef.tmp", "a.json"],
  );
  assert.deepEqual(removeStaleTemps(path("missing")), []);
});

Deno.test("escapeControl() writes every control character as a visible escape and leaves the rest", () => {
  assert.equal(escapeControl("plain name, ünïcode ✓"), "plain name, ünïcode ✓");
  assert.equal(
    escapeControl("a\nb\rc\td\x1b]0;title\x07e\x1b[2J\x00\x7f\x9b"),
    "a\\nb\\rc\\td\\x1b]0;title\\x07e\\x1b[2J\\x00\\x7f\\x9b",
  );
  assert.equal(
    escapeControl("x\u2028y\u202ez\u2066"),
    "x\\u2028y\\u202ez\\u2066",
  );
  assert.equal(escapeControl("a\\nb"), "a\\nb");
  assert.equal(
    escapeControl("line 1\nline 2\r\x1b", { keepNewlines: true }),
    "line 1\nline 2\\r\\x1b",
  );
});
