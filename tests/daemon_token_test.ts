// The daemon's token file with several daemons, and how a daemon stops on
// signals: real daemon processes, real signals.

import assert from "node:assert/strict";
import { join } from "node:path";
import { exists, REPO_ROOT, tempRepo } from "./_helpers.ts";
import { DAEMON, startDaemon, type TestDaemon, waitFor } from "./_daemon.ts";
import { holdsConnection } from "./_procs.ts";

const MANIFEST = `tools:
  echo: tools/echo.ts
`;
const ECHO = `export default {
  description: "Echo the text",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args) => "echo:" + args.text,
};
`;

async function project(prefix = "") {
  return await tempRepo({
    [`${prefix}beeuni.yaml`]: MANIFEST,
    [`${prefix}tools/echo.ts`]: ECHO,
  });
}

async function stateDir() {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_state_" });
  return {
    dir,
    env: { XDG_STATE_HOME: dir },
    /** The whole environment of a process started by hand: all it writes goes here. */
    processEnv: {
      NO_COLOR: "1",
      XDG_STATE_HOME: dir,
      XDG_CONFIG_HOME: join(dir, "config"),
      TMPDIR: dir,
    },
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

async function status(url: string, token: string): Promise<number> {
  const response = await fetch(`${url}/beeuni/health`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.body?.cancel();
  return response.status;
}

/** The README's recipe for the token, run by bash in `cwd`. */
async function readmeToken(
  cwd: string,
  env: Record<string, string>,
): Promise<string> {
  const readme = Deno.readTextFileSync(join(REPO_ROOT, "README.md"));
  const recipe = readme.split("\n").find((line) => line.startsWith("TOKEN=$("));
  assert.ok(recipe, "README.md holds a TOKEN=$(...) line");
  const out = await new Deno.Command("bash", {
    args: ["-c", `set -e\n${recipe}\nprintf %s "$TOKEN"`],
    cwd,
    env: { ...env, HOME: env.XDG_STATE_HOME },
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

Deno.test("a second daemon on a busy port leaves the running daemon's token file as it was (D7)", async () => {
  await using repo = await project();
  await using state = await stateDir();
  await using first = await startDaemon(repo.dir, { env: state.env });
  const before = Deno.readTextFileSync(first.tokenFile!);
  await assert.rejects(
    startDaemon(repo.dir, {
      env: state.env,
      args: ["--port", String(first.port)],
    }),
    /cannot listen on 127\.0\.0\.1:\d+/,
  );
  assert.equal(Deno.readTextFileSync(first.tokenFile!), before);
  assert.equal(await status(first.url, before.trim()), 200);
});

Deno.test("two daemons of one project share its token file, which goes with the last one (D7)", async () => {
  await using repo = await project();
  await using state = await stateDir();
  const first = await startDaemon(repo.dir, { env: state.env });
  const second = await startDaemon(repo.dir, { env: state.env });
  try {
    assert.equal(second.tokenFile, first.tokenFile);
    const token = Deno.readTextFileSync(first.tokenFile!).trim();
    assert.equal(second.token, first.token);
    assert.equal(await status(first.url, token), 200);
    assert.equal(await status(second.url, token), 200);
    assert.equal(await first.stop(), 0);
    assert.equal(Deno.readTextFileSync(first.tokenFile!).trim(), token);
    assert.equal(await status(second.url, token), 200);
  } finally {
    await first.stop();
    assert.equal(await second.stop(), 0);
  }
  assert.ok(!exists(first.tokenFile!));
  assert.deepEqual(
    [...Deno.readDirSync(join(state.dir, "beeuni", "daemon"))],
    [],
  );
});

Deno.test("the README's token recipe finds each project's daemon with two projects running (D7)", async () => {
  await using a = await project("examples/starter/");
  await using b = await project("examples/starter/");
  await using state = await stateDir();
  await using first = await startDaemon(join(a.dir, "examples/starter"), {
    env: state.env,
  });
  await using second = await startDaemon(join(b.dir, "examples/starter"), {
    env: state.env,
  });
  assert.notEqual(first.token, second.token);
  const tokenA = await readmeToken(a.dir, state.env);
  const tokenB = await readmeToken(b.dir, state.env);
  assert.equal(tokenA, first.token);
  assert.equal(tokenB, second.token);
  assert.equal(await status(first.url, tokenA), 200);
  assert.equal(await status(second.url, tokenB), 200);
});

Deno.test("a daemon started after one was killed writes a fresh token and removes it on exit (D7)", async () => {
  await using repo = await project();
  await using state = await stateDir();
  const killed = await startDaemon(repo.dir, { env: state.env });
  await killed.kill("SIGKILL");
  assert.ok(exists(killed.tokenFile!));
  const next = await startDaemon(repo.dir, { env: state.env });
  try {
    assert.notEqual(next.token, killed.token);
    assert.equal(Deno.readTextFileSync(next.tokenFile!).trim(), next.token);
    assert.equal(await status(next.url, next.token), 200);
  } finally {
    assert.equal(await next.stop(), 0);
  }
  assert.deepEqual(
    [...Deno.readDirSync(join(state.dir, "beeuni", "daemon"))],
    [],
  );
});

/**
 * Opens a connection and starts a call whose body never finishes, so the
 * daemon's graceful stop waits for it; close the connection to let it go.
 */
async function holdRequest(daemon: TestDaemon): Promise<Deno.Conn> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: daemon.port });
  const head = [
    "POST /beeuni/tools/echo HTTP/1.1",
    "Host: 127.0.0.1",
    `Authorization: Bearer ${daemon.token}`,
    "Content-Type: application/json",
    "Content-Length: 1000",
    "",
    '{"args":',
  ].join("\r\n");
  await conn.write(new TextEncoder().encode(head));
  // The daemon has taken the connection in before the test goes on.
  await waitFor(
    "the daemon to accept the held request",
    () =>
      holdsConnection(
        daemon.pid,
        daemon.port,
        (conn.localAddr as Deno.NetAddr).port,
      ),
  );
  return conn;
}

Deno.test("a second SIGINT right after the first (a wrapper forwarding the terminal's) does not cut the stop short: exit 0, token file removed (D7)", async () => {
  await using repo = await project();
  await using state = await stateDir();
  const daemon = await startDaemon(repo.dir, { env: state.env });
  const conn = await holdRequest(daemon);
  Deno.kill(daemon.pid, "SIGINT");
  await waitFor(
    "the stop to begin",
    () => daemon.stderr().includes("SIGINT: stopping"),
  );
  Deno.kill(daemon.pid, "SIGINT");
  // Still stopping gracefully: it ends once the held request goes.
  assert.ok(exists(daemon.tokenFile!));
  conn.close();
  assert.equal(await daemon.stop(), 0, daemon.stderr());
  assert.ok(!exists(daemon.tokenFile!));
});

Deno.test("a later second SIGINT ends a stop that hangs at once: exit 130, token file removed (D7)", async () => {
  await using repo = await project();
  await using state = await stateDir();
  const daemon = await startDaemon(repo.dir, { env: state.env });
  const conn = await holdRequest(daemon);
  try {
    Deno.kill(daemon.pid, "SIGINT");
    await waitFor(
      "the stop to begin",
      () => daemon.stderr().includes("SIGINT: stopping"),
    );
    // Past REPEAT_SIGNAL_MS (2 s): a new request to stop.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    assert.equal((await daemon.kill("SIGINT")).code, 130);
    assert.ok(!exists(daemon.tokenFile!));
  } finally {
    conn.close();
  }
});

Deno.test("SIGINT while the tools still load stops the daemon once started: exit 0, token file removed (D7)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  slow: tools/slow.ts\n",
    "tools/slow.ts": `await new Promise((resolve) => setTimeout(resolve, 3000));
export default { description: "Slow to load", parameters: { type: "object" }, execute: () => "ok" };
`,
  });
  await using state = await stateDir();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", DAEMON, "--dir", repo.dir, "--port", "0"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: state.processEnv,
  }).spawn();
  const output = child.output();
  const daemonDir = join(state.dir, "beeuni", "daemon");
  const tokenFile = () => {
    try {
      return [...Deno.readDirSync(daemonDir)].find((e) =>
        e.name.endsWith(".token")
      )?.name;
    } catch {
      return undefined;
    }
  };
  await waitFor("the token file", () => tokenFile() !== undefined);
  const written = join(daemonDir, tokenFile()!);
  child.kill("SIGINT");
  const out = await output;
  const stdout = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.match(stdout, /listening on http/);
  assert.ok(!exists(written));
});

