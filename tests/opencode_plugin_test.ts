// The generated opencode plugin, loaded as a module and driven against a
// local HTTP server on 127.0.0.1 that answers like the daemon (D2, D3).

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  manifestAgents,
  OPENCODE_AGENT_MARKER,
  opencodeConfigDir,
  opencodeDenies,
  renderOpencodeAgent,
  renderOpencodePlugin,
  writeOpencodeAgents,
  writeOpencodeConfig,
  writeOpencodePlugin,
} from "../lib/opencode/mod.ts";
import { loadProject } from "../lib/project/mod.ts";
import { parse as parseYaml } from "yaml";
import { tempRepo } from "./_helpers.ts";

const TOOLS = [
  {
    name: "lookup_order",
    description: "Look up an order by id",
    parameters: {
      type: "object",
      properties: {
        id: { type: "string", description: "The order id" },
        verbose: { type: "boolean" },
      },
      required: ["id"],
    },
  },
  {
    name: "memory",
    description: "Read and write notes \u2028 under memory/",
    parameters: {
      type: "object",
      properties: { command: { type: "string", enum: ["view", "create"] } },
    },
  },
];

interface Seen {
  path: string;
  authorization: string | null;
  body: Record<string, unknown>;
}

/** A server on 127.0.0.1 that answers like the daemon; `answer` picks the reply. */
function fakeDaemon(
  answer: (seen: Seen, request: Request) => Promise<Response> | Response,
) {
  const seen: Seen[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const entry = {
        path: new URL(request.url).pathname,
        authorization: request.headers.get("authorization"),
        body: request.headers.get("content-type") === "application/json"
          ? await request.json()
          : {},
      };
      seen.push(entry);
      return answer(entry, request);
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    seen,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

type Execute = (args: unknown, ctx: Record<string, unknown>) => Promise<string>;
interface LoadedHooks {
  tool: Record<
    string,
    { description: string; args: unknown; execute: Execute }
  >;
  "tool.definition": (
    input: { toolID: string },
    output: Record<string, unknown>,
  ) => Promise<void>;
}

let counter = 0;

async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.ok(check());
}

/** Writes the plugin into `dir` under a fresh name and loads its hooks. */
async function loadPlugin(
  dir: string,
  options: Parameters<typeof renderOpencodePlugin>[0],
): Promise<LoadedHooks> {
  const file = join(dir, `beeuni_${counter++}.ts`);
  await Deno.writeTextFile(file, renderOpencodePlugin(options));
  const module = await import(pathToFileURL(file).href);
  const plugin = module.BeeuniTools as (input: unknown) => Promise<LoadedHooks>;
  return await plugin({ directory: "/project", worktree: "/project" });
}

function context(signal = new AbortController().signal) {
  return {
    sessionID: "ses_1",
    messageID: "msg_1",
    callID: "call_1",
    agent: "build",
    directory: "/work/project",
    worktree: "/work",
    abort: signal,
    metadata() {},
    ask: () => Promise.resolve(),
  };
}

async function tempDir(): Promise<
  { dir: string; [Symbol.asyncDispose](): Promise<void> }
> {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_plugin_" });
  return {
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("the plugin registers every served tool with its exact JSON Schema through tool.definition (D3)", async () => {
  await using tmp = await tempDir();
  const hooks = await loadPlugin(tmp.dir, {
    url: "http://127.0.0.1:9",
    tokenFile: join(tmp.dir, "token"),
    tools: TOOLS,
  });
  assert.deepEqual(Object.keys(hooks.tool), ["lookup_order", "memory"]);
  assert.equal(hooks.tool.memory.description, TOOLS[1].description);
  assert.deepEqual(hooks.tool.lookup_order.args, {});
  for (const tool of TOOLS) {
    const output: Record<string, unknown> = {
      description: tool.description,
      parameters: "opencode's own",
    };
    await hooks["tool.definition"]({ toolID: tool.name }, output);
    assert.deepEqual(output.jsonSchema, tool.parameters);
    assert.equal(output.parameters, "opencode's own");
  }
  const other: Record<string, unknown> = { description: "bash", parameters: 1 };
  await hooks["tool.definition"]({ toolID: "bash" }, other);
  assert.equal("jsonSchema" in other, false);
});

Deno.test("the plugin source imports types only from @opencode-ai/plugin and holds no token (D3, D7)", () => {
  const source = renderOpencodePlugin({
    url: "http://127.0.0.1:4096/",
    tokenFile: "/state/daemon/abc.token",
    tools: TOOLS,
  });
  const imports = source.split("\n").filter((line) => /^import\b/.test(line));
  assert.deepEqual(imports, [
    'import type { Hooks, Plugin, PluginInput, ToolContext } from "@opencode-ai/plugin";',
    'import { readFile } from "node:fs/promises";',
  ]);
  assert.match(
    source,
    /const DAEMON_URL: string = "http:\/\/127\.0\.0\.1:4096";/,
  );
  assert.match(source, /"\/state\/daemon\/abc\.token"/);
  assert.equal(source.includes("\u2028"), false);
  assert.equal(
    renderOpencodePlugin({ url: "http://127.0.0.1:4096/", tools: TOOLS }),
    renderOpencodePlugin({ url: "http://127.0.0.1:4096/", tools: TOOLS }),
  );
});

Deno.test("a call is forwarded with its ids, agent, folders and the token read at call time (D2, D7)", async () => {
  await using tmp = await tempDir();
  await using daemon = fakeDaemon((seen) =>
    Response.json({ output: `order ${(seen.body.args as { id: string }).id}` })
  );
  const tokenFile = join(tmp.dir, "token");
  await Deno.writeTextFile(tokenFile, "first-token-0123456789\n");
  const hooks = await loadPlugin(tmp.dir, {
    url: daemon.url,
    tokenFile,
    tools: TOOLS,
  });
  assert.equal(
    await hooks.tool.lookup_order.execute({ id: "A-1" }, context()),
    "order A-1",
  );
  await Deno.writeTextFile(tokenFile, "second-token-0123456789\n");
  await hooks.tool.lookup_order.execute({ id: "A-2" }, context());
  assert.equal(daemon.seen[0].path, "/beeuni/tools/lookup_order");
  assert.deepEqual(daemon.seen[0].body, {
    args: { id: "A-1" },
    sessionId: "ses_1",
    messageId: "msg_1",
    callId: "call_1",
    agent: "build",
    directory: "/work/project",
    worktree: "/work",
  });
  assert.equal(daemon.seen[0].authorization, "Bearer first-token-0123456789");
  assert.equal(daemon.seen[1].authorization, "Bearer second-token-0123456789");
});

Deno.test("without a token file the plugin sends BEEUNI_DAEMON_TOKEN from opencode's environment (D7)", async () => {
  await using tmp = await tempDir();
  await using daemon = fakeDaemon(() => Response.json({ output: "ok" }));
  const hooks = await loadPlugin(tmp.dir, { url: daemon.url, tools: TOOLS });
  const before = Deno.env.get("BEEUNI_DAEMON_TOKEN");
  Deno.env.set("BEEUNI_DAEMON_TOKEN", "env-token-0123456789");
  try {
    await hooks.tool.memory.execute({}, context());
  } finally {
    if (before === undefined) Deno.env.delete("BEEUNI_DAEMON_TOKEN");
    else Deno.env.set("BEEUNI_DAEMON_TOKEN", before);
  }
  assert.equal(daemon.seen[0].authorization, "Bearer env-token-0123456789");
});

Deno.test("a tool error and a refused call become thrown errors with the daemon's message (T4, D2, D4)", async () => {
  await using tmp = await tempDir();
  await using daemon = fakeDaemon((seen) =>
    seen.path.endsWith("/memory")
      ? Response.json({ error: "no tool named memory is loaded" }, {
        status: 404,
      })
      : Response.json({ error: "order A-9 does not exist" })
  );
  const tokenFile = join(tmp.dir, "token");
  await Deno.writeTextFile(tokenFile, "token-0123456789abcdef");
  const hooks = await loadPlugin(tmp.dir, {
    url: daemon.url,
    tokenFile,
    tools: TOOLS,
  });
  await assert.rejects(
    hooks.tool.lookup_order.execute({ id: "A-9" }, context()),
    { message: "order A-9 does not exist" },
  );
  await assert.rejects(
    hooks.tool.memory.execute({}, context()),
    { message: "no tool named memory is loaded" },
  );
});

Deno.test("a truncated output keeps its saved file's path and fits opencode's limits (T6)", async () => {
  await using tmp = await tempDir();
  const head = "x".repeat(100) + "\n";
  await using daemon = fakeDaemon(() =>
    Response.json({
      output: head.repeat(2000).slice(0, -1),
      truncated: true,
      size: 999999,
      path: "/tmp/beeuni/out_1.txt",
    })
  );
  const tokenFile = join(tmp.dir, "token");
  await Deno.writeTextFile(tokenFile, "token-0123456789abcdef");
  const hooks = await loadPlugin(tmp.dir, {
    url: daemon.url,
    tokenFile,
    tools: TOOLS,
  });
  const text = await hooks.tool.lookup_order.execute({ id: "1" }, context());
  assert.match(text, /^x{100}\n/);
  assert.match(text, /the full output is 999999 bytes/);
  assert.match(text, /Full output saved to: \/tmp\/beeuni\/out_1\.txt\n/);
  assert.ok(new TextEncoder().encode(text).length <= 51200);
  assert.ok(text.split("\n").length <= 2000);
});

Deno.test("with the daemon down each tool answers with an error saying so and how to start it (D3)", async () => {
  await using tmp = await tempDir();
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const tokenFile = join(tmp.dir, "token");
  await Deno.writeTextFile(tokenFile, "token-0123456789abcdef");
  const hooks = await loadPlugin(tmp.dir, {
    url: `http://127.0.0.1:${port}`,
    tokenFile,
    tools: TOOLS,
    projectDir: "/srv/project",
  });
  await assert.rejects(
    hooks.tool.lookup_order.execute({ id: "1" }, context()),
    (error: Error) => {
      assert.match(
        error.message,
        new RegExp(
          `^the beeuni daemon is not running at http://127\\.0\\.0\\.1:${port} \\(.+\\): start it with \`beeuni daemon --dir /srv/project\`$`,
        ),
      );
      return true;
    },
  );
  const gone = await loadPlugin(tmp.dir, {
    url: `http://127.0.0.1:${port}`,
    tokenFile: join(tmp.dir, "missing.token"),
    tools: TOOLS,
  });
  await assert.rejects(
    gone.tool.memory.execute({}, context()),
    (error: Error) => {
      assert.match(
        error.message,
        /^the beeuni daemon is not running: its token file ".*missing\.token" cannot be read .*start it with `beeuni daemon --dir <project>`$/,
      );
      return true;
    },
  );
});

Deno.test("opencode's abort signal closes the request and stops the session's calls in the daemon (T5)", async () => {
  await using tmp = await tempDir();
  const { promise: serverSawAbort, resolve: sawAbort } = Promise
    .withResolvers<string>();
  const { promise: arrived, resolve: arrive } = Promise.withResolvers<void>();
  await using daemon = fakeDaemon((seen, request) => {
    if (seen.path.endsWith("/stop")) return Response.json({ stopped: 1 });
    arrive();
    return new Promise((resolve) => {
      request.signal.addEventListener("abort", () => {
        sawAbort("aborted");
        resolve(Response.json({ error: "stopped" }));
      });
    });
  });
  const tokenFile = join(tmp.dir, "token");
  await Deno.writeTextFile(tokenFile, "token-0123456789abcdef");
  const hooks = await loadPlugin(tmp.dir, {
    url: daemon.url,
    tokenFile,
    tools: TOOLS,
  });
  const controller = new AbortController();
  const call = hooks.tool.lookup_order.execute(
    { id: "1" },
    context(controller.signal),
  );
  await arrived;
  controller.abort();
  await assert.rejects(call, { message: "the tool call was stopped" });
  assert.equal(await serverSawAbort, "aborted");
  await waitUntil(() => daemon.seen.length === 2);
  assert.equal(daemon.seen[1].path, "/beeuni/sessions/ses_1/stop");
  assert.equal(daemon.seen[1].authorization, "Bearer token-0123456789abcdef");
});

Deno.test("writeOpencodePlugin writes <configDir>/plugins/beeuni.ts atomically, XDG_CONFIG_HOME by default (D3)", async () => {
  await using tmp = await tempDir();
  const env = { XDG_CONFIG_HOME: join(tmp.dir, "xdg"), HOME: tmp.dir };
  assert.equal(opencodeConfigDir(env), join(tmp.dir, "xdg", "opencode"));
  assert.equal(
    opencodeConfigDir({ HOME: tmp.dir }),
    join(tmp.dir, ".config", "opencode"),
  );
  const options = {
    url: "http://127.0.0.1:4000",
    tokenFile: "/t",
    tools: TOOLS,
    env,
  };
  const path = writeOpencodePlugin(options);
  assert.equal(path, join(tmp.dir, "xdg", "opencode", "plugins", "beeuni.ts"));
  assert.equal(readFileSync(path, "utf8"), renderOpencodePlugin(options));
  const other = writeOpencodePlugin({
    ...options,
    tools: TOOLS.slice(0, 1),
    configDir: join(tmp.dir, "custom"),
  });
  assert.equal(other, join(tmp.dir, "custom", "plugins", "beeuni.ts"));
  writeOpencodePlugin({ ...options, tools: [] });
  assert.deepEqual(readdirSync(join(tmp.dir, "xdg", "opencode", "plugins")), [
    "beeuni.ts",
  ]);
  assert.equal(existsSync(path), true);
  assert.equal(statSync(path).isFile(), true);
  assert.doesNotMatch(readFileSync(path, "utf8"), /lookup_order/);
});

Deno.test("agent files deny, last, every tool an agent may not see, with the standard harness couplings (A2, A6, M7)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": `tools:
  lookup_order: tools/lookup_order.ts
agents:
  support:
    description: Answers order questions
    model: fake/fake-model
    secrets: all
    prompt: You answer order questions.
    permission:
      edit: allow
      lookup_order: ask
    tools: [lookup_order, write, bash]
  reviewer:
    tools:
      exclude: [apply_patch, bash]
`,
  });
  const { manifest } = await loadProject({ cwd: repo.dir });
  const [support, reviewer] = manifestAgents(manifest);
  const hosted = ["web_search", "lookup_order"];
  assert.deepEqual(opencodeDenies(support, hosted), [
    "web_search",
    "question",
    "read",
    "glob",
    "grep",
    "task",
    "webfetch",
    "todowrite",
    "websearch",
    "skill",
    "lsp",
    "plan_exit",
  ]);
  assert.deepEqual(opencodeDenies(reviewer, hosted), ["bash", "edit", "pty_*"]);
  assert.deepEqual(opencodeDenies(undefined, hosted), []);
  const file = renderOpencodeAgent(support, hosted);
  assert.equal(file.name, "support");
  const [, front, body] = file.text.split(/^---\n/m);
  assert.equal(front.split("\n")[0], OPENCODE_AGENT_MARKER);
  const data = parseYaml(front) as Record<string, unknown>;
  assert.deepEqual(Object.keys(data), ["description", "model", "permission"]);
  const permission = data.permission as Record<string, string>;
  assert.deepEqual(Object.entries(permission).slice(0, 2), [
    ["edit", "allow"],
    ["lookup_order", "ask"],
  ]);
  assert.equal(permission.web_search, "deny");
  assert.equal(body, "You answer order questions.\n");
});

