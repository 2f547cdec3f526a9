// GET /metrics on a real daemon: Prometheus' text format (0.0.4), read
// back with a parser for that format from npm, after real calls (ok,
// error, timeout, unknown tool) and reloads (K2).

import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join } from "node:path";
import { beeuni, isolatedState, tempRepo } from "./_helpers.ts";
import { startDaemon, type TestDaemon, waitFor } from "./_daemon.ts";
import { npmPackage } from "./_npm_cache.ts";

const PARSER = "prom2javascript";
const PARSER_VERSION = "0.2.0";

interface Sample {
  labels: Record<string, string>;
  value?: number;
  buckets?: Record<string, number>;
  count?: number;
  sum?: number;
}
type Parsed = Record<string, { type: string; data: Sample[] }>;

/** The daemon's metrics, parsed by the npm parser. */
async function scrape(daemon: TestDaemon): Promise<Parsed> {
  const modules = await npmPackage(PARSER, PARSER_VERSION);
  const { getMetricsFromIterator } = createRequire(import.meta.url)(
    join(modules, PARSER),
  );
  const response = await daemon.fetch("/metrics");
  assert.equal(response.status, 200);
  assert.equal(
    response.headers.get("content-type"),
    "text/plain; version=0.0.4; charset=utf-8",
  );
  const text = await response.text();
  return await getMetricsFromIterator(text.split("\n")[Symbol.iterator]());
}

function series(
  parsed: Parsed,
  name: string,
  labels: Record<string, string>,
): Sample | undefined {
  return parsed[name]?.data.find((sample) =>
    Object.entries(labels).every(([key, value]) => sample.labels[key] === value)
  );
}

const TOOLS = {
  "tools/echo.ts": `export default {
  description: "Echo the text",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args) => "echo:" + args.text,
};
`,
  "tools/fail.ts": `export default {
  description: "Always fails",
  parameters: { type: "object" },
  execute: () => { throw new Error("it broke"); },
};
`,
  "tools/slow.ts": `export default {
  description: "Waits a minute",
  parameters: { type: "object" },
  execute: () => new Promise((resolve) => setTimeout(() => resolve("late"), 60_000)),
};
`,
};
const MANIFEST =
  "tools:\n  echo: tools/echo.ts\n  fail: tools/fail.ts\n  slow: tools/slow.ts\nagents:\n  build: {}\n";

Deno.test("GET /metrics serves Prometheus text that a parser reads back with the calls' counts, errors, timeouts, durations, reloads, runners and memory (K2)", async () => {
  await using repo = await tempRepo({ ...TOOLS, "beeuni.yaml": MANIFEST });
  await using daemon = await startDaemon(repo.dir, {
    args: ["--timeout-ms", "1500", "--no-opencode"],
  });
  // What the test sent as agent "build" to echo: calls and output bytes.
  let echoCalls = 0;
  let echoBytes = 0;
  const call = async (name: string, agent = "build") => {
    const answer = await daemon.call(name, {
      args: { text: "hi" },
      sessionId: "s1",
      agent,
    });
    if (name === "echo" && agent === "build") {
      echoCalls++;
      echoBytes += String(answer.body.output).length;
    }
    return answer;
  };

  assert.equal((await call("echo")).status, 200);
  assert.equal((await call("echo")).status, 200);
  assert.equal((await call("fail")).body.error !== undefined, true);
  const slow = await call("slow");
  assert.match(String(slow.body.error), /did not finish within 1500 ms/);
  // An agent name with a quote, a backslash and a line feed: escaped.
  assert.equal((await call("echo", 'od"d\\\nname')).status, 200);

  // A reload that works, then one refused (a manifest with an error).
  await Deno.writeTextFile(
    join(repo.dir, "tools/echo.ts"),
    TOOLS["tools/echo.ts"].replace("echo:", "echo2:"),
  );
  await waitFor(
    "the reload",
    async () => (await call("echo")).body.output === "echo2:hi",
  );
  await Deno.writeTextFile(
    join(repo.dir, "beeuni.yaml"),
    MANIFEST + "  build: {}\n  oops: [\n",
  );
  await waitFor(
    "the refused reload",
    () => /reload refused|not reloaded/.test(daemon.stderr()),
  );

  const parsed = await scrape(daemon);
  const calls = (labels: Record<string, string>) =>
    series(parsed, "beeuni_calls_total", labels)?.value;
  assert.equal(parsed.beeuni_calls_total.type, "counter");
  assert.equal(
    calls({ tool: "echo", agent: "build", transport: "http", outcome: "ok" }),
    echoCalls,
  );
  assert.equal(calls({ tool: "fail", outcome: "error" }), 1);
  assert.equal(calls({ tool: "slow", outcome: "timeout" }), 1);
  assert.equal(calls({ tool: "echo", agent: 'od"d\\\nname' }), 1);
  assert.equal(
    series(parsed, "beeuni_call_errors_total", { tool: "fail" })?.value,
    1,
  );
  assert.equal(
    series(parsed, "beeuni_call_errors_total", { tool: "slow" })?.value,
    1,
  );
  assert.equal(
    series(parsed, "beeuni_call_errors_total", { tool: "echo" }),
    undefined,
  );
  assert.equal(
    series(parsed, "beeuni_call_timeouts_total", { tool: "slow" })?.value,
    1,
  );

  const duration = parsed.beeuni_call_duration_seconds;
  assert.equal(duration.type, "histogram");
  const echo = series(parsed, "beeuni_call_duration_seconds", {
    tool: "echo",
    agent: "build",
  })!;
  assert.ok(echoCalls >= 3);
  assert.equal(echo.count, echoCalls);
  assert.equal(echo.buckets!["+Inf"], echoCalls);
  assert.equal(echo.buckets!["0.005"] <= echo.buckets!["300"], true);
  const slowDuration = series(parsed, "beeuni_call_duration_seconds", {
    tool: "slow",
  })!;
  assert.equal(slowDuration.count, 1);
  assert.ok(slowDuration.sum! >= 1.4, `slow took ${slowDuration.sum} s`);
  assert.equal(slowDuration.buckets!["1"], 0);
  assert.equal(slowDuration.buckets!["2.5"], 1);
  assert.equal(
    series(parsed, "beeuni_call_output_bytes_total", {
      tool: "echo",
      agent: "build",
    })?.value,
    echoBytes,
  );

  assert.equal(
    series(parsed, "beeuni_reloads_total", { outcome: "ok" })?.value! >= 1,
    true,
  );
  assert.equal(
    series(parsed, "beeuni_reloads_total", { outcome: "failed" })?.value! >= 1,
    true,
  );
  assert.equal(parsed.beeuni_runners.type, "gauge");
  assert.ok(parsed.beeuni_runners.data[0].value! >= 1);
  assert.equal(parsed.beeuni_calls_running.data[0].value, 0);
  const rss = parsed.beeuni_process_resident_memory_bytes.data[0].value!;
  assert.ok(rss > 10 * 1024 * 1024 && rss < 4 * 1024 * 1024 * 1024, `${rss}`);
  assert.ok(parsed.beeuni_process_heap_used_bytes.data[0].value! > 0);
});

