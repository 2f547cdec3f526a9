/**
 * `beeuni secrets set NAME=-`: stores a secret of the project's local
 * secret store, its value read from standard input only, never from
 * the command line.
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
import { isSecretName, setSecret } from "../secrets/mod.ts";

const MANIFEST_OPTION = { manifest: { type: "string" } } as const;

/** `beeuni secrets set NAME=-`: stores a secret read from standard input. */
export const secretsSetCommand: Command = {
  name: "secrets set",
  summary: "Store a secret for this project, reading its value from stdin",
  usage: `Usage: beeuni secrets set NAME=- [--manifest PATH]

Stores a secret in this project's local secret store (outside git, file
mode 0600). The value is read from standard input; one trailing newline is
removed. Agents get it in context.env when the manifest grants it
(agents.<name>.secrets: all | [NAME]); a running daemon sees the new value
on the next call.

  printf %s "$KEY" | beeuni secrets set WEATHER_API_KEY=-
  beeuni secrets set WEATHER_API_KEY=-     # then type the value, Ctrl-D

A value written on the command line (NAME=value) is refused: it would stay
in the shell history.

Options:
  --manifest PATH  the project's beeuni.yaml (default: found from the
                   current folder upwards)
  BEEUNI_SECRETS_FILE=PATH  use this store file instead of the default
                   $XDG_STATE_HOME/beeuni/secrets/<sha256 of root>.json
`,
  async run(args: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseOptions(args, MANIFEST_OPTION);
    if (positionals.length !== 1) {
      throw new UsageError(
        positionals.length === 0
          ? "missing NAME=-"
          : `expected one NAME=-, got ${positionals.length} arguments`,
      );
    }
    const arg = positionals[0];
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (!isSecretName(name)) {
      throw new UsageError(
        `invalid secret name "${name}": use letters, digits and "_", not starting with a digit`,
      );
    }
    if (eq === -1) {
      throw new UsageError(
        `missing "=-" after "${name}": run \`beeuni secrets set ${name}=-\` and give the value on standard input`,
      );
    }
    if (arg.slice(eq + 1) !== "-") {
      throw new UsageError(
        `refusing a value on the command line for "${name}" (it would stay in the shell history): run \`beeuni secrets set ${name}=-\` and give the value on standard input`,
      );
    }
    const root = projectRootFor(io.cwd, values.manifest as string | undefined);
    let value = await io.readStdin();
    if (value.endsWith("\r\n")) value = value.slice(0, -2);
    else if (value.endsWith("\n")) value = value.slice(0, -1);
    if (value === "") {
      throw new Error(
        `no value for "${name}" on standard input: pipe or type the value, then end it with Ctrl-D`,
      );
    }
    const path = setSecret(root, name, value, io.env);
    io.stdout(`Stored secret ${name} in ${path}\n`);
    return 0;
  },
};
