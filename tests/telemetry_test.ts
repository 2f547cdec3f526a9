// OpenTelemetry export (K2): a real daemon, `beeuni mcp` and the metric
// bridge send OTLP/HTTP (protobuf or JSON) to a local receiver, which
// checks the spans' names, attributes and parents, the continued caller
// trace, and the metrics.

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  mcpDaemon,
  RawMcp,
  statelessPost,
  StdioServer,
  tempProject,
} from "./_mcp.ts";
import { DAEMON, startDaemon, waitFor } from "./_daemon.ts";
import { beeuni, isolatedState, tempRepo } from "./_helpers.ts";
import { startModelServer } from "./_model_servers.ts";
import {
  CALLER_SPAN,
  CALLER_TRACE,
  type Json,
  otelEnv,
  plainAttributes,
  Receiver,
  TRACEPARENT,
} from "./_otlp.ts";
import { type MetricFamily, startOtlpExport } from "../lib/telemetry/mod.ts";

/** An argument no span may hold. */
const SECRET_ARG = "argument-text-never-in-a-span";

Deno.test("a daemon with OTEL_EXPORTER_OTLP_ENDPOINT exports a span per call with its attributes, children for the wait, a runner start and the run, continues the caller's traceparent, and sends its metrics (K2)", async () => {
  await using receiver = new Receiver();
  await using daemon = await mcpDaemon({ env: otelEnv(receiver) });

  // REST, with the caller's trace context.
  const rest = await daemon.call("echo", {
    args: { text: SECRET_ARG },
    sessionId: "s-rest",
    agent: "beeuni",
  }, { headers: { traceparent: TRACEPARENT, tracestate: "vendor=x" } });
  assert.equal(rest.status, 200);
  const call = await receiver.span(
    "tools/call echo",
    (s) => s.attributes["beeuni.session.id"] === "s-rest",
  );
  assert.equal(call.traceId, CALLER_TRACE);
  assert.equal(call.parentSpanId, CALLER_SPAN);
  assert.equal(call.kind, 2, "a served call is a SERVER span");
  assert.deepEqual(call.attributes, {
    "gen_ai.operation.name": "execute_tool",
    "gen_ai.tool.name": "echo",
    "beeuni.agent": "beeuni",
    "beeuni.session.id": "s-rest",
    "beeuni.transport": "http",
    "beeuni.outcome": "ok",
    "beeuni.output.bytes": SECRET_ARG.length,
    "beeuni.output.truncated": false,
  });
  assert.equal(call.resource["service.name"], "beeuni-under-test");
  assert.equal(call.resource["deployment.environment.name"], "test");
  // The first call of a tool waited for its runner to start.
  const children = receiver.children(call);
  assert.deepEqual(Object.keys(children).sort(), [
    "queue",
    "run echo",
    "runner start",
  ]);
  const ns = (value: string) => BigInt(value);
  for (const child of Object.values(children)) {
    assert.ok(ns(child.startTimeUnixNano) >= ns(call.startTimeUnixNano));
    assert.ok(ns(child.endTimeUnixNano) <= ns(call.endTimeUnixNano));
  }
  assert.equal(
    children["queue"].endTimeUnixNano,
    children["run echo"].startTimeUnixNano,
  );

  // Without a traceparent, or with a malformed one, the call is a root.
  for (
    const [session, headers] of [
      ["s-none", {}],
      ["s-bad", { traceparent: `00-${"0".repeat(32)}-${CALLER_SPAN}-01` }],
      ["s-upper", { traceparent: TRACEPARENT.toUpperCase() }],
    ] as const
  ) {
    const answer = await daemon.call("echo", {
      args: { text: "x" },
      sessionId: session,
      agent: "beeuni",
    }, { headers });
    assert.equal(answer.status, 200, session);
    const root = await receiver.span(
      "tools/call echo",
      (s) => s.attributes["beeuni.session.id"] === session,
    );
    assert.equal(root.parentSpanId, undefined, session);
    assert.notEqual(root.traceId, CALLER_TRACE, session);
    // The runner was ready: no runner start this time.
    assert.deepEqual(
      Object.keys(receiver.children(root)).sort(),
      ["queue", "run echo"],
      session,
    );
  }

  // A failed call: error status, its kind and not its message.
  await daemon.call("fails", {
    args: {},
    sessionId: "s-fail",
    agent: "beeuni",
  });
  const failed = await receiver.span("tools/call fails");
  assert.equal(failed.status.code, 2);
  assert.equal(failed.attributes["beeuni.outcome"], "error");
  assert.equal(failed.attributes["error.type"], "error");

  // MCP, the session era: params._meta.traceparent.
  const mcp = new RawMcp(`${daemon.url}/mcp`, daemon.token);
  await mcp.initialize("2025-11-25");
  const traced = await mcp.request("tools/call", {
    name: "echo",
    arguments: { text: "over mcp" },
    _meta: { traceparent: `00-${"1".repeat(32)}-${"2".repeat(16)}-01` },
  });
  assert.equal(traced.result.content[0].text, "over mcp");
  const overMcp = await receiver.span(
    "tools/call echo",
    (s) => s.attributes["beeuni.transport"] === "mcp",
  );
  assert.equal(overMcp.traceId, "1".repeat(32));
  assert.equal(overMcp.parentSpanId, "2".repeat(16));
  assert.equal(overMcp.attributes["mcp.method.name"], "tools/call");

  // MCP, the stateless 2026-07-28 revision.
  const modern = await statelessPost(
    `${daemon.url}/mcp`,
    daemon.token,
    7,
    "tools/call",
    {
      name: "echo",
      arguments: { text: "stateless" },
      _meta: { traceparent: `00-${"3".repeat(32)}-${"4".repeat(16)}-01` },
    },
  );
  assert.equal(modern.status, 200, await modern.clone().text());
  await modern.body?.cancel();
  const stateless = await receiver.span(
    "tools/call echo",
    (s) => s.traceId === "3".repeat(32),
  );
  assert.equal(stateless.parentSpanId, "4".repeat(16));

  // A reload: its own root span, naming the tools imported anew.
  const echo = join(daemon.dir, "tools/echo.ts");
  await Deno.writeTextFile(
    echo,
    (await Deno.readTextFile(echo)).replace("Echo the text back", "Echo it"),
  );
  const reload = await receiver.span("reload");
  assert.equal(reload.parentSpanId, undefined);
  assert.equal(reload.attributes["beeuni.reload.ok"], true);
  assert.equal(reload.attributes["beeuni.reload.changed"], true);
  assert.deepEqual(reload.attributes["beeuni.reload.tools"], ["echo"]);

  // A caller that asked for no trace (sampled flag off) gets none.
  const unsampled = await daemon.call("echo", {
    args: { text: "x" },
    sessionId: "s-unsampled",
    agent: "beeuni",
  }, { headers: { traceparent: `00-${"5".repeat(32)}-${"6".repeat(16)}-00` } });
  assert.equal(unsampled.status, 200);

  assert.equal(await daemon.stop(), 0);
  assert.ok(
    !receiver.spans().some((s) =>
      s.attributes["beeuni.session.id"] === "s-unsampled"
    ),
  );
  // The daemon's metrics went too, the last of them as it stopped.
  const counted = receiver.metricsByName()["beeuni_calls_total"];
  assert.ok(counted, Object.keys(receiver.metricsByName()).join(", "));
  const series = counted.sum.dataPoints.map((point: Json) => ({
    ...plainAttributes(point.attributes),
    value: point.asDouble,
  }));
  assert.ok(
    series.some((point: Record<string, unknown>) =>
      point.tool === "echo" && point.agent === "beeuni" &&
      point.transport === "http" && point.outcome === "ok" &&
      (point.value as number) >= 5
    ),
    JSON.stringify(series),
  );
  // Never an argument or an output.
  assert.ok(!JSON.stringify(receiver.traces).includes(SECRET_ARG));
  assert.ok(!JSON.stringify(receiver.traces).includes(daemon.token));
  assert.deepEqual([...receiver.contentTypes], ["application/json"]);
  assert.deepEqual([...receiver.keys], ["k1"]);
});

