// Where real daemons put the opencode files, and how the plugin they write
// finds them: the project's .opencode/ kept out of git, the global folder
// only when asked, and the daemon record the plugin reads at each call
// (restarts on other ports, two daemons of one project).

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { git, tempRepo } from "./_helpers.ts";
import { startDaemon, type TestDaemon, waitFor } from "./_daemon.ts";
import { freePort, loadPluginFile, pluginContext } from "./_opencode.ts";
import { parseDaemonArgs } from "../lib/daemon/mod.ts";
import { UsageError } from "../lib/common/mod.ts";
import { projectKey } from "../lib/common/mod.ts";

const FILES = {
  "beeuni.yaml": `tools:
  echo: tools/echo.ts
agents:
  support:
    tools: [echo]
`,
  "tools/echo.ts": `export default {
  description: "Echo the text",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args) => "echo:" + args.text,
};
`,
};

/** A HOME, an XDG_CONFIG_HOME inside it and a state folder, all temporary. */
async function homes() {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_homes_" });
  const home = join(dir, "home");
  await Deno.mkdir(home);
  return {
    home,
    state: join(dir, "state"),
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, ".config"),
      XDG_STATE_HOME: join(dir, "state"),
    },
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

function recordFile(state: string, root: string): string {
  return join(state, "beeuni", "daemon", `${projectKey(root)}.daemon.json`);
}

function excludeLines(repo: string): string[] {
  return readFileSync(join(repo, ".git", "info", "exclude"), "utf8").split(
    "\n",
  );
}

/** Calls `echo` through the plugin's hooks with a session id of its own. */
async function echo(
  hooks: Awaited<ReturnType<typeof loadPluginFile>>,
  session: string,
): Promise<string> {
  return await hooks.tool.echo.execute({ text: session }, {
    ...pluginContext(),
    sessionID: session,
  });
}

/** Waits until `daemon` logged a call of session `session` (its log is batched). */
async function served(daemon: TestDaemon, session: string): Promise<void> {
  await waitFor(
    `a call of ${session} in the log`,
    () => daemon.stderr().includes(session),
  );
}

Deno.test("by default the daemon writes its opencode files into the project's .opencode/, kept out of git by one exclude line, and nothing under HOME (D3)", async () => {
  await using repo = await tempRepo(FILES);
  await using h = await homes();
  const plugin = join(repo.dir, ".opencode", "plugins", "beeuni.ts");
  {
    await using daemon = await startDaemon(repo.dir, { env: h.env });
    assert.equal(existsSync(plugin), true, daemon.stderr());
    assert.equal(
      existsSync(join(repo.dir, ".opencode", "agents", "support.md")),
      true,
    );
    assert.match(
      daemon.stderr(),
      /\[opencode\] added "\/\.opencode\/" to .*\/\.git\/info\/exclude/,
    );
    const hooks = await loadPluginFile(plugin);
    assert.equal(await echo(hooks, "s-default"), "echo:s-default");
  }
  await using again = await startDaemon(repo.dir, { env: h.env });
  assert.doesNotMatch(again.stderr(), /\[opencode\] added/);
  assert.equal(
    excludeLines(repo.dir).filter((line) => line === "/.opencode/").length,
    1,
  );
  // git sees none of it, and the project's .gitignore is not touched.
  assert.equal(await git(repo.dir, "status", "--porcelain", "-uall"), "");
  assert.equal(existsSync(join(repo.dir, ".gitignore")), false);
  // Nothing under HOME's .config (Deno keeps its own cache under HOME).
  assert.equal(existsSync(join(h.home, ".config")), false);
});

