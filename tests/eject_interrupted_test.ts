// `beeuni tools eject` killed halfway: what it leaves, and how the next run
// finishes the job and cleans up.

import assert from "node:assert/strict";
import { join } from "node:path";
import { beeuni, git, REPO_ROOT, tempRepo } from "./_helpers.ts";
import { stoppedAt } from "./_breakpoint.ts";

const MANIFEST =
  "tools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n";

function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
}

/** Runs eject, stops it between its two renames and kills it there. */
async function killedEject(dir: string): Promise<void> {
  const run = await stoppedAt(["tools", "eject", "web_search"], {
    file: "lib/cli/tools_eject.ts",
    text: "rename(toolTemp, toolPath)",
  }, { cwd: dir });
  await run.kill();
}

Deno.test("an eject killed between its writes never leaves the tool file with the manifest unchanged; running it again finishes and cleans up (E1, E2)", async () => {
  await using repo = await tempRepo({ "beeuni.yaml": MANIFEST });
  await killedEject(repo.dir);
  const manifest = Deno.readTextFileSync(join(repo.dir, "beeuni.yaml"));
  assert.match(
    manifest,
    /^ {2}web_search: tools\/web_search\.ts # ejected from beeuni:web_search$/m,
  );
  const leftovers = names(join(repo.dir, "tools"));
  assert.ok(!leftovers.includes("web_search.ts"), leftovers.join(", "));
  assert.equal(leftovers.length, 1);
  assert.match(leftovers[0], /^\.web_search\.ts\.[0-9a-f]{16}\.tmp$/);
  // validate names what is missing.
  const validate = await beeuni(repo.dir, ["validate"]);
  assert.notEqual(validate.code, 0);
  assert.match(validate.stdout + validate.stderr, /tools\/web_search\.ts/);

  // A minute later, the next run writes the tool file and removes the leftovers.
  const past = new Date(Date.now() - 120_000);
  Deno.utimeSync(join(repo.dir, "tools", leftovers[0]), past, past);
  const manifestTemp = join(repo.dir, ".beeuni.yaml.0123456789abcdef.tmp");
  Deno.writeTextFileSync(manifestTemp, "half a manifest");
  Deno.utimeSync(manifestTemp, past, past);
  const again = await beeuni(repo.dir, ["tools", "eject", "web_search"]);
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(
    Deno.readFileSync(join(repo.dir, "tools", "web_search.ts")),
    Deno.readFileSync(join(REPO_ROOT, "builtin_tools", "web_search.ts")),
  );
  assert.equal(Deno.readTextFileSync(join(repo.dir, "beeuni.yaml")), manifest);
  assert.deepEqual(names(join(repo.dir, "tools")), ["web_search.ts"]);
  // `git add -A` would commit only the eject's own two files.
  assert.equal(
    await git(repo.dir, "status", "--porcelain", "--untracked-files=all"),
    " M beeuni.yaml\n?? tools/web_search.ts\n",
  );
  assert.equal((await beeuni(repo.dir, ["validate"])).code, 0);
});

Deno.test("an eject whose tool file cannot be written puts the manifest back and leaves no temporary file (E2)", async () => {
  await using repo = await tempRepo({
    "beeuni.yaml": MANIFEST,
    "tools/web_search.ts/keep": "a folder where the tool file would go\n",
  });
  const result = await beeuni(repo.dir, [
    "tools",
    "eject",
    "web_search",
    "--force",
  ]);
  assert.equal(result.code, 1, result.stdout);
  assert.equal(
    Deno.readTextFileSync(join(repo.dir, "beeuni.yaml")),
    MANIFEST,
  );
  assert.deepEqual(names(join(repo.dir, "tools")), ["web_search.ts"]);
  assert.deepEqual(names(repo.dir), [".git", "beeuni.yaml", "tools"]);
});
