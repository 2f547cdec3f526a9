import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BodyTextError,
  escapeControl,
  isLoopbackHostHeader,
  isLoopbackHostname,
  isPlainObject,
  jsonSyntaxError,
  listenProblem,
  readBodyText,
  removeStaleTemps,
  utf8Length,
  withFileLock,
  withFileLockNow,
  writeFileAtomic,
  writeFileAtomicAsync,
} from "../lib/common/mod.ts";
import { age, tempDir } from "./_helpers.ts";

Deno.test("withFileLock() waits for a running holder without blocking the event loop, and names the lock file when it times out", async () => {
  await using tmp = await tempDir("beeuni_common_");
  const target = join(tmp.dir, "store.json");
  const holder = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    Deno.writeTextFileSync(`${target}.lock`, `${holder.pid} 00ff\n`);
    // Timers keep firing while the lock is waited for.
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    try {
      await assert.rejects(
        withFileLock(target, () => "ran", { timeoutMs: 300 }),
        (error: Error) =>
          error.message.startsWith(
            `cannot lock "${target}": process ${holder.pid}`,
          ) &&
          error.message.includes(`${target}.lock`),
      );
    } finally {
      clearInterval(ticker);
    }
    assert.ok(ticks > 0, "no timer fired while the lock was waited for");
    // A wait stopped by its signal gives up at once, without running fn.
    const stop = new AbortController();
    let ran = false;
    const waiting = withFileLock(target, () => ran = true, {
      signal: stop.signal,
    });
    stop.abort(new Error("stopped"));
    await assert.rejects(waiting, /stopped/);
    assert.equal(ran, false);
    // withFileLockNow() never waits: a held lock leaves fn unrun.
    assert.equal(withFileLockNow(target, () => "ran"), undefined);
  } finally {
    holder.kill("SIGKILL");
    await holder.status;
  }
  // Its holder is gone: the lock is taken over, then released.
  assert.equal(
    await withFileLock(target, () => "ran", { timeoutMs: 300 }),
    "ran",
  );
  assert.equal(withFileLockNow(target, () => "now"), "now");
  assert.deepEqual([...Deno.readDirSync(tmp.dir)], []);
});

Deno.test("withFileLock() runs one holder at a time, async work included", async () => {
  await using tmp = await tempDir("beeuni_common_");
  const target = join(tmp.dir, "store.json");
  let inside = 0;
  let most = 0;
  await Promise.all(
    Array.from({ length: 8 }, () =>
      withFileLock(target, async () => {
        most = Math.max(most, ++inside);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inside--;
      })),
  );
  assert.equal(most, 1);
  assert.deepEqual([...Deno.readDirSync(tmp.dir)], []);
});

