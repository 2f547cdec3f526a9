// The runtime matrix (N1, N3): the same scenario, from the source files,
// under Deno, Node.js 22, the newest Node.js and Bun, the four runs side by
// side. What passes here is what the README claims for each runtime.

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import {
  CLI,
  exists,
  git,
  REPO_ROOT,
  runProgram,
  type RunResult,
  tempRepo,
} from "./_helpers.ts";
import { testCacheEnv } from "./_npm_cache.ts";
import {
  DAEMON,
  startDaemon,
  startDaemonUnder,
  type TestDaemon,
  waitFor,
} from "./_daemon.ts";
import {
  bunBin,
  callThroughPlugin,
  type CheckResult,
  Checks,
  matrixProject,
  NODE_22,
  nodeBin,
  reference,
  removeMatrixTemplate,
  reportChecks,
  runArgv,
  RUNTIMES,
  type TestRuntime,
} from "./_runtimes.ts";
import { RawMcp } from "./_mcp.ts";
import {
  CALLER_SPAN,
  CALLER_TRACE,
  otelEnv,
  Receiver,
  TRACEPARENT,
} from "./_otlp.ts";
import { createHost } from "../mod.ts";
import {
  checkBigOutput,
  checkBigOutputsOverHttp,
  checkBigOutputsOverMcp,
  checkBigOutputsOverToolsCall,
  checkSavedOutputsConfined,
} from "./_big_output.ts";

const SMOKE = `import process from "node:process";
import { createHost, loadProject } from ${
  JSON.stringify(join(REPO_ROOT, "mod.ts"))
};
import { formatToolsTable } from ${
  JSON.stringify(join(REPO_ROOT, "lib", "manifest", "mod.ts"))
};
import { runtimeName } from ${JSON.stringify(join(REPO_ROOT, "runtime.ts"))};
const directory = process.cwd();
const project = await loadProject({ cwd: directory });
const host = await createHost({ directory, tmpDir: directory + "/.out", log: () => {} });
const outcome = await host.call({
  name: "unit_convert",
  args: { value: 1, from: "km", to: "m" },
  sessionId: "s1",
  agent: "beeuni",
});
await host.close();
console.log(JSON.stringify({
  runtime: runtimeName(),
  errors: project.diagnostics.filter((d) => d.severity === "error").length,
  table: formatToolsTable(project.toolSet),
  outcome,
}));
`;

/** The Bun-API tools' hint naming this project's daemon under Bun. */
function bunHint(runtime: string, dir: string): string {
  return `Bun APIs exist only when the daemon runs under Bun, and this one runs under ${runtime}: start it with Bun instead, \`bun ${DAEMON} --dir ${dir}\`, or use node:* modules in the tool`;
}