Deno.test("agent files never overwrite the user's own and go when their agent goes (A2)", async () => {
  await using tmp = await tempDir();
  await using repo = await tempRepo({
    "beeuni.yaml": `agents:
  support:
    tools: [read]
  build:
    tools: none
  old:
    tools: all
`,
  });
  const { manifest } = await loadProject({ cwd: repo.dir });
  const configDir = join(tmp.dir, "opencode");
  await Deno.mkdir(join(configDir, "agents"), { recursive: true });
  const mine = "---\ndescription: my own build\n---\nBuild things.\n";
  await Deno.writeTextFile(join(configDir, "agents", "build.md"), mine);
  const first = writeOpencodeAgents({
    configDir,
    agents: manifestAgents(manifest),
    hostedTools: ["memory"],
  });
  assert.deepEqual(first.written, [
    join(configDir, "agents", "support.md"),
    join(configDir, "agents", "old.md"),
  ]);
  assert.deepEqual(first.skipped, [join(configDir, "agents", "build.md")]);
  assert.equal(
    readFileSync(join(configDir, "agents", "build.md"), "utf8"),
    mine,
  );
  const second = writeOpencodeAgents({
    configDir,
    agents: manifestAgents(manifest).filter((agent) => agent.name !== "old"),
    hostedTools: ["memory"],
  });
  assert.deepEqual(second.removed, [join(configDir, "agents", "old.md")]);
  assert.deepEqual(readdirSync(join(configDir, "agents")).sort(), [
    "build.md",
    "support.md",
  ]);
});

