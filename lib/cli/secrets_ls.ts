/**
 * `beeuni secrets ls`: the names of the project's secrets, never
 * their values.
 *
 * @module
 */

import { type Command, defineCommand, projectRootFor } from "./command.ts";
import { MANIFEST_OPTION } from "./_options.ts";
import { secretNames } from "../secrets/mod.ts";

const OPTIONS = {
  json: { type: "boolean", help: "print a JSON array of names" },
  manifest: MANIFEST_OPTION,
} as const;

/** `beeuni secrets ls`: lists the names of the project's secrets. */
export const secretsLsCommand: Command<typeof OPTIONS> = defineCommand({
  synopsis: "[--json] [--manifest PATH]",
  description:
    `Prints the name of every secret stored for this project, one per line,
sorted. Values are never printed.`,
  options: OPTIONS,
  run({ values }, io) {
    const root = projectRootFor(io.cwd, values.manifest);
    const names = secretNames(root, io.env);
    if (values.json) io.stdout(JSON.stringify(names) + "\n");
    else if (names.length > 0) io.stdout(names.join("\n") + "\n");
    return Promise.resolve(0);
  },
});
