// The MCP SDK's own clients against the daemon and `beeuni mcp`:
// @modelcontextprotocol/sdk 1.32.2 and @modelcontextprotocol/client 2.3.1,
// installed from npm into the test cache and run under Node 22.

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  mcpCommand,
  mcpDaemon,
  nodeBin,
  type Rpc,
  scriptFolder,
  tempProject,
  waitForFile,
} from "./_mcp.ts";
import { npmPackage } from "./_npm_cache.ts";

const SDK_V1 = ["@modelcontextprotocol/sdk", "1.32.2"] as const;
const SDK_V2 = ["@modelcontextprotocol/client", "2.3.1"] as const;

/** The SDK driver script running one client; one command in, one answer out. */
class Driver {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #lines: AsyncIterator<string>;
  stderr = "";

  constructor(node: string, dir: string, args: string[]) {
    const child = new Deno.Command(node, {
      args: [join(dir, "sdk_driver.mjs"), ...args],
      cwd: dir,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      env: { HOME: dir, NO_COLOR: "1" },
    }).spawn();
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    const lines = child.stdout.pipeThrough(new TextDecoderStream())
      .pipeThrough(splitLines());
    this.#lines = lines[Symbol.asyncIterator]();
    (async () => {
      for await (
        const text of child.stderr.pipeThrough(new TextDecoderStream())
      ) {
        this.stderr += text;
      }
    })();
  }

  async do(command: Record<string, unknown>): Promise<Rpc> {
    await this.#writer.write(
      new TextEncoder().encode(JSON.stringify(command) + "\n"),
    );
    const next = await this.#lines.next();
    if (next.done) throw new Error(`the driver ended:\n${this.stderr}`);
    const answer = JSON.parse(next.value);
    if (!answer.ok) {
      throw new Error(`${command.op} failed: ${answer.error}\n${this.stderr}`);
    }
    return answer.value;
  }

  async close(): Promise<void> {
    await this.do({ op: "close" }).catch(() => {});
    await this.#writer.close().catch(() => {});
    const status = await this.#child.status;
    assert.equal(status.code, 0, this.stderr);
  }
}

function splitLines(): TransformStream<string, string> {
  let buffer = "";
  return new TransformStream({
    transform(chunk, controller) {
      buffer += chunk;
      let newline;
      while ((newline = buffer.indexOf("\n")) !== -1) {
        controller.enqueue(buffer.slice(0, newline));
        buffer = buffer.slice(newline + 1);
      }
    },
    flush(controller) {
      if (buffer !== "") controller.enqueue(buffer);
    },
  });
}

async function until(
  what: string,
  check: () => Promise<boolean>,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function setDescription(dir: string, tool: string, description: string) {
  const file = join(dir, "tools", `${tool}.ts`);
  await Deno.writeTextFile(
    file,
    (await Deno.readTextFile(file)).replace(
      /description: "[^"]*"/,
      `description: ${JSON.stringify(description)}`,
    ),
  );
}

