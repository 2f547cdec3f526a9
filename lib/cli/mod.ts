/**
 * The `beeuni` command line as data: every command's words and summary,
 * each command's module loaded only when it runs (or prints its help), and
 * {@linkcode main}, which parses the first words and dispatches.
 *
 * @example Run a command line with the real process I/O
 * ```ts ignore (needs a project with a beeuni.yaml)
 * import { main } from "./mod.ts";
 * import { loadRuntime } from "../runtime/mod.ts";
 * const runtime = await loadRuntime();
 * runtime.exit(await main(["tools", "ls"], runtime.io()));
 * ```
 *
 * @module
 */

// Nothing but types is imported statically: `beeuni --help` and
// `--version` print from this file alone, and each command's module (with
// the stages it needs) loads when that command runs.
import type { Command, CommandIo } from "./command.ts";
import { VERSION } from "./version.ts";

export type {
  Command,
  CommandIo,
  OptionDef,
  OptionDefs,
  ParsedArgs,
} from "./command.ts";
export type { OptionValue, OptionValues, UsageSpec } from "../common/mod.ts";
export { VERSION } from "./version.ts";

/**
 * A command in the registry: its words and summary (written here only:
 * the command's module holds neither), and how to load it.
 */
export interface CommandEntry {
  /** Its words after `beeuni`, e.g. `"tools ls"`: its usage line and its messages start with them. */
  name: string;
  /** One line for `beeuni --help` and `beeuni <group> --help`. */
  summary: string;
  /** Imports the command's module. */
  load(): Promise<Command>;
  /** Whether the command, given the arguments after its words, runs tool code in runners it starts. */
  hostsTools?(rest: string[]): boolean;
}

/**
 * Every subcommand, by its words after `beeuni`. Each `load` imports a
 * literal specifier, so bundlers and `deno compile` see every command.
 */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "validate",
    summary: "Check beeuni.yaml and its imports against every rule",
    load: async () => (await import("./validate.ts")).validateCommand,
    hostsTools: (rest) => rest.includes("--load"),
  },
  {
    name: "tools ls",
    summary: "List the tools a session gets, or those one agent sees",
    load: async () => (await import("./tools_ls.ts")).toolsLsCommand,
  },
  {
    name: "tools call",
    summary: "Run one tool call in-process and print what the model would read",
    load: async () => (await import("./tools_call.ts")).toolsCallCommand,
    hostsTools: () => true,
  },
  {
    name: "tools eject",
    summary:
      "Copy a Beeuni tool into tools/<name>.ts and point beeuni.yaml at it",
    load: async () => (await import("./tools_eject.ts")).toolsEjectCommand,
  },
  {
    name: "tools new",
    summary:
      "Write a new tool to tools/<name>.ts, with its test, and declare it",
    load: async () => (await import("./tools_new.ts")).toolsNewCommand,
  },
  {
    name: "tools migrate",
    summary:
      "Move opencode custom tools from harnesses/opencode/tools/ into the project",
    load: async () => (await import("./tools_migrate.ts")).toolsMigrateCommand,
  },
  {
    name: "daemon",
    summary: "Serve the project's tools over HTTP on loopback (hot reload)",
    load: async () => (await import("./daemon.ts")).daemonCommand,
    hostsTools: () => true,
  },
  {
    name: "web",
    summary: "Print a fresh one-time address of the running daemon's web UI",
    load: async () => (await import("./web.ts")).webCommand,
  },
  {
    name: "mcp",
    summary: "Serve the project's tools over MCP on standard input and output",
    load: async () => (await import("./mcp.ts")).mcpCommand,
    hostsTools: () => true,
  },
  {
    name: "sessions new",
    summary: "Start a session: a model given the project's tools and a prompt",
    load: async () => (await import("./sessions_new.ts")).sessionsNewCommand,
    hostsTools: () => true,
  },
  {
    name: "sessions log",
    summary: "Print a session's messages and tool calls",
    load: async () => (await import("./sessions_log.ts")).sessionsLogCommand,
  },
  {
    name: "sessions ls",
    summary: "List the project's sessions, newest first",
    load: async () => (await import("./sessions_ls.ts")).sessionsLsCommand,
  },
  {
    name: "logs",
    summary: "Print the project's call record; --follow for new calls",
    load: async () => (await import("./logs.ts")).logsCommand,
  },
  {
    name: "secrets set",
    summary: "Store a secret for this project, reading its value from stdin",
    load: async () => (await import("./secrets_set.ts")).secretsSetCommand,
  },
  {
    name: "secrets ls",
    summary: "List the names of this project's secrets (never their values)",
    load: async () => (await import("./secrets_ls.ts")).secretsLsCommand,
  },
  {
    name: "secrets rm",
    summary: "Remove a secret from this project's local store",
    load: async () => (await import("./secrets_rm.ts")).secretsRmCommand,
  },
  {
    name: "tokens new",
    summary: "Make an agent token: a daemon token acting only as some agents",
    load: async () => (await import("./tokens_new.ts")).tokensNewCommand,
  },
  {
    name: "tokens ls",
    summary: "List this project's agent tokens (never the tokens themselves)",
    load: async () => (await import("./tokens_ls.ts")).tokensLsCommand,
  },
  {
    name: "tokens rm",
    summary: "Revoke an agent token; a running daemon refuses it at once",
    load: async () => (await import("./tokens_rm.ts")).tokensRmCommand,
  },
  {
    name: "cr open",
    summary: "Open a change request for the current branch with gh or glab",
    load: async () => (await import("./cr_open.ts")).crOpenCommand,
  },
];