Deno.test("a project in a subfolder of a checkout gets its own anchored exclude line; outside a checkout no git file is written (D3)", async () => {
  await using repo = await tempRepo(
    Object.fromEntries(
      Object.entries(FILES).map(([path, text]) => [`app one/${path}`, text]),
    ),
  );
  await using h = await homes();
  {
    await using _daemon = await startDaemon(join(repo.dir, "app one"), {
      env: h.env,
    });
  }
  assert.ok(excludeLines(repo.dir).includes("/app one/.opencode/"));
  assert.equal(await git(repo.dir, "status", "--porcelain", "-uall"), "");

  const plain = await Deno.makeTempDir({ prefix: "beeuni_plain_" });
  try {
    for (const [path, text] of Object.entries(FILES)) {
      await Deno.mkdir(join(plain, path, ".."), { recursive: true });
      await Deno.writeTextFile(join(plain, path), text);
    }
    await using _daemon = await startDaemon(plain, { env: h.env });
    assert.deepEqual(readdirSync(plain).sort(), [
      ".opencode",
      "beeuni.yaml",
      "tools",
    ]);
  } finally {
    await Deno.remove(plain, { recursive: true });
  }
});

Deno.test("a daemon restarted on another port answers through the plugin loaded before, its file unchanged; the record goes with the daemon (D3)", async () => {
  await using repo = await tempRepo(FILES);
  await using h = await homes();
  const plugin = join(repo.dir, ".opencode", "plugins", "beeuni.ts");
  const record = recordFile(h.state, repo.dir);
  const first = await startDaemon(repo.dir, { env: h.env });
  let hooks;
  let text;
  let inode;
  try {
    assert.equal(statSync(record).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(readFileSync(record, "utf8")), {
      daemons: [{
        url: first.url,
        pid: first.pid,
        tokenFile: first.tokenFile,
      }],
    });
    text = readFileSync(plugin, "utf8");
    inode = statSync(plugin).ino;
    hooks = await loadPluginFile(plugin);
    assert.equal(await echo(hooks, "s-first"), "echo:s-first");
  } finally {
    assert.equal(await first.stop(), 0);
  }
  assert.equal(existsSync(record), false);
  await assert.rejects(
    echo(hooks, "s-down"),
    /^Error: the beeuni daemon is not running: its record ".*\.daemon\.json" cannot be read \(.+\); start it with `beeuni daemon --dir .+`$/,
  );
  let port = freePort();
  while (port === first.port) port = freePort();
  await using second = await startDaemon(repo.dir, {
    env: h.env,
    args: ["--port", String(port)],
  });
  assert.equal(second.port, port);
  assert.equal(await echo(hooks, "s-second"), "echo:s-second");
  await served(second, "s-second");
  // The new daemon found the same bytes to write, so it wrote nothing.
  assert.equal(readFileSync(plugin, "utf8"), text);
  assert.equal(statSync(plugin).ino, inode);
});

Deno.test("with two daemons of one project the plugin calls the newest that runs, then the other once it is killed (D3)", async () => {
  await using repo = await tempRepo(FILES);
  await using h = await homes();
  const record = recordFile(h.state, repo.dir);
  await using older = await startDaemon(repo.dir, { env: h.env });
  const newer = await startDaemon(repo.dir, { env: h.env });
  try {
    assert.deepEqual(
      JSON.parse(readFileSync(record, "utf8")).daemons.map((
        entry: { pid: number },
      ) => entry.pid),
      [older.pid, newer.pid],
    );
    const hooks = await loadPluginFile(
      join(repo.dir, ".opencode", "plugins", "beeuni.ts"),
    );
    assert.equal(await echo(hooks, "s-newer"), "echo:s-newer");
    await served(newer, "s-newer");
    assert.equal(older.stderr().includes("s-newer"), false);
    // Killed: it cannot take itself out of the record, and the plugin skips it.
    await newer.kill("SIGKILL");
    assert.equal(await echo(hooks, "s-older"), "echo:s-older");
    await served(older, "s-older");
  } finally {
    await newer.stop();
  }
  assert.equal(await older.stop(), 0);
  assert.equal(existsSync(record), false);
});

