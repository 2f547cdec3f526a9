// The standard harness with real opencode 1.18.33 (D3, A2, A6, T4-T6): a
// real daemon writes its plugin into the project's .opencode/ (with
// opencode's home folders isolated), and opencode run in the project lists,
// describes and runs the daemon's tools through it, in `debug agent`, in
// `serve`, and in whole turns against a fake OpenAI-compatible model on
// 127.0.0.1, also after the daemon restarts on another port.

import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { git, tempRepo } from "./_helpers.ts";
import { startDaemon, waitFor } from "./_daemon.ts";
import {
  fakeModel,
  fakeProviderConfig,
  freePort,
  installOpencode,
  type ModelRequest,
  type OpencodeHome,
  opencodeHome,
  parseDebugJson,
  runOpencode,
  serveOpencode,
} from "./_opencode.ts";

const LOOKUP_SCHEMA = {
  type: "object",
  properties: {
    id: { type: "string", description: "The order id, e.g. A-7" },
    verbose: { type: "boolean", description: "Add the order's lines" },
  },
  required: ["id"],
  additionalProperties: false,
};

const FILES: Record<string, string> = {
  "beeuni.yaml": `tools:
  memory: beeuni:memory
  lookup_order: tools/lookup_order.ts
  fail_order: tools/fail_order.ts
  wait_abort: tools/wait_abort.ts
  big_output: tools/big_output.ts
agents:
  support:
    description: Answers questions about orders
    tools: [lookup_order, memory, read]
`,
  "tools/lookup_order.ts": `export default {
  description: "Look up an order by its id",
  parameters: ${JSON.stringify(LOOKUP_SCHEMA)},
  execute(args, context) {
    return "order " + args.id + " shipped" + (args.verbose ? " (2 lines)" : "") +
      " [agent " + context.agent + "]";
  },
};
`,
  "tools/fail_order.ts": `export default {
  description: "Fails on purpose",
  parameters: { type: "object", properties: {} },
  execute() {
    throw new Error("order store is offline");
  },
};
`,
  "tools/big_output.ts": `export default {
  description: "Prints 3000 numbered lines",
  parameters: { type: "object", properties: {} },
  execute() {
    return Array.from({ length: 3000 }, (_, i) => "line " + (i + 1)).join("\\n");
  },
};
`,
  "tools/wait_abort.ts": `import { writeFileSync } from "node:fs";
import { join } from "node:path";
export default {
  description: "Waits until the turn is stopped",
  parameters: { type: "object", properties: {} },
  execute(_args, context) {
    writeFileSync(join(context.directory, "started.txt"), "started");
    return new Promise((resolve) => {
      context.signal.addEventListener("abort", () => {
        writeFileSync(join(context.directory, "aborted.txt"), "aborted");
        resolve("stopped");
      });
    });
  },
};
`,
};

function toolsOf(json: Record<string, unknown>): Record<string, boolean> {
  return json.tools as Record<string, boolean>;
}

/** Runs `opencode run` in `cwd` and returns its JSON events' text. */
function run(
  home: OpencodeHome,
  cwd: string,
  prompt: string,
  extra: string[] = [],
) {
  return runOpencode(home, cwd, [
    "run",
    "--model",
    "fake/fake-model",
    "--format",
    "json",
    ...extra,
    prompt,
  ]);
}

/** Runs one tool through `opencode debug agent build --tool` in `cwd`. */
function runTool(
  home: OpencodeHome,
  cwd: string,
  tool: string,
  params: string,
) {
  return runOpencode(home, cwd, [
    "debug",
    "agent",
    "build",
    "--tool",
    tool,
    "--params",
    params,
  ]);
}

/**
 * Runs one tool as {@linkcode runTool} does, checks that opencode exited 0
 * and returns the tool's output from the JSON it printed.
 */
async function toolOutput(
  home: OpencodeHome,
  cwd: string,
  tool: string,
  params: string,
): Promise<string> {
  const result = await runTool(home, cwd, tool, params);
  assert.equal(result.code, 0, result.stderr);
  return (parseDebugJson(result.stdout) as { result: { output: string } })
    .result.output;
}

function lastUser(request: ModelRequest): string {
  const users = request.messages.filter((message) => message.role === "user");
  const content = users.at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content);
}

