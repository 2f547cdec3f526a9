import assert from "node:assert/strict";
import { join } from "node:path";
import memory from "../builtin_tools/memory.ts";
import { builtinHost, plainDir, refused, toolSource } from "./_builtin.ts";

Deno.test("memory runs through the daemon's tool host (B4, D1)", async (t) => {
  await using box = await builtinHost("memory");
  await t.step(
    "memory view of a missing memory folder says it is empty (B4)",
    async () => {
      await box.reset();
      assert.equal(
        await box.run({ command: "view", path: "/memories" }),
        'memory/ is empty. Create a file with command "create".',
      );
    },
  );

  await t.step(
    "memory create writes under memory/ and makes parent folders (B4)",
    async () => {
      await box.reset();
      assert.equal(
        await box.run({
          command: "create",
          path: "/memories/projects/alpha.md",
          file_text: "# Alpha\n\n- owner: Kim\n",
        }),
        "Created memory/projects/alpha.md (3 lines, 22 bytes)",
      );
      assert.equal(
        await box.read("memory/projects/alpha.md"),
        "# Alpha\n\n- owner: Kim\n",
      );
      assert.equal(
        await box.run({
          command: "create",
          path: "memory/projects/alpha.md",
          file_text: "replaced\n",
        }),
        "Overwrote memory/projects/alpha.md (1 line, 9 bytes)",
      );
      assert.equal(await box.read("memory/projects/alpha.md"), "replaced\n");
    },
  );

  await t.step(
    "memory view lists a folder recursively with sizes (B4)",
    async () => {
      await box.reset({
        "memory/notes.md": "hello\n",
        "memory/projects/alpha.md": "a".repeat(2048),
        "memory/projects/deep/er/x.md": "x",
      });
      const expected = [
        "memory/: 2 files, 3 folders",
        "- memory/notes.md (6 B)",
        "- memory/projects/",
        "  - memory/projects/alpha.md (2.0 KB)",
        "  - memory/projects/deep/",
        "    - memory/projects/deep/er/ (not listed: view it)",
      ].join("\n");
      // Files below the depth limit are not counted.
      const listing = await box.run({ command: "view", path: "." });
      assert.equal(listing, expected);
      assert.equal(await box.run({ command: "view", path: "" }), listing);
      assert.equal(
        await box.run({ command: "view", path: "/memories/" }),
        listing,
      );
      assert.equal(
        await box.run({ command: "view", path: "projects/deep/er" }),
        "memory/projects/deep/er: 1 file, 0 folders\n- memory/projects/deep/er/x.md (1 B)",
      );
    },
  );

  await t.step(
    "memory view shows a file with numbered lines and a range (B4)",
    async () => {
      await box.reset({
        "memory/todo.md": "one\ntwo\nthree\nfour\n",
      });
      assert.equal(
        await box.run({ command: "view", path: "todo.md" }),
        "memory/todo.md, lines 1-4 of 4:\n     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour",
      );
      assert.equal(
        await box.run({
          command: "view",
          path: "todo.md",
          view_range: [2, 3],
        }),
        "memory/todo.md, lines 2-3 of 4:\n     2\ttwo\n     3\tthree",
      );
      assert.equal(
        await box.run({
          command: "view",
          path: "todo.md",
          view_range: [3, -1],
        }),
        "memory/todo.md, lines 3-4 of 4:\n     3\tthree\n     4\tfour",
      );
      await refused(
        box.run({ command: "view", path: "todo.md", view_range: [5, 6] }),
        /^view_range start 5 is outside memory\/todo\.md, which has 4 lines: use 1 to 4$/,
      );
      await refused(
        box.run({ command: "view", path: "todo.md", view_range: [3, 2] }),
        /view_range end 2 is invalid/,
      );
      await refused(
        box.run({ command: "view", path: "todo.md", view_range: "1-2" }),
        /view_range must be two whole numbers/,
      );
      await refused(
        box.run({ command: "view", path: "nope.md" }),
        /^memory\/nope\.md does not exist: view memory\/ to list the files$/,
      );
    },
  );

  await t.step("memory str_replace needs exactly one match (B4)", async () => {
    await box.reset({
      "memory/a.md": "alpha\nbeta\nalpha\ngamma\n",
    });
    await refused(
      box.run({
        command: "str_replace",
        path: "a.md",
        old_str: "alpha",
        new_str: "x",
      }),
      /^old_str occurs 2 times in memory\/a\.md \(lines 1, 3\): nothing changed/,
    );
    await refused(
      box.run({
        command: "str_replace",
        path: "a.md",
        old_str: "delta",
        new_str: "x",
      }),
      /^old_str was not found in memory\/a\.md: nothing changed/,
    );
    assert.equal(await box.read("memory/a.md"), "alpha\nbeta\nalpha\ngamma\n");
    assert.equal(
      await box.run({
        command: "str_replace",
        path: "a.md",
        old_str: "beta\n",
        new_str: "BETA\nbeta2\n",
      }),
      "Edited memory/a.md: replaced 1 occurrence at line 2\n" +
        "     1\talpha\n     2\tBETA\n     3\tbeta2\n     4\talpha\n     5\tgamma",
    );
    assert.equal(
      await box.read("memory/a.md"),
      "alpha\nBETA\nbeta2\nalpha\ngamma\n",
    );
    await box.run({
      command: "str_replace",
      path: "a.md",
      old_str: "gamma\n",
    });
    assert.equal(await box.read("memory/a.md"), "alpha\nBETA\nbeta2\nalpha\n");
  });

  await t.step(
    "memory insert adds lines at the top, middle and end (B4)",
    async () => {
      await box.reset({ "memory/l.md": "b\nd\n" });
      assert.equal(
        await box.run({
          command: "insert",
          path: "l.md",
          insert_line: 0,
          insert_text: "a",
        }),
        "Inserted 1 line into memory/l.md after line 0\n     1\ta\n     2\tb\n     3\td",
      );
      await box.run({
        command: "insert",
        path: "l.md",
        insert_line: 2,
        insert_text: "c\n",
      });
      await box.run({
        command: "insert",
        path: "l.md",
        insert_line: 4,
        insert_text: "e\nf",
      });
      assert.equal(await box.read("memory/l.md"), "a\nb\nc\nd\ne\nf\n");
      await refused(
        box.run({
          command: "insert",
          path: "l.md",
          insert_line: 9,
          insert_text: "z",
        }),
        /^insert_line 9 is outside memory\/l\.md, which has 6 lines: use 0 to 6$/,
      );
      await refused(
        box.run({ command: "insert", path: "l.md", insert_text: "z" }),
        /^insert_line is required/,
      );
    },
  );

  await t.step(
    "memory str_replace matches text copied from a CRLF file (B4)",
    async () => {
      await box.reset({ "memory/w.md": "a\r\nb\r\nc\r\n" });
      await box.run({
        command: "str_replace",
        path: "w.md",
        old_str: "a\nb",
        new_str: "A\nB",
      });
      assert.equal(await box.read("memory/w.md"), "A\r\nB\r\nc\r\n");
    },
  );

  await t.step(
    "memory insert keeps a CRLF file's line endings (B4)",
    async () => {
      await box.reset({ "memory/w.md": "a\r\nc\r\n" });
      await box.run({
        command: "insert",
        path: "w.md",
        insert_line: 1,
        insert_text: "b",
      });
      assert.equal(await box.read("memory/w.md"), "a\r\nb\r\nc\r\n");
    },
  );

  await t.step(
    "memory delete removes files and folders, not the folder itself (B4)",
    async () => {
      await box.reset({
        "memory/a.md": "a",
        "memory/old/b.md": "b",
        "memory/old/c/d.md": "d",
      });
      assert.equal(
        await box.run({ command: "delete", path: "/memories/a.md" }),
        "Deleted memory/a.md",
      );
      assert.equal(
        await box.run({ command: "delete", path: "old" }),
        "Deleted memory/old and everything in it",
      );
      assert.deepEqual([...Deno.readDirSync(join(box.dir, "memory"))], []);
      await refused(
        box.run({ command: "delete", path: "/memories" }),
        /^path names the memory folder itself/,
      );
      await refused(
        box.run({ command: "delete", path: "gone.md" }),
        /^memory\/gone\.md does not exist/,
      );
    },
  );

  await t.step(
    "memory rename moves files and folders inside memory/ (B4)",
    async () => {
      await box.reset({
        "memory/a.md": "a",
        "memory/b.md": "b",
        "memory/dir/x.md": "x",
      });
      assert.equal(
        await box.run({
          command: "rename",
          path: "a.md",
          new_path: "/memories/archive/2026/a.md",
        }),
        "Renamed memory/a.md to memory/archive/2026/a.md",
      );
      assert.equal(await box.read("memory/archive/2026/a.md"), "a");
      await refused(
        box.run({ command: "rename", path: "b.md", new_path: "dir/x.md" }),
        /^memory\/dir\/x\.md already exists: delete it first or pick another new_path$/,
      );
      await refused(
        box.run({ command: "rename", path: "dir", new_path: "dir/inner" }),
        /^cannot move memory\/dir into itself/,
      );
      assert.equal(
        await box.run({ command: "rename", path: "dir", new_path: "moved" }),
        "Renamed memory/dir/ to memory/moved/",
      );
      assert.equal(await box.read("memory/moved/x.md"), "x");
      await refused(
        box.run({ command: "rename", path: "b.md", new_path: "../b.md" }),
        /^new_path "\.\.\/b\.md" contains "\.\."/,
      );
    },
  );

  await t.step(
    "memory refuses paths that leave memory/: .., absolute, encoded, NUL, backslash (B4)",
    async () => {
      await box.reset({ "secret.txt": "top secret\n" });
      const attempts: [string, RegExp][] = [
        ["../secret.txt", /contains "\.\."/],
        ["/memories/../secret.txt", /contains "\.\."/],
        ["a/../../secret.txt", /contains "\.\."/],
        ["memory/../secret.txt", /contains "\.\."/],
        ["/etc/passwd", /is absolute: use a path relative to memory\//],
        [join(box.dir, "secret.txt"), /is absolute/],
        ["~/secret.txt", /is absolute/],
        ["C:/secret.txt", /is absolute/],
        ["%2e%2e/secret.txt", /percent-encoded/],
        ["..%2fsecret.txt", /percent-encoded/],
        ["a\0/../../secret.txt", /NUL byte/],
        ["..\\secret.txt", /backslash/],
      ];
      for (const [path, pattern] of attempts) {
        for (
          const args of [
            { command: "view", path },
            { command: "create", path, file_text: "pwned" },
            { command: "str_replace", path, old_str: "top", new_str: "no" },
            { command: "delete", path },
            { command: "rename", path: "x.md", new_path: path },
          ]
        ) {
          await refused(box.run(args), pattern);
        }
      }
      assert.equal(await box.read("secret.txt"), "top secret\n");
    },
  );

  await t.step(
    "memory refuses symlinks that lead out of memory/ (B4)",
    async () => {
      await box.reset({
        "secret.txt": "top secret\n",
        "outside/keep.md": "keep\n",
        "memory/inside.md": "inside\n",
      });
      await Deno.symlink(
        join(box.dir, "secret.txt"),
        join(box.dir, "memory/leak.md"),
      );
      await Deno.symlink(join(box.dir, "outside"), join(box.dir, "memory/out"));
      await Deno.symlink(
        join(box.dir, "memory/inside.md"),
        join(box.dir, "memory/alias.md"),
      );
      await Deno.symlink(
        join(box.dir, "nowhere"),
        join(box.dir, "memory/dangling"),
      );
      for (
        const args of [
          { command: "view", path: "leak.md" },
          { command: "create", path: "leak.md", file_text: "x" },
          {
            command: "str_replace",
            path: "leak.md",
            old_str: "top",
            new_str: "x",
          },
          { command: "view", path: "out" },
          { command: "view", path: "out/keep.md" },
          { command: "create", path: "out/new.md", file_text: "x" },
          { command: "delete", path: "out" },
          { command: "rename", path: "inside.md", new_path: "out/inside.md" },
        ]
      ) {
        await refused(
          box.run(args),
          /leads outside memory\/ through a symlink/,
        );
      }
      await refused(
        box.run({ command: "create", path: "dangling/x.md", file_text: "x" }),
        /symlink/,
      );
      assert.equal(await box.read("secret.txt"), "top secret\n");
      assert.deepEqual(
        [...Deno.readDirSync(join(box.dir, "outside"))].map((e) => e.name),
        ["keep.md"],
      );
      // A symlink that stays inside memory/ is fine.
      assert.match(
        await box.run({ command: "view", path: "alias.md" }),
        /1\tinside$/,
      );
    },
  );

  await t.step(
    "memory refuses a memory/ folder that is a symlink out of the checkout (B4)",
    async () => {
      await box.reset();
      await using elsewhere = await plainDir({ "notes.md": "private\n" });
      await Deno.symlink(elsewhere.dir, join(box.dir, "memory"));
      await refused(
        box.run({ command: "view", path: "." }),
        /^memory\/ is a symlink that leads outside the checkout/,
      );
    },
  );

  await t.step(
    "memory writes atomically: a new file replaces the old one by rename (B4)",
    async () => {
      await box.reset({ "memory/a.md": "one\ntwo\n" });
      // A hard link still sees the old content when the file is replaced by a
      // rename; an in-place write would change both names.
      await Deno.link(join(box.dir, "memory/a.md"), join(box.dir, "before.md"));
      await box.run({
        command: "str_replace",
        path: "a.md",
        old_str: "two",
        new_str: "TWO",
      });
      await box.run({
        command: "insert",
        path: "a.md",
        insert_line: 0,
        insert_text: "zero",
      });
      await box.run({ command: "create", path: "b.md", file_text: "b" });
      assert.equal(await box.read("memory/a.md"), "zero\none\nTWO\n");
      assert.equal(await box.read("before.md"), "one\ntwo\n");
      // No temporary files are left behind.
      assert.deepEqual(
        [...Deno.readDirSync(join(box.dir, "memory"))].map((e) => e.name)
          .sort(),
        ["a.md", "b.md"],
      );
    },
  );

  await t.step(
    "memory refuses a memory file that is not a folder (B4)",
    async () => {
      await box.reset({ "memory": "not a folder\n" });
      await refused(
        box.run({ command: "create", path: "a.md", file_text: "x" }),
        /^memory is a file, not a folder: move it away so memory\/ can hold notes$/,
      );
      assert.equal(await box.read("memory"), "not a folder\n");
    },
  );

  await t.step("memory explains bad arguments (B4)", async () => {
    await box.reset({ "memory/a.md": "a" });
    await refused(
      box.run({ command: "edit", path: "a.md" }),
      /^unknown command "edit": use one of view, create, str_replace, insert, delete, rename$/,
    );
    await refused(
      box.run({ command: "create", path: "n.md" }),
      /^file_text is required for command "create" and must be a string$/,
    );
    await refused(
      box.run({ command: "create", path: "a.md/b.md", file_text: "x" }),
      /^memory\/a\.md is a file, so it cannot hold memory\/a\.md\/b\.md$/,
    );
    await refused(
      box.run({ command: "view", path: 42 }),
      /^path must be a string/,
    );
  });
});

Deno.test("memory stays offline with an empty environment and a stopped signal leaves files alone (B4)", async () => {
  await using box = await builtinHost("memory", { "memory/a.md": "a\n" });
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(
    memory.execute({ command: "create", path: "a.md", file_text: "b" }, {
      sessionId: "s",
      agent: "build",
      directory: box.dir,
      env: {},
      signal: controller.signal,
    }),
    /stopped before it changed anything/,
  );
  assert.equal(await box.read("memory/a.md"), "a\n");
});

Deno.test("the memory module imports only node:* and reads no process environment (B1)", async () => {
  const { source, specifiers } = await toolSource("memory");
  assert.ok(specifiers.length > 0);
  for (const specifier of specifiers) {
    assert.match(specifier, /^node:/, `${specifier} is not a node:* module`);
  }
  assert.doesNotMatch(source, /\b(?:Deno|Bun)\.|process\.env/);
});

Deno.test("memory removes the temporary files a killed write left, once they are a minute old, when it next writes or lists their folder (B4)", async () => {
  const stale = ".a.md.0123456789abcdef.memory-tmp";
  const fresh = ".a.md.fedcba9876543210.memory-tmp";
  const nested = ".b.md.0123456789abcdef.memory-tmp";
  await using box = await plainDir({
    [`memory/${stale}`]: "half a note",
    [`memory/${fresh}`]: "a write under way",
    [`memory/notes/${nested}`]: "half a note",
    "memory/.hidden.md": "the user's own file\n",
  });
  const past = new Date(Date.now() - 120_000);
  for (const path of [`memory/${stale}`, `memory/notes/${nested}`]) {
    Deno.utimeSync(join(box.dir, path), past, past);
  }
  const context = { directory: box.dir, env: {} };
  const names = (folder: string) =>
    [...Deno.readDirSync(join(box.dir, folder))].map((e) => e.name).sort();

  await memory.execute(
    { command: "create", path: "a.md", file_text: "note\n" },
    context,
  );
  assert.deepEqual(names("memory"), [fresh, ".hidden.md", "a.md", "notes"]);
  assert.deepEqual(names("memory/notes"), [nested]);

  const listing = String(
    await memory.execute({ command: "view", path: "" }, context),
  );
  assert.ok(!listing.includes("memory-tmp"), listing);
  assert.deepEqual(names("memory/notes"), []);
  assert.deepEqual(names("memory"), [fresh, ".hidden.md", "a.md", "notes"]);
});
