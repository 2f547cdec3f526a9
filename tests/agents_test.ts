import assert from "node:assert/strict";
import { beeuni, runProgram, tempDir, tempRepo } from "./_helpers.ts";
import { startDaemon } from "./_daemon.ts";
import { mcpCommand, RawMcp, type Rpc } from "./_mcp.ts";
import { setSecret } from "../lib/secrets/mod.ts";
import {
  type AgentEntry,
  agentMaySee,
  agentTools,
  type AgentToolsSpec,
  type Harness,
  mayDelegate,
  type SourcePos,
} from "../lib/manifest/mod.ts";

const POS: SourcePos = { file: "beeuni.yaml", line: 1, col: 1 };

function agent(name: string, tools: AgentToolsSpec): AgentEntry {
  return { name, pos: POS, tools, secrets: [], raw: {} };
}

function list(...names: string[]): AgentToolsSpec {
  return { kind: "list", names: names.map((name) => ({ name, pos: POS })) };
}

function exclude(...names: string[]): AgentToolsSpec {
  return { kind: "exclude", names: names.map((name) => ({ name, pos: POS })) };
}

function map(entries: Record<string, boolean>): AgentToolsSpec {
  return {
    kind: "map",
    entries: Object.entries(entries).map(([name, enabled]) => ({
      name,
      enabled,
      pos: POS,
    })),
  };
}

const UNIVERSE = [
  "web_search",
  "memory",
  "show",
  "lookup_order",
  "bash",
  "pty_spawn",
  "pty_read",
  "read",
  "grep",
  "write",
  "edit",
  "apply_patch",
  "task",
];

/** The tools of {@linkcode UNIVERSE} that agent "a" with `tools` sees. */
function toolsOf(tools: AgentToolsSpec, harness: Harness): string[] {
  return agentTools({ tools: UNIVERSE, agent: agent("a", tools), harness });
}

Deno.test("agentTools() gives an undefined agent every tool (section 5 default)", () => {
  assert.deepEqual(
    agentTools({ tools: UNIVERSE, harness: "experimental" }),
    UNIVERSE,
  );
});

Deno.test("agentTools() gives `tools: all` every tool and `none` no tool (section 5)", () => {
  assert.deepEqual(toolsOf({ kind: "all" }, "standard"), UNIVERSE);
  assert.deepEqual(toolsOf({ kind: "none" }, "standard"), []);
});

Deno.test("agentTools() shows only a list's tools, in the universe's order (A2)", () => {
  const researcher = agent(
    "researcher",
    list("lookup_order", "read", "grep", "web_search"),
  );
  assert.deepEqual(
    agentTools({ tools: UNIVERSE, agent: researcher, harness: "experimental" }),
    ["web_search", "lookup_order", "read", "grep"],
  );
  assert.equal(
    agentMaySee("memory", { agent: researcher, harness: "experimental" }),
    false,
  );
  assert.equal(
    agentMaySee("web_search", { agent: researcher, harness: "experimental" }),
    true,
  );
});

Deno.test("agentTools() treats a list containing `*` as all (section 5)", () => {
  assert.deepEqual(toolsOf(list("read", "*"), "experimental"), UNIVERSE);
  assert.deepEqual(toolsOf(list("read"), "experimental"), ["read"]);
});

Deno.test("agentTools() hides the tools of `{ exclude }` and keeps the rest (section 5)", () => {
  const support = agent("support", exclude("bash", "memory"));
  assert.deepEqual(
    agentTools({ tools: UNIVERSE, agent: support, harness: "experimental" }),
    UNIVERSE.filter((name) => name !== "bash" && name !== "memory"),
  );
  assert.deepEqual(toolsOf(exclude("*"), "experimental"), []);
});

Deno.test("agentTools() keeps the real tool when an exclude list has a typo (V9)", () => {
  const support = agent("support", exclude("web_serach"));
  assert.deepEqual(
    agentTools({ tools: UNIVERSE, agent: support, harness: "standard" }),
    UNIVERSE,
  );
});

Deno.test("agentTools() reads the legacy map: false hides, true changes nothing (section 5)", () => {
  const legacy = agent("legacy", map({ show: false, memory: true }));
  assert.deepEqual(
    agentTools({ tools: UNIVERSE, agent: legacy, harness: "experimental" }),
    UNIVERSE.filter((name) => name !== "show"),
  );
  assert.deepEqual(toolsOf(map({ show: true }), "experimental"), UNIVERSE);
});

Deno.test("agentTools() cannot add a Beeuni tool the project does not load (A3)", () => {
  const a = agent("a", list("image_search", "web_search"));
  assert.deepEqual(
    agentTools({ tools: UNIVERSE, agent: a, harness: "standard" }),
    ["web_search"],
  );
});