Deno.test("beeuni mcp over stdio sends its spans when it exits, however long the batch delay (K2)", async () => {
  await using receiver = new Receiver();
  await using project = await tempProject();
  const server = new StdioServer(project.dir, ["--no-watch"], {
    ...otelEnv(receiver),
    // Only the flush at exit can send them in time.
    OTEL_BSP_SCHEDULE_DELAY: "600000",
  });
  await server.initialize();
  await server.send({
    jsonrpc: "2.0",
    id: 2,
    method: "tools/call",
    params: {
      name: "echo",
      arguments: { text: "stdio" },
      _meta: { traceparent: TRACEPARENT },
    },
  });
  await server.response(2);
  assert.equal(receiver.traces.length, 0);
  assert.equal(await server.end(), 0);
  const call = await receiver.span("tools/call echo");
  assert.equal(call.traceId, CALLER_TRACE);
  assert.equal(call.parentSpanId, CALLER_SPAN);
  assert.equal(call.attributes["beeuni.transport"], "mcp");
  assert.equal(call.attributes["beeuni.agent"], "beeuni");
});

Deno.test("an unreachable collector fails no call, is said in one line at most, and does not hold the daemon's stop (K2)", async () => {
  // A port that was just free: nothing listens there.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  await using daemon = await mcpDaemon({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_BSP_SCHEDULE_DELAY: "10",
    },
  });
  for (let i = 0; i < 5; i++) {
    const answer = await daemon.call("echo", {
      args: { text: `call ${i}` },
      sessionId: `s${i}`,
      agent: "beeuni",
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.output, `call ${i}`);
  }
  await waitFor(
    "the line about the collector",
    () => daemon.stderr().includes("[telemetry] cannot export to"),
  );
  await daemon.call("echo", {
    args: { text: "late" },
    sessionId: "s",
    agent: "beeuni",
  });
  assert.equal(await daemon.stop(), 0);
  const lines = daemon.stderr().split("\n").filter((l) =>
    l.includes("[telemetry]")
  );
  assert.equal(lines.length, 1, lines.join("\n"));
  assert.match(
    lines[0],
    new RegExp(
      `^\\[telemetry\\] cannot export to http://127\\.0\\.0\\.1:${port}/v1/traces: .+; later failures are not reported$`,
    ),
  );
});

