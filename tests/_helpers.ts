// Shared test helpers: real temporary git repositories and real `beeuni`
// processes.

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Absolute path of the repository under test. */
export const REPO_ROOT: string = dirname(
  dirname(fileURLToPath(import.meta.url)),
);

/** Absolute path of `cli.ts`. */
export const CLI: string = join(REPO_ROOT, "cli.ts");

/** Runs git in `dir`, failing the test on a non-zero exit. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args,
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
    env: {
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.invalid",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.invalid",
    },
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(
      `git ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return text;
}

/**
 * A fresh git repository in a temporary folder holding `files` (path to
 * content), all of them committed unless listed in `untracked`. Remove it
 * with `Deno.remove(dir, { recursive: true })` or use `await using`.
 */
export async function tempRepo(
  files: Record<string, string>,
  options: { untracked?: string[] } = {},
): Promise<{ dir: string; [Symbol.asyncDispose](): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "beeuni_test_" });
  await git(dir, "init", "-q", "-b", "main");
  for (const [path, content] of Object.entries(files)) {
    const full = join(dir, path);
    await Deno.mkdir(dirname(full), { recursive: true });
    await Deno.writeTextFile(full, content);
  }
  const tracked = Object.keys(files).filter((path) =>
    !(options.untracked ?? []).includes(path)
  );
  if (tracked.length > 0) {
    await git(dir, "add", "--", ...tracked);
    await git(dir, "commit", "-q", "-m", "fixture");
  }
  return {
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** A fresh temporary folder named `<prefix>…`, removed with `await using`. */
export async function tempDir(
  prefix = "beeuni_tmp_",
): Promise<{ dir: string; [Symbol.asyncDispose](): Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix });
  return {
    dir,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

/** Sets the access and modification times of `path` to `seconds` ago. */
export function age(path: string, seconds: number): void {
  const past = new Date(Date.now() - seconds * 1000);
  Deno.utimeSync(path, past, past);
}

/** What a finished process printed and returned. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno run -A cli.ts ...args` in `cwd` and returns what it printed. */
export async function beeuni(
  cwd: string,
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {},
): Promise<RunResult> {
  return await runProgram(
    Deno.execPath(),
    ["run", "-A", "--quiet", CLI, ...args],
    {
      cwd,
      env: { NO_COLOR: "1", RUST_BACKTRACE: "0", ...options.env },
      stdin: options.stdin,
    },
  );
}

/** Writes `text` to `child`'s standard input (spawned with `stdin: "piped"`) and closes it; nothing when `text` is undefined. */
export async function feedStdin(
  child: Deno.ChildProcess,
  text: string | undefined,
): Promise<void> {
  if (text === undefined) return;
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
}

/**
 * Runs `program` with `args` to its end and returns what it printed. It gets
 * `env` on top of the test's environment, or `env` alone with `clearEnv`;
 * `stdin`, when given, is its standard input (else it reads nothing);
 * `signal`, when it aborts, kills it.
 */
export async function runProgram(
  program: string,
  args: string[],
  options: {
    cwd?: string;
    env?: Record<string, string>;
    clearEnv?: boolean;
    stdin?: string;
    signal?: AbortSignal;
  } = {},
): Promise<RunResult> {
  const child = new Deno.Command(program, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.clearEnv,
    signal: options.signal,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  await feedStdin(child, options.stdin);
  const out = await child.output();
  const decoder = new TextDecoder();
  return {
    code: out.code,
    stdout: decoder.decode(out.stdout),
    stderr: decoder.decode(out.stderr),
  };
}

/**
 * Runs `script` with `deno eval` (in `cwd`, else the test's folder), killed
 * after 60 s if it hangs; checks it exited 0 and returns the JSON it printed.
 */
export async function evalJson<T>(script: string, cwd?: string): Promise<T> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", script],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const out = await child.output();
  clearTimeout(guard);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** Whether something exists at `path`. */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The control characters in `text` other than line feeds, as escapes (`\x1b`), for asserting output is free of them. */
export function controlChars(text: string): string[] {
  const found: string[] = [];
  for (const char of text) {
    const code = char.charCodeAt(0);
    if ((code < 0x20 && code !== 0x0a) || code === 0x7f) {
      found.push(`\\x${code.toString(16).padStart(2, "0")}`);
    }
  }
  return found;
}

/**
 * A state folder of its own for a test (`XDG_STATE_HOME`), which also holds
 * the saved outputs of cut calls (`TMPDIR`); removed when disposed.
 */
export async function isolatedState(): Promise<
  { env: Record<string, string>; [Symbol.asyncDispose](): Promise<void> }
> {
  const state = await Deno.makeTempDir({ prefix: "beeuni_state_" });
  return {
    env: { XDG_STATE_HOME: state, TMPDIR: state },
    [Symbol.asyncDispose]: () => Deno.remove(state, { recursive: true }),
  };
}
