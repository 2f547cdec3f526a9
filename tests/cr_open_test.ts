// `beeuni cr open --title TEXT` against real git repositories, with a fake
// gh / glab on PATH that records its arguments and answers as the real
// CLI does, and with no forge CLI at all (S4).

import assert from "node:assert/strict";
import { join } from "node:path";
import { beeuni, git, tempDir, tempRepo } from "./_helpers.ts";

const TITLE = "Own the web_search tool";

/**
 * A folder for PATH holding git and, when given, a fake forge CLI named
 * `program` that records its arguments and folder in `<bin>/argv` and
 * `<bin>/cwd`, then prints `stdout` / `stderr` and exits with `code`.
 */
async function binFolder(
  fake?: { program: string; stdout: string; stderr: string; code: number },
): Promise<
  {
    dir: string;
    recorded(): { argv: string[]; cwd: string } | undefined;
    [Symbol.asyncDispose](): Promise<void>;
  }
> {
  const bin = await tempDir("beeuni_cr_bin_");
  await Deno.symlink("/usr/bin/git", join(bin.dir, "git"));
  if (fake) {
    await Deno.writeTextFile(join(bin.dir, "out.txt"), fake.stdout);
    await Deno.writeTextFile(join(bin.dir, "err.txt"), fake.stderr);
    const script = join(bin.dir, fake.program);
    await Deno.writeTextFile(
      script,
      `#!/bin/sh
here='${bin.dir}'
printf '%s\\0' "$@" > "$here/argv"
pwd > "$here/cwd"
/bin/cat "$here/err.txt" >&2
/bin/cat "$here/out.txt"
exit ${fake.code}
`,
    );
    await Deno.chmod(script, 0o755);
  }
  return {
    dir: bin.dir,
    recorded() {
      try {
        const argv = Deno.readTextFileSync(join(bin.dir, "argv"));
        return {
          argv: argv.split("\0").slice(0, -1),
          cwd: Deno.readTextFileSync(join(bin.dir, "cwd")).trim(),
        };
      } catch {
        return undefined;
      }
    },
    [Symbol.asyncDispose]: bin[Symbol.asyncDispose],
  };
}

/** A repository on branch `own-web-search` with `remote` as origin. */
async function repoWithRemote(remote: string) {
  const repo = await tempRepo({ "README.md": "# tools\n" });
  await git(repo.dir, "checkout", "-q", "-b", "own-web-search");
  await git(repo.dir, "remote", "add", "origin", remote);
  return repo;
}

const GH_CREATED = {
  program: "gh",
  stdout: "https://github.com/acme/tools/pull/7\n",
  stderr:
    "\nCreating pull request for own-web-search into main in acme/tools\n\n",
  code: 0,
};

