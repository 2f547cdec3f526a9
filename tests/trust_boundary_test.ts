// The trust boundary, attacked (H1-H5): hostile tool modules against a real
// daemon under each runtime, and under Node.js and Bun with Deno runners
// (`--runner deno`). Each check is what docs/host.md promises for that
// runtime; where a runtime does not confine, docs/host.md says so and no
// check claims it. The runs go side by side, one test step per runtime.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { CLI, git, REPO_ROOT, runProgram, tempRepo } from "./_helpers.ts";
import { DAEMON, startDaemon, type TestDaemon, waitFor } from "./_daemon.ts";
import {
  bunBin,
  type CheckResult,
  Checks,
  NODE_22,
  NODE_LATEST,
  nodeBin,
  reportChecks,
} from "./_runtimes.ts";
import { processes } from "./_procs.ts";
import {
  CACHE_TOOL,
  DETACH_TOOL,
  ESCAPE_TOOL,
  JUNK_TOOL,
  LISTEN_TOOL,
  NOISY_TOOL,
  READER_TOOL,
  WRITER_TOOL,
} from "./_hostile.ts";

/** A daemon under test: the runtime it runs on and the one its runners run on. */
interface Setup {
  label: string;
  /** The runtime of the runners, which decides what holds. */
  runners: "deno" | "node" | "bun";
  /** The daemon's runtime. */
  daemon: "deno" | "node" | "bun";
  /** The command line that runs daemon.ts. */
  argv(): Promise<string[]>;
  /** Arguments after the daemon's own. */
  args: string[];
}

const denoArgv = () =>
  Promise.resolve([Deno.execPath(), "run", "-A", "--quiet", DAEMON]);
const nodeArgv = (version: string) => async () => [
  await nodeBin(version),
  DAEMON,
];
const bunArgv = async () => [await bunBin(), DAEMON];
const DENO_RUNNERS = ["--runner", Deno.execPath()];

const SETUPS: Setup[] = [
  { label: "Deno", runners: "deno", daemon: "deno", argv: denoArgv, args: [] },
  {
    label: `Node.js ${NODE_22}`,
    runners: "node",
    daemon: "node",
    argv: nodeArgv(NODE_22),
    args: [],
  },
  {
    label: `Node.js ${NODE_LATEST}`,
    runners: "node",
    daemon: "node",
    argv: nodeArgv(NODE_LATEST),
    args: [],
  },
  { label: "Bun", runners: "bun", daemon: "bun", argv: bunArgv, args: [] },
  {
    label: `Node.js ${NODE_22} with --runner deno`,
    runners: "deno",
    daemon: "node",
    argv: nodeArgv(NODE_22),
    args: DENO_RUNNERS,
  },
  {
    label: "Bun with --runner deno",
    runners: "deno",
    daemon: "bun",
    argv: bunArgv,
    args: DENO_RUNNERS,
  },
];

const ECHO = `import { shared } from "../lib/shared.ts";
export default {
  description: "Echoes",
  parameters: { type: "object" },
  execute: () => "echo " + shared,
};
`;

const MANIFEST = `tools:
  echo: tools/echo.ts
  junk: tools/junk.ts
  noisy: tools/noisy.ts
  escape: tools/escape.ts
  writer: tools/writer.ts
  reader: tools/reader.ts
  cache: tools/cache.ts
  listen: tools/listen.ts
agents:
  trusted:
    secrets: [API_KEY]
`;

/** A daemon's resident memory in bytes, from /proc. */
function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;

type Call = (
  name: string,
  args: Record<string, unknown>,
  agent?: string,
) => Promise<{ output?: string; error?: string }>;

function caller(daemon: TestDaemon): Call {
  return async (name, args, agent = "beeuni") =>
    (await daemon.call(name, { args, sessionId: "attack", agent })).body as {
      output?: string;
      error?: string;
    };
}

/** The daemon answers a healthy tool: it lives, and so do other tools. */
async function answers(call: Call): Promise<void> {
  assert.deepEqual(await call("echo", {}), { output: "echo 1" });
}

function refused(result: { output?: string; error?: string }): void {
  assert.match(
    result.output ?? result.error ?? "",
    /^refused: /,
    JSON.stringify(result),
  );
}

