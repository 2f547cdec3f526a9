// Content blocks a caller can see beyond text: `show` returns image files as
// images (the module-side convention), through the real tool host.

import assert from "node:assert/strict";
import type { CallOutcome } from "../mod.ts";
import { builtinHost } from "./_builtin.ts";

const PNG_1X1 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function bytes(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

Deno.test("show returns a PNG or JPEG file of the checkout as an image block beside the same JSON record", async () => {
  const jpeg = new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    ...new Array(60).fill(7),
  ]);
  await using box = await builtinHost("show", {});
  await box.reset({});
  await Deno.mkdir(`${box.dir}/out`);
  await Deno.writeFile(`${box.dir}/out/dot.png`, bytes(PNG_1X1));
  await Deno.writeFile(`${box.dir}/photo.jpg`, jpeg);

  const image = await box.call({}, {
    type: "image",
    path: "out/dot.png",
  }) as CallOutcome;
  assert.ok(image.ok);
  const record = {
    type: "image",
    title: null,
    caption: null,
    path: "out/dot.png",
    url: null,
    size: 70,
    mime: "image/png",
  };
  assert.deepEqual(JSON.parse(image.output), record);
  assert.deepEqual(image.content, [
    { type: "text", text: JSON.stringify(record, null, 2) },
    { type: "image", data: PNG_1X1, mimeType: "image/png" },
  ]);
  assert.deepEqual(image.structured, record);

  const file = await box.call({}, {
    type: "file",
    path: "photo.jpg",
  }) as CallOutcome;
  assert.ok(file.ok);
  assert.equal(JSON.parse(file.output).mime, "image/jpeg");
  const block = file.content?.[1];
  assert.ok(block?.type === "image");
  assert.equal(block.mimeType, "image/jpeg");
  assert.deepEqual(bytes(block.data), jpeg);
});

Deno.test("show sends the record alone for a fake PNG, an SVG, a file over 3 MiB and an image URL", async () => {
  await using box = await builtinHost("show", {});
  await box.reset({
    "fake.png": "this is text, not a PNG at all",
    "logo.svg": '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
  });
  const big = new Uint8Array(3 * 1024 * 1024 + 1);
  big.set(bytes(PNG_1X1));
  await Deno.writeFile(`${box.dir}/big.png`, big);
  for (
    const args of [
      { type: "image", path: "fake.png" },
      { type: "image", path: "logo.svg" },
      { type: "image", path: "big.png" },
      { type: "image", url: "https://example.com/cat.png" },
    ]
  ) {
    const outcome = await box.call({}, args) as CallOutcome;
    assert.ok(outcome.ok, JSON.stringify(args));
    assert.equal(outcome.content, undefined, JSON.stringify(args));
    assert.equal(JSON.parse(outcome.output).type, "image");
  }
});