Deno.test("cr open runs `gh pr create` with the title for a GitHub remote and reports the pull request gh printed (S4)", async () => {
  await using repo = await repoWithRemote("git@github.com:acme/tools.git");
  await using bin = await binFolder(GH_CREATED);
  const result = await beeuni(repo.dir, ["cr", "open", "--title", TITLE], {
    env: { PATH: bin.dir },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(bin.recorded(), {
    argv: ["pr", "create", "--title", TITLE, "--body", ""],
    cwd: await Deno.realPath(repo.dir),
  });
  assert.match(
    result.stdout,
    /^Opened pull request https:\/\/github\.com\/acme\/tools\/pull\/7$/m,
  );
  assert.match(result.stderr, /Creating pull request for own-web-search/);
  assert.doesNotMatch(result.stderr, /no pull request was opened/);
});

Deno.test("cr open runs `glab mr create` for a GitLab remote and reports the merge request glab printed (S4)", async () => {
  await using repo = await repoWithRemote("https://gitlab.com/acme/tools.git");
  await using bin = await binFolder({
    program: "glab",
    stdout:
      "\n!3 Own the web_search tool (own-web-search)\n https://gitlab.com/acme/tools/-/merge_requests/3\n\n",
    stderr:
      "\nCreating merge request for own-web-search into main in acme/tools\n\n",
    code: 0,
  });
  const result = await beeuni(repo.dir, ["cr", "open", "--title", TITLE], {
    env: { PATH: bin.dir },
  });
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(bin.recorded()?.argv, [
    "mr",
    "create",
    "--title",
    TITLE,
    "--description",
    "",
    "--yes",
  ]);
  assert.match(
    result.stdout,
    /^Opened merge request https:\/\/gitlab\.com\/acme\/tools\/-\/merge_requests\/3$/m,
  );
});

Deno.test("cr open without gh installed prints the push command and the page that opens the pull request by hand, and exits 1 (S4)", async () => {
  await using repo = await repoWithRemote(
    "https://someone:s3cret-token@github.com/acme/tools.git",
  );
  await using bin = await binFolder();
  const result = await beeuni(repo.dir, ["cr", "open", "--title", TITLE], {
    env: { PATH: bin.dir },
  });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, "");
  assert.equal(
    result.stderr,
    [
      "beeuni cr open: no pull request was opened: gh (the GitHub CLI) is not installed",
      "To open it by hand:",
      "  1. Push the branch: git push origin HEAD",
      "  2. Open https://github.com/acme/tools/compare/own-web-search?expand=1&title=Own%20the%20web_search%20tool",
      "",
    ].join("\n"),
  );
  assert.doesNotMatch(result.stderr, /s3cret/);
});

Deno.test("cr open relays gh's error and exits 1 without claiming a pull request when gh exits non-zero (S4)", async () => {
  await using repo = await repoWithRemote("https://github.com/acme/tools");
  await using bin = await binFolder({
    program: "gh",
    stdout: "",
    stderr:
      "pull request create failed: GraphQL: Head sha can't be blank, Base sha can't be blank, No commits between main and own-web-search, Head ref must be a branch (createPullRequest)\n",
    code: 1,
  });
  const result = await beeuni(repo.dir, ["cr", "open", "--title", TITLE], {
    env: { PATH: bin.dir },
  });
  assert.equal(result.code, 1);
  assert.ok(bin.recorded(), "gh ran");
  assert.doesNotMatch(result.stdout, /Opened/);
  assert.match(result.stderr, /pull request create failed: GraphQL/);
  assert.match(
    result.stderr,
    /beeuni cr open: no pull request was opened: "gh pr create" exited with code 1\nTo open it by hand:\n {2}1\. Push the branch: git push origin HEAD\n/,
  );
});

Deno.test("cr open exits 1 without claiming a pull request when gh exits 0 but prints no pull request address (S4)", async () => {
  await using repo = await repoWithRemote("https://github.com/acme/tools");
  await using bin = await binFolder({ ...GH_CREATED, stdout: "\n" });
  const result = await beeuni(repo.dir, ["cr", "open", "--title", TITLE], {
    env: { PATH: bin.dir },
  });
  assert.equal(result.code, 1);
  assert.doesNotMatch(result.stdout, /Opened/);
  assert.match(
    result.stderr,
    /gh exited 0 but printed no pull request address, so whether one was opened is unknown: check with `gh pr view`/,
  );
});

Deno.test("cr open runs no forge CLI for a remote on another forge, and says how to open the request by hand (S4)", async () => {
  await using repo = await repoWithRemote(
    "ssh://git@git.example.com/acme/tools.git",
  );
  await using bin = await binFolder(GH_CREATED);
  const result = await beeuni(repo.dir, ["cr", "open", "--title", TITLE], {
    env: { PATH: bin.dir },
  });
  assert.equal(result.code, 1);
  assert.equal(bin.recorded(), undefined, "gh did not run");
  assert.equal(
    result.stderr,
    [
      'beeuni cr open: no change request was opened: remote "origin" (ssh://git.example.com/acme/tools.git) is not on GitHub or GitLab',
      "To open it by hand:",
      "  1. Push the branch: git push origin HEAD",
      '  2. On the website of ssh://git.example.com/acme/tools.git, open a change request from branch "own-web-search" titled "Own the web_search tool"',
      "",
    ].join("\n"),
  );
});

Deno.test("cr open refuses a missing title, a repository with no remote and a detached HEAD with what to change (S4)", async () => {
  await using repo = await tempRepo({ "README.md": "# tools\n" });
  await using bin = await binFolder(GH_CREATED);
  const env = { PATH: bin.dir };
  const noTitle = await beeuni(repo.dir, ["cr", "open"], { env });
  assert.equal(noTitle.code, 2);
  assert.match(noTitle.stderr, /--title needs the change request's title/);

  const noRemote = await beeuni(repo.dir, ["cr", "open", "--title", TITLE], {
    env,
  });
  assert.equal(noRemote.code, 1);
  assert.match(
    noRemote.stderr,
    /no change request was opened: the repository has no remote named "origin"\nTo open it by hand:\n {2}1\. Add the forge's repository as a remote/,
  );

  await git(repo.dir, "checkout", "-q", "--detach");
  const detached = await beeuni(repo.dir, ["cr", "open", "--title", TITLE], {
    env,
  });
  assert.equal(detached.code, 1);
  assert.equal(
    detached.stderr,
    "beeuni cr open: cannot open a change request: HEAD is detached; check out the branch to open the request for\n",
  );
  assert.equal(bin.recorded(), undefined, "gh never ran");
});