Deno.test("the daemon's metrics go over OTLP: counters as cumulative monotonic sums, gauges, histograms with their bounds (K2)", async () => {
  await using receiver = new Receiver();
  let calls = 1;
  const families = (): MetricFamily[] => [
    {
      name: "beeuni_calls_total",
      help: "Calls, by tool, agent and outcome.",
      type: "counter",
      points: [{ labels: { tool: "echo", agent: "beeuni" }, value: calls++ }],
    },
    {
      name: "beeuni_runners",
      help: "Runner processes running.",
      type: "gauge",
      points: [{ labels: {}, value: 3 }],
    },
    {
      name: "beeuni_call_duration_seconds",
      help: "How long calls took.",
      unit: "seconds",
      type: "histogram",
      points: [{
        labels: { tool: "echo", agent: "beeuni" },
        bounds: [0.1, 1],
        counts: [2, 1, 0],
        sum: 1.25,
        count: 3,
      }],
    },
  ];
  const lines: string[] = [];
  const telemetry = await startOtlpExport({
    env: { ...otelEnv(receiver), OTEL_METRIC_EXPORT_INTERVAL: "100" },
    metrics: families,
    log: (line) => lines.push(line),
  });
  assert.ok(telemetry, lines.join("\n"));
  try {
    await waitFor("two metric exports", () => receiver.metrics.length >= 2);
  } finally {
    await telemetry.shutdown();
  }
  const metrics = receiver.metricsByName();
  const counter = metrics["beeuni_calls_total"];
  assert.equal(counter.description, "Calls, by tool, agent and outcome.");
  assert.equal(counter.sum.isMonotonic, true);
  assert.equal(counter.sum.aggregationTemporality, 2, "cumulative");
  const point = counter.sum.dataPoints[0];
  assert.deepEqual(plainAttributes(point.attributes), {
    tool: "echo",
    agent: "beeuni",
  });
  assert.ok(point.asDouble >= 2, "read anew at each export");
  assert.equal(metrics["beeuni_runners"].gauge.dataPoints[0].asDouble, 3);
  const histogram = metrics["beeuni_call_duration_seconds"];
  assert.equal(histogram.unit, "seconds");
  assert.equal(histogram.histogram.aggregationTemporality, 2);
  const h = histogram.histogram.dataPoints[0];
  assert.deepEqual(h.explicitBounds, [0.1, 1]);
  assert.deepEqual(h.bucketCounts.map(Number), [2, 1, 0]);
  assert.equal(h.sum, 1.25);
  assert.equal(Number(h.count), 3);
  assert.deepEqual(lines, []);
});

