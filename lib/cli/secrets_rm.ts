/**
 * `beeuni secrets rm NAME`: removes a secret from the project's local
 * secret store.
 *
 * @module
 */

import {
  type Command,
  defineCommand,
  projectRootFor,
  UsageError,
} from "./command.ts";
import { MANIFEST_OPTION } from "./_options.ts";
import { isSecretName, removeSecret } from "../secrets/mod.ts";

/** `beeuni secrets rm NAME`: removes a secret. */
export const secretsRmCommand: Command<{ manifest: typeof MANIFEST_OPTION }> =
  defineCommand({
    synopsis: "NAME [--manifest PATH]",
    description:
      `Removes the secret NAME from this project's local secret store. Exits 1 when
no such secret is stored.`,
    options: { manifest: MANIFEST_OPTION },
    positionals: 1,
    async run({ values, positionals }, io) {
      if (positionals.length === 0) throw new UsageError("missing NAME");
      const name = positionals[0];
      if (!isSecretName(name)) {
        throw new UsageError(
          `invalid secret name "${name}": use letters, digits and "_", not starting with a digit`,
        );
      }
      const root = projectRootFor(io.cwd, values.manifest);
      if (!await removeSecret(root, name, io.env)) {
        io.stderr(
          `beeuni secrets rm: no secret named "${name}" is stored for this project\n`,
        );
        return 1;
      }
      io.stdout(`Removed secret ${name}\n`);
      return 0;
    },
  });
