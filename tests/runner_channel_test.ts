// The host's side of the runner channel (H5): what a runner sends is split
// into bounded lines and each line is checked against the protocol before
// the host acts on it; nothing a runner sends can throw in the host.

import assert from "node:assert/strict";
import { cutLine, LineSplitter, MAX_LINE_CHARS } from "../lib/host/_channel.ts";
import { checkMessage } from "../lib/host/_check_message.ts";

function split(max: number, chunks: string[]) {
  const lines: string[] = [];
  const overflows: number[] = [];
  const splitter = new LineSplitter(max, {
    line: (line) => lines.push(line),
    overflow: (chars) => overflows.push(chars),
  });
  for (const chunk of chunks) splitter.push(chunk);
  return { lines, overflows };
}

Deno.test("LineSplitter joins lines split across chunks and splits chunks holding several (H5)", () => {
  assert.deepEqual(split(100, ['{"t":', '"ready"}\n{"t":"load-done"}\n{"t"']), {
    lines: ['{"t":"ready"}', '{"t":"load-done"}'],
    overflows: [],
  });
});

Deno.test("LineSplitter reports a line past its limit once and drops what follows (H5)", () => {
  assert.deepEqual(split(10, ["12345", "678901", "\nmore\n"]), {
    lines: [],
    overflows: [11],
  });
  assert.deepEqual(split(10, ["ok\n", "x".repeat(50) + "\n", "later\n"]), {
    lines: ["ok"],
    overflows: [50],
  });
});

Deno.test("every well-formed message passes the check as it was sent (H5)", () => {
  const messages = [
    { t: "ready" },
    { t: "loading", name: "echo" },
    {
      t: "loaded",
      name: "echo",
      ok: true,
      description: "Echoes",
      parameters: { type: "object" },
    },
    {
      t: "loaded",
      name: "bad",
      ok: false,
      reason: "no default export",
      at: { file: "/p/tools/bad.ts", line: 1, col: 1 },
    },
    { t: "load-done" },
    { t: "result", id: 1, ok: true, output: "hi", object: true },
    {
      t: "result",
      id: 2,
      ok: true,
      output: "a",
      content: [{ type: "text", text: "a" }],
      structured: { a: 1 },
      cut: { size: 60000, saved: { name: "x-1-0123abcd.txt", temp: ".t" } },
    },
    {
      t: "result",
      id: 3,
      ok: false,
      status: "error",
      error: "boom",
      notRun: true,
    },
    {
      t: "results",
      results: [{ id: 4, ok: true, output: "x" }, {
        id: 5,
        ok: false,
        status: "error",
        error: "y",
      }],
    },
    { t: "progress", id: 6, progress: 1, total: 2, message: "half" },
    { t: "log", text: "hello" },
    { t: "pong", id: -7 },
  ];
  for (const message of messages) {
    assert.deepEqual(checkMessage(JSON.stringify(message)), message);
  }
});

Deno.test("a message that breaks the protocol is named, never thrown (H5)", () => {
  const broken: [string, RegExp][] = [
    ["not json", /not JSON/],
    ["null", /not an object/],
    ["[1,2]", /not an object/],
    ['"ready"', /not an object/],
    ["{}", /no type/],
    ['{"t":"boom"}', /unknown message type "boom"/],
    ['{"t":"results","results":null}', /results is not a list/],
    ['{"t":"results","results":[]}', /results holds 0 entries/],
    ['{"t":"result","id":"1","ok":true,"output":"x"}', /id is not an integer/],
    ['{"t":"result","id":1.5,"ok":true,"output":"x"}', /id is not an integer/],
    ['{"t":"result","id":1,"ok":"yes","output":"x"}', /ok is not a boolean/],
    ['{"t":"result","id":1,"ok":true,"output":7}', /output is not a string/],
    [
      '{"t":"result","id":1,"ok":true,"output":"x","content":[{"type":"image"}]}',
      /content is not a list of content blocks/,
    ],
    [
      '{"t":"result","id":1,"ok":true,"output":"x","cut":{"size":-1}}',
      /cut.size is negative/,
    ],
    ['{"t":"loaded","name":"x","ok":true,"description":"d"}', /parameters/],
    ['{"t":"progress","id":1,"progress":"half"}', /progress is not a finite/],
    ['{"t":"log","text":{"a":1}}', /text is not a string/],
    [
      '{"t":"result","id":1,"ok":false,"status":"timeout","error":"x"}',
      /status is not "error"/,
    ],
    ['{"t":"loading","name":"' + "n".repeat(5000) + '"}', /name is 5000/],
    ['{"t":"__proto__"}', /unknown message type/],
  ];
  for (const [line, why] of broken) {
    const checked = checkMessage(line);
    assert.ok("broken" in checked, line);
    assert.match((checked as { broken: string }).broken, why, line);
  }
});

Deno.test("texts meant for the log are cut to one line's length (H5)", () => {
  const long = "z".repeat(MAX_LINE_CHARS * 10);
  assert.deepEqual(checkMessage(JSON.stringify({ t: "log", text: long })), {
    t: "log",
    text: long.slice(0, MAX_LINE_CHARS),
  });
  const progress = checkMessage(
    JSON.stringify({ t: "progress", id: 1, progress: 0, message: long }),
  ) as { message: string };
  assert.equal(progress.message.length, MAX_LINE_CHARS);
  assert.equal(
    cutLine("abc", 2),
    "ab… (3 characters)",
  );
});

Deno.test("fields the protocol does not know are dropped, not passed on (H5)", () => {
  assert.deepEqual(
    checkMessage(
      JSON.stringify({ t: "pong", id: 1, extra: "x", __proto__: { a: 1 } }),
    ),
    { t: "pong", id: 1 },
  );
});