Deno.test("Ctrl-C on `deno task start` (SIGINT to the whole process group) exits 0 and removes the token file", async () => {
  for (let run = 0; run < 3; run++) {
    await using state = await stateDir();
    // setsid: the task gets a process group of its own, as in a terminal.
    const child = new Deno.Command("setsid", {
      // The opencode files go to the state folder, not into the checkout.
      args: [
        Deno.execPath(),
        "task",
        "--quiet",
        "start",
        "--port",
        "0",
        "--opencode-config-dir",
        join(state.dir, "opencode"),
      ],
      cwd: REPO_ROOT,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: state.processEnv,
    }).spawn();
    let out = "";
    let err = "";
    const decoder = new TextDecoder();
    const pumps = Promise.all([
      (async () => {
        for await (const c of child.stdout) out += decoder.decode(c);
      })(),
      (async () => {
        for await (const c of child.stderr) err += decoder.decode(c);
      })(),
    ]);
    let ended = false;
    const done = child.status.finally(() => ended = true);
    await waitFor("the daemon to listen", () => {
      if (ended) throw new Error(`the task ended:\n${out}\n${err}`);
      return /listening on http/.test(out);
    });
    const tokenFile = /^token file: (.+)$/m.exec(out)![1];
    Deno.kill(-child.pid, "SIGINT");
    const result = await done;
    await pumps;
    assert.equal(result.code, 0, `run ${run}:\n${err}`);
    assert.ok(!exists(tokenFile), `run ${run}: token file left`);
  }
});
