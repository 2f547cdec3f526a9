import assert from "node:assert/strict";
import { join } from "node:path";
import { beeuni, controlChars, exists, tempRepo } from "./_helpers.ts";
import {
  rawRequest,
  startDaemon,
  startDaemonUnder,
  waitFor,
} from "./_daemon.ts";
import { NODE_LATEST, nodeBin } from "./_runtimes.ts";
import { descendants, processes } from "./_procs.ts";
import { setSecret } from "../lib/secrets/mod.ts";

const SCHEMA = `{ type: "object", properties: { text: { type: "string" } } }`;

/** Tool modules used across the tests. */
const TOOLS: Record<string, string> = {
  "tools/echo.ts": `export default {
  description: "Echo the text",
  parameters: ${SCHEMA},
  execute: (args) => "echo:" + args.text,
};
`,
  "tools/fail.ts": `export default {
  description: "Always fails",
  parameters: { type: "object" },
  execute() { throw new Error("the order service said no"); },
};
`,
  "tools/big.ts": `export default {
  description: "A large output",
  parameters: { type: "object", properties: { lines: { type: "number" } } },
  execute: (args) => args.lines
    ? Array.from({ length: args.lines }, (_, i) => "line " + i).join("\\n")
    : "x".repeat(60000),
};
`,
  "tools/json.ts": `export default {
  description: "A JSON value",
  parameters: { type: "object" },
  execute: (_args, context) => ({ agent: context.agent, session: context.sessionId, directory: context.directory }),
};
`,
  "tools/wait.ts": `import { writeFileSync } from "node:fs";
export default {
  description: "Waits until aborted, writing marker files",
  parameters: { type: "object", properties: { dir: { type: "string" } } },
  execute(args, context) {
    writeFileSync(args.dir + "/started", "1");
    return new Promise((resolve, reject) => {
      const done = () => {
        writeFileSync(args.dir + "/aborted", String(context.signal.reason ?? "aborted"));
        reject(new Error("stopped"));
      };
      if (context.signal.aborted) done();
      else context.signal.addEventListener("abort", done, { once: true });
    });
  },
};
`,
  "tools/secret.ts": `export default {
  description: "Reads a secret from context.env",
  parameters: { type: "object", properties: { name: { type: "string" } } },
  execute: (args, context) => context.env[args.name] ?? "(unset)",
};
`,
};

const MANIFEST = `tools:
  echo: tools/echo.ts
  fail: tools/fail.ts
  big: tools/big.ts
  json: tools/json.ts
  wait: tools/wait.ts
  secret: tools/secret.ts
agents:
  beeuni:
    secrets: all
  narrow:
    tools: [echo]
  scoped:
    secrets: [GRANTED_KEY]
`;

async function project(extra: Record<string, string> = {}) {
  return await tempRepo({ "beeuni.yaml": MANIFEST, ...TOOLS, ...extra });
}

const CALL = { sessionId: "s1", agent: "beeuni" };

Deno.test("the daemon prints its 0600 token file and URL, and SIGTERM exits 0 (D7)", async () => {
  await using repo = await project();
  const daemon = await startDaemon(repo.dir);
  try {
    assert.match(
      daemon.stdout(),
      /^token file: .+\nweb ui: http:\/\/127\.0\.0\.1:\d+\/w\/[0-9a-f]{32}\/#code=[0-9a-f]{64}\nlistening on http:\/\/127\.0\.0\.1:\d+\n$/,
    );
    assert.ok(daemon.tokenFile);
    assert.match(daemon.tokenFile!, /\/beeuni\/daemon\/[0-9a-f]{64}\.token$/);
    assert.equal((await Deno.stat(daemon.tokenFile!)).mode! & 0o777, 0o600);
    assert.match(daemon.token, /^[0-9a-f]{64}$/);
    // The web UI's address carries a one-time code, never the token.
    assert.ok(!daemon.stdout().includes(daemon.token));
    const health = await daemon.fetch("/beeuni/health");
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { ok: true, tools: 6, running: 0 });
  } finally {
    assert.equal(await daemon.stop(), 0);
  }
  await assert.rejects(Deno.stat(daemon.tokenFile!));
  assert.ok(!daemon.stderr().includes(daemon.token));
});

