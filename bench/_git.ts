// The benchmarks' projects are git repositories, as real projects are (the
// loader asks git which files are tracked).

import { execFileSync } from "node:child_process";
import process from "node:process";

/** Makes `dir` a git repository with everything in it committed. */
export function gitCommitAll(dir: string): void {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: "Bench",
    GIT_AUTHOR_EMAIL: "bench@example.invalid",
    GIT_COMMITTER_NAME: "Bench",
    GIT_COMMITTER_EMAIL: "bench@example.invalid",
  };
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: dir, env, stdio: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "bench");
}
