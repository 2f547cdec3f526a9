// The generated opencode plugin, loaded as a module and driven against a
// local HTTP server on 127.0.0.1 that answers like the daemon (D2, D3).

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  manifestAgents,
  OPENCODE_AGENT_MARKER,
  OPENCODE_AGENT_PROJECT,
  opencodeConfigDir,
  opencodeDenies,
  renderOpencodeAgent,
  renderOpencodePlugin,
  writeOpencodeAgents,
  writeOpencodeConfig,
  writeOpencodePlugin,
} from "../lib/opencode/mod.ts";
import { loadProject } from "../lib/project/mod.ts";
import { type CallBody, parseCallBody } from "../lib/http/mod.ts";
import type { PluginCallBody } from "../lib/opencode/_plugin_source.ts";
import { MAX_OUTPUT_BYTES, MAX_OUTPUT_LINES } from "../lib/host/mod.ts";
import { parse as parseYaml } from "yaml";
import { tempDir, tempRepo } from "./_helpers.ts";
import {
  loadPluginFile,
  pluginContext,
  type PluginHooks,
} from "./_opencode.ts";

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

let counter = 0;

async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.ok(check());
}

/** Writes the plugin's two files into a fresh folder in `dir` and loads its hooks. */
async function loadPlugin(
  dir: string,
  options: Parameters<typeof renderOpencodePlugin>[0],
): Promise<PluginHooks> {
  const folder = join(dir, `plugins_${counter++}`);
  await Deno.mkdir(folder);
  const { source, data } = renderOpencodePlugin(options);
  await Deno.writeTextFile(join(folder, "beeuni.json"), data);
  await Deno.writeTextFile(join(folder, "beeuni.ts"), source);
  return await loadPluginFile(join(folder, "beeuni.ts"));
}

/** Writes a daemon record naming `daemons` (newest last) and returns its path. */
async function record(
  dir: string,
  daemons: { url: string; pid?: number; tokenFile: string | null }[],
): Promise<string> {
  const file = join(dir, "project.daemon.json");
  await Deno.writeTextFile(
    file,
    JSON.stringify({
      daemons: daemons.map((d) => ({ ...d, pid: d.pid ?? Deno.pid })),
    }),
  );
  return file;
}

/** A token file in `dir` holding `token`. */
async function tokenFile(dir: string, token = "token-0123456789abcdef") {
  const file = join(dir, "token");
  await Deno.writeTextFile(file, `${token}\n`);
  return file;
}