Deno.test("--opencode-global writes into opencode's global folder and nothing into the project; another project's daemon leaves its agent files alone (D3, A2)", async () => {
  await using a = await tempRepo({
    ...FILES,
    "beeuni.yaml": `${FILES["beeuni.yaml"]}  only_a:\n    tools: none\n`,
  });
  await using b = await tempRepo(FILES);
  await using h = await homes();
  const global = join(h.env.XDG_CONFIG_HOME, "opencode");
  const support = join(global, "agents", "support.md");
  {
    await using _daemon = await startDaemon(a.dir, {
      env: h.env,
      args: ["--opencode-global"],
    });
  }
  assert.deepEqual(readdirSync(join(global, "agents")).sort(), [
    "only_a.md",
    "support.md",
  ]);
  assert.equal(existsSync(join(a.dir, ".opencode")), false);
  assert.equal(
    readFileSync(join(a.dir, ".git", "info", "exclude"), "utf8").includes(
      ".opencode",
    ),
    false,
  );
  const written = readFileSync(support, "utf8");
  await using other = await startDaemon(b.dir, {
    env: h.env,
    args: ["--opencode-global"],
  });
  assert.equal(readFileSync(support, "utf8"), written);
  assert.equal(existsSync(join(global, "agents", "only_a.md")), true);
  assert.match(
    other.stderr(),
    /\[opencode\] left ".*support\.md" alone: another project's daemon wrote it/,
  );
  // The plugin's data is the one this daemon wrote: it serves this project.
  assert.match(
    readFileSync(join(global, "plugins", "beeuni.json"), "utf8"),
    new RegExp(`--dir ${b.dir}`),
  );
});

Deno.test("the daemon takes one place for the opencode files: --opencode-config-dir, --opencode-global and --no-opencode exclude each other (D3)", () => {
  const cwd = "/srv/project";
  assert.equal(parseDaemonArgs([], cwd).opencodeGlobal, false);
  assert.equal(
    parseDaemonArgs(["--opencode-global"], cwd).opencodeGlobal,
    true,
  );
  assert.equal(
    parseDaemonArgs(["--opencode-config-dir", "oc"], cwd).opencodeConfigDir,
    "/srv/project/oc",
  );
  for (
    const flags of [
      ["--opencode-global", "--no-opencode"],
      ["--opencode-config-dir", "x", "--opencode-global"],
      ["--no-opencode", "--opencode-config-dir", "x"],
    ]
  ) {
    assert.throws(() => parseDaemonArgs(flags, cwd), (error: Error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /cannot be used together/);
      return true;
    });
  }
});

Deno.test("a daemon that cannot write its record keeps serving, and the plugin says it cannot find it (D3)", async () => {
  await using repo = await tempRepo(FILES);
  await using h = await homes();
  // A folder where the record goes: no file can be renamed over it.
  await Deno.mkdir(recordFile(h.state, repo.dir), { recursive: true });
  await using daemon = await startDaemon(repo.dir, { env: h.env });
  assert.match(
    daemon.stderr(),
    /\[daemon\] cannot write the daemon record .*\.daemon\.json: .*; the opencode plugin will not find this daemon/,
  );
  const answer = await daemon.call("echo", {
    args: { text: "direct" },
    sessionId: "s",
    agent: "beeuni",
  });
  assert.deepEqual(answer.body, { output: "echo:direct" });
  const hooks = await loadPluginFile(
    join(repo.dir, ".opencode", "plugins", "beeuni.ts"),
  );
  await assert.rejects(
    echo(hooks, "s-lost"),
    /the beeuni daemon is not running: its record ".*" cannot be read/,
  );
});

