// Tools under a real daemon cannot reach what is the daemon's (H2), and
// what they start does not outlive it (H1).

import assert from "node:assert/strict";
import { tempRepo } from "./_helpers.ts";
import { startDaemon, waitFor } from "./_daemon.ts";
import { processes } from "./_procs.ts";
import { secretsFile, setSecret } from "../lib/secrets/mod.ts";
import {
  BIG_OUTPUT_TOOL,
  checkBigOutput,
  checkSavedOutputsConfined,
} from "./_big_output.ts";

const CALL = { sessionId: "s1", agent: "beeuni" };

const SNOOP = `import { readFileSync } from "node:fs";
import process from "node:process";
function attempt(read) {
  try { return read(); } catch (error) { return "refused: " + error.message; }
}
export default {
  description: "Looks for the daemon's secrets",
  parameters: { type: "object", properties: { tokenFile: { type: "string" }, store: { type: "string" } } },
  execute(args) {
    return {
      denoEnv: Deno.env.get("BEEUNI_DAEMON_TOKEN") ?? null,
      processEnv: process.env.BEEUNI_DAEMON_TOKEN ?? null,
      tokenFile: attempt(() => readFileSync(args.tokenFile, "utf8")),
      store: attempt(() => readFileSync(args.store, "utf8")),
    };
  },
};
`;

Deno.test("a tool reads neither the daemon's token, from its environment or its file, nor the secret store (H2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  snoop: tools/snoop.ts\n",
    "tools/snoop.ts": SNOOP,
  });
  const state = await Deno.makeTempDir({ prefix: "beeuni_state_" });
  try {
    const env = { XDG_STATE_HOME: state };
    await setSecret(repo.dir, "API_KEY", "very-secret", env);
    const store = secretsFile(repo.dir, env);
    await using generated = await startDaemon(repo.dir, {
      env,
      args: ["--no-opencode"],
    });
    const fromFile = await generated.call("snoop", {
      args: { tokenFile: generated.tokenFile, store },
      ...CALL,
    });
    const seen = JSON.parse(fromFile.body.output as string);
    assert.equal(seen.denoEnv, null);
    assert.equal(seen.processEnv, null);
    assert.match(seen.tokenFile, /^refused: .*Requires read access/);
    assert.match(seen.store, /^refused: .*Requires read access/);
    assert.ok(!fromFile.body.output?.toString().includes(generated.token));
    assert.ok(!fromFile.body.output?.toString().includes("very-secret"));
    await generated.stop();

    const token = "a".repeat(40);
    await using given = await startDaemon(repo.dir, {
      env: { ...env, BEEUNI_DAEMON_TOKEN: token },
      args: ["--no-opencode"],
    });
    const fromEnv = await given.call("snoop", {
      args: { tokenFile: "/nonexistent", store },
      ...CALL,
    });
    const seenEnv = JSON.parse(fromEnv.body.output as string);
    assert.equal(seenEnv.denoEnv, null);
    assert.equal(seenEnv.processEnv, null);
  } finally {
    await Deno.remove(state, { recursive: true });
  }
});

Deno.test("what a tool started ends when the daemon is stopped or killed (H1)", async () => {
  const seconds = 8_000 + Math.floor(Math.random() * 1_000);
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  spawner: tools/spawner.ts\n",
    "tools/spawner.ts": `import { spawn } from "node:child_process";
export default {
  description: "Starts a long sleep and returns",
  parameters: { type: "object" },
  execute() {
    spawn("sleep", [String(${seconds})], { stdio: "ignore" });
    return "started";
  },
};
`,
  });
  const sleeping = () =>
    processes().filter((proc) =>
      new RegExp(`(^|/)sleep ${seconds}$`).test(proc.cmdline)
    ).length;
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    await using daemon = await startDaemon(repo.dir, {
      args: ["--no-opencode", "--allow-run"],
    });
    assert.deepEqual(
      (await daemon.call("spawner", { args: {}, ...CALL })).body,
      { output: "started" },
    );
    await waitFor("the sleep to start", () => sleeping() === 1);
    await daemon.kill(signal);
    await waitFor(`the sleep to end after ${signal}`, () => sleeping() === 0);
  }
});

Deno.test("a tool that calls the daemon without its token is refused (H2, D7)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  caller: tools/caller.ts\n  echo: tools/echo.ts\n",
    "tools/echo.ts":
      `export default { description: "Echo", parameters: { type: "object" }, execute: () => "echo" };\n`,
    "tools/caller.ts": `export default {
  description: "Calls the daemon it runs under",
  parameters: { type: "object", properties: { url: { type: "string" } } },
  async execute(args) {
    const response = await fetch(args.url + "/beeuni/tools/echo", {
      method: "POST",
      body: JSON.stringify({ args: {}, sessionId: "x", agent: "other" }),
    });
    return String(response.status);
  },
};
`,
  });
  await using daemon = await startDaemon(repo.dir, { args: ["--no-opencode"] });
  assert.deepEqual(
    (await daemon.call("caller", { args: { url: daemon.url }, ...CALL })).body,
    { output: "401" },
  );
});

Deno.test("a tool may write to the folder of saved outputs, where its runner saves long outputs, but neither list it nor read them (H2, T6)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": "tools:\n  big: tools/big.ts\n",
    "tools/big.ts": BIG_OUTPUT_TOOL,
  });
  await using daemon = await startDaemon(repo.dir, { args: ["--no-opencode"] });
  const saved = await checkBigOutput(daemon, "big", 2);
  await checkSavedOutputsConfined(daemon, "big", saved);
});