Deno.test("requests need the bearer token and a loopback Host, bodies have a size limit (D7)", async (t) => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir, {
    args: ["--max-body-bytes", "1000"],
  });

  await t.step("401 without a token", async () => {
    const response = await fetch(daemon.url + "/beeuni/tools");
    assert.equal(response.status, 401);
    assert.equal(
      response.headers.get("www-authenticate"),
      'Bearer realm="beeuni"',
    );
    assert.match(
      (await response.json()).error,
      /missing or wrong bearer token/,
    );
  });

  await t.step(
    "401 with a wrong token, a bare token or another scheme",
    async () => {
      for (
        const header of [
          "Bearer " + "0".repeat(64),
          "Bearer " + daemon.token.slice(0, -1),
          daemon.token,
          "Basic " + daemon.token,
          "Bearer",
        ]
      ) {
        const response = await daemon.fetch("/beeuni/tools", {
          headers: { authorization: header },
        });
        assert.equal(response.status, 401, header);
        await response.body?.cancel();
      }
      const post = await daemon.fetch("/beeuni/tools/echo", {
        method: "POST",
        headers: { authorization: "Bearer nope" },
        body: JSON.stringify({ args: { text: "hi" }, ...CALL }),
      });
      assert.equal(post.status, 401);
      await post.body?.cancel();
    },
  );

  await t.step("the scheme is case-insensitive", async () => {
    const response = await daemon.fetch("/beeuni/tools", {
      headers: { authorization: "bearer " + daemon.token },
    });
    assert.equal(response.status, 200);
    await response.body?.cancel();
  });

  await t.step("421 when the Host header is not a loopback name", async () => {
    for (
      const host of ["evil.example", "127.0.0.1.evil.example", "10.0.0.1:80"]
    ) {
      const { status, text } = await rawRequest(
        daemon.port,
        `GET /beeuni/tools HTTP/1.1\nHost: ${host}\nAuthorization: Bearer ${daemon.token}\nConnection: close\n\n`,
      );
      assert.equal(status, 421, host);
      assert.match(
        JSON.parse(text).error,
        /Host header must be localhost, 127\.0\.0\.1 or \[::1\]/,
      );
    }
    for (
      const host of [
        "localhost",
        `localhost:${daemon.port}`,
        "127.0.0.1",
        "[::1]:1",
      ]
    ) {
      const { status } = await rawRequest(
        daemon.port,
        `GET /beeuni/tools HTTP/1.1\nHost: ${host}\nAuthorization: Bearer ${daemon.token}\nConnection: close\n\n`,
      );
      assert.equal(status, 200, host);
    }
  });

  await t.step("413 for a declared Content-Length over the limit", async () => {
    const body = JSON.stringify({ args: { text: "y".repeat(2000) }, ...CALL });
    const response = await daemon.fetch("/beeuni/tools/echo", {
      method: "POST",
      body,
    });
    assert.equal(response.status, 413);
    assert.match((await response.json()).error, /request body too large/);
  });

  await t.step("413 for a chunked body that grows over the limit", async () => {
    const chunk = new TextEncoder().encode("z".repeat(600));
    const response = await daemon.fetch("/beeuni/tools/echo", {
      method: "POST",
      body: new ReadableStream({
        pull(controller) {
          controller.enqueue(chunk);
          controller.enqueue(chunk);
          controller.close();
        },
      }),
    });
    assert.equal(response.status, 413);
    assert.match((await response.json()).error, /over 1000 bytes/);
  });

  await t.step("a body under the limit is served", async () => {
    const { status, body } = await daemon.call("echo", {
      args: { text: "ok" },
      ...CALL,
    });
    assert.equal(status, 200);
    assert.deepEqual(body, { output: "echo:ok" });
  });
});