async function daemonChecks(
  rt: TestRuntime,
  dir: string,
  daemon: TestDaemon,
  check: (name: string, fn: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const call = (name: string, args: Record<string, unknown>) =>
    daemon.call(name, { args, sessionId: "s1", agent: "beeuni" });
  await check("the daemon lists the agent's tools over HTTP", async () => {
    const response = await daemon.fetch("/beeuni/tools?agent=writer");
    assert.equal(response.status, 200);
    const body = await response.json();
    const names = (body.tools as { name: string }[]).map((t) => t.name);
    assert.deepEqual(names.sort(), [
      "memory",
      "scrape_webpage",
      "web_search",
      "word_count",
    ]);
  });
  await check("the daemon runs a project tool over HTTP", async () => {
    const { status, body } = await call("word_count", { text: "one two one" });
    assert.equal(status, 200, JSON.stringify(body));
    const counted = JSON.parse(String(body.output));
    assert.equal(counted.words, 3);
    assert.equal(counted.distinct_words, 2);
  });
  await check("the daemon runs a Beeuni tool over HTTP", async () => {
    const { status, body } = await call("memory", {
      command: "create",
      path: "/memories/a.md",
      file_text: "hello",
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(await Deno.readTextFile(join(dir, "memory", "a.md")), "hello");
  });
  await check(
    "a CommonJS tool (module.exports in a .cjs file) runs",
    async () => {
      const { body } = await call("legacy", { path: "/a/b.txt" });
      assert.deepEqual(body, { output: "v1 b.txt" });
    },
  );
  await check(
    "a tool importing an npm package from the project's node_modules runs",
    async () => {
      const { body } = await call("to_ms", { text: "2h" });
      assert.deepEqual(body, { output: "7200000" });
    },
  );
  let saved = "";
  await check(
    "a 20 MB output is cut where the tool ran and saved whole, and the daemon's memory does not grow with it (T6)",
    async () => {
      saved = await checkBigOutput(daemon, "big_output", 20);
    },
  );
  await check(
    "a huge output, JSON object and thrown error each reach the caller cut to 51,200 bytes and saved whole, over HTTP (T6, H4)",
    () => checkBigOutputsOverHttp(daemon, "big_output"),
  );
  await check(
    "a huge output, JSON object and thrown error each reach the caller cut to 51,200 bytes and saved whole, over MCP (C2, T6, H4)",
    () => checkBigOutputsOverMcp(daemon, "big_output"),
  );
  if (rt.kind !== "bun" && saved !== "") {
    await check(
      "a tool may write to the folder of saved outputs but neither list it nor read them (H2, T6)",
      () => checkSavedOutputsConfined(daemon, "big_output", saved),
    );
  }
  if (rt.kind === "bun") {
    await check(
      'tools using Bun.file and import { $ } from "bun" run',
      async () => {
        const size = (await Deno.stat(join(dir, "beeuni.yaml"))).size;
        assert.deepEqual((await call("bun_file", {})).body, {
          output: String(size),
        });
        assert.deepEqual((await call("bun_shell", { text: "hi" })).body, {
          output: "hi",
        });
      },
    );
  } else {
    await check(
      "Bun-API tools fail with the command that starts this daemon under Bun",
      async () => {
        const hint = bunHint(rt.kind === "deno" ? "Deno" : "Node.js", dir);
        const logs = daemon.stderr();
        assert.ok(
          logs.includes(
            `[tools]   bun_shell: the module threw while loading: ${hint} (`,
          ),
          logs,
        );
        const { body } = await call("bun_file", {});
        assert.equal(
          body.error,
          `${hint} (ReferenceError: Bun is not defined)`,
        );
      },
    );
  }
  await check(
    "an edit to a tool module is served after the reload",
    async () => {
      const file = join(dir, "tools", "legacy.cjs");
      const text = await Deno.readTextFile(file);
      await Deno.writeTextFile(file, text.replace('"v1 "', '"v2 "'));
      await waitFor("the edited tool", async () => {
        const { body } = await call("legacy", { path: "/a/b.txt" });
        return body.output === "v2 b.txt";
      });
    },
  );
}

/** The tools agent `writer` of the matrix project sees. */
const WRITER_TOOLS = ["memory", "scrape_webpage", "web_search", "word_count"];

/**
 * Agent tokens and the call's telemetry under `argv`'s runtime: a token made
 * by `beeuni tokens new`, a daemon with OTLP export to a local receiver, the
 * call record read with `beeuni logs`, `GET /metrics`, and `tokens rm`
 * ending a stream opened with the token.
 */
async function tokenAndTelemetryChecks(
  argv: string[],
  dir: string,
  check: (name: string, fn: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const env = { XDG_STATE_HOME: join(dir, ".state-tokens") };
  const beeuni = (...args: string[]) =>
    runArgv([...argv, CLI, ...args], dir, env);
  let token = "";
  await check(
    "beeuni tokens new --agent writer prints a new token",
    async () => {
      const made = await beeuni(
        "tokens",
        "new",
        "--agent",
        "writer",
        "--label",
        "matrix",
      );
      assert.equal(made.code, 0, made.stderr);
      assert.match(made.stdout, /^bt_[A-Za-z0-9_-]{43}\n$/);
      token = made.stdout.trim();
    },
  );
  if (token === "") return;
  await using receiver = new Receiver();
  let started: TestDaemon | undefined;
  await check(
    "the daemon starts with OTEL_EXPORTER_OTLP_ENDPOINT set",
    async () => {
      started = await startDaemonUnder(argv, dir, [], {
        ...env,
        ...otelEnv(receiver),
      });
    },
  );
  if (!started) return;
  await using daemon = started;
  const as = (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${token}`);
    return daemon.fetch(path, { ...init, headers });
  };
  await check(
    "an agent token lists only its agent's tools and gets 403 for another agent (K1)",
    async () => {
      const own = await as("/beeuni/tools");
      assert.equal(own.status, 200);
      const names = ((await own.json()).tools as { name: string }[])
        .map((t) => t.name);
      assert.deepEqual(names.sort(), WRITER_TOOLS);
      const other = await as("/beeuni/tools?agent=planner");
      assert.equal(other.status, 403);
      assert.equal(
        (await other.json()).error,
        'this token acts only as agent "writer", not "planner": ask for it or use another token',
      );
    },
  );
  let called = false;
  await check(
    "a call with the agent token and a traceparent answers",
    async () => {
      const response = await as("/beeuni/tools/word_count", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          traceparent: TRACEPARENT,
        },
        body: JSON.stringify({ args: { text: "a b a" }, sessionId: "s-k" }),
      });
      assert.equal(response.status, 200);
      assert.equal(JSON.parse((await response.json()).output).words, 3);
      called = true;
    },
  );
  if (called) {
    await check(
      "the call is on record: beeuni logs --json prints its line (K2)",
      async () => {
        let line: Record<string, unknown> | undefined;
        await waitFor("the call's record", async () => {
          const logs = await beeuni("logs", "--json", "--session", "s-k");
          line = logs.stdout.trim().split("\n").filter(Boolean)
            .map((text) => JSON.parse(text))[0];
          return line !== undefined;
        });
        assert.deepEqual(
          {
            tool: line!.tool,
            agent: line!.agent,
            transport: line!.transport,
            outcome: line!.outcome,
            traceId: line!.traceId,
          },
          {
            tool: "word_count",
            agent: "writer",
            transport: "http",
            outcome: "ok",
            traceId: CALLER_TRACE,
          },
        );
      },
    );
    await check(
      "GET /metrics counts the call in beeuni_calls_total (K2)",
      async () => {
        const response = await daemon.fetch("/metrics");
        assert.equal(response.status, 200);
        assert.match(
          await response.text(),
          /^beeuni_calls_total\{(?=[^}]*tool="word_count")(?=[^}]*agent="writer")(?=[^}]*outcome="ok")[^}]*\} 1$/m,
        );
      },
    );
    await check(
      "the call's span reaches the OTLP receiver, continuing the caller's traceparent (K2)",
      async () => {
        const span = await receiver.span("tools/call word_count");
        assert.equal(span.traceId, CALLER_TRACE);
        assert.equal(span.parentSpanId, CALLER_SPAN);
        assert.equal(span.attributes["beeuni.agent"], "writer");
        assert.equal(span.attributes["beeuni.session.id"], "s-k");
        assert.equal(span.attributes["beeuni.outcome"], "ok");
      },
    );
  }
  await check(
    "after beeuni tokens rm a stream opened with the token ends at once, and its next request gets 401 (K1)",
    async () => {
      const mcp = new RawMcp(`${daemon.url}/mcp`, token);
      await mcp.initialize();
      // An MCP stream's first keep-alive is due 25 s after it opens, and a
      // stream whose token is gone ends there too: ending sooner shows that
      // the watch on the token file ended it, at once.
      const keepAliveDue = AbortSignal.timeout(20_000);
      const listen = await fetch(mcp.url, {
        signal: keepAliveDue,
        headers: {
          authorization: `Bearer ${token}`,
          accept: "text/event-stream",
          "mcp-session-id": mcp.sessionId!,
          "mcp-protocol-version": mcp.version,
        },
      });
      assert.equal(listen.status, 200);
      // Resolves to what stopped the reading, if not the stream's end.
      const reading = (async () => {
        for await (const _ of listen.body!) { /* events before removal */ }
      })().then(() => undefined, (error: unknown) => error);
      const removed = await beeuni("tokens", "rm", "matrix");
      assert.equal(removed.code, 0, removed.stderr);
      assert.match(removed.stdout, /^Removed token /);
      const stopped = await reading;
      if (stopped !== undefined) {
        throw new Error(
          `the stream did not end before its first keep-alive: the token file's watch did not end it (${stopped})`,
        );
      }
      const after = await as("/beeuni/tools");
      assert.equal(after.status, 401);
      await after.body?.cancel();
    },
  );
}

/** A tool in opencode's format for `beeuni tools migrate`. */
const LEGACY_TOOL = `import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Greets someone",
  args: { name: tool.schema.string().describe("Who to greet") },
  async execute(args) {
    return \`hi \${args.name}\`
  },
})
`;

/** The commands the scenario has not run yet: help, version, eject, migrate, secrets. */
async function otherCommands(
  dir: string,
  beeuni: (args: string[], stdin?: string) => Promise<RunResult>,
  check: (name: string, fn: () => Promise<void>) => Promise<void>,
): Promise<void> {
  await check("beeuni --help and --version", async () => {
    for (const args of [["--help"], ["--version"]]) {
      const [got, want] = await Promise.all([
        beeuni(args),
        reference(dir, args),
      ]);
      assert.equal(got.code, 0, got.stderr);
      assert.equal(got.stdout, want.stdout);
    }
  });
  await check("beeuni tools eject", async () => {
    const out = await beeuni(["tools", "eject", "show"]);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(
      await Deno.readFile(join(dir, "tools", "show.ts")),
      await Deno.readFile(join(REPO_ROOT, "builtin_tools", "show.ts")),
    );
    assert.match(
      await Deno.readTextFile(join(dir, "beeuni.yaml")),
      /^ {2}show: tools\/show\.ts # ejected from beeuni:show$/m,
    );
  });
  await check(
    "beeuni tools migrate, then tools call of the migrated tool",
    async () => {
      await Deno.mkdir(join(dir, "harnesses", "opencode", "tools"), {
        recursive: true,
      });
      await Deno.writeTextFile(
        join(dir, "harnesses", "opencode", "tools", "greet.ts"),
        LEGACY_TOOL,
      );
      const out = await beeuni(["tools", "migrate"]);
      assert.equal(out.code, 0, out.stderr);
      assert.match(
        out.stdout,
        /^ {2}✓ {2}Migrated harnesses\/opencode\/tools\/greet\.ts$/m,
      );
      const called = await beeuni([
        "tools",
        "call",
        "greet",
        "--args",
        '{"name":"Ada"}',
      ]);
      assert.equal(called.code, 0, called.stderr);
      assert.equal(called.stdout, "hi Ada\n");
    },
  );
  await check("beeuni secrets set, ls and rm", async () => {
    const set = await beeuni(["secrets", "set", "API_KEY=-"], "s3cr3t");
    assert.equal(set.code, 0, set.stderr);
    assert.ok(!set.stdout.includes("s3cr3t"));
    assert.equal((await beeuni(["secrets", "ls"])).stdout, "API_KEY\n");
    const rm = await beeuni(["secrets", "rm", "API_KEY"]);
    assert.equal(rm.stdout, "Removed secret API_KEY\n");
    assert.equal((await beeuni(["secrets", "ls"])).stdout, "");
  });
}

/** Runs the scenario under `rt` and returns each check's outcome. */
async function scenario(rt: TestRuntime): Promise<CheckResult[]> {
  const checks = new Checks();
  const check = async (name: string, fn: () => Promise<void>) => {
    await checks.check(name, fn);
  };
  const argv = await rt.argv();
  await using project = await matrixProject();
  const dir = project.dir;
  // Saved outputs (T6) go to the user's folder under TMPDIR: a test's own.
  const saves = await Deno.makeTempDir({ prefix: "beeuni_saves_" });
  await using _saves = {
    [Symbol.asyncDispose]: () => Deno.remove(saves, { recursive: true }),
  };
  const cli = async (...args: string[]) => {
    const [got, want] = await Promise.all([
      runArgv([...argv, CLI, ...args], dir),
      reference(dir, args),
    ]);
    assert.equal(got.code, want.code, got.stderr);
    assert.equal(got.stdout, want.stdout, got.stderr);
    return got;
  };
  await check("mod.ts loads the project and hosts a tool", async () => {
    await Deno.writeTextFile(join(dir, ".smoke.ts"), SMOKE);
    const out = await runArgv([...argv, ".smoke.ts"], dir);
    assert.equal(out.code, 0, out.stderr);
    const result = JSON.parse(out.stdout);
    assert.equal(result.runtime, rt.kind);
    assert.equal(result.errors, 0);
    assert.match(result.table, /^to_ms +project +tools\/to_ms\.ts$/m);
    assert.equal(result.outcome.ok, true, JSON.stringify(result.outcome));
    assert.match(result.outcome.output, /1000/);
  });
  await check("beeuni validate", async () => {
    const out = await cli("validate");
    assert.equal(out.stdout, "beeuni.yaml is valid\n");
  });
  await check("beeuni tools ls --agent writer", async () => {
    const out = await cli("tools", "ls", "--agent", "writer");
    assert.match(out.stdout, /^word_count +project +tools\/word_count\.ts$/m);
  });
  await check("beeuni tools call", async () => {
    const out = await cli(
      "tools",
      "call",
      "word_count",
      "--args",
      '{"text":"a b a"}',
    );
    assert.equal(JSON.parse(out.stdout).words, 3);
  });
  await check(
    "beeuni tools call prints a huge output, JSON object and thrown error cut to 51,200 bytes and saves them whole (T6, H4)",
    () =>
      checkBigOutputsOverToolsCall(
        (args) => runArgv([...argv, CLI, ...args], dir, { TMPDIR: saves }),
        "big_output",
      ),
  );
  let daemon: TestDaemon | undefined;
  await check("the daemon starts", async () => {
    daemon = await startDaemon(dir, {
      argv: [...argv, DAEMON, "--dir", dir, "--port", "0"],
      env: { TMPDIR: saves },
    });
  });
  if (daemon) {
    try {
      await check(
        "the opencode plugin it wrote forwards a call to it",
        () => callThroughPlugin(dir),
      );
      await daemonChecks(rt, dir, daemon, check);
    } finally {
      const code = await daemon.stop();
      await check("SIGTERM stops the daemon with exit code 0", () => {
        assert.equal(code, 0, daemon!.stderr());
        return Promise.resolve();
      });
    }
  }
  await check(
    "beeuni daemon (cli.ts daemon) serves a tool over HTTP",
    async () => {
      await using daemon = await startDaemon(dir, {
        argv: [
          ...argv,
          CLI,
          "daemon",
          "--dir",
          dir,
          "--port",
          "0",
          "--no-opencode",
        ],
      });
      const { body } = await daemon.call("legacy", {
        args: { path: "/x/y.md" },
        sessionId: "s1",
        agent: "beeuni",
      });
      assert.deepEqual(body, { output: "v2 y.md" });
      assert.equal(await daemon.stop(), 0, daemon.stderr());
    },
  );
  await tokenAndTelemetryChecks(argv, dir, check);
  const state = { XDG_STATE_HOME: join(dir, ".state") };
  await otherCommands(
    dir,
    (args, stdin) => runArgv([...argv, CLI, ...args], dir, state, stdin),
    check,
  );
  return checks.results;
}

Deno.test({
  name:
    "the same scenario passes from source under Deno, Node.js 22, the newest Node.js and Bun (N1, T7)",
  async fn(t) {
    try {
      // Installs first, one per version, so that the scenarios do not race.
      await Promise.all(RUNTIMES.map((rt) => rt.argv()));
      const runs = await Promise.all(RUNTIMES.map(async (rt) => ({
        label: rt.label,
        results: await scenario(rt),
      })));
      await reportChecks(t, runs);
    } finally {
      await removeMatrixTemplate();
    }
  },
});

Deno.test("following the advice a Bun-API tool gets under Deno starts a daemon where it answers (T7)", async () => {
  try {
    await followAdvice();
  } finally {
    await removeMatrixTemplate();
  }
});

async function followAdvice(): Promise<void> {
  const bun = await bunBin();
  await using project = await matrixProject();
  const dir = project.dir;
  let reason = "";
  {
    await using host = await createHost({
      directory: dir,
      tmpDir: join(dir, ".out"),
      log: () => {},
    });
    reason = host.loadErrors().find((e) => e.name === "bun_shell")?.reason ??
      "";
  }
  const advice = /start it with Bun instead, `([^`]+)`/.exec(reason)?.[1];
  assert.equal(advice, `bun ${DAEMON} --dir ${dir}`, reason);
  await using daemon = await startDaemon(dir, {
    argv: ["sh", "-c", `exec ${advice} --port 0 --no-opencode`],
    env: { PATH: `${dirname(bun)}:${Deno.env.get("PATH")}` },
  });
  const call = (name: string, args: Record<string, unknown>) =>
    daemon.call(name, { args, sessionId: "s1", agent: "beeuni" });
  assert.deepEqual((await call("bun_shell", { text: "hello" })).body, {
    output: "hello",
  });
  const size = (await Deno.stat(join(dir, "beeuni.yaml"))).size;
  assert.deepEqual((await call("bun_file", {})).body, {
    output: String(size),
  });
}

Deno.test("daemons under Deno, Node.js 22, the newest Node.js and Bun write the same opencode plugin and data, byte for byte, for one project (D3, N1)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": `tools:
  memory: beeuni:memory
  lookup_order: tools/lookup_order.ts
