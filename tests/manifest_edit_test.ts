import assert from "node:assert/strict";
import { editManifestTools } from "../lib/manifest/mod.ts";

const LOOKUP = { name: "lookup", value: "tools/lookup.ts", comment: "mine" };

Deno.test("editManifestTools() adds an entry after the last one, at its indent, keeping every other byte", async () => {
  const text =
    "# head\ntools:    # the list\n    # first\n    memory: 'beeuni:memory' # notes\n\n    show: beeuni:show\n# between\nagents: {}\n";
  assert.equal(
    await editManifestTools(text, [LOOKUP]),
    "# head\ntools:    # the list\n    # first\n    memory: 'beeuni:memory' # notes\n\n    show: beeuni:show\n    lookup: tools/lookup.ts # mine\n# between\nagents: {}\n",
  );
});

Deno.test("editManifestTools() keeps CRLF line ends and fills an empty tools: key", async () => {
  const text = "tools:\r\nagents:\r\n  a:\r\n    tools: all\r\n";
  assert.equal(
    await editManifestTools(text, [LOOKUP, { name: "x", value: "tools/x.ts" }]),
    "tools:\r\n  lookup: tools/lookup.ts # mine\r\n  x: tools/x.ts\r\nagents:\r\n  a:\r\n    tools: all\r\n",
  );
});

Deno.test("editManifestTools() adds to a flow mapping before its }", async () => {
  assert.equal(
    await editManifestTools("tools: { memory: beeuni:memory } # flow\n", [
      LOOKUP,
    ]),
    "tools: { memory: beeuni:memory, lookup: tools/lookup.ts } # flow # mine\n",
  );
  assert.equal(
    await editManifestTools("tools: {}\n", [{
      name: "a",
      value: "tools/a.ts",
    }]),
    "tools: { a: tools/a.ts }\n",
  );
});

Deno.test("editManifestTools() sets an existing value keeping its quotes, and a second run changes nothing", async () => {
  const text = 'tools:\n  lookup: "tools/old.ts"   # kept\n';
  const once = await editManifestTools(text, [LOOKUP]);
  assert.equal(once, 'tools:\n  lookup: "tools/lookup.ts"   # kept # mine\n');
  assert.equal(await editManifestTools(once, [LOOKUP]), once);
});

Deno.test("editManifestTools() adds a missing tools: key with the new-key entries first, an entry of the same name in its place", async () => {
  const newKey = ["a", "b", "c"].map((name) => ({
    name,
    value: `beeuni:${name}`,
  }));
  assert.equal(
    await editManifestTools("agents: {}", [
      { name: "b", value: "tools/b.ts", comment: "own" },
      { name: "z", value: "tools/z.ts" },
    ], { newKey }),
    "agents: {}\ntools:\n  a: beeuni:a\n  b: tools/b.ts # own\n  c: beeuni:c\n  z: tools/z.ts\n",
  );
  assert.equal(
    await editManifestTools("", [{ name: "z", value: "tools/z.ts" }]),
    "tools:\n  z: tools/z.ts\n",
  );
});

Deno.test("editManifestTools() quotes a value that plain YAML would misread", async () => {
  const after = await editManifestTools("tools:\n  a: beeuni:a\n", [
    { name: "b", value: "tools/b #1.ts" },
  ]);
  assert.equal(after, 'tools:\n  a: beeuni:a\n  b: "tools/b #1.ts"\n');
});

Deno.test("editManifestTools() refuses what it cannot edit safely, saying what to write by hand", async () => {
  await assert.rejects(
    () => editManifestTools("a: 1\n---\nb: 2\n", [LOOKUP], { file: "x.yaml" }),
    /^Error: x\.yaml holds 2 YAML documents; add a tools: key to the first by hand with `lookup: tools\/lookup\.ts`$/,
  );
  await assert.rejects(
    () => editManifestTools("- a\n- b\n", [LOOKUP]),
    /the top level of the manifest is not a block mapping/,
  );
  await assert.rejects(
    () => editManifestTools("tools: [a]\n", [LOOKUP]),
    /tools: in the manifest is not a mapping; set `lookup: tools\/lookup\.ts` under tools: in the manifest by hand/,
  );
  await assert.rejects(
    () => editManifestTools("tools: {}\n", [LOOKUP, LOOKUP]),
    /"lookup" is listed twice in one edit/,
  );
  // The last entry holds a nested mapping: the new line would land inside
  // it, and the check of the result refuses that.
  await assert.rejects(
    () =>
      editManifestTools(
        "tools:\n  odd:\n    nested: 1\n    more: 2\nagents: {}\n",
        [LOOKUP],
        { file: "beeuni.yaml" },
      ),
    /editing beeuni\.yaml would (not give valid YAML|change more than tools:)[^;]*; set `lookup: tools\/lookup\.ts` under tools: in beeuni\.yaml by hand/,
  );
});
