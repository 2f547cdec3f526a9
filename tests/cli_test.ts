// The `beeuni` command line itself: help, version, unknown commands, and
// that only the named command's module is loaded.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
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

Deno.test("deno install -g, as the README gives it, puts a beeuni command that works from any folder", async () => {
  const root = await Deno.makeTempDir({ prefix: "beeuni_install_" });
  try {
    const install = await new Deno.Command(Deno.execPath(), {
      args: [
        "install",
        "-g",
        "-A",
        "-n",
        "beeuni",
        "--root",
        root,
        "--config",
        "deno.json",
        "./cli.ts",
      ],
      cwd: REPO_ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(
      install.code,
      0,
      new TextDecoder().decode(install.stderr),
    );
    const run = async (...args: string[]) => {
      const out = await new Deno.Command(join(root, "bin", "beeuni"), {
        args,
        cwd: root,
        env: {
          NO_COLOR: "1",
          PATH: `${dirname(Deno.execPath())}:/usr/bin:/bin`,
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
      return { code: out.code, stdout: new TextDecoder().decode(out.stdout) };
    };
    assert.deepEqual(await run("--version"), {
      code: 0,
      stdout: `beeuni ${VERSION}\n`,
    });
    const validate = await run(
      "validate",
      "--manifest",
      join(REPO_ROOT, "examples/starter"),
    );
    assert.equal(validate.code, 0);
    assert.match(validate.stdout, /beeuni\.yaml is valid\n$/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