Deno.test("calls for unknown tools and undeclared agents do not grow the metrics without bound: one (unknown) tool, at most 32 other agents, then (other) (K2)", async () => {
  await using repo = await tempRepo({ ...TOOLS, "beeuni.yaml": MANIFEST });
  await using daemon = await startDaemon(repo.dir, {
    args: ["--no-opencode", "--no-watch"],
  });
  for (let i = 0; i < 40; i++) {
    const { status } = await daemon.call(`no-such-tool-${i}`, {
      args: {},
      sessionId: "s",
      agent: `agent-${i}`,
    });
    assert.equal(status, 404);
  }
  const parsed = await scrape(daemon);
  const data = parsed.beeuni_calls_total.data;
  assert.deepEqual([...new Set(data.map((s) => s.labels.tool))], ["(unknown)"]);
  assert.equal(data.reduce((sum, s) => sum + s.value!, 0), 40);
  const agents = new Set(data.map((s) => s.labels.agent));
  assert.equal(agents.size, 33);
  assert.ok(agents.has("(other)"));
  assert.equal(
    series(parsed, "beeuni_calls_total", { agent: "(other)" })?.value,
    8,
  );
  assert.equal(data.every((s) => s.labels.outcome === "not_found"), true);
});

Deno.test("GET /metrics without the daemon's token gets 401, with an agent token 403, and another method 405 (K1, K2)", async () => {
  await using state = await isolatedState();
  await using repo = await tempRepo({ ...TOOLS, "beeuni.yaml": MANIFEST });
  const made = await beeuni(repo.dir, ["tokens", "new", "--agent", "build"], {
    env: state.env,
  });
  assert.equal(made.code, 0, made.stderr);
  const agentToken = made.stdout.trim();
  await using daemon = await startDaemon(repo.dir, {
    args: ["--no-opencode", "--no-watch"],
    env: state.env,
  });
  const refused = await daemon.fetch("/metrics", {
    headers: { authorization: `Bearer ${agentToken}` },
  });
  assert.equal(refused.status, 403);
  assert.match(
    (await refused.json()).error,
    /an agent token cannot read the metrics: use the daemon's own token/,
  );
  // The same token does call its agent's tools.
  const call = await daemon.fetch("/beeuni/tools/echo", {
    method: "POST",
    headers: { authorization: `Bearer ${agentToken}` },
    body: JSON.stringify({ args: { text: "x" }, sessionId: "s" }),
  });
  assert.equal(call.status, 200);
  await call.body?.cancel();
  const none = await fetch(`${daemon.url}/metrics`);
  assert.equal(none.status, 401);
  assert.doesNotMatch(await none.text(), /beeuni_calls_total/);
  const wrong = await daemon.fetch("/metrics", {
    headers: { authorization: "Bearer not-the-token-at-all-0123456789" },
  });
  assert.equal(wrong.status, 401);
  await wrong.body?.cancel();
  const post = await daemon.fetch("/metrics", { method: "POST" });
  assert.equal(post.status, 405);
  await post.body?.cancel();
});