Deno.test("malformed requests get 400 naming the field, unknown routes 404, wrong methods 405 (D2)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir);
  const post = async (body: string) => {
    const response = await daemon.fetch("/beeuni/tools/echo", {
      method: "POST",
      body,
    });
    return { status: response.status, error: (await response.json()).error };
  };
  assert.deepEqual(await post("{not json"), {
    status: 400,
    error: "request body is not valid JSON",
  });
  assert.match((await post("")).error, /request body is empty/);
  assert.match((await post("[1]")).error, /must be a JSON object/);
  assert.deepEqual(
    await post(JSON.stringify({ args: [1], ...CALL })),
    { status: 400, error: '"args" must be a JSON object' },
  );
  assert.deepEqual(
    await post(JSON.stringify({ args: "text", ...CALL })),
    { status: 400, error: '"args" must be a JSON object' },
  );
  assert.deepEqual(
    await post(JSON.stringify({ args: {}, agent: "beeuni" })),
    { status: 400, error: 'missing "sessionId": a non-empty string' },
  );
  assert.deepEqual(
    await post(JSON.stringify({ args: {}, sessionId: "s" })),
    { status: 400, error: 'missing "agent": a non-empty string' },
  );
  assert.deepEqual(
    await post(JSON.stringify({ args: {}, sessionId: 7, agent: "a" })),
    { status: 400, error: '"sessionId" must be a non-empty string' },
  );
  assert.deepEqual(
    await post(JSON.stringify({ args: {}, sessionId: "s", agent: "" })),
    { status: 400, error: '"agent" must be a non-empty string' },
  );
  const unknown = await daemon.fetch("/nope");
  assert.equal(unknown.status, 404);
  assert.deepEqual(await unknown.json(), { error: "no route for GET /nope" });
  const wrong = await daemon.fetch("/beeuni/tools/echo");
  assert.equal(wrong.status, 405);
  assert.equal(wrong.headers.get("allow"), "POST");
  await wrong.body?.cancel();
  const wrongList = await daemon.fetch("/beeuni/tools", { method: "DELETE" });
  assert.equal(wrongList.status, 405);
  await wrongList.body?.cancel();
  // The daemon still serves after all that.
  assert.deepEqual(
    (await daemon.call("echo", { args: { text: "still" }, ...CALL })).body,
    { output: "echo:still" },
  );
  // Without "args" a call gets {}.
  assert.deepEqual(
    (await daemon.call("echo", { ...CALL })).body,
    { output: "echo:undefined" },
  );
});

Deno.test("POST /beeuni/tools/<name>: 200 output, 200 error, 404 and 403 (D2, D4, T3, T4)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir);
  assert.deepEqual(
    await daemon.call("echo", { args: { text: "héllo" }, ...CALL }),
    { status: 200, body: { output: "echo:héllo" } },
  );
  const json = await daemon.call("json", {
    args: {},
    sessionId: "sess-9",
    agent: "beeuni",
  });
  assert.equal(json.status, 200);
  assert.deepEqual(JSON.parse(json.body.output as string), {
    agent: "beeuni",
    session: "sess-9",
    directory: await Deno.realPath(repo.dir),
  });
  assert.equal(
    json.body.output,
    JSON.stringify(JSON.parse(json.body.output as string), null, 2),
  );
  assert.deepEqual(await daemon.call("fail", { args: {}, ...CALL }), {
    status: 200,
    body: { error: "the order service said no" },
  });
  assert.deepEqual(await daemon.call("nope", { args: {}, ...CALL }), {
    status: 404,
    body: { error: "no tool named nope is loaded" },
  });
  assert.deepEqual(await daemon.call("web_search", { args: {}, ...CALL }), {
    status: 404,
    body: { error: "no tool named web_search is loaded" },
  });
  const forbidden = await daemon.call("fail", {
    args: {},
    sessionId: "s1",
    agent: "narrow",
  });
  assert.equal(forbidden.status, 403);
  assert.equal(typeof forbidden.body.error, "string");
  assert.match(forbidden.body.error as string, /fail/);
  assert.deepEqual(
    await daemon.call("echo", {
      args: { text: "n" },
      sessionId: "s1",
      agent: "narrow",
    }),
    { status: 200, body: { output: "echo:n" } },
  );
});

Deno.test("GET /beeuni/tools lists what each agent sees (D4)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir);
  const list = async (query: string) => {
    const response = await daemon.fetch(`/beeuni/tools${query}`);
    assert.equal(response.status, 200);
    return (await response.json()).tools as {
      name: string;
      description: string;
      parameters: unknown;
    }[];
  };
  const all = await list("?agent=beeuni");
  assert.deepEqual(all.map((tool) => tool.name), [
    "echo",
    "fail",
    "big",
    "json",
    "wait",
    "secret",
  ]);
  assert.deepEqual(all[0], {
    name: "echo",
    description: "Echo the text",
    parameters: { type: "object", properties: { text: { type: "string" } } },
  });
  assert.deepEqual((await list("?agent=narrow")).map((tool) => tool.name), [
    "echo",
  ]);
  assert.equal((await list("")).length, 6);
});

Deno.test("a large output comes back cut with truncated, size and path (T6)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir);
  const bytes = await daemon.call("big", { args: {}, ...CALL });
  assert.equal(bytes.status, 200);
  assert.equal(bytes.body.truncated, true);
  assert.equal(bytes.body.size, 60000);
  assert.ok((bytes.body.output as string).length <= 51200);
  assert.ok((bytes.body.output as string).startsWith("xxxx"));
  const path = bytes.body.path as string;
  assert.equal(await Deno.readTextFile(path), "x".repeat(60000));
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);

  const lines = await daemon.call("big", { args: { lines: 2500 }, ...CALL });
  assert.equal(lines.body.truncated, true);
  assert.ok((lines.body.output as string).split("\n").length <= 2000);
  assert.ok((lines.body.output as string).startsWith("line 0\nline 1\n"));
  assert.equal(
    (await Deno.readTextFile(lines.body.path as string)).split("\n").length,
    2500,
  );

  const small = await daemon.call("big", { args: { lines: 10 }, ...CALL });
  assert.deepEqual(Object.keys(small.body), ["output"]);
});