function toolMessages(request: ModelRequest): string[] {
  return request.messages.filter((message) => message.role === "tool").map((
    message,
  ) =>
    typeof message.content === "string"
      ? message.content
      : JSON.stringify(message.content)
  );
}

Deno.test({
  name:
    "real opencode lists, describes and runs the daemon's tools through its plugin (D3, A2, A6, T4, T5)",
  // opencode and the daemon are real processes, killed and awaited in each step.
  sanitizeResources: true,
  sanitizeOps: true,
  async fn(t) {
    await installOpencode();
    await using repo = await tempRepo(FILES);
    await using home = await opencodeHome();
    await using model = fakeModel((request) => {
      const tools = toolMessages(request);
      const prompt = lastUser(request);
      if (tools.length > 0) {
        return { text: `Final answer. Tools said: ${tools.join(" || ")}` };
      }
      if (prompt.includes("lookup and memory")) {
        return {
          toolCalls: [
            { name: "lookup_order", args: { id: "A-7" } },
            {
              name: "memory",
              args: { command: "create", path: "notes.md", file_text: "A-7" },
            },
          ],
        };
      }
      if (prompt.includes("fail")) {
        return { toolCalls: [{ name: "fail_order", args: {} }] };
      }
      if (prompt.includes("wait")) {
        return { toolCalls: [{ name: "wait_abort", args: {} }] };
      }
      return { text: "Nothing to do" };
    });
    await Deno.writeTextFile(
      join(repo.dir, "opencode.json"),
      fakeProviderConfig(model.baseURL),
    );
    // The daemon sees the same HOME and config folder as opencode; one
    // state folder for every daemon of the test, so restarts share it.
    const env = {
      HOME: home.env.HOME,
      XDG_CONFIG_HOME: home.env.XDG_CONFIG_HOME,
      XDG_STATE_HOME: home.env.XDG_STATE_HOME,
    };
    await using daemon = await startDaemon(repo.dir, { env });
    // By default: the project's own .opencode/, nothing in the home folders.
    const pluginFile = join(repo.dir, ".opencode", "plugins", "beeuni.ts");
    const dataFile = join(repo.dir, ".opencode", "plugins", "beeuni.json");
    /** The plugin's two files, as text. */
    const pluginFiles = () =>
      readFileSync(pluginFile, "utf8") + readFileSync(dataFile, "utf8");
    assert.equal(existsSync(pluginFile), true, daemon.stderr());
    assert.doesNotMatch(
      pluginFiles(),
      new RegExp(`:${daemon.port}\\b`),
    );
    assert.deepEqual(readdirSync(home.configDir), []);
    assert.equal(existsSync(join(home.env.HOME, ".config")), false);

    await t.step(
      "debug agent build lists the project tools and the Beeuni tools",
      async () => {
        const result = await runOpencode(home, repo.dir, [
          "debug",
          "agent",
          "build",
        ]);
        assert.equal(result.code, 0, result.stderr);
        const tools = toolsOf(parseDebugJson(result.stdout));
        for (
          const name of ["memory", "lookup_order", "fail_order", "wait_abort"]
        ) {
          assert.equal(
            tools[name],
            true,
            `${name} in ${JSON.stringify(tools)}`,
          );
        }
        assert.equal(tools.bash, true);
      },
    );

    await t.step(
      "debug agent --tool runs each tool through the plugin and the daemon",
      async () => {
        assert.equal(
          await toolOutput(home, repo.dir, "lookup_order", '{"id":"A-1"}'),
          "order A-1 shipped [agent build]",
        );

        const memory = await runTool(
          home,
          repo.dir,
          "memory",
          '{"command":"create","path":"/memories/plan.md","file_text":"ship A-1"}',
        );
        assert.equal(memory.code, 0, memory.stderr);
        assert.equal(
          readFileSync(join(repo.dir, "memory", "plan.md"), "utf8"),
          "ship A-1",
        );

        const failing = await runTool(home, repo.dir, "fail_order", "{}");
        assert.match(failing.stdout + failing.stderr, /order store is offline/);
      },
    );

    await t.step(
      "GET /experimental/tool of opencode serve shows the exact JSON Schemas, and a stopped turn aborts the tool (T5)",
      async () => {
        await using server = await serveOpencode(home, repo.dir);
        const base = `http://127.0.0.1:${server.port}`;
        let listed: {
          id: string;
          description: string;
          parameters: unknown;
        }[] = [];
        const deadline = Date.now() + 90_000;
        while (!listed.some((tool) => tool.id === "lookup_order")) {
          if (Date.now() > deadline) {
            throw new Error("opencode serve did not list the tools in time");
          }
          try {
            // The first request may wait on opencode's start; never wait forever.
            const response = await fetch(
              `${base}/experimental/tool?provider=anthropic&model=claude-sonnet-4`,
              { signal: AbortSignal.timeout(20_000) },
            );
            if (response.ok) listed = await response.json();
            else await response.body?.cancel();
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }
        const lookup = listed.find((tool) => tool.id === "lookup_order")!;
        assert.equal(lookup.description, "Look up an order by its id");
        assert.deepEqual(lookup.parameters, LOOKUP_SCHEMA);
        const memory = listed.find((tool) => tool.id === "memory")!;
        const served = await daemon.fetch("/beeuni/tools");
        const body = await served.json() as {
          tools: { name: string; parameters: unknown }[];
        };
        assert.deepEqual(
          memory.parameters,
          body.tools.find((tool) => tool.name === "memory")!.parameters,
        );

        // A stopped turn (opencode's stop button: POST /session/<id>/abort)
        // aborts the call, and so the tool's context.signal (T5).
        const session = await (await fetch(`${base}/session`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}",
        })).json() as { id: string };
        const prompt = await fetch(
          `${base}/session/${session.id}/prompt_async`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({
              model: { providerID: "fake", modelID: "fake-model" },
              parts: [{ type: "text", text: "please wait" }],
            }),
          },
        );
        await prompt.body?.cancel();
        assert.equal(prompt.ok, true);
        // A turn of opencode's on a machine busy with the whole suite may
        // take longer than the usual guard.
        await waitFor(
          "the tool to start",
          () => existsSync(join(repo.dir, "started.txt")),
          90_000,
        );
        assert.equal(existsSync(join(repo.dir, "aborted.txt")), false);
        const stop = await fetch(`${base}/session/${session.id}/abort`, {
          method: "POST",
        });
        await stop.body?.cancel();
        assert.equal(stop.ok, true);
        await waitFor(
          "the tool to see the abort",
          () => existsSync(join(repo.dir, "aborted.txt")),
          90_000,
        ).catch((error) => {
          throw new Error(`${error.message}\n${daemon.stderr()}`);
        });
        assert.match(
          daemon.stderr(),
          new RegExp(
            `wait_abort.*${session.id}.*aborted`,
          ),
        );
      },
    );

    await t.step(
      "a whole turn calls a project tool and memory, and the answer holds their outputs",
      async () => {
        const result = await run(home, repo.dir, "use lookup and memory");
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, /Final answer\. Tools said: /);
        assert.match(result.stdout, /order A-7 shipped \[agent build\]/);
        assert.equal(
          readFileSync(join(repo.dir, "memory", "notes.md"), "utf8"),
          "A-7",
        );
        const withTools = model.requests.filter((request) =>
          toolMessages(request).length > 0
        );
        const seen = toolMessages(withTools.at(-1)!).join("\n");
        assert.match(seen, /order A-7 shipped/);
        assert.match(seen, /notes\.md/);
      },
    );

    await t.step(
      "a tool error reaches the model as an error (T4)",
      async () => {
        const before = model.requests.length;
        const result = await run(home, repo.dir, "please fail");
        assert.equal(result.code, 0, result.stderr);
        const events = result.stdout.split("\n").filter((line) =>
          line.startsWith("{")
        ).map((line) => JSON.parse(line));
        const call = events.find((event) =>
          event.type === "tool_use" && event.part?.tool === "fail_order"
        );
        assert.equal(call?.part.state.status, "error", result.stdout);
        assert.equal(call?.part.state.error, "order store is offline");
        const next = model.requests.slice(before).find((request) =>
          toolMessages(request).length > 0
        )!;
        assert.deepEqual(toolMessages(next), ["order store is offline"]);
      },
    );

    await t.step(
      "an agent that may not see a tool does not get it (A2, A6)",
      async () => {
        const debug = await runOpencode(home, repo.dir, [
          "debug",
          "agent",
          "support",
        ]);
        assert.equal(debug.code, 0, debug.stderr);
        const tools = toolsOf(parseDebugJson(debug.stdout));
        assert.equal(tools.lookup_order, true);
        assert.equal(tools.memory, true);
        assert.equal(tools.read, true);
        for (
          const name of ["fail_order", "wait_abort", "bash", "edit", "write"]
        ) {
          assert.equal(
            tools[name],
            false,
            `${name} in ${JSON.stringify(tools)}`,
          );
        }
        const before = model.requests.length;
        const result = await run(home, repo.dir, "use lookup and memory", [
          "--agent",
          "support",
        ]);
        assert.equal(result.code, 0, result.stderr);
        assert.match(result.stdout, /order A-7 shipped \[agent support\]/);
        const sent = model.requests.slice(before).find((request) =>
          (request.tools?.length ?? 0) > 0
        )!;
        const names = sent.tools!.map((tool) => tool.function.name).sort();
        assert.ok(names.includes("lookup_order"), names.join(", "));
        assert.ok(names.includes("memory"), names.join(", "));
        for (
          const name of ["fail_order", "wait_abort", "bash", "edit", "write"]
        ) {
          assert.equal(names.includes(name), false, names.join(", "));
        }
      },
    );

    await t.step(
      "a truncated output keeps the path of the daemon's saved file (T6)",
      async () => {
        const output = await toolOutput(home, repo.dir, "big_output", "{}");
        assert.match(output, /^line 1\nline 2\n/);
        const path = /Full output saved to: (\S+)/.exec(output)?.[1];
        assert.ok(path, output.slice(-400));
        assert.equal(
          readFileSync(path, "utf8").split("\n").at(-1),
          "line 3000",
        );
      },
    );

    await t.step(
      "a reload rewrites the plugin's data and opencode runs the new tool (D5)",
      async () => {
        await Deno.writeTextFile(
          join(repo.dir, "tools/late.ts"),
          `export default {
  description: "Added while the daemon runs",
  parameters: { type: "object", properties: {} },
  execute: () => "late answer",
};
`,
        );
        const manifest = join(repo.dir, "beeuni.yaml");
        await Deno.writeTextFile(
          manifest,
          (await Deno.readTextFile(manifest)).replace(
            "agents:",
            "  late_tool: tools/late.ts\nagents:",
          ),
        );
        await waitFor(
          "the plugin to list late_tool",
          () => readFileSync(dataFile, "utf8").includes('"late_tool"'),
        ).catch((error) => {
          throw new Error(`${error.message}\n${daemon.stderr()}`);
        });
        assert.equal(
          await toolOutput(home, repo.dir, "late_tool", "{}"),
          "late answer",
        );
      },
    );

    await t.step(
      "a daemon restarted on another port answers through the unchanged plugin (D3)",
      async () => {
        const before = pluginFiles();
        assert.equal(await daemon.stop(), 0);
        let port = freePort();
        while (port === daemon.port) port = freePort();
        await using restarted = await startDaemon(repo.dir, {
          env,
          args: ["--port", String(port)],
        });
        assert.equal(restarted.port, port);
        assert.equal(pluginFiles(), before);
        assert.equal(
          await toolOutput(home, repo.dir, "lookup_order", '{"id":"A-9"}'),
          "order A-9 shipped [agent build]",
        );
      },
    );

    await t.step(
      "git sees nothing of the project's .opencode/, not even what opencode installed there",
      async () => {
        assert.ok(existsSync(join(repo.dir, ".opencode", "node_modules")));
        const status = await git(
          repo.dir,
          "status",
          "--porcelain",
          "--untracked-files=all",
        );
        assert.doesNotMatch(status, /\.opencode/);
        assert.match(status, /opencode\.json/);
      },
    );

    await daemon.stop();

    await t.step(
      "with the daemon down opencode still loads, and each tool answers that it is down (D3)",
      async () => {
        const listed = await runOpencode(home, repo.dir, [
          "debug",
          "agent",
          "build",
        ]);
        assert.equal(listed.code, 0, listed.stderr);
        assert.equal(toolsOf(parseDebugJson(listed.stdout)).lookup_order, true);
        const result = await runTool(
          home,
          repo.dir,
          "lookup_order",
          '{"id":"A-1"}',
        );
        assert.match(
          result.stdout + result.stderr,
          /the beeuni daemon is not running.*start it with `beeuni daemon --dir /,
        );
      },
    );
  },
});
