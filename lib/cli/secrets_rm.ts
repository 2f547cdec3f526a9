/**
 * `beeuni secrets rm NAME`: removes a secret from the project's local
 * secret store.
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
import { isSecretName, removeSecret } from "../secrets/mod.ts";

const MANIFEST_OPTION = { manifest: { type: "string" } } as const;

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