Deno.test("the MCP SDK clients list, call, get progress, cancel a hung tool and see list_changed over HTTP", async (t) => {
  const [node, v1, v2] = await Promise.all([
    nodeBin(),
    npmPackage(...SDK_V1),
    npmPackage(...SDK_V2),
  ]);
  await using daemon = await mcpDaemon();
  const url = `${daemon.url}/mcp`;
  const flavors = [
    { name: "sdk 1.32.2 (2025-11-25)", flavor: "v1", dir: v1, era: "legacy" },
    { name: "client 2.3.1 (2025-11-25)", flavor: "v2", dir: v2, era: "legacy" },
    {
      name: "client 2.3.1 (2026-07-28, server/discover)",
      flavor: "v2",
      dir: v2,
      era: "auto",
    },
  ];
  for (const [index, f] of flavors.entries()) {
    await t.step(f.name, async () => {
      await using folder = await scriptFolder(f.dir, ["sdk_driver.mjs"]);
      const driver = new Driver(node, folder.dir, [
        f.flavor,
        "http",
        url,
        f.era,
        daemon.token,
      ]);
      try {
        const connected = await driver.do({ op: "connect" });
        if (f.era === "auto") assert.equal(connected.era, "modern");
        const tools = await driver.do({ op: "list" });
        assert.ok(tools.length > 10);
        assert.deepEqual(
          tools.find((tool: { name: string }) => tool.name === "echo")
            .inputSchema,
          {
            type: "object",
            properties: {
              text: { type: "string", description: "What to echo" },
            },
            required: ["text"],
          },
        );
        const echo = await driver.do({
          op: "call",
          name: "echo",
          args: { text: f.name },
        });
        assert.deepEqual(echo.result.content, [{ type: "text", text: f.name }]);
        const record = await driver.do({
          op: "call",
          name: "record",
          args: { id: "x" },
        });
        assert.deepEqual(record.result.structuredContent, {
          id: "x",
          total: 3,
          tags: ["a", "b"],
        });
        const failed = await driver.do({ op: "call", name: "fails" });
        assert.equal(failed.result.isError, true);
        const steps = await driver.do({
          op: "call",
          name: "steps",
          // Time after the last report: the SDK clients handle a
          // notification a turn after a response that arrives with it.
          args: { n: 3, delayMs: 150 },
          progress: true,
        });
        assert.deepEqual(
          steps.progress.map((p: { progress: number }) => p.progress),
          [1, 2, 3],
        );
        assert.equal(steps.progress[2].message, "step 3 of 3");

        const tag = `sdk-${index}`;
        const cancelled = await driver.do({
          op: "cancel",
          name: "hang",
          args: { tag },
          whenFile: join(daemon.dir, `started-${tag}`),
        });
        assert.equal(cancelled.aborted, true);
        await waitForFile(join(daemon.dir, `aborted-${tag}`));
        const spun = await driver.do({
          op: "cancel",
          name: "spin",
          args: { tag },
          whenFile: join(daemon.dir, `spinning-${tag}`),
        });
        assert.deepEqual([spun.aborted, spun.started], [true, true]);
        // Once the daemon has seen the cancel (a client may move on first),
        // the host has stopped the blocked runner: the tool starts again
        // at once (a call queued behind the spinning one never would).
        const spinsAborted = () =>
          daemon.stderr().match(/call spin agent=beeuni \S+ \d+ms aborted/g)
            ?.length ?? 0;
        await until(
          "the daemon to see the cancel",
          () => Promise.resolve(spinsAborted() >= 2 * index + 1),
        );
        const again = await driver.do({
          op: "cancel",
          name: "spin",
          args: { tag: `${tag}-again` },
          whenFile: join(daemon.dir, `spinning-${tag}-again`),
        });
        assert.deepEqual([again.aborted, again.started], [true, true]);
        const after = await driver.do({
          op: "call",
          name: "echo",
          args: { text: "after" },
        });
        assert.deepEqual(after.result.content, [{
          type: "text",
          text: "after",
        }]);

        if (f.era === "auto") {
          assert.deepEqual(await driver.do({ op: "listen" }), {
            toolsListChanged: true,
          });
        } else {
          // The SDK opens its GET stream after connecting; give it a moment.
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        await setDescription(daemon.dir, "echo", `Echo (${index})`);
        await until(
          "list_changed",
          async () => await driver.do({ op: "changes" }) > 0,
        );
        const relisted = await driver.do({ op: "list" });
        assert.equal(
          relisted.find((tool: { name: string }) => tool.name === "echo")
            .description,
          `Echo (${index})`,
        );
      } finally {
        await driver.close();
      }
    });
  }
});

Deno.test("the MCP SDK clients talk to beeuni mcp over stdio", async (t) => {
  const [node, v1, v2] = await Promise.all([
    nodeBin(),
    npmPackage(...SDK_V1),
    npmPackage(...SDK_V2),
  ]);
  await using project = await tempProject();
  const command = JSON.stringify(mcpCommand(project.dir, "--no-watch"));
  for (
    const f of [
      { name: "sdk 1.32.2", flavor: "v1", dir: v1, era: "legacy" },
      { name: "client 2.3.1", flavor: "v2", dir: v2, era: "legacy" },
    ]
  ) {
    await t.step(f.name, async () => {
      await using folder = await scriptFolder(f.dir, ["sdk_driver.mjs"]);
      const driver = new Driver(node, folder.dir, [
        f.flavor,
        "stdio",
        command,
        f.era,
      ]);
      try {
        await driver.do({ op: "connect" });
        const names = (await driver.do({ op: "list" })).map((
          tool: { name: string },
        ) => tool.name);
        assert.ok(names.includes("memory") && names.includes("echo"));
        const memory = await driver.do({
          op: "call",
          name: "memory",
          args: {
            command: "create",
            path: "notes.md",
            file_text: "from stdio",
          },
        });
        assert.equal(
          memory.result.isError,
          undefined,
          JSON.stringify(memory.result),
        );
        assert.equal(
          await Deno.readTextFile(join(project.dir, "memory", "notes.md")),
          "from stdio",
        );
        await Deno.remove(join(project.dir, "memory"), { recursive: true });
        const steps = await driver.do({
          op: "call",
          name: "steps",
          args: { n: 2, delayMs: 150 },
          progress: true,
        });
        assert.equal(steps.progress.length, 2);
      } finally {
        await driver.close();
      }
    });
  }
});