Deno.test("the plugin and agent writers remove the temporary files a killed write left, once a minute old (D3)", async () => {
  await using tmp = await tempDir();
  await using repo = await tempRepo({
    "beeuni.yaml": "agents:\n  support:\n    tools: [read]\n",
  });
  const { manifest } = await loadProject({ cwd: repo.dir });
  const configDir = join(tmp.dir, "opencode");
  const left = {
    plugin: "plugins/.beeuni.ts.0123456789abcdef.tmp",
    fresh: "plugins/.beeuni.ts.fedcba9876543210.tmp",
    agent: "agents/.support.md.0123456789abcdef.tmp",
    user: "agents/.notes.md.0123456789abcdef.tmp",
  };
  const past = new Date(Date.now() - 120_000);
  for (const [key, path] of Object.entries(left)) {
    await Deno.mkdir(join(configDir, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(configDir, path), "half");
    if (key !== "fresh") await Deno.utime(join(configDir, path), past, past);
  }
  writeOpencodeConfig({
    configDir,
    url: "http://127.0.0.1:4000",
    tools: TOOLS,
    projectDir: repo.dir,
    manifest,
  });
  assert.deepEqual(readdirSync(join(configDir, "plugins")).sort(), [
    ".beeuni.ts.fedcba9876543210.tmp",
    "beeuni.ts",
  ]);
  // Only the files of agents beeuni writes: the user's own are theirs.
  assert.deepEqual(readdirSync(join(configDir, "agents")).sort(), [
    ".notes.md.0123456789abcdef.tmp",
    "support.md",
  ]);
});