function listing(entries: readonly CommandEntry[]): string[] {
  const width = Math.max(...entries.map((entry) => entry.name.length), 8);
  return entries.map((entry) =>
    `  ${entry.name.padEnd(width)}  ${entry.summary}`
  );
}

function topHelp(): string {
  return [
    "Usage: beeuni <command> [options]",
    "",
    "Commands:",
    ...listing(COMMANDS),
    "",
    "Run `beeuni <command> --help` for a command's options, `beeuni --version` for the version.",
    "",
  ].join("\n");
}

function groupHelp(group: string): string {
  const members = COMMANDS.filter((entry) =>
    entry.name.startsWith(`${group} `)
  );
  return [
    `Usage: beeuni ${group} <command> [options]`,
    "",
    "Commands:",
    ...listing(members),
    "",
  ].join("\n");
}

const GROUPS = new Set(
  COMMANDS.filter((entry) => entry.name.includes(" ")).map((entry) =>
    entry.name.split(" ")[0]
  ),
);

const isHelp = (word: string | undefined) => word === "--help" || word === "-h";

/**
 * Whether `word`, as the first argument, names a command, a group of
 * commands or an option of `beeuni` itself.
 */
export function isCommandWord(word: string | undefined): boolean {
  return word === undefined || word.startsWith("-") ||
    COMMANDS.some((entry) => entry.name.split(" ")[0] === word);
}

/**
 * Whether the command line `argv` runs tool code in runner processes it
 * starts: such a process holds the project's secrets, so no runner may
 * open its debugger.
 */
export function hostsTools(argv: string[]): boolean {
  const [first, second] = argv;
  const entry = COMMANDS.find((c) => c.name === `${first} ${second}`) ??
    COMMANDS.find((c) => c.name === first);
  if (!entry?.hostsTools) return false;
  return entry.hostsTools(argv.slice(entry.name.split(" ").length));
}

/** The command `argv` names and the arguments after its words, or the exit code of what was printed instead. */
function dispatch(
  argv: string[],
  io: CommandIo,
): { entry: CommandEntry; rest: string[] } | number {
  const [first, second] = argv;
  if (first === undefined || isHelp(first)) {
    io.stdout(topHelp());
    return first === undefined ? 2 : 0;
  }
  if (first === "--version" || first === "-V") {
    io.stdout(`beeuni ${VERSION}\n`);
    return 0;
  }
  if (GROUPS.has(first)) {
    if (second === undefined || isHelp(second)) {
      io.stdout(groupHelp(first));
      return second === undefined ? 2 : 0;
    }
    const entry = COMMANDS.find((c) => c.name === `${first} ${second}`);
    if (entry) return { entry, rest: argv.slice(2) };
    io.stderr(
      `beeuni: unknown command "${first} ${second}"\nRun \`beeuni ${first} --help\` for its commands.\n`,
    );
    return 2;
  }
  const entry = COMMANDS.find((c) => c.name === first);
  if (entry) return { entry, rest: argv.slice(1) };
  io.stderr(
    `beeuni: unknown command "${first}"\nRun \`beeuni --help\` for the commands.\n`,
  );
  return 2;
}

/**
 * Runs the command line `argv` (without the program name). Only the named
 * command's module is loaded.
 *
 * @returns The exit code: 0 ok, 1 failure, 2 usage error; never rejects
 * (errors are printed).
 */
export async function main(argv: string[], io: CommandIo): Promise<number> {
  const found = dispatch(argv, io);
  if (typeof found === "number") return found;
  const { entry, rest } = found;
  const command = await entry.load();
  // Loaded already: every command's module imports them.
  const { errorMessage, escapeControl, formatUsage, parseOptions, UsageError } =
    await import("../common/mod.ts");
  if (rest.some(isHelp)) {
    io.stdout(formatUsage(`beeuni ${entry.name}`, command));
    return 0;
  }
  try {
    const parsed = parseOptions(rest, command.options, {
      positionals: command.positionals ?? 0,
    });
    return await command.run(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(
        `beeuni ${entry.name}: ${error.message}\nRun \`beeuni ${entry.name} --help\` for usage.\n`,
      );
      return 2;
    }
    io.stderr(
      `beeuni ${entry.name}: ${
        escapeControl(errorMessage(error), { keepNewlines: true })
      }\n`,
    );
    return 1;
  }
}
export { runCli } from "./run.ts";
