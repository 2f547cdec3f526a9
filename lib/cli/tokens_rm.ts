/**
 * `beeuni tokens rm LABEL`: revokes an agent token; a running daemon
 * refuses it from its next request on.
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
import { removeAgentToken } from "../secrets/mod.ts";

/** `beeuni tokens rm LABEL`: removes an agent token. */
export const tokensRmCommand: Command<{ manifest: typeof MANIFEST_OPTION }> =
  defineCommand({
    synopsis: "LABEL [--manifest PATH]",
    description:
      `Removes the agent token LABEL of this project. A running daemon refuses it
from its next request on (401), also in an MCP session or web UI page
opened with it. Exits 1 when no token has that label.`,
    options: { manifest: MANIFEST_OPTION },
    positionals: 1,
    async run({ values, positionals }, io) {
      if (positionals.length === 0) throw new UsageError("missing LABEL");
      const label = positionals[0];
      const root = projectRootFor(io.cwd, values.manifest);
      const left = await removeAgentToken(root, io.env, label);
      if (left !== undefined) {
        io.stderr(
          `beeuni tokens rm: no token labelled "${label}": ${
            left.length === 0
              ? "this project has no agent tokens"
              : `this project's tokens are ${
                left.map((name) => `"${name}"`).join(", ")
              }`
          }\n`,
        );
        return 1;
      }
      io.stdout(
        `Removed token ${label}: a running daemon refuses it from its next request\n`,
      );
      return 0;
    },
  });