Deno.test("a caller that disconnects aborts the tool's context.signal (T5)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir);
  const markers = await Deno.makeTempDir({ dir: repo.dir, prefix: "markers_" });
  try {
    const controller = new AbortController();
    const pending = daemon.fetch("/beeuni/tools/wait", {
      method: "POST",
      body: JSON.stringify({ args: { dir: markers }, ...CALL }),
      signal: controller.signal,
    });
    await waitFor("the call to start", () => exists(join(markers, "started")));
    controller.abort();
    await assert.rejects(pending);
    await waitFor(
      "the tool to see the abort",
      () => exists(join(markers, "aborted")),
    );
    await waitFor("the call to end", async () => {
      const health = await (await daemon.fetch("/beeuni/health")).json();
      return health.running === 0;
    });
    // Other calls still work.
    assert.deepEqual(
      (await daemon.call("echo", { args: { text: "after" }, ...CALL })).body,
      { output: "echo:after" },
    );
  } finally {
    await Deno.remove(markers, { recursive: true });
  }
});

Deno.test("POST /beeuni/sessions/<id>/stop aborts every running call of that session only (T5)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir);
  const a = await Deno.makeTempDir({ dir: repo.dir, prefix: "markers_" });
  const b = await Deno.makeTempDir({ dir: repo.dir, prefix: "markers_" });
  const other = await Deno.makeTempDir({ dir: repo.dir, prefix: "markers_" });
  const otherAbort = new AbortController();
  try {
    const first = daemon.call("wait", {
      args: { dir: a },
      sessionId: "turn-1",
      agent: "beeuni",
    });
    const second = daemon.call("wait", {
      args: { dir: b },
      sessionId: "turn-1",
      agent: "beeuni",
    });
    const third = daemon.call("wait", {
      args: { dir: other },
      sessionId: "turn-2",
      agent: "beeuni",
    }, {
      signal: otherAbort.signal,
    }).catch(() => undefined);
    await waitFor(
      "the calls to start",
      () =>
        exists(join(a, "started")) && exists(join(b, "started")) &&
        exists(join(other, "started")),
    );
    const stop = await daemon.fetch("/beeuni/sessions/turn-1/stop", {
      method: "POST",
    });
    assert.equal(stop.status, 200);
    assert.deepEqual(await stop.json(), { stopped: 2 });
    for (const result of [await first, await second]) {
      assert.equal(result.status, 200);
      assert.equal(typeof result.body.error, "string");
    }
    // The answer comes as soon as the call is aborted; the tool sees its
    // signal a moment later.
    await waitFor(
      "both tools to see the abort",
      () => exists(join(a, "aborted")) && exists(join(b, "aborted")),
    );
    assert.ok(!exists(join(other, "aborted")));
    const none = await daemon.fetch("/beeuni/sessions/turn-1/stop", {
      method: "POST",
    });
    assert.deepEqual(await none.json(), { stopped: 0 });
    otherAbort.abort();
    await third;
    // The caller going away aborts the other session's call too; wait for
    // its tool to write its marker so cleanup does not race with it.
    await waitFor(
      "the other tool to see the abort",
      () => exists(join(other, "aborted")),
    );
  } finally {
    for (const dir of [a, b, other]) {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("secrets are granted per agent and a changed secret reaches the next call without restart (D6, T5)", async () => {
  await using repo = await project();
  const state = await Deno.makeTempDir({ prefix: "beeuni_state_" });
  const env = {
    XDG_STATE_HOME: state,
    BEEUNI_DAEMON_TOKEN: "t0k3n-" + "9".repeat(40),
  };
  try {
    await setSecret(repo.dir, "GRANTED_KEY", "first-secret-value", env);
    await setSecret(repo.dir, "OTHER_KEY", "other-secret-value", env);
    await using daemon = await startDaemon(repo.dir, { env });
    assert.match(daemon.stdout(), /^token: from BEEUNI_DAEMON_TOKEN\n/);
    const read = async (agent: string, name: string) =>
      (await daemon.call("secret", {
        args: { name },
        sessionId: "s",
        agent,
      })).body.output;
    assert.equal(await read("beeuni", "GRANTED_KEY"), "first-secret-value");
    assert.equal(await read("beeuni", "OTHER_KEY"), "other-secret-value");
    assert.equal(await read("scoped", "GRANTED_KEY"), "first-secret-value");
    assert.equal(await read("scoped", "OTHER_KEY"), "(unset)");
    assert.equal(await read("narrow", "GRANTED_KEY"), undefined);
    assert.equal(await read("unlisted", "GRANTED_KEY"), "(unset)");
    // The daemon's own token never reaches a tool.
    assert.equal(await read("beeuni", "BEEUNI_DAEMON_TOKEN"), "(unset)");
    // The daemon's environment does.
    assert.equal(await read("beeuni", "XDG_STATE_HOME"), state);

    await setSecret(repo.dir, "GRANTED_KEY", "second-secret-value", env);
    assert.equal(await read("scoped", "GRANTED_KEY"), "second-secret-value");

    await daemon.call("echo", { args: { text: "argument-value-42" }, ...CALL });
    await daemon.call("fail", { args: { text: "argument-value-43" }, ...CALL });
    await daemon.stop();
    const logs = daemon.stderr() + daemon.stdout();
    for (
      const hidden of [
        "first-secret-value",
        "second-secret-value",
        "other-secret-value",
        env.BEEUNI_DAEMON_TOKEN,
        "argument-value-42",
        "argument-value-43",
      ]
    ) {
      assert.ok(!logs.includes(hidden), `logs contain ${hidden}:\n${logs}`);
    }
    // One line per call, naming the tool.
    assert.match(daemon.stderr(), /echo/);
  } finally {
    await Deno.remove(state, { recursive: true });
  }
});

Deno.test("a reload during a stream of concurrent calls fails no call (D5)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir, {
    args: ["--timeout-ms", "20000"],
  });
  let running = true;
  let ok = 0;
  const failures: string[] = [];
  const seen = new Set<string>();
  const worker = async (id: number) => {
    let i = 0;
    while (running) {
      try {
        const { status, body } = await daemon.call("echo", {
          args: { text: `${id}-${i++}` },
          sessionId: `w${id}`,
          agent: "beeuni",
        });
        if (status !== 200 || typeof body.output !== "string") {
          failures.push(`${status} ${JSON.stringify(body)}`);
        } else {
          ok++;
          seen.add((body.output as string).split(":")[0]);
        }
      } catch (error) {
        failures.push(String(error));
      }
    }
  };
  const workers = Array.from({ length: 8 }, (_, id) => worker(id));
  try {
    await waitFor("some calls", () => ok > 20);
    // Change a module and add a tool in the manifest.
    await Deno.writeTextFile(
      join(repo.dir, "tools/echo.ts"),
      TOOLS["tools/echo.ts"].replace('"echo:"', '"echo2:"'),
    );
    await Deno.writeTextFile(
      join(repo.dir, "tools/added.ts"),
      `export default { description: "Added", parameters: { type: "object" }, execute: () => "added" };\n`,
    );
    await Deno.writeTextFile(
      join(repo.dir, "beeuni.yaml"),
      MANIFEST.replace("tools:\n", "tools:\n  added: tools/added.ts\n"),
    );
    await waitFor("the new tool set", async () => {
      const tools = (await (await daemon.fetch("/beeuni/tools")).json()).tools;
      return tools.some((tool: { name: string }) => tool.name === "added") &&
        seen.has("echo2");
    });
    const before = ok;
    await waitFor("more calls after the reload", () => ok > before + 20);
  } finally {
    running = false;
    await Promise.all(workers);
  }
  assert.deepEqual(failures, []);
  assert.ok(seen.has("echo") && seen.has("echo2"));
  assert.deepEqual(
    (await daemon.call("added", { args: {}, ...CALL })).body,
    { output: "added" },
  );
  assert.match(daemon.stderr(), /\[daemon\] reloaded after a change to/);
});

