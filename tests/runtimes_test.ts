// The runtime matrix (N1, N3): the same scenario, from the source files,
// under Deno, Node.js 22, the newest Node.js and Bun, the four runs side by
// side. What passes here is what the README claims for each runtime.

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { CLI, REPO_ROOT } from "./_helpers.ts";
import { DAEMON, startDaemon, type TestDaemon, waitFor } from "./_daemon.ts";
import {
  bunBin,
  type CheckResult,
  Checks,
  matrixProject,
  reference,
  removeMatrixTemplate,
  reportChecks,
  runArgv,
  RUNTIMES,
  type TestRuntime,
} from "./_runtimes.ts";
import { createHost } from "../mod.ts";

const SMOKE = `import process from "node:process";
import { createHost, formatToolsTable, loadProject } from ${
  JSON.stringify(join(REPO_ROOT, "mod.ts"))
};
import { runtimeName } from ${
  JSON.stringify(join(REPO_ROOT, "lib", "runtime", "mod.ts"))
};
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
  if (rt.kind === "deno") {
    await check(
      "expected to fail under Deno: a tool importing an npm package from the project's node_modules does not load (the toolkit's import map applies; the tool runner's job)",
      async () => {
        const { status } = await call("to_ms", { text: "2h" });
        assert.equal(status, 404);
        assert.match(
          daemon.stderr(),
          /\[tools\] {3}to_ms: the module threw while loading: Cannot find package 'ms'.*Import "ms" not a dependency/,
        );
      },
    );
  } else {
    await check(
      "a tool importing an npm package from the project's node_modules runs",
      async () => {
        const { body } = await call("to_ms", { text: "2h" });
        assert.deepEqual(body, { output: "7200000" });
      },
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

/** Runs the scenario under `rt` and returns each check's outcome. */
async function scenario(rt: TestRuntime): Promise<CheckResult[]> {
  const checks = new Checks();
  const check = async (name: string, fn: () => Promise<void>) => {
    await checks.check(name, fn);
  };
  const argv = await rt.argv();
  await using project = await matrixProject();
  const dir = project.dir;
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
  let daemon: TestDaemon | undefined;
  await check("the daemon starts", async () => {
    daemon = await startDaemon(dir, {
      argv: [...argv, DAEMON, "--dir", dir, "--port", "0", "--no-opencode"],
    });
  });
  if (daemon) {
    try {
      await daemonChecks(rt, dir, daemon, check);
    } finally {
      const code = await daemon.stop();
      await check("SIGTERM stops the daemon with exit code 0", () => {
        assert.equal(code, 0, daemon!.stderr());
        return Promise.resolve();
      });
    }
  }
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