/** Breaking the channel, flooding it, and what a runner prints. */
async function channelChecks(
  setup: Setup,
  daemon: TestDaemon,
  check: Checks["check"],
): Promise<void> {
  const call = caller(daemon);
  await check(
    "process.send from a tool does nothing, and the call succeeds (H5)",
    async () => {
      assert.deepEqual(await call("junk", { mode: "send" }), {
        output: "fine",
      });
      await answers(call);
    },
  );
  for (const mode of ["text", "null", "results", "unknown", "id", "bytes"]) {
    await check(
      `junk on the runner's channel (${mode}) fails only that call; the daemon answers (H5)`,
      async () => {
        const result = await call("junk", { mode });
        if (setup.runners === "deno") {
          // Deno gives tool code no handle on the channel's descriptors.
          refused(result);
        } else {
          assert.match(
            result.error ?? "",
            /^the runner of tool "junk" ended while running the call: it broke the tool host's protocol \(.+\), so the host stopped it; it is restarted on the next call$/,
          );
        }
        await answers(call);
        assert.deepEqual(await call("junk", { mode: "send" }), {
          output: "fine",
        });
      },
    );
  }
  await check(
    "a 100 MB message ends its runner, and the daemon's memory stays bounded (H5)",
    async () => {
      const before = rssBytes(daemon.pid);
      const result = await call("junk", { mode: "huge", mb: 100 });
      const after = rssBytes(daemon.pid);
      console.log(
        `${setup.label}: a 100 MB message: daemon ${mb(before)} before, ${
          mb(after)
        } after`,
      );
      if (setup.runners === "deno") refused(result);
      else {
        // Over the limit, or cut into by the runner's own message when the
        // descriptor would block: either way the host stops the runner.
        assert.match(
          result.error ?? "",
          /it broke the tool host's protocol \((a message is over \d+ characters, past the limit of 16777216|a message is not JSON)\)/,
        );
      }
      assert.ok(after - before < 150 * 1048576, `grew ${mb(after - before)}`);
      await answers(call);
    },
  );
  await check(
    "what a tool prints reaches the log cut to 1,000 characters a line and at most 200 lines a second (H5)",
    async () => {
      assert.deepEqual(await call("noisy", {}), { output: "printed" });
      await waitFor(
        "the note on lines not logged",
        () =>
          /\[tools\] noisy: \d+ more lines of this runner were not logged/.test(
            daemon.stderr(),
          ) || daemon.stderr().includes("y".repeat(1000)),
      );
      const lines = daemon.stderr().split("\n").filter((line) =>
        line.startsWith("[tools] noisy: ")
      );
      assert.ok(lines.length < 20000, `${lines.length} lines logged`);
      const longest = Math.max(...lines.map((line) => line.length));
      assert.ok(longest < 1100, `a line of ${longest} characters`);
      await answers(call);
    },
  );
}

/** What each escape is, as a check's name says it. */
const ESCAPES: Record<string, string> = {
  debug: "open the daemon's inspector (process._debugProcess)",
  kill: "kill the daemon through process._kill",
  signal: "signal the daemon through process.kill",
  wasi: "preopen files for WASI",
  worker: "start an unguarded worker thread",
  binding: "take a raw binding",
};

/** The ways around a runtime's permissions, and SIGUSR1 to a Node.js daemon. */
async function escapeChecks(
  setup: Setup,
  daemon: TestDaemon,
  check: Checks["check"],
): Promise<void> {
  const call = caller(daemon);
  // Deno runners may start workers (they keep the runner's permissions),
  // and Deno's process.binding is an emulation under its permissions.
  const modes = setup.runners === "node"
    ? Object.keys(ESCAPES)
    : ["debug", "kill", "signal", "wasi"];
  for (const mode of modes) {
    await check(
      `a ${setup.runners === "node" ? "Node.js" : "Deno"} runner cannot ${
        ESCAPES[mode]
      } (H2)`,
      async () => {
        refused(await call("escape", { mode }));
        await answers(call);
      },
    );
  }
  if (setup.daemon !== "node") return;
  await check(
    "SIGUSR1 does not open the Node.js daemon's inspector (H2)",
    async () => {
      Deno.kill(daemon.pid, "SIGUSR1");
      await answers(call);
      assert.ok(!/Debugger listening/.test(daemon.stderr()), daemon.stderr());
      await assert.rejects(
        Deno.connect({ hostname: "127.0.0.1", port: 9229 }).then((c) =>
          c.close()
        ),
      );
    },
  );
}