/** The variables that send to `receiver` in OTLP's default encoding, protobuf. */
function protobufEnv(receiver: Receiver): Record<string, string> {
  const { OTEL_EXPORTER_OTLP_PROTOCOL: _json, ...env } = otelEnv(receiver);
  return env;
}

/** The daemon's `[telemetry]` lines. */
function telemetryLines(daemon: { stderr(): string }): string[] {
  return daemon.stderr().split("\n").filter((l) => l.includes("[telemetry]"));
}

/** One REST call of `echo` in session `session`, with the caller's `traceparent` when given. */
async function callEcho(
  daemon: Awaited<ReturnType<typeof mcpDaemon>>,
  session: string,
  traceparent?: string,
): Promise<void> {
  const answer = await daemon.call("echo", {
    args: { text: session },
    sessionId: session,
    agent: "beeuni",
  }, { headers: traceparent === undefined ? {} : { traceparent } });
  assert.equal(answer.status, 200);
  assert.equal(answer.body.output, session);
}

Deno.test("without OTEL_EXPORTER_OTLP_PROTOCOL a daemon exports spans and metrics as OTLP protobuf, the OTel default, and continues the caller's trace (K2)", async () => {
  await using receiver = new Receiver();
  await using daemon = await mcpDaemon({ env: protobufEnv(receiver) });
  await callEcho(daemon, "s-proto", TRACEPARENT);
  const call = await receiver.span("tools/call echo");
  assert.equal(call.traceId, CALLER_TRACE);
  assert.equal(call.parentSpanId, CALLER_SPAN);
  assert.equal(call.kind, 2, "a served call is a SERVER span");
  assert.equal(call.attributes["beeuni.session.id"], "s-proto");
  assert.equal(call.attributes["beeuni.output.bytes"], "s-proto".length);
  assert.equal(call.resource["service.name"], "beeuni-under-test");
  assert.deepEqual(Object.keys(receiver.children(call)).sort(), [
    "queue",
    "run echo",
    "runner start",
  ]);
  assert.equal(await daemon.stop(), 0);
  const counted = receiver.metricsByName()["beeuni_calls_total"];
  assert.ok(counted, Object.keys(receiver.metricsByName()).join(", "));
  assert.ok(
    counted.sum.dataPoints.some((point: Json) =>
      plainAttributes(point.attributes).tool === "echo" &&
      point.asDouble === 1
    ),
    JSON.stringify(counted),
  );
  assert.deepEqual(receiver.contentTypeOf, {
    "/v1/traces": new Set(["application/x-protobuf"]),
    "/v1/metrics": new Set(["application/x-protobuf"]),
  });
  assert.deepEqual(telemetryLines(daemon), []);
});

