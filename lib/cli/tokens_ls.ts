/**
 * `beeuni tokens ls`: the project's agent tokens (label, agents, created,
 * expires, last used), never the tokens themselves.
 *
 * @module
 */

import { type Command, defineCommand, projectRootFor } from "./command.ts";
import { MANIFEST_OPTION } from "./_options.ts";
import { listAgentTokens } from "../secrets/mod.ts";
import { formatColumns } from "./_table.ts";

const OPTIONS = {
  json: {
    type: "boolean",
    help: `print a JSON array of { label, agents, created,
expires, expired, lastUsed }`,
  },
  manifest: MANIFEST_OPTION,
} as const;

/** `beeuni tokens ls`: lists the project's agent tokens. */
export const tokensLsCommand: Command<typeof OPTIONS> = defineCommand({
  synopsis: "[--json] [--manifest PATH]",
  description:
    `Prints this project's agent tokens, one per line: LABEL, AGENTS, CREATED,
EXPIRES ("never", or the time, marked "(expired)" once past) and LAST USED
(when a daemon last accepted it, written at most once a minute; "never").
Times are ISO 8601, UTC. The tokens themselves are never stored.`,
  options: OPTIONS,
  run({ values }, io) {
    const root = projectRootFor(io.cwd, values.manifest);
    const now = Date.now();
    const tokens = listAgentTokens(root, io.env).map((token) => ({
      label: token.label,
      agents: token.agents,
      created: token.created,
      expires: token.expires,
      expired: token.expires !== null && Date.parse(token.expires) <= now,
      lastUsed: token.lastUsed,
    }));
    if (values.json) {
      io.stdout(JSON.stringify(tokens) + "\n");
      return Promise.resolve(0);
    }
    if (tokens.length === 0) {
      io.stdout(
        "No agent tokens for this project: `beeuni tokens new --agent NAME` makes one\n",
      );
      return Promise.resolve(0);
    }
    const rows = [
      ["LABEL", "AGENTS", "CREATED", "EXPIRES", "LAST USED"],
      ...tokens.map((token) => [
        token.label,
        token.agents.join(","),
        token.created,
        token.expires === null
          ? "never"
          : `${token.expires}${token.expired ? " (expired)" : ""}`,
        token.lastUsed ?? "never",
      ]),
    ];
    io.stdout(formatColumns(rows));
    return Promise.resolve(0);
  },
});