Deno.test("agentTools() in the experimental harness gives a subagent the intersection with its parent (A4)", () => {
  const parent = agent("lead", list("web_search", "read", "task"));
  const child = agent("helper", list("web_search", "memory", "read"));
  assert.deepEqual(
    agentTools({
      tools: UNIVERSE,
      agent: child,
      parent,
      harness: "experimental",
    }),
    ["web_search", "read"],
  );
  // Without a parent the subagent's own list alone decides.
  assert.deepEqual(
    agentTools({ tools: UNIVERSE, agent: child, harness: "experimental" }),
    ["web_search", "memory", "read"],
  );
});

Deno.test("agentTools() in the standard harness gives a subagent its own list (A4)", () => {
  const parent = agent("lead", list("web_search", "task"));
  const child = agent("helper", list("web_search", "memory", "read"));
  assert.deepEqual(
    agentTools({ tools: UNIVERSE, agent: child, parent, harness: "standard" }),
    ["web_search", "memory", "read"],
  );
});

Deno.test("agentTools() with an all-seeing subagent under a narrow parent (A4)", () => {
  const parent = agent("lead", exclude("bash", "memory"));
  assert.deepEqual(
    agentTools({
      tools: UNIVERSE,
      agent: undefined,
      parent,
      harness: "experimental",
    }),
    UNIVERSE.filter((name) => name !== "bash" && name !== "memory"),
  );
});

Deno.test("mayDelegate() requires the task tool (A4)", () => {
  assert.equal(mayDelegate(agent("a", list("read", "task")), "standard"), true);
  assert.equal(mayDelegate(agent("a", list("read")), "experimental"), false);
  assert.equal(mayDelegate(agent("a", exclude("task")), "standard"), false);
  assert.equal(mayDelegate(agent("a", { kind: "none" }), "standard"), false);
  assert.equal(mayDelegate(undefined, "experimental"), true);
});

Deno.test("agentTools() in the standard harness lets bash cover pty_* tools (A6)", () => {
  assert.deepEqual(
    toolsOf(list("bash", "read"), "standard"),
    ["bash", "pty_spawn", "pty_read", "read"],
  );
  assert.deepEqual(
    toolsOf(exclude("bash"), "standard"),
    UNIVERSE.filter((name) => name !== "bash" && !name.startsWith("pty_")),
  );
  assert.deepEqual(
    toolsOf(map({ bash: false }), "standard"),
    UNIVERSE.filter((name) => name !== "bash" && !name.startsWith("pty_")),
  );
});

Deno.test("agentTools() lets a pty_* name speak only for itself (A6)", () => {
  assert.deepEqual(toolsOf(list("pty_spawn"), "standard"), ["pty_spawn"]);
});

Deno.test("agentTools() in the experimental harness does not couple bash and pty_* (A6)", () => {
  assert.deepEqual(toolsOf(list("bash"), "experimental"), ["bash"]);
  assert.deepEqual(
    toolsOf(exclude("bash"), "experimental"),
    UNIVERSE.filter((name) => name !== "bash"),
  );
});

Deno.test("agentTools() in the standard harness couples write, edit and apply_patch (A6)", () => {
  const withoutEdits = UNIVERSE.filter((name) =>
    !["write", "edit", "apply_patch"].includes(name)
  );
  for (const one of ["write", "edit", "apply_patch"]) {
    assert.deepEqual(
      toolsOf(list("read", one), "standard"),
      ["read", "write", "edit", "apply_patch"],
      `listing ${one}`,
    );
    assert.deepEqual(
      toolsOf(exclude(one), "standard"),
      withoutEdits,
      `excluding ${one}`,
    );
    assert.deepEqual(
      toolsOf(map({ [one]: false }), "standard"),
      withoutEdits,
      `mapping ${one} to false`,
    );
  }
});

Deno.test("agentTools() in the experimental harness keeps write and edit separate (A6)", () => {
  assert.deepEqual(toolsOf(list("write"), "experimental"), ["write"]);
  assert.deepEqual(
    toolsOf(exclude("edit"), "experimental"),
    UNIVERSE.filter((name) => name !== "edit"),
  );
});

Deno.test("agentTools() does not couple write and edit in the experimental intersection (A4, A6)", () => {
  // Experimental: no coupling, so the parent's `write` does not admit `edit`.
  const parent = agent("lead", list("write", "task"));
  const child = agent("helper", list("write", "edit"));
  assert.deepEqual(
    agentTools({
      tools: UNIVERSE,
      agent: child,
      parent,
      harness: "experimental",
    }),
    ["write"],
  );
});

Deno.test("agentTools() keeps a repeated name once", () => {
  assert.deepEqual(
    agentTools({
      tools: ["read", "read", "grep"],
      harness: "standard",
    }),
    ["read", "grep"],
  );
});