Deno.test("OTEL_EXPORTER_OTLP_PROTOCOL=grpc exports nothing and says so in one line naming the protocols to use, while calls still answer (K2)", async () => {
  await using receiver = new Receiver();
  await using daemon = await mcpDaemon({
    env: { ...otelEnv(receiver), OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" },
  });
  await callEcho(daemon, "s-grpc", TRACEPARENT);
  await callEcho(daemon, "s-grpc-2");
  assert.equal(await daemon.stop(), 0);
  assert.deepEqual(telemetryLines(daemon), [
    '[telemetry] not exporting traces or metrics: OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported: use http/protobuf or http/json',
  ]);
  assert.equal(receiver.traces.length + receiver.metrics.length, 0);
});

Deno.test("a signal's own protocol variable wins over OTEL_EXPORTER_OTLP_PROTOCOL, and a protocol that is not OTLP's stops that signal only, in one line (K2)", async () => {
  const families = (): MetricFamily[] => [{
    name: "beeuni_runners",
    help: "Runner processes running.",
    type: "gauge",
    points: [{ labels: {}, value: 2 }],
  }];
  const cases: {
    env: Record<string, string>;
    sent?: string;
    lines: string[];
  }[] = [
    {
      env: {
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/protobuf",
      },
      sent: "application/x-protobuf",
      lines: [],
    },
    {
      env: {
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
        OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "HTTP/JSON",
      },
      sent: "application/json",
      lines: [],
    },
    {
      env: { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" },
      sent: "application/x-protobuf",
      lines: [
        '[telemetry] not exporting traces: OTEL_EXPORTER_OTLP_TRACES_PROTOCOL "grpc" is not supported: use http/protobuf or http/json',
      ],
    },
    {
      env: { OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: "http/xml" },
      lines: [
        '[telemetry] not exporting metrics: OTEL_EXPORTER_OTLP_METRICS_PROTOCOL "http/xml" is not an OTLP protocol: use http/protobuf or http/json',
      ],
    },
  ];
  for (const { env, sent, lines: expected } of cases) {
    const label = JSON.stringify(env);
    await using receiver = new Receiver();
    const lines: string[] = [];
    const { OTEL_EXPORTER_OTLP_PROTOCOL: _json, ...base } = otelEnv(receiver);
    const telemetry = await startOtlpExport({
      env: { ...base, OTEL_METRIC_EXPORT_INTERVAL: "50", ...env },
      metrics: families,
      log: (line) => lines.push(line),
    });
    assert.deepEqual(lines, expected, label);
    if (sent === undefined) {
      // Traces would still go; metrics, never, not even at the end.
      await telemetry?.shutdown();
      assert.equal(receiver.metrics.length, 0, label);
      continue;
    }
    assert.ok(telemetry, label);
    try {
      await waitFor("a metric export", () => receiver.metrics.length > 0);
    } finally {
      await telemetry.shutdown();
    }
    assert.deepEqual(
      receiver.contentTypeOf["/v1/metrics"],
      new Set([sent]),
      label,
    );
    assert.equal(
      receiver.metricsByName()["beeuni_runners"].gauge.dataPoints[0].asDouble,
      2,
      label,
    );
  }
});

Deno.test("OTEL_TRACES_SAMPLER picks the standard sampler: always_off sends no span while calls answer and metrics go, always_on traces an unsampled caller, parentbased_always_off follows a sampled caller only (K2)", async () => {
  const sampled = `00-${"7".repeat(32)}-${"8".repeat(16)}-01`;
  const unsampled = `00-${"9".repeat(32)}-${"a".repeat(16)}-00`;
  const cases: {
    sampler: string;
    calls: [session: string, traceparent?: string][];
    traced: string[];
  }[] = [
    {
      sampler: "always_off",
      calls: [["s-root"], ["s-sampled", sampled]],
      traced: [],
    },
    {
      sampler: "always_on",
      calls: [["s-root"], ["s-unsampled", unsampled]],
      traced: ["s-root", "s-unsampled"],
    },
    {
      sampler: "parentbased_always_off",
      calls: [["s-root"], ["s-sampled", sampled], ["s-unsampled", unsampled]],
      traced: ["s-sampled"],
    },
  ];
  for (const { sampler, calls, traced } of cases) {
    await using receiver = new Receiver();
    await using daemon = await mcpDaemon({
      env: { ...protobufEnv(receiver), OTEL_TRACES_SAMPLER: sampler },
    });
    for (const [session, traceparent] of calls) {
      await callEcho(daemon, session, traceparent);
    }
    assert.equal(await daemon.stop(), 0, sampler);
    const calledSpans = receiver.spans().filter((s) =>
      s.name === "tools/call echo"
    );
    assert.deepEqual(
      calledSpans.map((s) => s.attributes["beeuni.session.id"]).sort(),
      traced,
      sampler,
    );
    // The call's children follow it.
    assert.equal(
      receiver.spans().length,
      calledSpans.reduce(
        (n, s) => n + 1 + Object.keys(receiver.children(s)).length,
        0,
      ),
      sampler,
    );
    if (sampler === "parentbased_always_off") {
      assert.equal(calledSpans[0].parentSpanId, "8".repeat(16));
    }
    assert.ok(receiver.metricsByName()["beeuni_calls_total"], sampler);
    assert.deepEqual(telemetryLines(daemon), [], sampler);
  }
});

Deno.test("an OTEL_TRACES_SAMPLER or OTEL_TRACES_SAMPLER_ARG that cannot be used is said in one line naming the values to use, and spans still go (K2)", async () => {
  await using receiver = new Receiver();
  await using daemon = await mcpDaemon({
    env: {
      ...protobufEnv(receiver),
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "half",
    },
  });
  await callEcho(daemon, "s-ratio");
  await receiver.span("tools/call echo");
  assert.equal(await daemon.stop(), 0);
  assert.deepEqual(telemetryLines(daemon), [
    '[telemetry] OTEL_TRACES_SAMPLER_ARG "half" is not a ratio, sampling every trace: use a number from 0 to 1',
  ]);
  const lines: string[] = [];
  const telemetry = await startOtlpExport({
    env: { ...protobufEnv(receiver), OTEL_TRACES_SAMPLER: "jaeger_remote" },
    host: { subscribe: () => () => {} },
    log: (line) => lines.push(line),
  });
  await telemetry?.shutdown();
  assert.deepEqual(lines, [
    '[telemetry] OTEL_TRACES_SAMPLER "jaeger_remote" is not supported, sampling as parentbased_always_on: use one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio',
  ]);
});

Deno.test("without an OTLP endpoint, or with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, nothing is exported (K2)", async () => {
  await using receiver = new Receiver();
  const cases: Record<string, string>[] = [
    {},
    { ...otelEnv(receiver), OTEL_SDK_DISABLED: "true" },
    { ...otelEnv(receiver), OTEL_TRACES_EXPORTER: "none" },
  ];
  for (const env of cases) {
    await using daemon = await mcpDaemon({ env });
    const answer = await daemon.call("echo", {
      args: { text: "x" },
      sessionId: "s",
      agent: "beeuni",
    });
    assert.equal(answer.status, 200);
    assert.equal(await daemon.stop(), 0);
    assert.ok(!daemon.stderr().includes("[telemetry]"), daemon.stderr());
  }
  assert.equal(receiver.traces.length, 0);
});

/**
 * The URLs of every script the daemon `daemon` has compiled, read through
 * the V8 inspector it was started under: enabling the debugger reports
 * each script already parsed.
 */
async function compiledScripts(
  daemon: { stderr(): string },
): Promise<string[]> {
  const address = /ws:\/\/\S+/.exec(daemon.stderr())?.[0];
  assert.ok(address, `no inspector address in: ${daemon.stderr()}`);
  const ws = new WebSocket(address);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`cannot reach ${address}`));
  });
  const urls: string[] = [];
  await new Promise<void>((resolve) => {
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.method === "Debugger.scriptParsed") {
        urls.push(message.params.url);
      } else if (message.id === 1) resolve();
    };
    ws.send(JSON.stringify({ id: 1, method: "Debugger.enable", params: {} }));
  });
  ws.close();
  return urls;
}