/** The paths whose content must not change, and what they hold now. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (
    const path of [
      "beeuni.yaml",
      ".git/config",
      "tools/echo.ts",
      "lib/shared.ts",
    ]
  ) out[path] = readFileSync(join(dir, path), "utf8");
  out["tools/"] = readdirSync(join(dir, "tools")).sort().join(",");
  return out;
}

/** What governs the tools cannot be written (Deno runners). */
async function governingChecks(
  dir: string,
  daemon: TestDaemon,
  check: Checks["check"],
): Promise<void> {
  const call = caller(daemon);
  const modes = [
    "manifest",
    "git",
    "module",
    "helper",
    "rename",
    "package",
    "node_modules",
    "opencode",
    "harnesses",
  ];
  for (const mode of modes) {
    await check(
      `a tool cannot write what governs it (${mode}) (H2)`,
      async () => {
        const before = snapshot(dir);
        refused(await call("writer", { mode }, "plain"));
        assert.deepEqual(snapshot(dir), before);
      },
    );
  }
  await check(
    "a tool cannot write the toolkit's own files, even inside --allow-write (H2)",
    async () => {
      refused(
        await call("writer", {
          mode: "toolkit",
          path: join(REPO_ROOT, "lib", "host", "create_host.ts"),
        }),
      );
    },
  );
  await check(
    "a tool still writes the project's other files (H2, T5)",
    async () => {
      assert.deepEqual(await call("writer", { mode: "data" }), {
        output: "wrote",
      });
    },
  );
  await check(
    "an agent without secrets stays without them after its tool tried to rewrite the manifest (H2, D6)",
    async () => {
      assert.deepEqual(await call("reader", { mode: "secret" }, "plain"), {
        output: "no secret",
      });
      assert.deepEqual(await call("reader", { mode: "secret" }, "trusted"), {
        output: "s3cr3t",
      });
    },
  );
  await check(
    "a tool declared by a reload cannot be written by the runners that follow it (H2, D5)",
    async () => {
      await Deno.writeTextFile(join(dir, "tools", "late.ts"), ECHO);
      await Deno.writeTextFile(
        join(dir, "beeuni.yaml"),
        MANIFEST.replace("tools:\n", "tools:\n  late: tools/late.ts\n"),
      );
      await waitFor("the reload", async () => {
        const body = await (await daemon.fetch("/beeuni/tools")).json();
        return (body.tools as { name: string }[]).some((t) =>
          t.name === "late"
        );
      });
      refused(
        await call("writer", {
          mode: "path",
          path: join(dir, "tools", "late.ts"),
        }),
      );
    },
  );
}

/** Temporary folders and listening sockets. */
async function isolationChecks(
  setup: Setup,
  daemon: TestDaemon,
  check: Checks["check"],
): Promise<void> {
  const call = caller(daemon);
  await check(
    "a value a tool caches in its temporary folder under one grant is not there under another (H2)",
    async () => {
      const wrote = await call("cache", { mode: "write" }, "trusted");
      assert.ok(
        wrote.output?.includes("beeuni-runner-"),
        JSON.stringify(wrote),
      );
      refused(await call("cache", { mode: "read" }, "plain"));
      if (setup.runners !== "bun") {
        // Nor can it look for it beside its own folder.
        refused(await call("cache", { mode: "peek" }, "plain"));
      }
    },
  );
  await check("a tool may listen on loopback (H2)", async () => {
    assert.deepEqual(await call("listen", { mode: "127.0.0.1" }), {
      output: "listening",
    });
  });
  if (setup.runners === "deno") {
    await check("a tool cannot listen on every address (H2)", async () => {
      refused(await call("listen", { mode: "0.0.0.0" }));
    });
  }
}

/** The hostile project: every tool above, and a helper module. */
async function hostileProject() {
  const repo = await tempRepo({
    "beeuni.yaml": MANIFEST,
    "lib/shared.ts": "export const shared = 1;\n",
    "tools/echo.ts": ECHO,
    "tools/junk.ts": JUNK_TOOL,
    "tools/noisy.ts": NOISY_TOOL,
    "tools/escape.ts": ESCAPE_TOOL,
    "tools/writer.ts": WRITER_TOOL,
    "tools/reader.ts": READER_TOOL,
    "tools/cache.ts": CACHE_TOOL,
    "tools/listen.ts": LISTEN_TOOL,
  });
  return repo;
}

