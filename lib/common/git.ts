/**
 * Running git on a project's repository so that nothing the repository
 * configures runs a program.
 *
 * The repository's own configuration (`.git/config`, `config.worktree`,
 * the files they include) can be written by whatever writes the project,
 * a hosted tool included; the user's global and system configuration are
 * the user's. Many of git's settings name a program git runs, so every
 * git the toolkit starts goes through {@linkcode gitSync} (or
 * {@linkcode git}, the same without blocking), which runs only
 * the read-only commands of {@linkcode GitReadCommand} and sets, on the
 * command line (which wins over every configuration file) and in the
 * environment, what switches off each program those commands can reach:
 *
 * - `core.fsmonitor`: the hook run on every read of the index. Set empty,
 *   which every git version takes as off (before 2.36, `false` named a
 *   program).
 * - `core.hooksPath`: hooks. Pointed at `/dev/null`, where no hook exists
 *   (an empty value would look in `/`).
 * - `core.pager`, `pager.<command>`: `--no-pager`.
 * - Transports, reached when a partial clone fetches a missing object
 *   (`extensions.partialClone` with a sparse index makes even `ls-files`
 *   fetch): `remote.<name>.url` (`ext::` runs any command),
 *   `remote.<name>.uploadpack`, `core.sshCommand`, `core.gitProxy`,
 *   `protocol.<name>.allow`. `GIT_ALLOW_PROTOCOL` empty allows no
 *   transport whatever the configuration says; `GIT_NO_LAZY_FETCH` stops
 *   the fetch itself where git knows it (2.45, and the security releases
 *   from 2.39.4 on).
 * - `credential.helper`, `core.askPass`: set empty (no helper, no
 *   program), and `GIT_TERMINAL_PROMPT=0`.
 *
 * `config --get` reads settings and runs nothing. The read-only commands never reach the other settings that name a
 * program, which is why no other command is accepted: content filters
 * and drivers (`filter.<driver>.clean`, `.smudge`, `.process`,
 * `diff.<driver>.textconv`, `.command`, `merge.<driver>.driver`; their
 * names are chosen in `.gitattributes`, so they cannot be switched off
 * from the command line) and `diff.external` run only when git reads
 * or writes file contents or diffs; `gpg.program` when signing or
 * verifying; `core.editor` and `sequence.editor` in interactive
 * commands; `core.alternateRefsCommand` when serving a fetch or push;
 * `gc.auto` and `maintenance.auto` after commands that write; aliases
 * never replace a built-in command. `include.path` and `includeIf` only
 * read more configuration, which the command line still overrides; a
 * file that blocks when read (a FIFO) is cut short by the timeout.
 *
 * @module
 */

import { execFile, execFileSync } from "node:child_process";
import process from "node:process";

/**
 * The git commands {@linkcode gitSync} runs: ones that read the index,
 * paths and settings, never file contents (`config` is given `--get`
 * only).
 */
export type GitReadCommand = "config" | "ls-files" | "rev-parse";

/** Git options that switch off the programs the repository's configuration names. */
const NO_PROGRAMS = [
  "--no-pager",
  "-c",
  "core.fsmonitor=",
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "credential.helper=",
  "-c",
  "core.askPass=",
];

/** Environment variables that stop git from running a transport or prompting. */
const NO_PROGRAMS_ENV = {
  GIT_ALLOW_PROTOCOL: "",
  GIT_NO_LAZY_FETCH: "1",
  GIT_TERMINAL_PROMPT: "0",
};

/** Options of {@linkcode gitSync}. */
export interface GitOptions {
  /** The folder git runs in. */
  cwd: string;
  /** The most bytes of standard output read; default 1 MiB. */
  maxBuffer?: number;
  /** Milliseconds before git is killed; default 30 000. */
  timeoutMs?: number;
}

/**
 * Runs `git <command> <args...>` in `options.cwd` with nothing the
 * repository configures able to run a program (see the module's notes),
 * and returns its standard output. Throws when git is missing, fails,
 * prints more than `maxBuffer` or runs past `timeoutMs`.
 *
 * @example Whether a folder is inside a git checkout
 * ```ts
 * import { gitSync } from "./git.ts";
 *
 * let inside: boolean;
 * try {
 *   inside = gitSync(["rev-parse", "--is-inside-work-tree"], { cwd: "." }).trim() === "true";
 * } catch {
 *   inside = false; // git is missing, or "." is outside any checkout
 * }
 * console.log(inside);
 * ```
 */
export function gitSync(
  args: [GitReadCommand, ...string[]],
  options: GitOptions,
): string {
  if (args[0] === "config" && args[1] !== "--get") {
    throw new Error('gitSync runs "git config" with "--get" only');
  }
  return execFileSync("git", [...NO_PROGRAMS, ...args], {
    ...execOptions(options),
    stdio: ["ignore", "pipe", "ignore"],
  });
}

/**
 * {@linkcode gitSync} without blocking the event loop.
 *
 * @returns A promise of git's standard output; it rejects when
 * {@linkcode gitSync} would throw.
 *
 * @example Whether a folder is inside a git checkout
 * ```ts
 * import { git } from "./git.ts";
 *
 * const inside = await git(["rev-parse", "--is-inside-work-tree"], { cwd: "." })
 *   .then((out) => out.trim() === "true", () => false);
 * console.log(inside);
 * ```
 */
export function git(
  args: [GitReadCommand, ...string[]],
  options: GitOptions,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [...NO_PROGRAMS, ...args],
      execOptions(options),
      (error, stdout) => error ? reject(error) : resolve(stdout),
    );
    child.stdin?.end();
  });
}

/** How {@linkcode gitSync} and {@linkcode git} run git. */
function execOptions(options: GitOptions) {
  return {
    cwd: options.cwd,
    env: { ...process.env, ...NO_PROGRAMS_ENV },
    encoding: "utf8" as const,
    maxBuffer: options.maxBuffer ?? 1024 * 1024,
    timeout: options.timeoutMs ?? 30_000,
  };
}
