/**
 * `beeuni cr open --title TEXT`: opens a change request for the current
 * branch with the forge's own CLI (`gh`, `glab`), or says how to open it
 * by hand. It reports a request as opened only when the forge CLI exited
 * 0 and printed the request's address.
 *
 * @module
 */

import { spawn } from "node:child_process";
import {
  type Command,
  type CommandIo,
  defineCommand,
  UsageError,
} from "./command.ts";
import {
  FORGE_CLIS,
  type ForgeCli,
  manualRequestUrl,
  parseRemote,
  type RemoteInfo,
  requestUrlIn,
} from "./_forge.ts";
import {
  errorMessage,
  escapeControl,
  findProgram,
  gitSync,
  shellQuote,
} from "../common/mod.ts";

/** The most output kept of the forge CLI, per stream. */
const MAX_OUTPUT = 1024 * 1024;
/** How long the forge CLI may run. */
const FORGE_TIMEOUT_MS = 120_000;

/** One line of `git` output, or `undefined` when git fails. */
function gitLine(args: Parameters<typeof gitSync>[0], cwd: string) {
  try {
    return gitSync(args, { cwd }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The current branch and its remote, or the error that says what to fix. */
function readCheckout(
  cwd: string,
): { branch: string; remoteName: string; remote?: RemoteInfo } {
  if (gitLine(["rev-parse", "--is-inside-work-tree"], cwd) !== "true") {
    throw new Error(
      `cannot open a change request: "${cwd}" is not inside a git checkout`,
    );
  }
  const branch = gitLine(["rev-parse", "--abbrev-ref", "HEAD"], cwd);
  if (branch === undefined) {
    throw new Error(
      "cannot open a change request: the current branch has no commits yet",
    );
  }
  if (branch === "HEAD") {
    throw new Error(
      "cannot open a change request: HEAD is detached; check out the branch to open the request for",
    );
  }
  const name = gitLine(["config", "--get", `branch.${branch}.remote`], cwd) ??
    "origin";
  const url = gitLine(["config", "--get", `remote.${name}.url`], cwd);
  return {
    branch,
    remoteName: name,
    remote: url ? parseRemote(name, url) : undefined,
  };
}

/** `word` as a shell word: as it is when plain, else quoted. */
function shellWord(word: string): string {
  return /^[\w./@:-]+$/.test(word) ? word : shellQuote(word);
}

/** The lines that say how to open the request by hand. */
function byHand(
  branch: string,
  title: string,
  remote: RemoteInfo | undefined,
): string[] {
  if (!remote) {
    return [
      "To open it by hand:",
      "  1. Add the forge's repository as a remote: git remote add origin URL",
      "  2. Push the branch: git push origin HEAD",
      `  3. On the forge's website, open a change request from branch "${branch}" titled "${title}"`,
    ];
  }
  const page = manualRequestUrl(remote, branch, title);
  return [
    "To open it by hand:",
    `  1. Push the branch: git push ${shellWord(remote.name)} HEAD`,
    page
      ? `  2. Open ${page}`
      : `  2. On the website of ${remote.url}, open a change request from branch "${branch}" titled "${title}"`,
  ];
}

/** What the forge CLI printed and how it ended. */
interface ForgeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  error?: string;
}

/** Runs `program args` in `cwd` with no standard input (so it cannot prompt). */
function runForge(
  program: string,
  args: string[],
  io: CommandIo,
): Promise<ForgeRun> {
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      cwd: io.cwd,
      env: io.env as Record<string, string>,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: FORGE_TIMEOUT_MS,
    });
    const out = { stdout: "", stderr: "" };
    for (const stream of ["stdout", "stderr"] as const) {
      child[stream].setEncoding("utf8");
      child[stream].on("data", (chunk: string) => {
        if (out[stream].length < MAX_OUTPUT) out[stream] += chunk;
      });
    }
    let error: string | undefined;
    child.on("error", (e) => error = errorMessage(e));
    child.on("close", (code, signal) => {
      if (signal) error ??= `stopped by ${signal}`;
      resolve({ code, ...out, error });
    });
  });
}

const OPTIONS = {
  title: {
    type: "string",
    value: "TEXT",
    help: "the change request's title",
  },
} as const;

/** `beeuni cr open`: opens a change request for the current branch. */
export const crOpenCommand: Command<typeof OPTIONS> = defineCommand({
  synopsis: "--title TEXT",
  description:
    `Opens a change request for the current branch on the forge of its remote
(the branch's upstream remote, else origin): a pull request with
\`gh pr create\` for a GitHub remote, a merge request with
\`glab mr create\` for a GitLab remote. Push the branch first
(git push origin HEAD).

It says a request was opened only when the forge's CLI exited 0 and printed
the request's address. When the CLI is not installed, the remote belongs to
no forge it knows, or the CLI fails, it prints the push command and how to
open the request by hand, and exits 1.`,
  options: OPTIONS,
  async run({ values }, io) {
    const title = values.title?.trim();
    if (!title) {
      throw new UsageError(
        '--title needs the change request\'s title, e.g. --title "Own the web_search tool"',
      );
    }
    const { branch, remoteName, remote } = readCheckout(io.cwd);
    const fail = (reason: string, cli?: ForgeCli) => {
      io.stderr(
        [
          `beeuni cr open: no ${
            cli?.noun ?? "change request"
          } was opened: ${reason}`,
          ...byHand(branch, title, remote),
          "",
        ].join("\n"),
      );
      return 1;
    };
    if (!remote) {
      return fail(`the repository has no remote named "${remoteName}"`);
    }
    if (!remote.forge) {
      return fail(
        `remote "${remote.name}" (${remote.url}) is not on GitHub or GitLab`,
      );
    }
    const cli = FORGE_CLIS[remote.forge];
    const program = findProgram(cli.program, io.env);
    if (!program) return fail(`${cli.label} is not installed`, cli);
    const forgeArgs = cli.args(title);
    const shown = [cli.program, ...forgeArgs].map(shellWord).join(" ");
    io.stderr(`Running ${shown}\n`);
    const run = await runForge(program, forgeArgs, io);
    if (run.stdout) {
      io.stdout(escapeControl(run.stdout, { keepNewlines: true }));
    }
    if (run.stderr) {
      io.stderr(escapeControl(run.stderr, { keepNewlines: true }));
    }
    if (run.error !== undefined || run.code !== 0) {
      return fail(
        `"${cli.program} ${forgeArgs.slice(0, 2).join(" ")}" ${
          run.error ?? `exited with code ${run.code}`
        }`,
        cli,
      );
    }
    const url = requestUrlIn(cli, run.stdout);
    if (!url) {
      io.stderr(
        `beeuni cr open: ${cli.program} exited 0 but printed no ${cli.noun} address, so whether one was opened is unknown: check with \`${cli.view}\`\n`,
      );
      return 1;
    }
    io.stdout(`Opened ${cli.noun} ${url}\n`);
    return 0;
  },
});