Deno.test("a daemon answers calls while another process holds its record's lock for seconds, and writes the opencode files of a reload made meanwhile once the lock is free (D3)", async () => {
  await using repo = await tempRepo(FILES);
  await using h = await homes();
  const plugin = join(repo.dir, ".opencode", "plugins", "beeuni.ts");
  await using daemon = await startDaemon(repo.dir, { env: h.env });
  assert.deepEqual(await pluginTools(plugin), ["echo"]);
  // Another process holds the lock the opencode files are written under.
  const lock = `${recordFile(h.state, repo.dir)}.lock`;
  const holder = new Deno.Command("sleep", { args: ["120"] }).spawn();
  const held = `${holder.pid} 00ff\n`;
  const latencies: number[] = [];
  let heldFor = 0;
  try {
    await Deno.writeTextFile(lock, held, { createNew: true });
    const heldAt = performance.now();
    // A reload meanwhile: its tool is served at once...
    await Deno.writeTextFile(
      join(repo.dir, "beeuni.yaml"),
      FILES["beeuni.yaml"].replace(
        "  echo: tools/echo.ts\n",
        "  echo: tools/echo.ts\n  again: tools/echo.ts\n",
      ),
    );
    await waitFor("the reloaded tool", async () => {
      const tools = (await (await daemon.fetch("/beeuni/tools")).json()).tools;
      return tools.some((tool: { name: string }) => tool.name === "again");
    });
    // ...and every call is answered while the lock stays held.
    while (latencies.length < 20 || performance.now() - heldAt < 3_000) {
      const text = `held-${latencies.length}`;
      const start = performance.now();
      const answer = await daemon.call("again", {
        args: { text },
        sessionId: "s-held",
        agent: "beeuni",
      });
      latencies.push(performance.now() - start);
      assert.deepEqual(answer.body, { output: `echo:${text}` });
    }
    heldFor = performance.now() - heldAt;
    // The files of the reload wait for the lock.
    assert.equal(readFileSync(lock, "utf8"), held);
    assert.deepEqual(await pluginTools(plugin), ["echo"]);
  } finally {
    await Deno.remove(lock).catch(() => {});
    holder.kill("SIGKILL");
    await holder.status;
  }
  // The first call starts the new tool's runner.
  const [first, ...rest] = latencies;
  const sorted = rest.sort((a, b) => a - b);
  console.log(
    `${latencies.length} calls while the record's lock was held for ${
      (heldFor / 1000).toFixed(1)
    } s: the first (starting the tool's runner) ${
      first.toFixed(1)
    } ms, then median ${sorted[sorted.length >> 1].toFixed(1)} ms, max ${
      sorted.at(-1)!.toFixed(1)
    } ms`,
  );
  await waitFor(
    "the opencode files of the reload",
    async () => (await pluginTools(plugin)).includes("again"),
  );
});

/** The tools the plugin file at `plugin` registers, sorted. */
async function pluginTools(plugin: string): Promise<string[]> {
  return Object.keys((await loadPluginFile(plugin)).tool ?? {}).sort();
}

/** The `[opencode]` lines of `daemon`'s log. */
function opencodeLines(daemon: TestDaemon): string[] {
  return daemon.stderr().split("\n").filter((line) =>
    line.startsWith("[opencode] ")
  );
}

Deno.test("the daemon says it wrote the opencode files only when one changed: a restart finds them up to date, a reload that changes no tool says nothing (D3)", async () => {
  await using repo = await tempRepo(FILES);
  await using h = await homes();
  const plugin = join(repo.dir, ".opencode", "plugins", "beeuni.ts");
  const wrote = `[opencode] wrote ${plugin} (1 tools) and 1 agent files`;
  {
    await using first = await startDaemon(repo.dir, { env: h.env });
    assert.deepEqual(opencodeLines(first), [
      wrote,
      `[opencode] added "/.opencode/" to ${
        join(repo.dir, ".git", "info", "exclude")
      }, so git leaves the project's opencode folder alone`,
    ]);
  }
  await using daemon = await startDaemon(repo.dir, { env: h.env });
  assert.deepEqual(opencodeLines(daemon), [
    `[opencode] ${plugin} (1 tools) and 1 agent files are up to date`,
  ]);
  // What the model reads does not change: the files stay as they are.
  await Deno.writeTextFile(
    join(repo.dir, "tools", "echo.ts"),
    FILES["tools/echo.ts"].replace('"echo:"', '"echo2:"'),
  );
  await waitFor(
    "the reload",
    () => daemon.stderr().includes("tool set unchanged"),
  );
  // The description changes: the plugin is written again.
  await Deno.writeTextFile(
    join(repo.dir, "tools", "echo.ts"),
    FILES["tools/echo.ts"].replace("Echo the text", "Echo the text back"),
  );
  await waitFor("the second reload", () => opencodeLines(daemon).length > 1);
  assert.deepEqual(opencodeLines(daemon), [
    `[opencode] ${plugin} (1 tools) and 1 agent files are up to date`,
    wrote,
  ]);
});