Deno.test("without the OTEL variables a daemon compiles no OpenTelemetry module, with them it does: the SDK loads only when asked for (K2)", async () => {
  await using receiver = new Receiver();
  await using project = await tempProject();
  const loaded: Record<string, number> = {};
  for (
    const [label, env] of [
      ["without", {}],
      ["with", otelEnv(receiver)],
    ] as const
  ) {
    await using daemon = await startDaemon(project.dir, {
      env,
      // `--quiet` would hide the inspector's address.
      argv: [
        Deno.execPath(),
        "run",
        "--inspect=127.0.0.1:0",
        "-A",
        DAEMON,
        "--dir",
        project.dir,
        "--port",
        "0",
        "--no-opencode",
        "--no-watch",
      ],
    });
    const answer = await daemon.call("echo", {
      args: { text: "x" },
      sessionId: "s",
      agent: "beeuni",
    });
    assert.equal(answer.status, 200);
    const scripts = await compiledScripts(daemon);
    assert.ok(
      scripts.some((url) => url.endsWith("/lib/telemetry/mod.ts")),
      `${label}: the inspector saw the daemon's own modules`,
    );
    loaded[label] = scripts.filter((url) =>
      url.includes("@opentelemetry")
    ).length;
  }
  assert.equal(loaded.without, 0);
  assert.ok(loaded.with > 0, "the same check sees the SDK once it loads");
});