/** The process id of a process that has ended. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command("true").spawn();
  await child.status;
  return child.pid;
}

const context = pluginContext;

Deno.test("the plugin registers every served tool with its exact JSON Schema through tool.definition (D3)", async () => {
  await using tmp = await tempDir("beeuni_plugin_");
  const hooks = await loadPlugin(tmp.dir, {
    recordFile: join(tmp.dir, "none.json"),
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

Deno.test("the plugin file is _plugin_source.ts byte for byte, the same for every project, importing two node: modules; its data holds no URL, port or token, only the tools, T6's limits and the record's path (D3, D7, T6)", () => {
  const options = {
    recordFile: "/state/daemon/abc.daemon.json",
    tools: TOOLS,
    projectDir: "/srv/project",
  };
  const { source, data } = renderOpencodePlugin(options);
  // Stale after a change to the plugin: run `deno task build:opencode-plugin`.
  assert.equal(
    source,
    readFileSync(
      new URL("../lib/opencode/_plugin_source.ts", import.meta.url),
      "utf8",
    ),
  );
  assert.equal(
    renderOpencodePlugin({ recordFile: "/elsewhere.json", tools: [] }).source,
    source,
  );
  const imports = source.split("\n").filter((line) =>
    /^\s*import\b/.test(line)
  );
  assert.deepEqual(imports, [
    'import { readFile } from "node:fs/promises";',
    'import process from "node:process";',
  ]);
  assert.doesNotMatch(source, /\bimport\s*\(|\brequire\s*\(/);
  assert.doesNotMatch(data, /127\.0\.0\.1|localhost|http:\/\/\w/);
  assert.deepEqual(JSON.parse(data), {
    about:
      "Written by the beeuni daemon of /srv/project for beeuni.ts beside it; rewritten on every start and reload. Do not edit.",
    recordFile: "/state/daemon/abc.daemon.json",
    startHint: "beeuni daemon --dir /srv/project",
    maxBytes: MAX_OUTPUT_BYTES,
    maxLines: MAX_OUTPUT_LINES,
    tools: TOOLS,
  });
  assert.deepEqual(renderOpencodePlugin(options), { source, data });
});

Deno.test("a call sends exactly the fields the daemon reads, with the token read at call time (D2, D7)", async () => {
  await using tmp = await tempDir("beeuni_plugin_");
  await using daemon = fakeDaemon((seen) =>
    Response.json({ output: `order ${(seen.body.args as { id: string }).id}` })
  );
  const token = await tokenFile(tmp.dir, "first-token-0123456789");
  const hooks = await loadPlugin(tmp.dir, {
    recordFile: await record(tmp.dir, [{ url: daemon.url, tokenFile: token }]),
    tools: TOOLS,
  });
  assert.equal(
    await hooks.tool.lookup_order.execute({ id: "A-1" }, context()),
    "order A-1",
  );
  await Deno.writeTextFile(token, "second-token-0123456789\n");
  await hooks.tool.lookup_order.execute({ id: "A-2" }, context());
  assert.equal(daemon.seen[0].path, "/beeuni/tools/lookup_order");
  const sent: PluginCallBody = {
    args: { id: "A-1" },
    sessionId: "ses_1",
    agent: "build",
  };
  // What the plugin sends is what the daemon reads: `deno check` fails when
  // the two types part.
  const read: CallBody = sent;
  assert.deepEqual(daemon.seen[0].body, read);
  // The daemon's own parser reads back every field sent, and nothing is left over.
  assert.deepEqual(
    parseCallBody(JSON.stringify(daemon.seen[0].body)),
    { ...read, parentAgent: undefined },
  );
  assert.equal(daemon.seen[0].authorization, "Bearer first-token-0123456789");
  assert.equal(daemon.seen[1].authorization, "Bearer second-token-0123456789");
});

Deno.test("the plugin calls whichever daemon the record names at call time: a restart on another port needs no new plugin (D3)", async () => {
  await using tmp = await tempDir("beeuni_plugin_");
  await using first = fakeDaemon(() => Response.json({ output: "first" }));
  await using second = fakeDaemon(() => Response.json({ output: "second" }));
  const token = await tokenFile(tmp.dir);
  const recordFile = await record(tmp.dir, [{
    url: first.url,
    tokenFile: token,
  }]);
  const hooks = await loadPlugin(tmp.dir, { recordFile, tools: TOOLS });
  assert.equal(await hooks.tool.memory.execute({}, context()), "first");
  await record(tmp.dir, [{ url: second.url, tokenFile: token }]);
  assert.equal(await hooks.tool.memory.execute({}, context()), "second");
});

Deno.test("with two daemons in the record the plugin calls the newest whose process runs (D3)", async () => {
  await using tmp = await tempDir("beeuni_plugin_");
  await using older = fakeDaemon(() => Response.json({ output: "older" }));
  await using newer = fakeDaemon(() => Response.json({ output: "newer" }));
  const token = await tokenFile(tmp.dir);
  const recordFile = await record(tmp.dir, [
    { url: older.url, tokenFile: token },
    { url: newer.url, tokenFile: token },
  ]);
  const hooks = await loadPlugin(tmp.dir, { recordFile, tools: TOOLS });
  assert.equal(await hooks.tool.memory.execute({}, context()), "newer");
  await record(tmp.dir, [
    { url: older.url, tokenFile: token },
    { url: newer.url, tokenFile: token, pid: await deadPid() },
  ]);
  assert.equal(await hooks.tool.memory.execute({}, context()), "older");
});

Deno.test("a daemon record without a token file makes the plugin send BEEUNI_DAEMON_TOKEN from opencode's environment (D7)", async () => {
  await using tmp = await tempDir("beeuni_plugin_");
  await using daemon = fakeDaemon(() => Response.json({ output: "ok" }));
  const hooks = await loadPlugin(tmp.dir, {
    recordFile: await record(tmp.dir, [{ url: daemon.url, tokenFile: null }]),
    tools: TOOLS,
  });
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
  await using tmp = await tempDir("beeuni_plugin_");
  await using daemon = fakeDaemon((seen) =>
    seen.path.endsWith("/memory")
      ? Response.json({ error: "no tool named memory is loaded" }, {
        status: 404,
      })
      : Response.json({ error: "order A-9 does not exist" })
  );
  const hooks = await loadPlugin(tmp.dir, {
    recordFile: await record(tmp.dir, [{
      url: daemon.url,
      tokenFile: await tokenFile(tmp.dir),
    }]),
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
  await using tmp = await tempDir("beeuni_plugin_");
  const head = "x".repeat(100) + "\n";
  await using daemon = fakeDaemon(() =>
    Response.json({
      output: head.repeat(2000).slice(0, -1),
      truncated: true,
      size: 999999,
      path: "/tmp/beeuni/out_1.txt",
    })
  );
  const hooks = await loadPlugin(tmp.dir, {
    recordFile: await record(tmp.dir, [{
      url: daemon.url,
      tokenFile: await tokenFile(tmp.dir),
    }]),
    tools: TOOLS,
  });
  const text = await hooks.tool.lookup_order.execute({ id: "1" }, context());
  assert.match(text, /^x{100}\n/);
  assert.match(text, /the full output is 999999 bytes/);
  assert.match(text, /Full output saved to: \/tmp\/beeuni\/out_1\.txt\n/);
  assert.ok(new TextEncoder().encode(text).length <= MAX_OUTPUT_BYTES);
  assert.ok(text.split("\n").length <= MAX_OUTPUT_LINES);
});

Deno.test("with the daemon down each tool answers with an error saying so and how to start it (D3)", async () => {
  await using tmp = await tempDir("beeuni_plugin_");
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const token = await tokenFile(tmp.dir);
  const recordFile = await record(tmp.dir, [{
    url: `http://127.0.0.1:${port}`,
    tokenFile: token,
  }]);
  const hooks = await loadPlugin(tmp.dir, {
    recordFile,
    tools: TOOLS,
    projectDir: "/srv/project",
  });
  const refused = (pattern: RegExp) => (error: Error) => {
    assert.match(error.message, pattern);
    return true;
  };
  await assert.rejects(
    hooks.tool.lookup_order.execute({ id: "1" }, context()),
    refused(
      new RegExp(
        `^the beeuni daemon is not running at http://127\\.0\\.0\\.1:${port} \\(.+\\): start it with \`beeuni daemon --dir /srv/project\`$`,
      ),
    ),
  );
  await Deno.remove(token);
  await assert.rejects(
    hooks.tool.memory.execute({}, context()),
    refused(
      /^the beeuni daemon is not running: its token file ".*token" cannot be read \(.+\); start it with `beeuni daemon --dir \/srv\/project`$/,
    ),
  );
  // A daemon that stopped took its record with it.
  await Deno.remove(recordFile);
  await assert.rejects(
    hooks.tool.memory.execute({}, context()),
    refused(
      /^the beeuni daemon is not running: its record ".*project\.daemon\.json" cannot be read \(.+\); start it with `beeuni daemon --dir \/srv\/project`$/,
    ),
  );
  const bare = await loadPlugin(tmp.dir, { recordFile, tools: TOOLS });
  await assert.rejects(
    bare.tool.memory.execute({}, context()),
    refused(/start it with `beeuni daemon --dir <project>`$/),
  );
});

Deno.test("opencode's abort signal closes the request and stops the session's calls in the daemon (T5)", async () => {
  await using tmp = await tempDir("beeuni_plugin_");
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
  const hooks = await loadPlugin(tmp.dir, {
    recordFile: await record(tmp.dir, [{
      url: daemon.url,
      tokenFile: await tokenFile(tmp.dir),
    }]),
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

Deno.test("writeOpencodePlugin writes <configDir>/plugins/beeuni.ts and its data beeuni.json atomically, each only when its bytes change (D3)", async () => {
  await using tmp = await tempDir("beeuni_plugin_");
  const env = { XDG_CONFIG_HOME: join(tmp.dir, "xdg"), HOME: tmp.dir };
  assert.equal(opencodeConfigDir(env), join(tmp.dir, "xdg", "opencode"));
  assert.equal(
    opencodeConfigDir({ HOME: tmp.dir }),
    join(tmp.dir, ".config", "opencode"),
  );
  const configDir = join(tmp.dir, "project", ".opencode");
  const options = { recordFile: "/r.json", tools: TOOLS, configDir };
  const path = await writeOpencodePlugin(options);
  const dataPath = join(configDir, "plugins", "beeuni.json");
  assert.equal(path, join(configDir, "plugins", "beeuni.ts"));
  const { source, data } = renderOpencodePlugin(options);
  assert.equal(readFileSync(path, "utf8"), source);
  assert.equal(readFileSync(dataPath, "utf8"), data);
  const inode = statSync(path).ino;
  const dataInode = statSync(dataPath).ino;
  await writeOpencodePlugin(options);
  assert.equal(statSync(path).ino, inode);
  assert.equal(statSync(dataPath).ino, dataInode);
  // Other tools: the data changes, the code stays.
  await writeOpencodePlugin({ ...options, tools: [] });
  assert.deepEqual(readdirSync(join(configDir, "plugins")).sort(), [
    "beeuni.json",
    "beeuni.ts",
  ]);
  assert.equal(statSync(path).ino, inode);
  assert.notEqual(statSync(dataPath).ino, dataInode);
  assert.doesNotMatch(readFileSync(dataPath, "utf8"), /lookup_order/);
});

Deno.test("a plugin whose data file is missing or broken loads with no tools rather than throw (D3)", async () => {
  await using tmp = await tempDir("beeuni_plugin_");
  const file = join(tmp.dir, "beeuni.ts");
  await Deno.writeTextFile(
    file,
    renderOpencodePlugin({ recordFile: "/r.json", tools: TOOLS }).source,
  );
  assert.deepEqual(await loadPluginFile(file), {});
  await Deno.writeTextFile(join(tmp.dir, "beeuni.json"), "{ not json");
  assert.deepEqual(await loadPluginFile(file), {});
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
  await using tmp = await tempDir("beeuni_plugin_");
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
  const first = await writeOpencodeAgents({
    configDir,
    agents: manifestAgents(manifest),
    hostedTools: ["memory"],
    projectDir: repo.dir,
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
  const second = await writeOpencodeAgents({
    configDir,
    agents: manifestAgents(manifest).filter((agent) => agent.name !== "old"),
    hostedTools: ["memory"],
    projectDir: repo.dir,
  });
  assert.deepEqual(second.removed, [join(configDir, "agents", "old.md")]);
  // Its bytes are the same: it is not written again.
  assert.deepEqual(second.written, []);
  assert.deepEqual(second.unchanged, [join(configDir, "agents", "support.md")]);
  assert.deepEqual(readdirSync(join(configDir, "agents")).sort(), [
    "build.md",
    "support.md",
  ]);
});

Deno.test("agent files another project's daemon wrote are neither overwritten nor removed (A2)", async () => {
  await using tmp = await tempDir("beeuni_plugin_");
  const manifest = `agents:
  support:
    tools: [read]
  old:
    tools: all
`;
  await using a = await tempRepo({ "beeuni.yaml": manifest });
  await using b = await tempRepo({
    "beeuni.yaml": "agents:\n  support:\n    tools: none\n",
  });
  const agentsOf = async (dir: string) =>
    manifestAgents((await loadProject({ cwd: dir })).manifest);
  const configDir = join(tmp.dir, "opencode");
  const support = join(configDir, "agents", "support.md");
  const old = join(configDir, "agents", "old.md");
  await writeOpencodeAgents({
    configDir,
    agents: await agentsOf(a.dir),
    hostedTools: ["memory"],
    projectDir: a.dir,
  });
  const written = readFileSync(support, "utf8");
  assert.equal(
    written.split("\n")[2],
    `${OPENCODE_AGENT_PROJECT}${Deno.realPathSync(a.dir)}`,
  );
  const other = await writeOpencodeAgents({
    configDir,
    agents: await agentsOf(b.dir),
    hostedTools: ["memory"],
    projectDir: b.dir,
  });
  assert.deepEqual(other, {
    written: [],
    unchanged: [],
    skipped: [],
    removed: [],
    foreign: [support],
  });
  assert.equal(readFileSync(support, "utf8"), written);
  assert.equal(existsSync(old), true);
  // A file of an older beeuni (no project line) is left alone the same way.
  const legacy = written.split("\n").toSpliced(2, 1).join("\n");
  await Deno.writeTextFile(old, legacy);
  const again = await writeOpencodeAgents({
    configDir,
    agents: [],
    hostedTools: ["memory"],
    projectDir: a.dir,
  });
  assert.deepEqual(again.removed, [support]);
  assert.equal(readFileSync(old, "utf8"), legacy);
});

Deno.test("the plugin and agent writers remove the temporary files a killed write left, once a minute old (D3)", async () => {
  await using tmp = await tempDir("beeuni_plugin_");
  await using repo = await tempRepo({
    "beeuni.yaml": "agents:\n  support:\n    tools: [read]\n",
  });
  const { manifest } = await loadProject({ cwd: repo.dir });
  const configDir = join(tmp.dir, "opencode");
  const left = {
    plugin: "plugins/.beeuni.ts.0123456789abcdef.tmp",
    data: "plugins/.beeuni.json.0123456789abcdef.tmp",
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
  await writeOpencodeConfig({
    configDir,
    recordFile: join(tmp.dir, "r.json"),
    tools: TOOLS,
    projectDir: repo.dir,
    manifest,
  });
  assert.deepEqual(readdirSync(join(configDir, "plugins")).sort(), [
    ".beeuni.ts.fedcba9876543210.tmp",
    "beeuni.json",
    "beeuni.ts",
  ]);
  // Only the files of agents beeuni writes: the user's own are theirs.
  assert.deepEqual(readdirSync(join(configDir, "agents")).sort(), [
    ".notes.md.0123456789abcdef.tmp",
    "support.md",
  ]);
});