Deno.test("an invalid change keeps the old tool set serving and logs positioned diagnostics (D5)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir);
  await Deno.writeTextFile(
    join(repo.dir, "beeuni.yaml"),
    MANIFEST.replace(
      "  echo: tools/echo.ts\n",
      "  echo: tools/missing.ts\n  bad name: x\n",
    ),
  );
  await waitFor(
    "the refused reload",
    () => daemon.stderr().includes("not reloaded"),
  );
  assert.match(daemon.stderr(), /previous tools keep serving/);
  assert.match(daemon.stderr(), /beeuni\.yaml:\d+:\d+: error: /);
  const tools = (await (await daemon.fetch("/beeuni/tools")).json()).tools;
  assert.equal(tools.length, 6);
  assert.deepEqual(
    (await daemon.call("echo", { args: { text: "old" }, ...CALL })).body,
    { output: "echo:old" },
  );
  // Fixing it is picked up again.
  await Deno.writeTextFile(
    join(repo.dir, "beeuni.yaml"),
    MANIFEST.replace("  fail: tools/fail.ts\n", ""),
  );
  await waitFor("the fixed reload", async () => {
    const list = (await (await daemon.fetch("/beeuni/tools")).json()).tools;
    return list.length === 5;
  });
});

Deno.test("a call that outlives --timeout-ms ends as a 200 error and the tool keeps answering (T5, D2)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir, {
    args: ["--timeout-ms", "300"],
  });
  const markers = await Deno.makeTempDir({ dir: repo.dir, prefix: "markers_" });
  try {
    const { status, body } = await daemon.call("wait", {
      args: { dir: markers },
      ...CALL,
    });
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), ["error"]);
    assert.match(body.error as string, /300 ms/);
    assert.deepEqual(
      (await daemon.call("echo", { args: { text: "next" }, ...CALL })).body,
      { output: "echo:next" },
    );
  } finally {
    await Deno.remove(markers, { recursive: true });
  }
});

