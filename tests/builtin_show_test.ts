import assert from "node:assert/strict";
import { join } from "node:path";
import { builtinHost, plainDir, refused, toolSource } from "./_builtin.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

Deno.test("show runs through the daemon's tool host (B2, D1)", async (t) => {
  await using box = await builtinHost("show");
  /** The JSON the model reads back (T3), or a rejection with the error. */
  const call = async (args: Record<string, unknown>): Promise<unknown> =>
    JSON.parse(await box.run(args));
  await t.step(
    "show image from a project file or an http(s) URL (B2)",
    async () => {
      await box.reset({ "out/chart.png": PNG, "notes.txt": "x" });
      assert.deepEqual(
        await call({
          type: "image",
          path: "out/chart.png",
          title: "Sales",
          caption: "Q3",
        }),
        {
          type: "image",
          title: "Sales",
          caption: "Q3",
          path: "out/chart.png",
          url: null,
          size: 8,
          mime: "image/png",
        },
      );
      assert.deepEqual(
        await call({ type: "image", path: join(box.dir, "out/chart.png") }),
        {
          type: "image",
          title: null,
          caption: null,
          path: "out/chart.png",
          url: null,
          size: 8,
          mime: "image/png",
        },
      );
      assert.deepEqual(
        await call({
          type: "image",
          url: "https://example.com/a/cat.JPG?x=1",
        }),
        {
          type: "image",
          title: null,
          caption: null,
          path: null,
          url: "https://example.com/a/cat.JPG?x=1",
          size: null,
          mime: "image/jpeg",
        },
      );
      await refused(
        call({ type: "image", path: "notes.txt" }),
        /^path "notes\.txt" is not an image \(\.txt\)/,
      );
      await refused(
        call({ type: "image" }),
        /^type "image" needs exactly one of path .* or url/,
      );
      await refused(
        call({
          type: "image",
          path: "out/chart.png",
          url: "https://e.com/x.png",
        }),
        /needs exactly one of path/,
      );
    },
  );

  await t.step(
    "show file reports size and mime type and refuses folders and missing files (B2)",
    async () => {
      await box.reset({
        "reports/q3.pdf": "%PDF-1.7\n",
        "data.bin": "01",
      });
      assert.deepEqual(
        await call({ type: "file", path: "./reports/q3.pdf" }),
        {
          type: "file",
          title: null,
          caption: null,
          path: "reports/q3.pdf",
          size: 9,
          mime: "application/pdf",
        },
      );
      assert.deepEqual(
        (await call({ type: "file", path: "data.bin" }) as { mime: string })
          .mime,
        "application/octet-stream",
      );
      await refused(
        call({ type: "file", path: "reports" }),
        /^path "reports" is a folder: show a file$/,
      );
      await refused(
        call({ type: "file", path: "nope.pdf" }),
        /^path "nope\.pdf" does not exist/,
      );
      await refused(call({ type: "file" }), /^type "file" needs path/);
      await refused(
        call({
          type: "file",
          path: "reports/q3.pdf",
          url: "https://e.com",
        }),
        /^url is not used by type "file": remove it or use type "url"$/,
      );
    },
  );

  await t.step(
    "show refuses files outside the project: .., absolute, symlinks, encoded, NUL (B2)",
    async () => {
      await using outside = await plainDir({ "secret.png": PNG });
      await box.reset({ "in.png": PNG });
      await Deno.symlink(
        join(outside.dir, "secret.png"),
        join(box.dir, "leak.png"),
      );
      const attempts: [string, RegExp][] = [
        ["../secret.png", /is outside the checkout/],
        [join(outside.dir, "secret.png"), /is outside the checkout/],
        ["/etc/passwd", /is outside the checkout/],
        ["leak.png", /leads outside the checkout through a symlink/],
        ["%2e%2e/secret.png", /percent-encoded/],
        ["in.png\0../x", /NUL byte/],
        ["..\\secret.png", /backslash/],
        ["file:///etc/passwd", /is a URL: pass it as url/],
      ];
      for (const [path, pattern] of attempts) {
        await refused(call({ type: "file", path }), pattern);
        await refused(call({ type: "image", path }), pattern);
        await refused(
          call({ type: "items", items: [{ title: "x", path }] }),
          pattern,
        );
      }
      // `..` that stays inside is fine.
      assert.equal(
        (await call({ type: "file", path: "sub/../in.png" }) as {
          path: string;
        }).path,
        "in.png",
      );
    },
  );

  await t.step("show url accepts http(s) only (B2)", async () => {
    await box.reset();
    assert.deepEqual(
      await call({
        type: "url",
        url: "https://example.com",
        title: "Docs",
      }),
      {
        type: "url",
        title: "Docs",
        caption: null,
        url: "https://example.com/",
      },
    );
    await refused(
      call({ type: "url", url: "javascript:alert(1)" }),
      /uses javascript: only http and https/,
    );
    await refused(
      call({ type: "url", url: "file:///etc/passwd" }),
      /uses file: only http and https/,
    );
    await refused(
      call({ type: "url", url: "example.com" }),
      /is not a URL: give an absolute http or https URL/,
    );
    await refused(
      call({ type: "url", url: "https://u:p@example.com/" }),
      /holds a user name or password/,
    );
    await refused(call({ type: "url" }), /^type "url" needs url/);
  });

  await t.step("show markdown and code carry their text (B2)", async () => {
    await box.reset();
    assert.deepEqual(
      await call({ type: "markdown", content: "# Hi\n\n*there*" }),
      {
        type: "markdown",
        title: null,
        caption: null,
        content: "# Hi\n\n*there*",
      },
    );
    assert.deepEqual(
      await call({
        type: "code",
        content: "<b>x</b>",
        language: "HTML",
        title: "Page",
      }),
      {
        type: "code",
        title: "Page",
        caption: null,
        language: "html",
        content: "<b>x</b>",
      },
    );
    await refused(
      call({ type: "markdown", content: "  " }),
      /^type "markdown" needs content/,
    );
    await refused(call({ type: "markdown", content: 3 }), /needs content/);
    await refused(
      call({ type: "markdown", content: "x".repeat(1024 * 1024 + 1) }),
      /over the 1048576 limit: write it to a file/,
    );
    await refused(
      call({ type: "html", content: "<b>x</b>" }),
      /^unknown type "html": use one of image, file, url, markdown, code, json, table, items \(show HTML as type "code" with language "html"\)$/,
    );
  });

  await t.step(
    "show json takes a value or a string holding JSON (B2)",
    async () => {
      await box.reset();
      assert.deepEqual(
        await call({ type: "json", content: { a: [1, 2] } }),
        {
          type: "json",
          title: null,
          caption: null,
          content: { a: [1, 2] },
        },
      );
      assert.deepEqual(
        (await call({ type: "json", content: '{"ok":true}' }) as {
          content: unknown;
        }).content,
        { ok: true },
      );
      await refused(
        call({ type: "json", content: "{oops" }),
        /^content is not valid JSON/,
      );
      await refused(call({ type: "json" }), /^type "json" needs content/);
    },
  );

  await t.step(
    "show table normalises rows of lists or objects and checks the shape (B2)",
    async () => {
      await box.reset();
      assert.deepEqual(
        await call({
          type: "table",
          columns: ["name", "price"],
          rows: [["tea", 3.5], ["cake", null]],
        }),
        {
          type: "table",
          title: null,
          caption: null,
          columns: ["name", "price"],
          rows: [["tea", 3.5], ["cake", null]],
        },
      );
      assert.deepEqual(
        await call({
          type: "table",
          rows: [{ name: "tea", price: 3.5 }, { name: "cake", vegan: true }],
        }),
        {
          type: "table",
          title: null,
          caption: null,
          columns: ["name", "price", "vegan"],
          rows: [["tea", 3.5, null], ["cake", null, true]],
        },
      );
      assert.deepEqual(
        (await call({ type: "table", rows: [[1, 2]] }) as {
          columns: string[];
        })
          .columns,
        ["Column 1", "Column 2"],
      );
      await refused(
        call({ type: "table", columns: ["a", "b"], rows: [["x"]] }),
        /^rows\[0\] has 1 cells but the table has 2 columns: give every row 2 cells$/,
      );
      await refused(
        call({ type: "table", columns: ["a"], rows: [[{ deep: 1 }]] }),
        /^rows\[0\]\[0\] is an object: cells are strings, numbers, booleans or null$/,
      );
      await refused(
        call({ type: "table", columns: ["a"], rows: [{ b: 1 }] }),
        /^rows\[0\] has key "b", which is not in columns/,
      );
      await refused(
        call({ type: "table", rows: [[1], { a: 1 }] }),
        /must all be lists of cells, or all objects/,
      );
      await refused(
        call({ type: "table", columns: ["a", "a"], rows: [] }),
        /columns has "a" twice/,
      );
      await refused(
        call({ type: "table", rows: "a,b" }),
        /^type "table" needs rows/,
      );
    },
  );

  await t.step(
    "show items normalises strings and objects and checks each one (B2)",
    async () => {
      await box.reset({ "a.md": "a" });
      assert.deepEqual(
        await call({
          type: "items",
          title: "Sources",
          items: [
            "plain",
            {
              title: "Docs",
              url: "https://example.com/docs",
              description: "the manual",
            },
            { title: "Local", path: "a.md" },
          ],
        }),
        {
          type: "items",
          title: "Sources",
          caption: null,
          items: [
            { title: "plain", description: null, url: null, path: null },
            {
              title: "Docs",
              description: "the manual",
              url: "https://example.com/docs",
              path: null,
            },
            { title: "Local", description: null, url: null, path: "a.md" },
          ],
        },
      );
      await refused(
        call({ type: "items", items: "a, b" }),
        /^type "items" needs items: a list/,
      );
      await refused(call({ type: "items", items: [] }), /^items is empty/);
      await refused(
        call({ type: "items", items: [{ name: "x" }] }),
        /^items\[0\] has unknown key "name": use title, description, url, path$/,
      );
      await refused(
        call({ type: "items", items: [{ title: "" }] }),
        /^items\[0\]\.title must be a non-empty string$/,
      );
      await refused(
        call({
          type: "items",
          items: [{ title: "x", url: "ftp://e.com" }],
        }),
        /^items\[0\]\.url "ftp:\/\/e\.com" uses ftp/,
      );
      await refused(
        call({ type: "items", items: [null] }),
        /^items\[0\] must be a string or an object/,
      );
    },
  );

  await t.step(
    "show refuses unknown types and fields another type uses (B2)",
    async () => {
      await box.reset();
      await refused(call({}), /^unknown type null: use one of/);
      await refused(
        call({ type: "markdown", content: "x", path: "a.md" }),
        /^path is not used by type "markdown": remove it or use type "file"$/,
      );
      await refused(
        call({ type: "url", url: "https://e.com", title: 5 }),
        /^title must be a string$/,
      );
    },
  );
});

Deno.test("the show module imports only node:* and reads no process environment (B1)", async () => {
  const { source, specifiers } = await toolSource("show");
  assert.ok(specifiers.length > 0);
  for (const specifier of specifiers) {
    assert.match(specifier, /^node:/, `${specifier} is not a node:* module`);
  }
  assert.doesNotMatch(source, /\b(?:Deno|Bun)\.|process\.env/);
});