`,
    "tools/lookup_order.ts": `export default {
  description: "Look up an order \u2014 by its id \u2028 (\u00e9t\u00e9)",
  parameters: {
    type: "object",
    properties: {
      id: { type: "string", pattern: "^A-\\\\d+$" },
      limit: { type: "number", maximum: 1e21, minimum: 0.1 },
    },
    required: ["id"],
  },
  execute: (args) => "order " + args.id,
};
`,
  });
  const state = join(repo.dir, ".state");
  const written: { label: string; source: string; data: string }[] = [];
  // One at a time: each daemon writes the files into a folder of its own.
  for (const rt of RUNTIMES) {
    const out = join(repo.dir, `.opencode-${written.length}`);
    await using daemon = await startDaemon(repo.dir, {
      argv: [
        ...await rt.argv(),
        DAEMON,
        "--dir",
        repo.dir,
        "--port",
        "0",
        "--no-watch",
        "--opencode-config-dir",
        out,
      ],
      env: { XDG_STATE_HOME: state },
    });
    assert.match(daemon.stderr(), /\[opencode\] wrote .* \(2 tools\)/);
    written.push({
      label: rt.label,
      source: await Deno.readTextFile(join(out, "plugins", "beeuni.ts")),
      data: await Deno.readTextFile(join(out, "plugins", "beeuni.json")),
    });
  }
  for (const { label, source, data } of written.slice(1)) {
    assert.equal(source, written[0].source, `${label}'s plugin`);
    assert.equal(data, written[0].data, `${label}'s plugin data`);
  }
  assert.deepEqual(
    JSON.parse(written[0].data).tools.map((tool: { name: string }) =>
      tool.name
    ),
    ["memory", "lookup_order"],
  );
});