Deno.test("SIGTERM during a running call ends the call and exits 0 (D7)", async () => {
  await using repo = await project();
  const daemon = await startDaemon(repo.dir);
  const markers = await Deno.makeTempDir({ dir: repo.dir, prefix: "markers_" });
  try {
    const pending = daemon.call("wait", { args: { dir: markers }, ...CALL })
      .catch((error) => ({ status: 0, body: { error: String(error) } }));
    await waitFor("the call to start", () => exists(join(markers, "started")));
    assert.equal(await daemon.stop(), 0);
    const result = await pending;
    assert.equal(typeof result.body.error, "string");
    assert.match(daemon.stderr(), /\[daemon\] SIGTERM: stopping/);
  } finally {
    await daemon.stop();
    await Deno.remove(markers, { recursive: true });
  }
});

Deno.test("--allow-remote skips the Host check but still needs the token (D7)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir, {
    args: ["--allow-remote"],
  });
  const ok = await rawRequest(
    daemon.port,
    `GET /beeuni/tools HTTP/1.1\nHost: sandbox.example:8080\nAuthorization: Bearer ${daemon.token}\nConnection: close\n\n`,
  );
  assert.equal(ok.status, 200);
  const noToken = await rawRequest(
    daemon.port,
    `GET /beeuni/tools HTTP/1.1\nHost: sandbox.example:8080\nConnection: close\n\n`,
  );
  assert.equal(noToken.status, 401);
});

Deno.test("a non-loopback --hostname is refused unless --allow-remote (D7)", async () => {
  await using repo = await project();
  await assert.rejects(
    startDaemon(repo.dir, { args: ["--hostname", "0.0.0.0"] }),
    /refusing to listen on "0\.0\.0\.0": the daemon listens on loopback only.*--allow-remote/s,
  );
});

Deno.test("a daemon on --hostname localhost prints the address it listens on, not the name: a browser never meets another server on the other loopback address (D7, W1)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir, {
    args: ["--hostname", "localhost"],
  });
  const numeric = /^http:\/\/(127\.0\.0\.1|\[::1\]):\d+$/;
  assert.match(daemon.url, numeric);
  const web = /^web ui: (http:\/\/[^/]+)\//m.exec(daemon.stdout())?.[1];
  assert.equal(web, daemon.url, daemon.stdout());
  assert.equal((await daemon.fetch("/beeuni/health")).status, 200);
});

