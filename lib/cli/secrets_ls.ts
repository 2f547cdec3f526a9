/**
 * `beeuni secrets ls`: the names of the project's secrets, never
 * their values.
 *
 * @module
 */

import {
  type Command,
  type CommandIo,
  parseOptions,
  projectRootFor,
  UsageError,
} from "./command.ts";
import { secretNames } from "../secrets/mod.ts";

const MANIFEST_OPTION = { manifest: { type: "string" } } as const;

/** `beeuni secrets ls`: lists the names of the project's secrets. */
export const secretsLsCommand: Command = {
  name: "secrets ls",
  summary: "List the names of this project's secrets (never their values)",
  usage: `Usage: beeuni secrets ls [--json] [--manifest PATH]

Prints the name of every secret stored for this project, one per line,
sorted. Values are never printed.

Options:
  --json           print a JSON array of names
  --manifest PATH  the project's beeuni.yaml (default: found from the
                   current folder upwards)
`,
  run(args: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseOptions(args, {
      ...MANIFEST_OPTION,
      json: { type: "boolean" },
    });
    if (positionals.length > 0) {
      throw new UsageError(`unexpected argument "${positionals[0]}"`);
    }
    const root = projectRootFor(io.cwd, values.manifest as string | undefined);
    const names = secretNames(root, io.env);
    if (values.json) io.stdout(JSON.stringify(names) + "\n");
    else if (names.length > 0) io.stdout(names.join("\n") + "\n");
    return Promise.resolve(0);
  },
};