Deno.test("agentMaySee() refuses a tool outside the agent's list (A2)", () => {
  const greeter = agent("greeter", { kind: "none" });
  assert.equal(
    agentMaySee("show", { agent: greeter, harness: "standard" }),
    false,
  );
  assert.equal(agentMaySee("show", { harness: "standard" }), true);
});

Deno.test("an agent the manifest does not define sees every tool and gets no secret, the same through tools ls, tools call, HTTP, MCP over HTTP and stdio, and the web UI's API (section 5, A2, D6)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": [
      "tools:",
      "  echo: tools/echo.ts",
      "  secret: tools/secret.ts",
      "agents:",
      "  writer:",
      "    tools: [secret]",
      "    secrets: all",
      "",
    ].join("\n"),
    "tools/echo.ts": `export default {
  description: "Echoes",
  parameters: { type: "object" },
  execute: () => "echo",
};
`,
    "tools/secret.ts": `export default {
  description: "Reads API_KEY",
  parameters: { type: "object" },
  execute: (_args, context) => context.env.API_KEY ?? "(unset)",
};
`,
  });
  await using state = await tempDir("beeuni_state_");
  const env = { XDG_STATE_HOME: state.dir, TMPDIR: state.dir };
  await setSecret(repo.dir, "API_KEY", "key-of-writer", env);
  const every = ["echo", "secret"];
  const toolNames = (tools: { name: string }[]) => tools.map((t) => t.name);

  // The CLI: `beeuni` (the default agent) and "ghost" are not defined.
  const ls = await beeuni(repo.dir, [
    "tools",
    "ls",
    "--json",
    "--agent",
    "ghost",
  ]);
  assert.equal(ls.code, 0, ls.stderr);
  assert.deepEqual(toolNames(JSON.parse(ls.stdout).tools), every);
  for (const agent of [[], ["--agent", "beeuni"], ["--agent", "ghost"]]) {
    const call = await beeuni(repo.dir, ["tools", "call", "secret", ...agent], {
      env,
    });
    assert.deepEqual([call.code, call.stdout], [0, "(unset)\n"], call.stderr);
  }
  // The control: a defined agent keeps its list and its grant.
  const writer = await beeuni(
    repo.dir,
    ["tools", "call", "secret", "--agent", "writer"],
    { env },
  );
  assert.equal(writer.stdout, "key-of-writer\n", writer.stderr);
  const hidden = await beeuni(
    repo.dir,
    ["tools", "call", "echo", "--agent", "writer"],
    { env },
  );
  assert.equal(hidden.code, 1);

  // The daemon: HTTP, MCP over HTTP and the web UI's API.
  await using daemon = await startDaemon(repo.dir, { env });
  const listed = await daemon.fetch("/beeuni/tools?agent=ghost");
  assert.deepEqual(toolNames((await listed.json()).tools), every);
  const http = await daemon.call("secret", { sessionId: "s", agent: "ghost" });
  assert.deepEqual(http, { status: 200, body: { output: "(unset)" } });
  const granted = await daemon.call("secret", {
    sessionId: "s",
    agent: "writer",
  });
  assert.equal(granted.body.output, "key-of-writer");
  const mcp = new RawMcp(`${daemon.url}/mcp/ghost`, daemon.token);
  await mcp.initialize();
  assert.deepEqual(
    toolNames((await mcp.request("tools/list")).result.tools),
    every,
  );
  assert.deepEqual(
    (await mcp.request("tools/call", { name: "secret" })).result.content,
    [{ type: "text", text: "(unset)" }],
  );
  const ui = await (await daemon.fetch("/ui/api/tools?agent=ghost")).json();
  assert.deepEqual(ui.agents, ["writer"]);
  assert.deepEqual(toolNames(ui.tools), every);
  assert.deepEqual(ui.hidden, []);

  // MCP over stdio.
  const [program, ...args] = mcpCommand(repo.dir, "--agent", "ghost");
  const lines = [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "agents-test", version: "1" },
      },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", id: 2, method: "tools/list" },
    {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "secret" },
    },
  ];
  const stdio = await runProgram(program, args, {
    cwd: repo.dir,
    env: { NO_COLOR: "1", ...env },
    stdin: lines.map((line) => JSON.stringify(line) + "\n").join(""),
  });
  const answers = new Map<unknown, Rpc>(
    stdio.stdout.trim().split("\n").map((line) => {
      const message = JSON.parse(line);
      return [message.id, message];
    }),
  );
  assert.deepEqual(toolNames(answers.get(2).result.tools), every, stdio.stderr);
  assert.deepEqual(answers.get(3).result.content, [
    { type: "text", text: "(unset)" },
  ]);
});
