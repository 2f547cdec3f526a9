// The library's faces, from source under Deno: the root holds exactly the
// names docs/library.md lists, every entry point of deno.json loads by its
// package name and exports what the docs say it holds, the CLI's internals
// are on none of them, and the errors a caller tells apart are typed, carry
// their cause and keep the message the CLI prints (N1).

import assert from "node:assert/strict";
import { createServer } from "node:net";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, tempDir } from "./_helpers.ts";
import { createHost, loadProject, ManifestNotFoundError } from "@beeuni/tools";
import { locateManifest } from "@beeuni/tools/manifest";
import {
  DaemonNotRunningError,
  ListenError,
  locateDaemon,
  parseDaemonArgs,
  PortInUseError,
  startDaemon,
  UsageError,
} from "@beeuni/tools/daemon";
import { readSecrets, SecretStoreError } from "@beeuni/tools/secrets";
import type { Io } from "@beeuni/tools/runtime";

/** deno.json's `exports`: subpath to module. */
const EXPORTS: Record<string, string> = JSON.parse(
  readFileSync(join(REPO_ROOT, "deno.json"), "utf8"),
).exports;

const LIBRARY_MD = readFileSync(join(REPO_ROOT, "docs", "library.md"), "utf8");

const NAMES = new Map<string, Promise<string[]>>();

/** Every name a module exports, types included, as `deno doc` sees them. */
function exportedNames(file: string): Promise<string[]> {
  let names = NAMES.get(file);
  if (names === undefined) NAMES.set(file, names = docNames(file));
  return names;
}

async function docNames(file: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", file],
    cwd: REPO_ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const doc = JSON.parse(new TextDecoder().decode(out.stdout));
  const [node] = Object.values(
    doc.nodes as Record<string, { symbols: { name: string }[] }>,
  );
  return [...new Set(node.symbols.map((symbol) => symbol.name))].sort();
}

/** The text of the docs/library.md section under `## <title>`. */
function section(title: string): string {
  const start = LIBRARY_MD.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `docs/library.md has no "## ${title}"`);
  const end = LIBRARY_MD.indexOf("\n## ", start + 1);
  return LIBRARY_MD.slice(start, end < 0 ? undefined : end);
}

