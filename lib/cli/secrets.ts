/**
 * `beeuni secrets set|ls|rm`: manage the project's local secret store (D6).
 * Values are read from standard input only, never from the command line,
 * and are never printed.
 *
 * @module
 */

import { dirname } from "node:path";
import {
  type Command,
  type CommandIo,
  parseOptions,
  UsageError,
} from "./command.ts";
import {
  isSecretName,
  removeSecret,
  secretNames,
  setSecret,
} from "../secrets/mod.ts";
import { locateManifest } from "../project/mod.ts";

/**
 * The project root for a command: the folder holding `--manifest` (a file,
 * or a folder holding `beeuni.yaml`) when given, else the folder of the
 * nearest `beeuni.yaml` from `cwd` upwards (M1).
 */
export function projectRootFor(cwd: string, manifest?: string): string {
  return dirname(locateManifest(cwd, manifest));
}

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

/** `beeuni secrets rm NAME`: removes a secret. */
export const secretsRmCommand: Command = {
  name: "secrets rm",
  summary: "Remove a secret from this project's local store",
  usage: `Usage: beeuni secrets rm NAME [--manifest PATH]

Removes the secret NAME from this project's local secret store. Exits 1 when
no such secret is stored.

Options:
  --manifest PATH  the project's beeuni.yaml (default: found from the
                   current folder upwards)
`,
  run(args: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseOptions(args, MANIFEST_OPTION);
    if (positionals.length !== 1) {
      throw new UsageError(
        positionals.length === 0
          ? "missing NAME"
          : `expected one NAME, got ${positionals.length} arguments`,
      );
    }
    const name = positionals[0];
    if (!isSecretName(name)) {
      throw new UsageError(
        `invalid secret name "${name}": use letters, digits and "_", not starting with a digit`,
      );
    }
    const root = projectRootFor(io.cwd, values.manifest as string | undefined);
    if (!removeSecret(root, name, io.env)) {
      io.stderr(
        `beeuni secrets rm: no secret named "${name}" is stored for this project\n`,
      );
      return Promise.resolve(1);
    }
    io.stdout(`Removed secret ${name}\n`);
    return Promise.resolve(0);
  },
};
