// The tool runners under Deno: a hostile tool is contained (H1), confined
// (H2) and bounded (H3), and whatever it throws becomes a short message at
// once (H4). Real runner processes, counted in /proc.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "./_daemon.ts";
import { call, manifest, project, tool } from "./_host.ts";
import {
  alive,
  cpuTicksOver,
  descendants,
  processes,
  runners,
} from "./_procs.ts";

/** The runner processes this test process started for the project at `dir`. */
function myRunners(dir: string) {
  return runners(descendants(Deno.pid)).filter((proc) =>
    proc.cmdline.includes(dir)
  );
}

/** Waits until no runner of the project at `dir` burns CPU (a spinning tool would). */
async function nothingSpins(dir: string): Promise<void> {
  await waitFor(
    "no runner to burn CPU",
    async () => await cpuTicksOver(myRunners(dir), 500) < 10,
  );
}

Deno.test("a tool spinning in execute or in a promise chain times out, and its runner is killed (H1)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["spin", "chain", "other"]),
    "tools/spin.ts": tool(`for (;;) {}`),
    "tools/chain.ts": tool(
      `const next = () => Promise.resolve().then(next); await next();`,
    ),
    "tools/other.ts": tool(`return "other";`),
  });
  for (const name of ["spin", "chain"]) {
    const hostile = call(p.host, name, {}, { timeoutMs: 1_000 });
    assert.deepEqual(await call(p.host, "other"), {
      ok: true,
      output: "other",
    });
    const outcome = await hostile;
    assert.equal(outcome.ok, false);
    if (!outcome.ok) assert.equal(outcome.status, "timeout");
    await nothingSpins(p.dir);
    assert.deepEqual(await call(p.host, "other"), {
      ok: true,
      output: "other",
    });
  }
  // Only the healthy tool's runner is left.
  await waitFor("one runner left", () => myRunners(p.dir).length === 1);
});

Deno.test("a module that spins at import fails to load within its timeout, once, and leaves nothing running (H1, T8)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["stuck", "fine"]),
    "tools/stuck.ts": `for (;;) {}\nexport default {};\n`,
    "tools/fine.ts": tool(`return "fine";`),
  }, { loadTimeoutMs: 3_000 });
  assert.deepEqual(p.host.loadErrors(), [{
    name: "stuck",
    reason: "importing the module did not finish within 3000 ms",
  }]);
  assert.equal(
    p.logs.filter((line) => line.includes("stuck:")).length,
    1,
    p.logs.join("\n"),
  );
  await nothingSpins(p.dir);
  // The loader is gone; what may remain is the runner started with the host
  // for its first call.
  assert.ok(myRunners(p.dir).length <= 1, `${myRunners(p.dir).length} runners`);
  assert.deepEqual(await call(p.host, "fine"), { ok: true, output: "fine" });
});

/** A tool that starts `sleep <seconds>` (a unique number, to find it) and then waits forever. */
function spawner(seconds: number): string {
  return tool(`
    const { spawn } = await import("node:child_process");
    spawn("sleep", ["${seconds}"], { stdio: "ignore" });
    await new Promise(() => {});`);
}

function sleeping(seconds: number): number[] {
  return processes()
    .filter((proc) => new RegExp(`(^|/)sleep ${seconds}$`).test(proc.cmdline))
    .map((proc) => proc.pid);
}

Deno.test("processes a tool starts end with its call's timeout and with the host (H1)", async () => {
  const seconds = 7_000 + Math.floor(Math.random() * 1_000);
  await using p = await project({
    "beeuni.yaml": manifest(["spawner"]),
    "tools/spawner.ts": spawner(seconds),
  }, {
    allowRun: true,
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
  });
  const outcome = await call(p.host, "spawner", {}, { timeoutMs: 1_500 });
  assert.equal(outcome.ok, false);
  await waitFor(
    "the tool's child to end",
    () => sleeping(seconds).length === 0,
  );
  // A child left by a call still running ends when the host closes.
  const pending = call(p.host, "spawner", {}, { timeoutMs: 60_000 });
  await waitFor("the child to start", () => sleeping(seconds).length === 1);
  await p.host.close();
  assert.equal((await pending).ok, false);
  await waitFor("the child to end", () => sleeping(seconds).length === 0);
});

Deno.test("under Deno a tool can neither start processes by default nor signal the host (H2)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["signals"]),
    "tools/signals.ts": tool(`
      const tries = {};
      for (const [what, attempt] of Object.entries({
        denoKill: () => Deno.kill(Deno.ppid, "SIGTERM"),
        processKill: async () => (await import("node:process")).default.kill(Deno.ppid, "SIGTERM"),
        spawn: () => new Deno.Command("/bin/true").outputSync(),
      })) {
        try { await attempt(); tries[what] = "allowed"; } catch (error) { tries[what] = error.message; }
      }
      return tries;`),
  });
  const outcome = await call(p.host, "signals");
  assert.equal(outcome.ok, true);
  if (outcome.ok) {
    const tries = JSON.parse(outcome.output);
    assert.match(tries.denoKill, /Requires run access|may not signal/);
    assert.match(tries.processKill, /may not signal|Requires run access/);
    assert.match(tries.spawn, /Requires run access/);
  }
  assert.ok(alive(Deno.pid));
});

