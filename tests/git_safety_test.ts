// The toolkit's own git runs (loading a project, keeping .opencode/ out of
// git) run nothing the repository's configuration names: a tool that
// writes .git/config gets no program run outside its sandbox (H2, V10, D3).

import assert from "node:assert/strict";
import {
  chmodSync,
  copyFileSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import {
  beeuni,
  git,
  REPO_ROOT,
  runProgram,
  tempDir,
  tempRepo,
} from "./_helpers.ts";
import { startDaemon } from "./_daemon.ts";

const ECHO = `export default {
  description: "Echo the text",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  execute: (args) => "echo:" + args.text,
};
`;

const FILES = {
  "beeuni.yaml": "tools:\n  echo: tools/echo.ts\n  fresh: tools/fresh.ts\n",
  "tools/echo.ts": ECHO,
  "tools/fresh.ts": ECHO,
  // Every file goes through the trap filter and diff and merge drivers.
  ".gitattributes": "* filter=trap diff=trap merge=trap\n",
  "vendor/lib.txt": "vendored\n",
};

/** Every hook githooks(5) names for git 2.39. */
const HOOKS = [
  "applypatch-msg",
  "pre-applypatch",
  "post-applypatch",
  "pre-commit",
  "pre-merge-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-rebase",
  "post-checkout",
  "post-merge",
  "pre-push",
  "pre-receive",
  "update",
  "proc-receive",
  "post-receive",
  "post-update",
  "reference-transaction",
  "push-to-checkout",
  "pre-auto-gc",
  "post-rewrite",
  "sendemail-validate",
  "fsmonitor-watchman",
  "p4-changelist",
  "p4-prepare-changelist",
  "p4-post-changelist",
  "p4-pre-submit",
  "post-index-change",
];

/** V10's warning for the untracked module, as `validate` prints it. */
const FRESH_WARNING =
  /beeuni\.yaml:3:\d+: warning: module "tools\/fresh\.ts" of tool "fresh" is not tracked by git/;

/**
 * A repository armed as a hostile tool would arm it: its config (and a
 * file it includes) names a program for every setting that can run one,
 * every hook exists, and a partial clone with a sparse index lacks a tree,
 * so that even `git ls-files` fetches it through an `ext::` transport.
 * Each program, when run, creates a file named after itself in `markers`.
 * Also a second worktree (its `.git` a file), with the untracked module.
 */
async function armedRepo() {
  const repo = await tempRepo(FILES, { untracked: ["tools/fresh.ts"] });
  const fixture = await Deno.makeTempDir({ prefix: "beeuni_trap_" });
  const markers = join(fixture, "markers");
  const bin = join(fixture, "bin");
  const hooks = join(fixture, "hooks");
  const worktree = join(fixture, "worktree");
  for (const dir of [markers, bin, hooks]) Deno.mkdirSync(dir);
  const program = (name: string, dir = bin) => {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\ntouch '${join(markers, name)}'\n`);
    chmodSync(path, 0o755);
    return path;
  };
  await git(repo.dir, "worktree", "add", "-q", "--detach", worktree);
  copyFileSync(
    join(repo.dir, "tools/fresh.ts"),
    join(worktree, "tools/fresh.ts"),
  );
  // A sparse index holding vendor/ as one tree entry, whose tree is gone.
  await git(repo.dir, "config", "index.sparse", "true");
  await git(repo.dir, "sparse-checkout", "set", "--cone", "tools");
  const tree = (await git(repo.dir, "rev-parse", "HEAD:vendor")).trim();
  rmSync(join(repo.dir, ".git/objects", tree.slice(0, 2), tree.slice(2)));
  for (const hook of HOOKS) {
    program(hook, hooks);
    program(hook, join(repo.dir, ".git/hooks"));
  }
  const included = join(fixture, "more.gitconfig");
  writeFileSync(
    included,
    `[core]
\tfsmonitor = ${program("fsmonitor-included")}
\thooksPath = ${hooks}
\tpager = ${program("pager-included")}
[gpg]
\tprogram = ${program("gpg")}
[gpg "ssh"]
\tprogram = ${program("gpg-ssh")}
[sequence]
\teditor = ${program("sequence-editor")}
[credential]
\thelper = !${program("credential-included")}
[log]
\tshowSignature = true
[alias]
\tls-files = !${program("alias")}
`,
  );
  const config = join(repo.dir, ".git/config");
  writeFileSync(
    config,
    readFileSync(config, "utf8") +
      `[core]
\trepositoryformatversion = 1
\tfsmonitor = ${program("fsmonitor")}
\thooksPath = ${hooks}
\tpager = ${program("pager")}
\tsshCommand = ${program("ssh")}
\tgitProxy = ${program("git-proxy")}
\taskPass = ${program("askpass")}
\talternateRefsCommand = ${program("alternate-refs")}
\teditor = ${program("editor")}
[extensions]
\tpartialClone = origin
[remote "origin"]
\turl = ext::sh -c touch% ${join(markers, "transport")}
\tpromisor = true
\tuploadpack = ${program("upload-pack")}
[protocol]
\tallow = always
[protocol "ext"]
\tallow = always
[pager]
\tls-files = ${program("pager-ls-files")}
\trev-parse = ${program("pager-rev-parse")}
[diff]
\texternal = ${program("diff-external")}
[diff "trap"]
\ttextconv = ${program("textconv")}
\tcommand = ${program("diff-driver")}
[filter "trap"]
\tclean = ${program("clean")}
\tsmudge = ${program("smudge")}
\tprocess = ${program("filter-process")}
\trequired = true
[merge "trap"]
\tdriver = ${program("merge-driver")}
[credential]
\thelper = !${program("credential")}
[include]
\tpath = ${included}
`,
  );
  return {
    dir: repo.dir,
    worktree,
    markers: () => readdirSync(markers).sort(),
    clearMarkers: () => {
      for (const name of readdirSync(markers)) rmSync(join(markers, name));
    },
    async [Symbol.asyncDispose]() {
      await repo[Symbol.asyncDispose]();
      await Deno.remove(fixture, { recursive: true });
    },
  };
}

Deno.test("validate, tools ls, tools call and the daemon run none of the programs a repository's config names, in a checkout and in a worktree (H2, V10, D3)", async () => {
  await using repo = await armedRepo();
  await using state = await tempDir("beeuni_state_");
  const env = { XDG_STATE_HOME: state.dir, TMPDIR: state.dir };

  // The trap is armed: a plain `git ls-files` runs the fsmonitor hook and
  // the transport of the lazy fetch.
  await runProgram("git", ["ls-files"], { cwd: repo.dir });
  const sprung = repo.markers();
  assert.ok(sprung.includes("transport"), sprung.join(", "));
  assert.ok(sprung.some((name) => name.startsWith("fsmonitor")), sprung.join());
  repo.clearMarkers();

  for (const dir of [repo.dir, repo.worktree]) {
    const where = relative(repo.dir, dir) || "the checkout";
    const validated = await beeuni(dir, ["validate"], { env });
    assert.equal(validated.code, 0, `${where}: ${validated.stderr}`);
    const printed = validated.stdout + validated.stderr;
    assert.match(printed, FRESH_WARNING, where);
    // The tracked module is known as tracked: the only warning is fresh's.
    assert.doesNotMatch(printed, /"tools\/echo\.ts"/, where);

    const listed = await beeuni(dir, ["tools", "ls"], { env });
    assert.equal(listed.code, 0, `${where}: ${listed.stderr}`);
    assert.match(listed.stdout, /^echo +project +tools\/echo\.ts$/m, where);
    assert.match(listed.stdout, /^fresh +project +tools\/fresh\.ts$/m, where);
    const json = await beeuni(dir, ["tools", "ls", "--json"], { env });
    assert.equal(json.code, 0, `${where}: ${json.stderr}`);
    assert.deepEqual(
      JSON.parse(json.stdout).tools.map((t: { name: string }) => t.name)
        .filter((name: string) => name === "echo" || name === "fresh"),
      ["echo", "fresh"],
      where,
    );

    const called = await beeuni(
      dir,
      ["tools", "call", "echo", "--args", '{"text": "hi"}'],
      { env },
    );
    assert.equal(called.code, 0, `${where}: ${called.stderr}`);
    assert.equal(called.stdout, "echo:hi\n", where);
    assert.deepEqual(repo.markers(), [], where);
  }

  // Each daemon keeps its .opencode/ out of git through the repository's
  // one exclude file, which the worktree shares.
  const exclude = join(repo.dir, ".git/info/exclude");
  for (const dir of [repo.worktree, repo.dir]) {
    const where = relative(repo.dir, dir) || "the checkout";
    await using daemon = await startDaemon(dir, {
      env: { XDG_CONFIG_HOME: join(state.dir, "config") },
    });
    const { status, body } = await daemon.call("echo", {
      args: { text: "daemon" },
      sessionId: "s1",
      agent: "beeuni",
    });
    assert.equal(status, 200, where);
    assert.equal(body.output, "echo:daemon", where);
    if (dir === repo.worktree) {
      assert.match(
        daemon.stderr(),
        /\[opencode\] added "\/\.opencode\/" to .*\/\.git\/info\/exclude/,
      );
    } else assert.doesNotMatch(daemon.stderr(), /\[opencode\] added/);
    assert.deepEqual(repo.markers(), [], where);
  }
  assert.equal(
    readFileSync(exclude, "utf8").split("\n")
      .filter((line) => line === "/.opencode/").length,
    1,
  );
  assert.deepEqual(repo.markers(), []);
});

Deno.test("the toolkit starts git only through gitSync() and git(), which switch off what the repository's config could run (H2)", () => {
  const starts =
    /\b(?:execFile|execFileSync|spawn|spawnSync|exec|execSync)\(\s*["'`]git\b|new Deno\.Command\(\s*["'`]git\b|Bun\.spawn\w*\(\s*\[\s*["'`]git\b/;
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else if (/\.[mc]?[jt]s$/.test(entry.name)) {
        const text = readFileSync(path, "utf8");
        if (starts.test(text)) found.push(relative(REPO_ROOT, path));
      }
    }
  };
  walk(join(REPO_ROOT, "lib"));
  assert.deepEqual(found, ["lib/common/git.ts"]);
});
