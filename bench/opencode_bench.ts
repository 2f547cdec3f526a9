// One tool in real opencode 1.18.33, called two ways side by side:
//
// 1. through the plugin the daemon writes (opencode -> plugin -> HTTP ->
//    daemon -> tool worker): the tool `echo` declared in beeuni.yaml;
// 2. as an in-process opencode custom tool (`.opencode/tools/echo_local.ts`,
//    the same body), which opencode imports and runs itself.
//
// Each call is one `opencode debug agent build --tool <name> --params ...`
// process. Both processes load the same plugin and the same custom tool, so
// start-up is the same on both sides and the difference is the call path.
// Rounds alternate between the sides; the figures are medians.
//
//   deno run -A bench/opencode_bench.ts [--quick]

import { join } from "node:path";
import {
  installOpencode,
  opencodeHome,
  parseDebugJson,
  runOpencode,
} from "../tests/_opencode.ts";
import { spawnServer } from "./_process.ts";
import { median } from "./_stats.ts";

const REPO_ROOT = join(import.meta.dirname!, "..");
const ROUNDS = Deno.args.includes("--quick") ? 3 : 9;

const ECHO_BODY = `async execute(args) {
    return "echo: " + String(args.text);
  },`;

async function main(): Promise<void> {
  await installOpencode();
  const project = await Deno.makeTempDir({ prefix: "beeuni_bench_oc_" });
  await using home = await opencodeHome();
  const files: Record<string, string> = {
    "beeuni.yaml": "tools:\n  echo: tools/echo.ts\n",
    "tools/echo.ts": `export default {
  description: "Echo the text back",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  ${ECHO_BODY}
};
`,
    ".opencode/tools/echo_local.ts": `export default {
  description: "Echo the text back",
  args: {},
  ${ECHO_BODY}
};
`,
  };
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(join(project, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(project, path), text);
  }
  await new Deno.Command("git", { args: ["init", "-q"], cwd: project })
    .output();
  const daemon = await spawnServer([
    "run",
    "-A",
    "--quiet",
    join(REPO_ROOT, "daemon.ts"),
    "--dir",
    project,
    "--port",
    "0",
    "--no-watch",
    "--opencode-config-dir",
    home.configDir,
  ], { env: { XDG_STATE_HOME: join(home.dir, "state") } });
  const call = async (tool: string) => {
    const start = performance.now();
    const result = await runOpencode(home, project, [
      "debug",
      "agent",
      "build",
      "--tool",
      tool,
      "--params",
      '{"text":"hi"}',
    ]);
    const ms = performance.now() - start;
    const output = (parseDebugJson(result.stdout) as {
      result?: { output?: string };
    }).result?.output;
    if (output !== "echo: hi") {
      throw new Error(`${tool} answered ${output}:\n${result.stderr}`);
    }
    return ms;
  };
  try {
    // Warm-up: opencode installs its plugin package into the config folder once.
    await call("echo");
    await call("echo_local");
    const plugin: number[] = [];
    const local: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        plugin.push(await call("echo"));
        local.push(await call("echo_local"));
      } else {
        local.push(await call("echo_local"));
        plugin.push(await call("echo"));
      }
    }
    // The call path alone, without opencode's start-up: the plugin file the
    // daemon wrote, loaded here, against the tool module's execute called
    // directly in this process.
    const { pathToFileURL } = await import("node:url");
    const pluginModule = await import(
      pathToFileURL(join(home.configDir, "plugins", "beeuni.ts")).href
    );
    const hooks = await pluginModule.BeeuniTools({
      directory: project,
      worktree: project,
    });
    const toolModule = await import(
      pathToFileURL(join(project, "tools", "echo.ts")).href
    );
    const ctx = {
      sessionID: "bench",
      messageID: "m",
      callID: "c",
      agent: "build",
      directory: project,
      worktree: project,
      abort: new AbortController().signal,
      metadata() {},
      ask: () => Promise.resolve(),
    };
    const viaPlugin: number[] = [];
    const direct: number[] = [];
    const CALLS = Deno.args.includes("--quick") ? 100 : 500;
    for (let i = 0; i < 50; i++) {
      await hooks.tool.echo.execute({ text: "hi" }, ctx);
      await toolModule.default.execute({ text: "hi" }, ctx);
    }
    for (let i = 0; i < CALLS; i++) {
      let start = performance.now();
      const a = await hooks.tool.echo.execute({ text: "hi" }, ctx);
      viaPlugin.push(performance.now() - start);
      start = performance.now();
      const b = await toolModule.default.execute({ text: "hi" }, ctx);
      direct.push(performance.now() - start);
      if (a !== b) throw new Error(`different answers: ${a} / ${b}`);
    }
    const p = median(plugin);
    const l = median(local);
    console.log(
      `opencode debug agent build --tool, ${ROUNDS} runs per side (medians)`,
    );
    console.log(`| path | median (ms) |`);
    console.log(`| --- | ---: |`);
    console.log(`| in-process custom tool (echo_local) | ${l.toFixed(0)} |`);
    console.log(`| plugin -> daemon (echo) | ${p.toFixed(0)} |`);
    console.log(`| difference | ${(p - l).toFixed(0)} |`);
    console.log(`| ratio | ${(p / l).toFixed(3)}x |`);
    console.log(
      `\none call, ${CALLS} sequential calls per side after 50 warm-up (medians)`,
    );
    console.log(`| path | median (ms) |`);
    console.log(`| --- | ---: |`);
    console.log(
      `| execute() in process | ${median(direct).toFixed(4)} |`,
    );
    console.log(
      `| plugin execute() -> HTTP -> daemon -> runner | ${
        median(viaPlugin).toFixed(3)
      } |`,
    );
    console.log(
      `runs (ms): plugin ${plugin.map((v) => v.toFixed(0)).join(", ")}; local ${
        local.map((v) => v.toFixed(0)).join(", ")
      }`,
    );
  } finally {
    await daemon.stop();
    await Deno.remove(project, { recursive: true });
  }
}

if (import.meta.main) {
  await main();
} else {
  Deno.bench({
    name: "opencode paths: run `deno run -A bench/opencode_bench.ts`",
    ignore: true,
    fn() {},
  });
}