Deno.test("with two daemons of one project the opencode files describe the one the plugin calls: the older leaves them to the newer, even on its reloads, and writes them again once the newer stops or is killed (D3)", async () => {
  await using repo = await tempRepo({
    ...FILES,
    // The same project served with another tool set.
    "two.yaml": FILES["beeuni.yaml"].replace(
      "  echo: tools/echo.ts\n",
      "  echo: tools/echo.ts\n  extra: tools/echo.ts\n",
    ),
  });
  await using h = await homes();
  const plugin = join(repo.dir, ".opencode", "plugins", "beeuni.ts");
  const wrote = (n: number) =>
    `[opencode] wrote ${plugin} (${n} tools) and 1 agent files`;
  const leftTo = (other: TestDaemon) =>
    `[opencode] left the opencode files to the daemon at ${other.url} (pid ${other.pid}), started after this one: the plugin calls that one while it runs`;
  const gone = (other: TestDaemon) =>
    `[opencode] the daemon at ${other.url} (pid ${other.pid}) is gone: the plugin calls this one again, and the opencode files describe it`;
  await using older = await startDaemon(repo.dir, { env: h.env });
  assert.deepEqual(await pluginTools(plugin), ["echo"]);
  const startNewer = () =>
    startDaemon(repo.dir, {
      env: h.env,
      args: ["--manifest", join(repo.dir, "two.yaml")],
    });
  const newer = await startNewer();
  try {
    assert.deepEqual(await pluginTools(plugin), ["echo", "extra"]);
    await waitFor(
      "the older daemon to leave the files",
      () => older.stderr().includes(leftTo(newer)),
    );
    // A reload of the older daemon (its own manifest) leaves them alone.
    await Deno.writeTextFile(
      join(repo.dir, "beeuni.yaml"),
      FILES["beeuni.yaml"].replace(
        "  echo: tools/echo.ts\n",
        "  echo: tools/echo.ts\n  third: tools/echo.ts\n",
      ),
    );
    await waitFor(
      "the older daemon's reload",
      () => older.stderr().includes("2 tools (echo, third)"),
    );
    assert.deepEqual(await pluginTools(plugin), ["echo", "extra"]);
  } finally {
    assert.equal(await newer.stop(), 0);
  }
  await waitFor(
    "the older daemon to write the files again",
    // The files are written once the line saying so is logged.
    () =>
      opencodeLines(older).slice(-2).join("\n") ===
        `${gone(newer)}\n${wrote(2)}`,
  );
  assert.deepEqual(await pluginTools(plugin), ["echo", "third"]);
  const hooks = await loadPluginFile(plugin);
  assert.equal(await echo(hooks, "s-older"), "echo:s-older");
  await served(older, "s-older");
  // Killed, a newer daemon cannot say it goes: the older one sees it gone.
  const killed = await startNewer();
  try {
    await waitFor(
      "the older daemon to leave the files again",
      () => older.stderr().includes(leftTo(killed)),
    );
    assert.deepEqual(await pluginTools(plugin), ["echo", "extra"]);
    await killed.kill("SIGKILL");
  } finally {
    await killed.stop();
  }
  await waitFor(
    "the older daemon to write the files once more",
    // The files are written once the line saying so is logged.
    () =>
      opencodeLines(older).slice(-2).join("\n") ===
        `${gone(killed)}\n${wrote(2)}`,
  );
  assert.deepEqual(await pluginTools(plugin), ["echo", "third"]);
  assert.deepEqual(opencodeLines(older), [
    wrote(1),
    `[opencode] added "/.opencode/" to ${
      join(repo.dir, ".git", "info", "exclude")
    }, so git leaves the project's opencode folder alone`,
    leftTo(newer),
    gone(newer),
    wrote(2),
    leftTo(killed),
    gone(killed),
    wrote(2),
  ]);
});