/** Starts `setup`'s daemon on `dir` with `args`, and `API_KEY` in its secret store. */
async function daemonFor(
  setup: Setup,
  dir: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<TestDaemon> {
  const state = env.XDG_STATE_HOME ??
    await Deno.makeTempDir({ prefix: "beeuni_state_" });
  const { setSecret } = await import("../lib/secrets/mod.ts");
  await setSecret(dir, "API_KEY", "s3cr3t", { ...env, XDG_STATE_HOME: state });
  const daemon = await startDaemon(dir, {
    argv: [
      ...await setup.argv(),
      "--dir",
      dir,
      "--port",
      "0",
      "--no-opencode",
      // A check that fails waits this long at most.
      "--timeout-ms",
      "30000",
      ...setup.args,
      ...args,
    ],
    env: { TMPDIR: state, ...env, XDG_STATE_HOME: state },
  });
  if (env.XDG_STATE_HOME !== undefined) return daemon;
  return {
    ...daemon,
    async [Symbol.asyncDispose]() {
      await daemon.stop();
      await Deno.remove(state, { recursive: true }).catch(() => {});
    },
  };
}

/** The project's links, committed: to the state folder, to a folder outside, to the project itself, to its manifest. */
async function linkChecks(setup: Setup, check: Checks["check"]): Promise<void> {
  const state = await Deno.makeTempDir({ prefix: "beeuni_state_" });
  const outside = await Deno.makeTempDir({ prefix: "beeuni_outside_" });
  await Deno.writeTextFile(join(outside, "secret.txt"), "outside secret");
  await using repo = await tempRepo({
    "beeuni.yaml":
      "tools:\n  echo: tools/echo.ts\n  reader: tools/reader.ts\n  writer: tools/writer.ts\n",
    "lib/shared.ts": "export const shared = 1;\n",
    "tools/echo.ts": ECHO,
    "tools/reader.ts": READER_TOOL,
    "tools/writer.ts": WRITER_TOOL,
  });
  const dir = repo.dir;
  await Deno.symlink(state, join(dir, "state"));
  await Deno.symlink(outside, join(dir, "out"));
  await Deno.symlink(".", join(dir, "self"));
  await Deno.symlink("beeuni.yaml", join(dir, "cfg"));
  await git(dir, "add", "state", "out", "self", "cfg");
  await git(dir, "commit", "-q", "-m", "links");
  try {
    await using daemon = await daemonFor(setup, dir, [], {
      XDG_STATE_HOME: state,
    });
    const call = caller(daemon);
    const token = relative(state, daemon.tokenFile!);
    if (setup.runners === "node") {
      await check(
        "a Node.js runner does not start while a link leads past its grants, and says which (H2)",
        async () => {
          const result = await daemon.call("echo", {
            args: {},
            sessionId: "s",
            agent: "beeuni",
          });
          assert.equal(result.status, 404);
          assert.match(
            String(result.body.loadError),
            /^the project's symbolic link "[^"]+" leads .*Node\.js cannot deny a path: .*--runner deno/,
            JSON.stringify(result.body),
          );
        },
      );
      return;
    }
    if (setup.runners !== "deno") return;
    for (
      const path of [
        `state/${token}`,
        `self/state/${token}`,
        "out/secret.txt",
        "self/out/secret.txt",
        "self/self/out/secret.txt",
      ]
    ) {
      await check(
        `a link does not carry a read past the grant (${
          path.split("/")[0]
        }…) (H2)`,
        async () => {
          refused(
            await call("reader", { mode: "read", path: join(dir, path) }),
          );
        },
      );
    }
    for (const path of ["self/beeuni.yaml", "cfg", "out/new.txt"]) {
      await check(
        `a link does not carry a write past the grant (${path}) (H2)`,
        async () => {
          refused(
            await call("writer", { mode: "path", path: join(dir, path) }),
          );
        },
      );
    }
    await check(
      "tools still read the project through its own paths (H2)",
      async () => {
        assert.deepEqual(
          await call("reader", {
            mode: "read",
            path: join(dir, "lib/shared.ts"),
          }),
          { output: "export const shared = 1;\n" },
        );
        await answers(call);
      },
    );
    assert.equal(
      await Deno.readTextFile(join(outside, "secret.txt")),
      "outside secret",
    );
    assert.ok(!existsSync(join(outside, "new.txt")));
  } finally {
    await Deno.remove(state, { recursive: true }).catch(() => {});
    await Deno.remove(outside, { recursive: true }).catch(() => {});
  }
}

/** Runner folders of `state`'s daemons, as `beeuni-runner-<pid>-*`. */
function runnerFolders(state: string): string[] {
  return readdirSync(state).filter((name) => name.startsWith("beeuni-runner-"));
}

/** The processes whose command line names `word`. */
function running(word: string): number {
  return processes().filter((proc) => proc.cmdline.includes(word)).length;
}

/** `beeuni tools call` of a tool that writes junk to the channel. */
async function toolsCallChecks(
  setup: Setup,
  dir: string,
  check: Checks["check"],
): Promise<void> {
  await check(
    "beeuni tools call of a tool that writes junk to the channel fails that call with the reason, never a crash (H5)",
    async () => {
      const [program, ...args] = (await setup.argv()).map((arg) =>
        arg === DAEMON ? CLI : arg
      );
      const state = await Deno.makeTempDir({ prefix: "beeuni_state_" });
      try {
        const out = await runProgram(program, [
          ...args,
          "tools",
          "call",
          "junk",
          "--args",
          '{"mode":"results"}',
          ...setup.args,
        ], { cwd: dir, env: { XDG_STATE_HOME: state, TMPDIR: state } });
        if (setup.runners === "deno") {
          // Deno gives tool code no handle on the channel: the tool says so.
          assert.equal(out.code, 0, out.stderr);
          assert.match(out.stdout, /^refused: /);
        } else {
          assert.equal(out.code, 1, out.stderr);
          assert.equal(out.stdout, "");
          assert.match(
            out.stderr,
            /^the runner of tool "junk" ended while running the call: it broke the tool host's protocol \(results is not a list\)/,
          );
        }
        assert.ok(!/\n\s+at /.test(out.stderr), out.stderr);
      } finally {
        await Deno.remove(state, { recursive: true });
      }
    },
  );
}

/** Processes a tool leaves, and what a killed daemon leaves. */
async function leftoverChecks(
  setup: Setup,
  check: Checks["check"],
): Promise<void> {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  detach: tools/detach.ts\n  echo: tools/echo.ts\n",
    "lib/shared.ts": "export const shared = 1;\n",
    "tools/detach.ts": DETACH_TOOL,
    "tools/echo.ts": ECHO,
  });
  const state = await Deno.makeTempDir({ prefix: "beeuni_state_" });
  try {
    const env = { XDG_STATE_HOME: state };
    await check(
      "a process a tool starts detached ends when its runner is stopped (H1)",
      async () => {
        await using daemon = await daemonFor(setup, repo.dir, [
          "--allow-run",
          "--runner-idle-ms",
          "300",
        ], env);
        const seconds = 7_000 + Math.floor(Math.random() * 1_000);
        const result = await caller(daemon)("detach", { mb: seconds });
        assert.match(result.output ?? "", /^\d+$/, JSON.stringify(result));
        await waitFor(
          "the detached sleep to end with its idle runner",
          () => running(`sleep ${seconds}`) === 0,
        );
      },
    );
    await check(
      "a daemon killed outright leaves no runner running, and its runner folder is swept at the next start (H1)",
      async () => {
        const daemon = await daemonFor(setup, repo.dir, [], env);
        assert.deepEqual(await caller(daemon)("echo", {}), {
          output: "echo 1",
        });
        const folder = runnerFolders(state).find((name) =>
          name.startsWith(`beeuni-runner-${daemon.pid}-`)
        );
        assert.ok(folder, runnerFolders(state).join(","));
        await daemon.kill("SIGKILL");
        await waitFor(
          "the runners to end",
          () => running(folder) === 0 && running(`--dir ${repo.dir}`) === 0,
        );
        assert.ok(existsSync(join(state, folder)));
        await using next = await daemonFor(setup, repo.dir, [], env);
        assert.ok(
          !existsSync(join(state, folder)),
          "the old folder is still there",
        );
        assert.deepEqual(await caller(next)("echo", {}), { output: "echo 1" });
      },
    );
  } finally {
    await Deno.remove(state, { recursive: true }).catch(() => {});
  }
}

