/**
 * The `beeuni` command line: validate a project's `beeuni.yaml`, list the
 * tools its sessions get, and more. Acts on the project found from the
 * current directory upwards, or on `--manifest PATH`.
 *
 * @example Validate and list the bundled starter project
 * ```sh
 * deno run -A cli.ts validate --manifest examples/starter/beeuni.yaml
 * deno run -A cli.ts tools ls --manifest examples/starter/beeuni.yaml
 * ```
 *
 * @module
 */

import { type Command, type CommandIo, UsageError } from "./lib/command.ts";
import { args as processArgs, denoIo, exit } from "./_deno.ts";

export type { Command, CommandIo } from "./lib/command.ts";
import {
  secretsLsCommand,
  secretsRmCommand,
  secretsSetCommand,
} from "./lib/commands/secrets.ts";
import { toolsLsCommand } from "./lib/commands/tools_ls.ts";
import { toolsCallCommand } from "./lib/commands/tools_call.ts";
import { daemonCommand } from "./daemon.ts";
import { toolsEjectCommand } from "./lib/commands/tools_eject.ts";
import { validateCommand } from "./lib/commands/validate.ts";
import { toolsMigrateCommand } from "./lib/commands/tools_migrate.ts";
import { mcpCommand } from "./lib/commands/mcp.ts";

/** Every subcommand, by its words after `beeuni`. */
export const COMMANDS: readonly Command[] = [
  validateCommand,
  toolsLsCommand,
  toolsCallCommand,
  toolsEjectCommand,
  toolsMigrateCommand,
  daemonCommand,
  mcpCommand,
  secretsSetCommand,
  secretsLsCommand,
  secretsRmCommand,
];

function topHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length), 8);
  const lines = COMMANDS.map((command) =>
    `  ${command.name.padEnd(width)}  ${command.summary}`
  );
  return [
    "Usage: beeuni <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `beeuni <command> --help` for a command's options.",
    "",
  ].join("\n");
}

function groupHelp(group: string): string {
  const members = COMMANDS.filter((command) =>
    command.name.startsWith(`${group} `)
  );
  const width = Math.max(...members.map((command) => command.name.length));
  return [
    `Usage: beeuni ${group} <command> [options]`,
    "",
    "Commands:",
    ...members.map((command) =>
      `  ${command.name.padEnd(width)}  ${command.summary}`
    ),
    "",
  ].join("\n");
}

/**
 * Runs the command line `argv` (without the program name) and resolves to
 * its exit code: 0 ok, 1 failure, 2 usage error.
 */
export async function main(argv: string[], io: CommandIo): Promise<number> {
  const [first, second] = argv;
  if (first === undefined || first === "--help" || first === "-h") {
    io.stdout(topHelp());
    return first === undefined ? 2 : 0;
  }
  const groups = new Set(
    COMMANDS.filter((command) => command.name.includes(" ")).map((command) =>
      command.name.split(" ")[0]
    ),
  );
  let command: Command | undefined;
  let rest: string[];
  if (groups.has(first)) {
    if (second === undefined || second === "--help" || second === "-h") {
      io.stdout(groupHelp(first));
      return second === undefined ? 2 : 0;
    }
    command = COMMANDS.find((c) => c.name === `${first} ${second}`);
    rest = argv.slice(2);
    if (!command) {
      io.stderr(
        `beeuni: unknown command "${first} ${second}"\nRun \`beeuni ${first} --help\` for its commands.\n`,
      );
      return 2;
    }
  } else {
    command = COMMANDS.find((c) => c.name === first);
    rest = argv.slice(1);
    if (!command) {
      io.stderr(
        `beeuni: unknown command "${first}"\nRun \`beeuni --help\` for the commands.\n`,
      );
      return 2;
    }
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout(
      command.usage.endsWith("\n") ? command.usage : `${command.usage}\n`,
    );
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(
        `beeuni ${command.name}: ${error.message}\nRun \`beeuni ${command.name} --help\` for usage.\n`,
      );
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`beeuni ${command.name}: ${message}\n`);
    return 1;
  }
}

if (import.meta.main) {
  exit(await main(processArgs(), denoIo()));
}