/** The first cells of a section's table rows, without their backticks. */
function firstCells(text: string): string[] {
  return [...text.matchAll(/^\| `([^`]+)` +\|/gm)].map((match) => match[1]);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

Deno.test("the root face holds exactly the names docs/library.md lists, 30 of them: a name joins or leaves it on purpose (N1)", async () => {
  const documented = firstCells(section("The root face")).sort();
  assert.equal(documented.length, 30);
  assert.deepEqual(await exportedNames("mod.ts"), documented);
});

Deno.test("every entry point of deno.json is documented, loads by its package name, and exports each name docs/library.md says it holds (N1)", async () => {
  const table = section("Entry points");
  const rows = new Map(
    [...table.matchAll(/^\| `(@beeuni\/tools[^`]*)` +\|(.*)\|$/gm)].map((
      match,
    ) => [match[1], match[2]]),
  );
  assert.deepEqual(
    [...rows.keys()].sort(),
    Object.keys(EXPORTS).map((subpath) =>
      subpath === "." ? "@beeuni/tools" : `@beeuni/tools${subpath.slice(1)}`
    ).sort(),
  );
  for (const [subpath, file] of Object.entries(EXPORTS)) {
    const specifier = subpath === "."
      ? "@beeuni/tools"
      : `@beeuni/tools${subpath.slice(1)}`;
    const loaded = await import(specifier);
    assert.ok(Object.keys(loaded).length > 0, `${specifier} exports no value`);
    const names = await exportedNames(file);
    const promised = [...rows.get(specifier)!.matchAll(/`([^`]+)`/g)]
      .map((match) => match[1]).filter((name) => IDENTIFIER.test(name));
    const missing = promised.filter((name) => !names.includes(name));
    assert.deepEqual(missing, [], `${specifier} lacks what the docs name`);
  }
});

Deno.test("what only the CLI uses is on no public entry point (N1)", async () => {
  const internals = [
    "V7_MESSAGE",
    "v3Message",
    "v8Message",
    "formatGithub",
    "undefinedAgentNote",
    "classifyEntry",
    "limitDiagnostics",
    "setBuiltinToolLocator",
    "runRunner",
    "setWebFiles",
    "privatePaths",
    "testPause",
    "isLoopbackHostname",
  ];
  for (const file of Object.values(EXPORTS)) {
    const names = await exportedNames(file);
    const leaked = internals.filter((name) => names.includes(name));
    assert.deepEqual(leaked, [], file);
  }
});

Deno.test("a folder with no beeuni.yaml in it or above makes loadProject, locateManifest and createHost throw a ManifestNotFoundError saying where it looked (M1, N1)", async () => {
  await using tmp = await tempDir();
  const message =
    `no beeuni.yaml found in "${tmp.dir}" or any folder above it: run beeuni inside a project, or pass --manifest PATH`;
  const check = (error: unknown) => {
    assert.ok(error instanceof ManifestNotFoundError);
    assert.ok(error instanceof Error);
    assert.equal(error.name, "ManifestNotFoundError");
    assert.equal(error.path, tmp.dir);
    assert.equal(error.message, message);
    return true;
  };
  await assert.rejects(loadProject({ cwd: tmp.dir }), check);
  assert.throws(() => locateManifest(tmp.dir), check);
  await assert.rejects(
    createHost({ directory: tmp.dir, log: () => {} }),
    check,
  );
  const missing = join(tmp.dir, "nope.yaml");
  await assert.rejects(
    loadProject({ cwd: tmp.dir, manifest: "nope.yaml" }),
    (error) => {
      assert.ok(error instanceof ManifestNotFoundError);
      assert.equal(error.path, missing);
      assert.equal(
        error.message,
        `cannot read manifest "nope.yaml": file not found (looked at ${missing})`,
      );
      return true;
    },
  );
});

/** An `Io` that keeps what is written. */
function memoryIo(cwd: string, env: Record<string, string>): Io & {
  out: string[];
} {
  const out: string[] = [];
  return {
    out,
    cwd,
    env,
    stdout: (text) => out.push(text),
    stderr: (text) => out.push(text),
    readStdin: () => Promise.resolve(""),
    color: false,
  };
}

Deno.test("startDaemon on a port another program holds throws a PortInUseError, a ListenError whose cause is the server's EADDRINUSE error, with the message the CLI prints (D7, N1)", async () => {
  await using repo = await tempDir();
  writeFileSync(join(repo.dir, "beeuni.yaml"), "tools: {}\n");
  const holder = createServer();
  await new Promise<void>((resolve) =>
    holder.listen(0, "127.0.0.1", () => resolve())
  );
  const port = (holder.address() as { port: number }).port;
  try {
    const io = memoryIo(repo.dir, {
      XDG_STATE_HOME: join(repo.dir, ".state"),
    });
    await assert.rejects(
      startDaemon({
        dir: repo.dir,
        port,
        hostname: "127.0.0.1",
        opencode: false,
        tokenFile: join(repo.dir, ".state", "token"),
      }, io),
      (error) => {
        assert.ok(error instanceof PortInUseError);
        assert.ok(error instanceof ListenError);
        assert.equal(error.name, "PortInUseError");
        assert.equal(error.hostname, "127.0.0.1");
        assert.equal(error.port, port);
        assert.equal((error.cause as { code?: string }).code, "EADDRINUSE");
        assert.equal(
          error.message,
          `cannot listen on 127.0.0.1:${port}: the port is in use (another daemon or program listens there); pass another --port, or --port 0 to pick a free one`,
        );
        return true;
      },
    );
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});

Deno.test("locateDaemon with no daemon of the project running throws a DaemonNotRunningError naming the project, and parseDaemonArgs a UsageError (N1)", async () => {
  await using tmp = await tempDir();
  assert.throws(
    () => locateDaemon(tmp.dir, { XDG_STATE_HOME: tmp.dir }),
    (error) => {
      assert.ok(error instanceof DaemonNotRunningError);
      assert.equal(error.name, "DaemonNotRunningError");
      assert.equal(error.root, tmp.dir);
      assert.equal(
        error.message,
        `no daemon of the project "${tmp.dir}" is running: start one with \`beeuni daemon\` in the project`,
      );
      return true;
    },
  );
  assert.throws(
    () => parseDaemonArgs(["--port", "70000"], tmp.dir),
    (error) => error instanceof UsageError,
  );
});

Deno.test("a secret store that cannot be read throws a SecretStoreError: the file system's error as its cause, and never the text of a broken file (D6, N1)", async () => {
  await using tmp = await tempDir();
  const folder = join(tmp.dir, "a-folder");
  mkdirSync(folder);
  assert.throws(
    () => readSecrets(tmp.dir, { BEEUNI_SECRETS_FILE: folder }),
    (error) => {
      assert.ok(error instanceof SecretStoreError);
      assert.equal(error.name, "SecretStoreError");
      assert.equal(error.path, folder);
      assert.equal((error.cause as { code?: string }).code, "EISDIR");
      assert.equal(
        error.message,
        `cannot read secret store "${folder}": EISDIR`,
      );
      return true;
    },
  );
  const broken = join(tmp.dir, "broken.json");
  writeFileSync(broken, '{"secrets": {"KEY": "s3cret-value"');
  assert.throws(
    () => readSecrets(tmp.dir, { BEEUNI_SECRETS_FILE: broken }),
    (error) => {
      assert.ok(error instanceof SecretStoreError);
      assert.equal(error.cause, undefined);
      assert.doesNotMatch(String(error.message), /s3cret/);
      return true;
    },
  );
});