Deno.test("withFileLock() takes over a lock left empty or older than staleMs, and never removes a lock it does not hold", async () => {
  await using tmp = await tempDir("beeuni_common_");
  const target = join(tmp.dir, "store.json");
  // A holder killed before it wrote its process id.
  Deno.writeTextFileSync(`${target}.lock`, "");
  age(`${target}.lock`, 10);
  assert.equal(await withFileLock(target, () => 1, { timeoutMs: 300 }), 1);
  // A live process id (this one's parent) on a lock too old to be held still.
  Deno.writeTextFileSync(`${target}.lock`, `${Deno.ppid} 00ff\n`);
  age(`${target}.lock`, 60);
  assert.equal(await withFileLock(target, () => 2, { timeoutMs: 300 }), 2);
  // A lock replaced while held (taken over as stale) stays with its new holder.
  await withFileLock(target, () => {
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

Deno.test("writeFileAtomicAsync() writes what writeFileAtomic() writes, modes included, and a failed write leaves the old file and no temporary file", async () => {
  await using tmp = await tempDir("beeuni_common_");
  const sync = join(tmp.dir, "sync", "a.json");
  const async = join(tmp.dir, "async", "a.json");
  const text = '{"caf\u00e9":"\u2028"}\n';
  writeFileAtomic(sync, text, { mode: 0o640, dirMode: 0o750 });
  await writeFileAtomicAsync(async, text, { mode: 0o640, dirMode: 0o750 });
  for (const path of [sync, async]) {
    assert.equal(Deno.readTextFileSync(path), text);
    assert.equal(Deno.statSync(path).mode! & 0o777, 0o640);
    assert.equal(Deno.statSync(join(path, "..")).mode! & 0o777, 0o750);
  }
  await writeFileAtomicAsync(async, new TextEncoder().encode("{}\n"));
  assert.equal(Deno.readTextFileSync(async), "{}\n");
  assert.equal(Deno.statSync(async).mode! & 0o777, 0o600);

  // A rename that fails (the target is a folder with a file in it) leaves
  // what was there and no temporary file.
  const taken = join(tmp.dir, "async", "taken");
  Deno.mkdirSync(taken);
  Deno.writeTextFileSync(join(taken, "keep"), "kept");
  await assert.rejects(writeFileAtomicAsync(taken, "new"));
  assert.equal(Deno.readTextFileSync(join(taken, "keep")), "kept");
  assert.deepEqual(
    [...Deno.readDirSync(join(async, ".."))].map((e) => e.name).sort(),
    ["a.json", "taken"],
  );
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

Deno.test("jsonSyntaxError() finds a break exactly where JSON.parse refuses a text, and names its line, column and what was expected", () => {
  const texts = [
    "{}",
    "[]",
    '{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"], "b": {}}',
    ' \n "top" \n',
    "0",
    "{'a': 1}",
    '{"a": 1,}',
    "[1, 2,]",
    '{"a" 1}',
    "[1 2]",
    '{"a": tru}',
    '"x\\q"',
    '"x\ty"',
    '{"a": 1} x',
    "",
    "01",
    "1.",
    "-",
    "\ufeff{}",
    '{"a": "unclosed',
    "[".repeat(100_000),
    "[".repeat(100_000) + "]".repeat(100_000),
  ];
  for (const text of texts) {
    let parses = true;
    try {
      JSON.parse(text);
    } catch {
      parses = false;
    }
    assert.equal(
      jsonSyntaxError(text) === undefined,
      parses,
      text.slice(0, 40),
    );
  }
  assert.deepEqual(jsonSyntaxError('{\n  "a": 1\n  "b": 2\n}'), {
    offset: 13,
    line: 3,
    col: 3,
    problem: 'expected "," or "}" after the value',
    near: '"b": 2',
  });
  assert.deepEqual(jsonSyntaxError("[1,"), {
    offset: 3,
    line: 1,
    col: 4,
    problem:
      "expected a value (a string in double quotes, a number, true, false, null, an object or a list)",
    near: "",
  });
});

Deno.test("isPlainObject() accepts JSON objects and null-prototype records, and refuses null, arrays and class instances", () => {
  for (const value of [{}, JSON.parse('{"a": [1]}'), Object.create(null)]) {
    assert.equal(isPlainObject(value), true, Deno.inspect(value));
  }
  for (
    const value of [null, undefined, [], "{}", 1, new Date(0), new Map(), /x/]
  ) {
    assert.equal(isPlainObject(value), false, Deno.inspect(value));
  }
});

Deno.test("one loopback set: localhost, 127.0.0.1 and ::1 are loopback as a listen address, in a Host header and as a URL's hostname; nothing else is (D7)", () => {
  for (const name of ["localhost", "LocalHost", "127.0.0.1", "::1", "[::1]"]) {
    assert.equal(isLoopbackHostname(name), true, name);
    assert.equal(listenProblem(name, false), undefined, name);
  }
  for (
    const url of ["http://localhost:1/", "http://127.0.0.1/", "http://[::1]:8/"]
  ) {
    assert.equal(isLoopbackHostname(new URL(url).hostname), true, url);
  }
  for (
    const header of ["localhost", "localhost:8787", "127.0.0.1:1", "[::1]:80"]
  ) {
    assert.equal(isLoopbackHostHeader(header), true, header);
  }
  for (const name of ["0.0.0.0", "127.0.0.2", "example.com", "[::2]", ""]) {
    assert.equal(isLoopbackHostname(name), false, name);
    assert.equal(isLoopbackHostHeader(name), false, name);
  }
  for (const header of ["::1", "localhost:x", "evil.com:80", null]) {
    assert.equal(isLoopbackHostHeader(header), false, String(header));
  }
  assert.equal(
    listenProblem("0.0.0.0", false),
    'refusing to listen on "0.0.0.0": the daemon listens on loopback only (127.0.0.1, ::1, localhost); pass --allow-remote to listen there anyway',
  );
  assert.equal(listenProblem("0.0.0.0", true), undefined);
});

Deno.test("readBodyText() refuses a body that is not UTF-8 with a 400 naming the byte offset where it stops being UTF-8, and never reads replacement characters", async () => {
  const post = (bytes: number[]) =>
    new Request("http://127.0.0.1/", {
      method: "POST",
      body: new Uint8Array(bytes),
    });
  // "é" is C3 A9, "€" E2 82 AC, "😀" F0 9F 98 80: all well-formed.
  const good = [0x7b, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80];
  assert.equal(await readBodyText(post(good), 100), "{é€😀");
  // A replacement character sent as such (EF BF BD) is text like any other.
  assert.equal(await readBodyText(post([0xef, 0xbf, 0xbd]), 100), "\uFFFD");
  // Whatever the bytes, it refuses exactly what a strict decoder refuses.
  const strict = new TextDecoder("utf-8", { fatal: true });
  const refused = (bytes: number[]) => {
    try {
      strict.decode(new Uint8Array(bytes));
    } catch {
      return true;
    }
    return false;
  };
  const check = async (bytes: number[]) => {
    const readRefused = await readBodyText(post(bytes), 100).then(
      () => false,
      () => true,
    );
    assert.equal(
      readRefused,
      refused(bytes),
      bytes.map((b) => b.toString(16)).join(" "),
    );
  };
  // Every sequence of up to three bytes drawn from the boundary values, and
  // four-byte ones from the leads of four-byte forms.
  // deno-fmt-ignore
  const pool = [0x41, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc2, 0xe0, 0xed, 0xf0, 0xf4, 0xff];
  let sequences: number[][] = [[]];
  for (let length = 1; length <= 3; length++) {
    sequences = sequences.flatMap((head) =>
      pool.map((byte) => [...head, byte])
    );
    for (const bytes of sequences) await check(bytes);
  }
  const tails = [0x41, 0x8f, 0x90, 0xbf];
  for (const lead of [0xf0, 0xf4, 0xf5]) {
    for (const b of tails) {
      for (const c of tails) {
        for (const d of tails) {
          await check([lead, b, c, d]);
        }
      }
    }
  }
  const cases: [string, number[], number][] = [
    ["a stray continuation byte", [0x61, 0x62, 0x80], 2],
    ["a byte no UTF-8 text holds", [0x61, 0xff], 1],
    ["a sequence cut short by the end", [0x61, 0xe2, 0x82], 1],
    ["a sequence cut short by an ASCII byte", [0xc3, 0x41], 0],
    ["an overlong form of '/'", [0x61, 0x62, 0x63, 0xc0, 0xaf], 3],
    ["an overlong three-byte form", [0xe0, 0x80, 0xaf], 0],
    ["a surrogate", [0x20, 0xed, 0xa0, 0x80], 1],
    ["a code point over U+10FFFF", [0xc3, 0xa9, 0xf4, 0x90, 0x80, 0x80], 2],
  ];
  for (const [what, bytes, offset] of cases) {
    await assert.rejects(readBodyText(post(bytes), 100), (error: unknown) => {
      assert.ok(error instanceof BodyTextError, what);
      assert.equal(error.status, 400, what);
      assert.equal(
        error.message,
        `request body is not valid UTF-8 at byte offset ${offset}: send it encoded as UTF-8`,
        what,
      );
      return true;
    });
  }
});

Deno.test("readBodyText() refuses a body over its limit with a 413, by Content-Length or by the bytes of a chunked body, and reads no body as empty text", async () => {
  const declared = new Request("http://127.0.0.1/", {
    method: "POST",
    headers: { "content-length": "11" },
    body: "x".repeat(11),
  });
  await assert.rejects(readBodyText(declared, 10), {
    name: "BodyTextError",
    status: 413,
    message: "request body too large: 11 bytes, the limit is 10",
  });
  const chunked = new Request("http://127.0.0.1/", {
    method: "POST",
    body: ReadableStream.from(["x".repeat(6), "x".repeat(6)]).pipeThrough(
      new TextEncoderStream(),
    ),
  });
  await assert.rejects(readBodyText(chunked, 10), {
    status: 413,
    message: "request body too large: over 10 bytes, the limit",
  });
  assert.equal(await readBodyText(new Request("http://127.0.0.1/"), 10), "");
});

Deno.test("utf8Length() counts the bytes TextEncoder writes, lone surrogates included", () => {
  const texts = [
    "",
    "plain",
    "é€😀",
    "\uD800",
    "\uDC00x",
    "\uD800é",
    "a\uDC00\uD800",
    "\uD83D\uDE00\uD83D",
    "x".repeat(100) + "ü",
  ];
  for (const text of texts) {
    assert.equal(
      utf8Length(text),
      new TextEncoder().encode(text).length,
      JSON.stringify(text),
    );
  }
});
