// The `beeuni` command line itself: help, version, unknown commands, and
// that only the named command's module is loaded.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beeuni, REPO_ROOT } from "./_helpers.ts";
import { COMMANDS, main, VERSION } from "../lib/cli/mod.ts";
import type { Command, CommandIo } from "../lib/cli/mod.ts";

function memoryIo(): CommandIo & { out: string; err: string } {
  const io = {
    out: "",
    err: "",
    cwd: REPO_ROOT,
    env: {},
    color: false,
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
    readStdin: () => Promise.resolve(""),
  };
  return io;
}

/** Replaces every command's loader with one that records its name. */
function recordLoads(): { loaded: string[]; restore(): void } {
  const loaded: string[] = [];
  const saved = COMMANDS.map((entry) => entry.load);
  for (const entry of COMMANDS) {
    const load = entry.load;
    (entry as { load: () => Promise<Command> }).load = () => {
      loaded.push(entry.name);
      return load();
    };
  }
  return {
    loaded,
    restore: () =>
      COMMANDS.forEach((entry, i) =>
        (entry as { load: () => Promise<Command> }).load = saved[i]
      ),
  };
}

Deno.test("beeuni --help lists every command without loading any, and a command's --help loads only that one", async () => {
  const record = recordLoads();
  try {
    const io = memoryIo();
    assert.equal(await main(["--help"], io), 0);
    for (const entry of COMMANDS) assert.ok(io.out.includes(entry.name));
    assert.deepEqual(record.loaded, []);
    const group = memoryIo();
    assert.equal(await main(["tools", "--help"], group), 0);
    assert.match(group.out, /tools ls/);
    assert.deepEqual(record.loaded, []);
    const one = memoryIo();
    assert.equal(await main(["tools", "ls", "--help"], one), 0);
    assert.match(one.out, /^Usage: beeuni tools ls/);
    assert.deepEqual(record.loaded, ["tools ls"]);
  } finally {
    record.restore();
  }
});

Deno.test("beeuni --version prints the version deno.json and package.json carry", async () => {
  const deno = JSON.parse(readFileSync(join(REPO_ROOT, "deno.json"), "utf8"));
  const npm = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
  assert.equal(VERSION, deno.version);
  assert.equal(VERSION, npm.version);
  const run = await beeuni(REPO_ROOT, ["--version"]);
  assert.deepEqual(run, { code: 0, stdout: `beeuni ${VERSION}\n`, stderr: "" });
});

Deno.test("beeuni refuses an unknown command with exit code 2 and a pointer to --help", async () => {
  const io = memoryIo();
  assert.equal(await main(["tools", "lss"], io), 2);
  assert.equal(
    io.err,
    'beeuni: unknown command "tools lss"\nRun `beeuni tools --help` for its commands.\n',
  );
  const none = memoryIo();
  assert.equal(await main([], none), 2);
  assert.match(none.out, /^Usage: beeuni <command>/);
});
