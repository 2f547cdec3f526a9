// T6's cut, worked out from a text's start only (lib/host/_truncate.ts):
// the same cut as from the whole text's bytes, for texts of every shape,
// and byte counts that match TextEncoder's however a text is chunked.

import assert from "node:assert/strict";
import {
  CHUNK_UNITS,
  overLimits,
  truncatedText,
  utf8Chunks,
  utf8Length,
} from "../lib/host/_truncate.ts";
import { bigText, expectedCut } from "./_big_output.ts";

const PATH = "/tmp/beeuni-tools-1000/big-1700000000000-0123abcd.txt";

/** Texts over T6's limits whose cut falls on a hard place. */
const TEXTS: Record<string, string> = {
  "many lines": bigText("lines", 0.3),
  "one line of 1- to 4-byte characters": bigText("line", 0.3),
  "3,000 short lines": "l\n".repeat(3_000),
  "a surrogate pair across unit 51,201": "a".repeat(51_200) + "😀" +
    "b".repeat(100),
  "a surrogate pair just before unit 51,201": "a".repeat(51_199) + "😀" +
    "b".repeat(100),
  "only 4-byte characters": "😀".repeat(30_000),
  "only 2-byte characters": "é".repeat(30_000),
  "a lone high surrogate near the cut": "x".repeat(51_199) + "\uD800" +
    "y".repeat(10),
  "lone low surrogates": "\uDC00".repeat(20_000),
  "a first line longer than the limit, then short ones": "z".repeat(60_000) +
    "\n" + "short\n".repeat(10),
  "a 3-byte character across the byte cut": "\n" + "€".repeat(20_000),
};

Deno.test("truncatedText() cuts a text as its whole bytes would be cut, reading only its start (T6)", () => {
  for (const [name, text] of Object.entries(TEXTS)) {
    assert.ok(overLimits(text), name);
    assert.equal(
      truncatedText(text, { path: PATH }).text,
      expectedCut(text, `the full output is in ${PATH}`),
      name,
    );
    assert.equal(
      truncatedText(text, { notSaved: 1_000 }).text,
      expectedCut(
        text,
        "the full output was not saved: it is over the 1000-byte cap on saved outputs",
      ),
      name,
    );
    assert.equal(
      truncatedText(text, { path: PATH }).size,
      new TextEncoder().encode(text).length,
      name,
    );
  }
});

Deno.test("utf8Length() and utf8Chunks() give TextEncoder's bytes, whatever the chunk boundaries split (T6)", () => {
  const text = "a".repeat(CHUNK_UNITS - 1) + "😀é€" + "\uD800" + "b" +
    "\uDC00" + "😀".repeat(5) + "\uD83D";
  const whole = new TextEncoder().encode(text);
  assert.equal(utf8Length(text), whole.length);
  for (const units of [2, 3, 7, CHUNK_UNITS]) {
    const parts: Uint8Array[] = [];
    // Each chunk is valid until the next: copy it.
    for (const chunk of utf8Chunks(text, units)) parts.push(chunk.slice());
    const joined = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const part of parts) {
      joined.set(part, at);
      at += part.length;
    }
    assert.deepEqual(joined, whole, `chunks of ${units} units`);
  }
  assert.equal(utf8Length(""), 0);
});

Deno.test("overLimits() lets texts at both limits through and measures those over either (T6)", () => {
  assert.equal(overLimits("a".repeat(51_199) + "\n"), undefined);
  assert.equal(overLimits("l\n".repeat(2_000)), undefined);
  assert.equal(overLimits("é".repeat(25_600)), undefined);
  assert.deepEqual(overLimits("a".repeat(51_201)), { bytes: 51_201, lines: 1 });
  assert.deepEqual(overLimits("é".repeat(25_601)), { bytes: 51_202, lines: 1 });
  assert.deepEqual(overLimits("l\n".repeat(2_001)), {
    bytes: 4_002,
    lines: 2_001,
  });
  assert.deepEqual(overLimits("l\n".repeat(2_000) + "l"), {
    bytes: 4_001,
    lines: 2_001,
  });
});