Deno.test("the daemon refuses a short BEEUNI_DAEMON_TOKEN and a folder without beeuni.yaml (D7, M1)", async () => {
  await using repo = await project();
  await assert.rejects(
    startDaemon(repo.dir, { env: { BEEUNI_DAEMON_TOKEN: "short" } }),
    /BEEUNI_DAEMON_TOKEN must be at least 16 characters/,
  );
  const empty = await Deno.makeTempDir({ prefix: "beeuni_empty_" });
  try {
    await assert.rejects(
      startDaemon(empty),
      /no beeuni\.yaml found in ".*" or any folder above it/,
    );
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("a changed tool module alone is reloaded and a load failure is logged (D5, T8)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir);
  // A first call starts the tool's worker on the current module.
  assert.deepEqual(
    (await daemon.call("echo", { args: { text: "x" }, ...CALL })).body,
    { output: "echo:x" },
  );
  await Deno.writeTextFile(
    join(repo.dir, "tools/echo.ts"),
    TOOLS["tools/echo.ts"].replace('"echo:"', '"v2:"'),
  );
  await waitFor(
    "the new module",
    async () =>
      (await daemon.call("echo", { args: { text: "x" }, ...CALL })).body
        .output === "v2:x",
  );
  assert.match(daemon.stderr(), /reloaded after a change to tools\/echo\.ts/);
  await Deno.writeTextFile(
    join(repo.dir, "tools/fail.ts"),
    "export default { description: 'no execute', parameters: { type: 'object' } };\n",
  );
  await waitFor(
    "the load failure",
    () => daemon.stderr().includes("[tools] project tools that did not load"),
  );
  assert.match(
    daemon.stderr(),
    /\[tools\] {3}fail: execute must be a function/,
  );
  // The seed's text, and why the module no longer loads (T8).
  assert.deepEqual(await daemon.call("fail", { args: {}, ...CALL }), {
    status: 404,
    body: {
      error: "no tool named fail is loaded",
      loadError: "execute must be a function",
    },
  });
  assert.deepEqual(
    (await daemon.call("echo", { args: { text: "y" }, ...CALL })).body,
    { output: "v2:y" },
  );
});

Deno.test("a new imported file in a new folder is watched after the reload that adds it; data files never reload (D5)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir);
  const names = async () =>
    ((await (await daemon.fetch("/beeuni/tools")).json()).tools as {
      name: string;
    }[]).map((tool) => tool.name);
  // A tool writing data next to the manifest does not reload the project.
  await Deno.writeTextFile(join(repo.dir, "data.json"), "{}\n");
  await Deno.writeTextFile(join(repo.dir, "tools/notes.json"), "[]\n");
  await Deno.mkdir(join(repo.dir, "config"));
  await Deno.writeTextFile(
    join(repo.dir, "config/more.yaml"),
    "tools:\n  more: tools/echo.ts\n",
  );
  await Deno.writeTextFile(
    join(repo.dir, "beeuni.yaml"),
    MANIFEST + "imports:\n  - config/more.yaml\n",
  );
  await waitFor("the import", async () => (await names()).includes("more"));
  // config/ was not watched before; now an edit there alone is picked up.
  await Deno.writeTextFile(
    join(repo.dir, "config/more.yaml"),
    "tools:\n  more: tools/echo.ts\n  more2: tools/echo.ts\n",
  );
  await waitFor(
    "the edit of the imported file",
    async () => (await names()).includes("more2"),
  );
  // The reload's log line may follow its first answers by a moment.
  await waitFor(
    "the reload's log line",
    () => /after a change to config\/more\.yaml/.test(daemon.stderr()),
  );
  assert.ok(!daemon.stderr().includes("data.json"));
  assert.ok(!daemon.stderr().includes("notes.json"));
});

Deno.test("hostile tools fail alone while another tool keeps answering over HTTP (T5, D2)", async () => {
  await using repo = await project({
    "tools/spin.ts":
      `export default { description: "Loops", parameters: { type: "object" }, execute() { while (true) {} } };\n`,
    "tools/quit.ts":
      `export default { description: "Exits", parameters: { type: "object" }, execute() { (globalThis.Deno ?? globalThis.process).exit(3); } };\n`,
    "tools/leak.ts":
      `export default { description: "Leaks", parameters: { type: "object" }, execute() { Promise.reject(new Error("leaked")); return "fine"; } };\n`,
    "beeuni.yaml": MANIFEST.replace(
      "tools:\n",
      "tools:\n  spin: tools/spin.ts\n  quit: tools/quit.ts\n  leak: tools/leak.ts\n",
    ),
  });
  await using daemon = await startDaemon(repo.dir, {
    args: ["--timeout-ms", "1500"],
  });
  const hostile = Promise.all(
    ["spin", "quit", "leak"].map((name) =>
      daemon.call(name, { args: {}, ...CALL })
    ),
  );
  const answers: string[] = [];
  for (let i = 0; i < 20; i++) {
    const { status, body } = await daemon.call("echo", {
      args: { text: String(i) },
      ...CALL,
    });
    assert.equal(status, 200);
    answers.push(body.output as string);
  }
  assert.equal(answers.length, 20);
  const [spin, quit, leak] = await hostile;
  assert.equal(spin.status, 200);
  assert.match(spin.body.error as string, /1500 ms/);
  assert.equal(quit.status, 200);
  assert.equal(typeof quit.body.error, "string");
  assert.equal(leak.status, 200);
  // The daemon still serves every tool, the hostile ones included.
  assert.deepEqual(
    (await daemon.call("echo", { args: { text: "end" }, ...CALL })).body,
    { output: "echo:end" },
  );
  const health = await (await daemon.fetch("/beeuni/health")).json();
  assert.equal(health.ok, true);
});

Deno.test("beeuni daemon serves the same API as daemon.ts (D2)", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir, { viaCli: true });
  assert.deepEqual(
    (await daemon.call("echo", { args: { text: "cli" }, ...CALL })).body,
    { output: "echo:cli" },
  );
  assert.equal(await daemon.stop(), 0);
});

