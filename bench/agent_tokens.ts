// What an agent token costs a call, side by side in one run against one
// daemon: the same call of a trivial tool with the daemon's own token
// ("daemon") and with an agent token made by `beeuni tokens new` ("agent"),
// whose check hashes the presented token and looks at the token file's
// stat. A third side ("agent, 100 stored") uses a token of a project whose
// file holds 100 tokens, on a second daemon, since every stored hash is
// compared.
//
//   deno run -A bench/agent_tokens.ts [--calls 500] [--rounds 7]

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { daemonEnv, TOKEN } from "./_daemon_env.ts";
import { type Server, spawnServer } from "./_process.ts";
import { latency, throughput } from "./_rounds.ts";
import { write } from "./_write.ts";

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    calls: { type: "string", default: "500" },
    rounds: { type: "string", default: "7" },
  },
});

const root = mkdtempSync(join(tmpdir(), "beeuni_bench_tokens_"));

/** A one-tool project in `dir` with agent "bench" and `count` agent tokens; the last one made. */
async function project(dir: string, count: number): Promise<string> {
  write(
    join(dir, "beeuni.yaml"),
    "tools:\n  echo: tools/echo.ts\nagents:\n  bench:\n    tools: [echo]\n",
  );
  write(
    join(dir, "tools/echo.ts"),
    `export default {
  description: "Echo the text.",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args: { text: string }) => args.text,
};
`,
  );
  let token = "";
  for (let i = 0; i < count; i++) {
    const made = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        join(REPO_ROOT, "cli.ts"),
        "tokens",
        "new",
        "--agent",
        "bench",
      ],
      cwd: dir,
      env: daemonEnv(root),
      stdout: "piped",
      stderr: "null",
    }).output();
    if (!made.success) throw new Error("beeuni tokens new failed");
    token = new TextDecoder().decode(made.stdout).trim();
  }
  return token;
}

function daemon(dir: string): Promise<Server> {
  return spawnServer([
    "run",
    "-A",
    join(REPO_ROOT, "daemon.ts"),
    "--dir",
    dir,
    "--port",
    "0",
    "--no-watch",
    "--no-opencode",
  ], { env: daemonEnv(root) });
}

interface Side {
  url: string;
  token: string;
}

async function callOnce(side: Side, text: string): Promise<void> {
  const response = await fetch(`${side.url}/beeuni/tools/echo`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${side.token}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({
      args: { text },
      sessionId: "bench",
      agent: "bench",
    }),
  });
  const body = await response.json();
  if (response.status !== 200 || body.output !== text) {
    throw new Error(
      `unexpected answer ${response.status}: ${JSON.stringify(body)}`,
    );
  }
}

const one = join(root, "one");
const many = join(root, "many");
const oneToken = await project(one, 1);
const manyToken = await project(many, 100);
const first = await daemon(one);
const second = await daemon(many);
try {
  const sides: Record<string, Side> = {
    daemon: { url: first.url, token: TOKEN },
    agent: { url: first.url, token: oneToken },
    "agent, 100 stored": { url: second.url, token: manyToken },
  };
  const calls = Number(flags.calls);
  const lat = await latency(sides, callOnce, { warmup: 50, calls });
  const rate = await throughput(sides, callOnce, {
    concurrency: 16,
    calls,
    rounds: Number(flags.rounds),
  });
  console.log(
    "| token | one call (ms) | ratio | calls/s, 16 in flight | ratio |",
  );
  console.log(
    "| ----- | ------------- | ----- | --------------------- | ----- |",
  );
  for (const name of Object.keys(sides)) {
    console.log(
      `| ${name} | ${lat[name].toFixed(3)} | ${
        (lat[name] / lat.daemon).toFixed(2)
      }x | ${Math.round(rate[name])} | ${
        (rate[name] / rate.daemon).toFixed(2)
      }x |`,
    );
  }
} finally {
  await first.stop();
  await second.stop();
  rmSync(root, { recursive: true, force: true });
}