async function attack(setup: Setup): Promise<CheckResult[]> {
  const checks = new Checks();
  const check: Checks["check"] = (name, fn) => checks.check(name, fn);
  {
    await using repo = await hostileProject();
    await using daemon = await daemonFor(setup, repo.dir, [
      "--allow-write",
      join(REPO_ROOT, "lib"),
    ]);
    await channelChecks(setup, daemon, check);
    if (setup.runners !== "bun") await escapeChecks(setup, daemon, check);
    await isolationChecks(setup, daemon, check);
    if (setup.runners === "deno") {
      await governingChecks(repo.dir, daemon, check);
    }
    await toolsCallChecks(setup, repo.dir, check);
    await check(
      "the daemon answers after every attack",
      () => answers(caller(daemon)),
    );
  }
  await linkChecks(setup, check);
  await leftoverChecks(setup, check);
  return checks.results;
}

Deno.test({
  name:
    "hostile tools and a killed daemon, under Deno, Node.js 22, the newest Node.js, Bun, and Node.js and Bun with Deno runners (H1-H5)",
  async fn(t) {
    // Installs first, one per version, so that the runs do not race.
    await Promise.all(SETUPS.map((setup) => setup.argv()));
    const runs = await Promise.all(SETUPS.map(async (setup) => ({
      label: setup.label,
      results: await attack(setup),
    })));
    await reportChecks(t, runs);
  },
});