Deno.test("an experimental session (beeuni sessions new) sends its calls' spans by its end, as session calls of its agent (K2)", async () => {
  await using receiver = new Receiver();
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  weather_now: tools/weather_now.ts\n",
    "tools/weather_now.ts": `export default {
  description: "The weather now in a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  execute: (args) => "Sunny in " + args.city,
};
`,
  });
  await using state = await isolatedState();
  const model = startModelServer("openai-chat", [
    { calls: [{ name: "weather_now", args: { city: "Berlin" } }] },
    { text: "Sunny." },
  ]);
  try {
    const out = await beeuni(repo.dir, [
      "sessions",
      "new",
      "--wait",
      "--model",
      "openai-compatible/local-test",
      "--prompt",
      "The weather in Berlin?",
    ], {
      env: {
        ...state.env,
        OPENAI_COMPATIBLE_BASE_URL: model.baseUrl,
        ...otelEnv(receiver),
        // Only the flush at the session's end can send them in time.
        OTEL_BSP_SCHEDULE_DELAY: "600000",
      },
    });
    assert.equal(out.code, 0, out.stderr);
    const id = /^session (\S+)$/m.exec(out.stdout)![1];
    // Sent before the command returned: no waiting here.
    const call = receiver.spans().find((s) =>
      s.name === "tools/call weather_now"
    );
    assert.ok(call, JSON.stringify(receiver.spans().map((s) => s.name)));
    assert.equal(call.attributes["beeuni.transport"], "session");
    assert.equal(call.attributes["beeuni.session.id"], id);
    assert.equal(call.attributes["beeuni.outcome"], "ok");
    assert.equal(call.kind, 1, "a session's call is an INTERNAL span");
    assert.ok(!JSON.stringify(receiver.traces).includes("Berlin"));
  } finally {
    await model.close();
  }
});