Deno.test("a newline or ESC in a sessionId or tool name cannot forge or colour a daemon log line", async () => {
  await using repo = await project();
  await using daemon = await startDaemon(repo.dir);
  const forged = "s1\n[tools] call forged agent=beeuni session=x 1ms ok\x1b[2J";
  const { status } = await daemon.call("echo", {
    args: { text: "hi" },
    sessionId: forged,
    agent: "beeuni",
  });
  assert.equal(status, 200);
  await daemon.call("no\nsuch\x1b]0;t\x07", { args: {}, ...CALL });
  await waitFor(
    "the call lines",
    () => daemon.stderr().split("[tools] call ").length > 2,
  );
  const log = daemon.stderr();
  assert.deepEqual(controlChars(log), []);
  assert.ok(
    log.split("\n").every((line) => !line.startsWith("[tools] call forged")),
  );
  assert.ok(
    log.includes(
      "session=s1\\n[tools] call forged agent=beeuni session=x 1ms ok\\x1b[2J",
    ),
    log,
  );
});

Deno.test("a Node.js daemon with --allow-run logs none of Node's warnings about the flag, and a tool's own SecurityWarning still reaches the log (H2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  warn: tools/warn.ts\n",
    "tools/warn.ts": `import process from "node:process";
export default {
  description: "Raises a warning of its own",
  parameters: { type: "object" },
  execute() {
    process.emitWarning("a warning of the tool", "SecurityWarning");
    return "warned";
  },
};
`,
  });
  await using daemon = await startDaemonUnder(
    [await nodeBin(NODE_LATEST)],
    repo.dir,
    ["--allow-run"],
  );
  assert.deepEqual((await daemon.call("warn", { args: {}, ...CALL })).body, {
    output: "warned",
  });
  await waitFor(
    "the tool's warning in the log",
    () => daemon.stderr().includes("SecurityWarning: a warning of the tool"),
  );
  // The loader, the spare runner and the tool's runner all started with
  // --allow-child-process; none of them says so.
  const log = daemon.stderr().split("\n");
  assert.deepEqual(
    log.filter((line) => line.includes("must be used with extreme caution")),
    [],
  );
  assert.ok(
    log.some((line) =>
      /^\[tools\] warn: \(node:\d+\) SecurityWarning: a warning of the tool$/
        .test(line)
    ),
    daemon.stderr(),
  );
});

Deno.test("a daemon started on a port another daemon holds says only that, with what to do, exits 1 and leaves nothing running (D7)", async () => {
  await using repo = await project();
  await using first = await startDaemon(repo.dir);
  const plugin = join(repo.dir, ".opencode", "plugins", "beeuni.ts");
  const written = await Deno.readTextFile(plugin);
  const second = await beeuni(repo.dir, [
    "daemon",
    "--port",
    String(first.port),
    "--allow-run",
  ], {
    env: {
      XDG_STATE_HOME: first.stateDir,
      XDG_CONFIG_HOME: join(first.stateDir, "config"),
    },
  });
  assert.deepEqual(second, {
    code: 1,
    stdout: "",
    stderr:
      `beeuni daemon: cannot listen on 127.0.0.1:${first.port}: the port is in use (another daemon or program listens there); pass another --port, or --port 0 to pick a free one\n`,
  });
  // No tool runner of the second daemon is left, and the first one's
  // token, record and opencode files are as they were: it still answers.
  const own = new Set([first.pid, ...descendants(first.pid).map((p) => p.pid)]);
  assert.deepEqual(
    processes().filter((p) => p.cmdline.includes(repo.dir) && !own.has(p.pid))
      .map((p) => p.cmdline),
    [],
  );
  assert.equal(
    (await Deno.readTextFile(first.tokenFile!)).trim(),
    first.token,
  );
  assert.equal(await Deno.readTextFile(plugin), written);
  assert.deepEqual(
    (await first.call("echo", { args: { text: "still" }, ...CALL })).body,
    { output: "echo:still" },
  );
});
