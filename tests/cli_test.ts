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

Deno.test("every command's --help lists each option it takes once, with its help in one column, and takes every option its --help lists", async () => {
  for (const entry of COMMANDS) {
    const command = await entry.load();
    const io = memoryIo();
    assert.equal(await main([...entry.name.split(" "), "--help"], io), 0);
    assert.ok(io.out.startsWith(`Usage: beeuni ${entry.name} `), entry.name);
    const listed = [...io.out.matchAll(/^ {2}(--[a-z-]+)( [A-Z=]+)? *(\S?)/gm)];
    assert.deepEqual(
      listed.map((line) => line[1]),
      Object.keys(command.options).map((name) => `--${name}`),
      entry.name,
    );
    // Where an option's help starts on its own line, it starts at one column.
    const columns = new Set(
      listed.filter((line) => line[3] !== "").map((line) => line[0].length - 1),
    );
    assert.equal(columns.size, 1, `${entry.name}: ${[...columns]}`);
    // Each option it lists is one it parses: none is refused as unknown.
    for (const [name, def] of Object.entries(command.options)) {
      const args = def.type === "boolean" ? [`--${name}`] : [
        `--${name}`,
        def.choices?.[0] ?? (def.type === "integer" ? "70000" : "x"),
      ];
      const tried = memoryIo();
      await main([...entry.name.split(" "), ...args, "--bogus"], tried);
      assert.match(
        tried.err,
        /Unknown option '--bogus'/,
        `${entry.name} ${args.join(" ")}: ${tried.err}`,
      );
    }
  }
});

Deno.test("whole-number options read the same way in every command: zero or a word is refused with one message and exit code 2", async () => {
  const commands: [string, string[]][] = [
    ["tools call", ["tools", "call", "echo"]],
    ["mcp", ["mcp"]],
    ["daemon", ["daemon"]],
  ];
  for (const [name, words] of commands) {
    for (const value of ["0", "soon"]) {
      const io = memoryIo();
      assert.equal(await main([...words, "--timeout-ms", value], io), 2);
      assert.equal(
        io.err,
        `beeuni ${name}: --timeout-ms must be a whole number of at least 1, got "${value}"\nRun \`beeuni ${name} --help\` for usage.\n`,
      );
    }
  }
});

Deno.test("an option that takes one of a few values names them all when given another, and a positional too many is named (exit code 2)", async () => {
  const cases: [string[], string][] = [
    [
      ["validate", "--format", "xml"],
      'beeuni validate: unknown format "xml": use "text", "json" or "github"',
    ],
    [
      ["tools", "ls", "--harness", "other"],
      'beeuni tools ls: unknown harness "other": use "standard" or "experimental"',
    ],
    [["web", "extra"], 'beeuni web: unexpected argument "extra"'],
    [
      ["secrets", "rm", "A", "B"],
      'beeuni secrets rm: unexpected argument "B"',
    ],
  ];
  for (const [argv, message] of cases) {
    const io = memoryIo();
    assert.equal(await main(argv, io), 2, argv.join(" "));
    assert.equal(io.err.split("\n")[0], message);
  }
});