/**
 * A copy of this checkout's files as a fresh clone has them (tracked and
 * new files, none that git ignores: no node_modules); removed with
 * `await using`.
 */
async function checkoutCopy(): Promise<
  { dir: string; [Symbol.asyncDispose](): Promise<void> }
> {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_checkout_" });
  const listed = await git(
    REPO_ROOT,
    "ls-files",
    "-z",
    "--cached",
    "--others",
    "--exclude-standard",
  );
  for (const path of listed.split("\0")) {
    if (path === "" || !exists(join(REPO_ROOT, path))) continue;
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.copyFile(join(REPO_ROOT, path), join(dir, path));
  }
  return {
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("a checkout without node_modules: node cli.ts, node daemon.ts and bun cli.ts say that the toolkit's own packages are missing and how to install them, never blaming a tool; following that advice installs them from the lock file unchanged, and the same commands work (N1)", async () => {
  await using checkout = await checkoutCopy();
  const dir = checkout.dir;
  const [node, bun] = await Promise.all([nodeBin(NODE_22), bunBin()]);
  const env = {
    PATH: `${dirname(node)}:${Deno.env.get("PATH")}`,
    XDG_STATE_HOME: join(dir, ".state"),
  };
  const callArgs = [
    "tools",
    "call",
    "word_count",
    "--manifest",
    "examples/starter",
    "--args",
    '{"text":"a b a"}',
  ];
  const daemonArgv = [
    node,
    "daemon.ts",
    "--dir",
    "examples/starter",
    "--port",
    "0",
    "--no-opencode",
  ];
  const commands: Record<string, string[]> = {
    "node cli.ts tools call": [node, "cli.ts", ...callArgs],
    "node daemon.ts": daemonArgv,
    // Bun installs a missing package by itself when it can reach the
    // registry; offline, or told not to, it cannot.
    "bun --no-install cli.ts tools call": [
      bun,
      "--no-install",
      "cli.ts",
      ...callArgs,
    ],
  };
  // Every package of the toolkit's package.json dependencies, by name.
  const packages = Object.keys(
    JSON.parse(Deno.readTextFileSync(join(REPO_ROOT, "package.json")))
      .dependencies,
  ).sort().map((name) => `"${name}"`).join(", ");
  const advice =
    `beeuni cannot find its own packages ${packages}: run \`npm install\` in ${dir}\n`;
  for (const [label, [program, ...args]] of Object.entries(commands)) {
    const out = await runProgram(program, args, {
      cwd: dir,
      env: { ...testCacheEnv(), ...env },
      // A daemon that started anyway would not end by itself.
      signal: AbortSignal.timeout(60_000),
    });
    assert.deepEqual(
      { code: out.code, stdout: out.stdout, stderr: out.stderr },
      { code: 1, stdout: "", stderr: advice },
      label,
    );
  }

  const command = /run `([^`]+)` in (\S+)$/.exec(advice.trim())!;
  const lock = await Deno.readTextFile(join(dir, "package-lock.json"));
  const install = await runArgv(
    ["sh", "-c", `${command[1]} --no-audit --no-fund`],
    command[2],
    env,
  );
  assert.equal(install.code, 0, install.stderr);
  assert.equal(
    await Deno.readTextFile(join(dir, "package-lock.json")),
    lock,
    "npm install changed package-lock.json: it is out of sync with package.json",
  );

  for (const argv of [[node, "cli.ts"], [bun, "--no-install", "cli.ts"]]) {
    const out = await runArgv([...argv, ...callArgs], dir, env);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).words, 3);
  }
  await using daemon = await startDaemon(dir, { argv: daemonArgv, env });
  const counted = await daemon.call("word_count", {
    args: { text: "a b a" },
    sessionId: "s1",
    agent: "beeuni",
  });
  assert.equal(JSON.parse(String(counted.body.output)).words, 3);
});