Deno.test("module state left by a granted agent's call never reaches an agent without the grant (H2, D6)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(
      ["cache"],
      `agents:
  granted:
    secrets: [SECRET_A]
  plain: {}
`,
    ),
    "tools/cache.ts": `let seen;
export default {
  description: "Remembers the first SECRET_A it saw",
  parameters: { type: "object" },
  execute(_args, context) {
    seen ??= context.env.SECRET_A;
    return String(seen);
  },
};
`,
  }, { secrets: () => ({ SECRET_A: "s3cr3t" }) });
  assert.deepEqual(await call(p.host, "cache", {}, { agent: "granted" }), {
    ok: true,
    output: "s3cr3t",
  });
  assert.deepEqual(await call(p.host, "cache", {}, { agent: "plain" }), {
    ok: true,
    output: "undefined",
  });
  assert.deepEqual(await call(p.host, "cache", {}, { agent: "granted" }), {
    ok: true,
    output: "s3cr3t",
  });
});

Deno.test("a tool reads the project and writes in it, but nothing outside it (H2, T5)", async () => {
  await using outside = await Deno.makeTempFile({ prefix: "beeuni_outside_" })
    .then((path) => ({
      path,
      [Symbol.asyncDispose]: () => Deno.remove(path),
    }));
  await Deno.writeTextFile(outside.path, "private");
  await using p = await project({
    "beeuni.yaml": manifest(["files"]),
    "data/x.txt": "inside",
    "tools/files.ts": tool(`
      const fs = await import("node:fs/promises");
      const out = { inside: await fs.readFile("data/x.txt", "utf8") };
      await fs.writeFile("data/written.txt", "ok");
      try { out.outside = await fs.readFile(${
      JSON.stringify(outside.path)
    }, "utf8"); } catch (error) { out.outside = error.message; }
      try { await fs.writeFile(${
      JSON.stringify(outside.path)
    }, "x"); out.overwrote = true; } catch (error) { out.overwrote = error.message; }
      return out;`),
  });
  const outcome = await call(p.host, "files");
  assert.equal(outcome.ok, true);
  if (outcome.ok) {
    const out = JSON.parse(outcome.output);
    assert.equal(out.inside, "inside");
    assert.match(out.outside, /Requires read access/);
    assert.match(out.overwrote, /Requires write access/);
  }
  assert.equal(readFileSync(join(p.dir, "data/written.txt"), "utf8"), "ok");
  assert.equal(await Deno.readTextFile(outside.path), "private");
});

Deno.test("any thrown value becomes an error message at once, whatever its getters or traps do (H4)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["thrower"]),
    "tools/thrower.ts": tool(`
      switch (args.mode) {
        case "getter": throw { get message() { throw new Error("no"); } };
        case "proxy": throw new Proxy({}, { get() { throw 1; }, getPrototypeOf() { throw 2; }, ownKeys() { throw 3; } });
        case "error-getter": { const e = new Error("x"); Object.defineProperty(e, "message", { get() { throw 4; } }); throw e; }
        case "null-proto": throw Object.create(null);
      }`),
  });
  for (const mode of ["getter", "proxy", "error-getter", "null-proto"]) {
    const outcome = await call(p.host, "thrower", { mode }, {
      timeoutMs: 120_000,
    });
    assert.equal(outcome.ok, false, mode);
    if (!outcome.ok) {
      assert.equal(outcome.status, "error", mode);
      assert.match(outcome.error, /^the tool threw /, mode);
    }
  }
});

Deno.test("an error message over T6's limits is cut, and saved whole to a file (H4, T6)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["loud"]),
    "tools/loud.ts": tool(`throw new Error("e".repeat(300_000));`),
  });
  const outcome = await call(p.host, "loud");
  assert.equal(outcome.ok, false);
  if (!outcome.ok) {
    assert.equal(outcome.truncated, true);
    assert.equal(outcome.size, 300_000);
    assert.ok(new TextEncoder().encode(outcome.error).length <= 51_200);
    assert.ok(outcome.path && existsSync(outcome.path));
    assert.equal(readFileSync(outcome.path!, "utf8"), "e".repeat(300_000));
    assert.match(outcome.error, /the full output is in /);
  }
});

Deno.test("live runners stay within maxRunners however many tools were called, and stop when idle (H3)", async () => {
  const names = Array.from({ length: 10 }, (_, i) => `t${i}`);
  await using p = await project({
    "beeuni.yaml": manifest(names),
    ...Object.fromEntries(
      names.map((name) => [`tools/${name}.ts`, tool(`return "${name}";`)]),
    ),
  }, { maxRunners: 3, idleMs: 1_000 });
  for (const name of names) {
    assert.deepEqual(await call(p.host, name), { ok: true, output: name });
    assert.ok(
      myRunners(p.dir).length <= 3,
      `${myRunners(p.dir).length} runners`,
    );
  }
  await waitFor(
    "every runner to stop when idle",
    () => myRunners(p.dir).length === 0,
  );
});

Deno.test("closing a host while its modules load leaves no process behind (H1)", async () => {
  await using p = await project({
    "beeuni.yaml": manifest(["stuck", "fine"]),
    "tools/stuck.ts": `for (;;) {}\nexport default {};\n`,
    "tools/fine.ts": tool(`return "fine";`),
  }, { waitForLoad: false, loadTimeoutMs: 60_000 });
  await waitFor("the loader to start", () => myRunners(p.dir).length > 0);
  await p.host.close();
  await waitFor("every runner to end", () => myRunners(p.dir).length === 0);
});
