/**
 * `beeuni web`: a fresh one-time address of the running daemon's web UI,
 * for a user who lost the printed one or let its minute pass.
 *
 * @module
 */

import { type Command, defineCommand, projectRootFor } from "./command.ts";
import { MANIFEST_OPTION } from "./_options.ts";
import { errorMessage } from "../common/mod.ts";
import { locateDaemon } from "../daemon/mod.ts";
import { AGENT_TOKEN_PREFIX } from "../secrets/mod.ts";

/** `beeuni web`: asks the project's daemon for a one-time address and prints it. */
export const webCommand: Command<{ manifest: typeof MANIFEST_OPTION }> =
  defineCommand({
    synopsis: "[--manifest PATH]",
    description:
      `Asks the project's running daemon (the newest one, when several run) for a
fresh address of its web UI and prints it:

  web ui: http://127.0.0.1:8787/w/…/#code=…

The page lives under a secret path the daemon picks at each start (the
daemon tells it, and no file holds it). The address carries a one-time code,
never the daemon's token: it opens the page once, within a minute, and the
page then keeps a session cookie, sent only under that path, until the
browser or the daemon stops (a reload keeps working). Run it again for
another browser or tab that has no session.

The daemon's token is read from its token file, or from BEEUNI_DAEMON_TOKEN
when the daemon was started with it. When BEEUNI_TOKEN holds an agent token
(bt_…, from \`beeuni tokens new\`), the address is minted with it instead: the
page then acts only as that token's agents.`,
    options: { manifest: MANIFEST_OPTION },
    async run({ values }, io) {
      const root = projectRootFor(io.cwd, values.manifest);
      const daemon = locateDaemon(root, io.env);
      const agentToken = io.env.BEEUNI_TOKEN;
      const bearer = agentToken?.startsWith(AGENT_TOKEN_PREFIX)
        ? agentToken
        : daemon.token;
      let response: Response;
      try {
        response = await fetch(`${daemon.url}/beeuni/web/code`, {
          method: "POST",
          headers: { authorization: `Bearer ${bearer}` },
        });
      } catch (error) {
        throw new Error(
          `cannot reach the daemon at ${daemon.url}: ${
            errorMessage(error)
          }; is it still running?`,
        );
      }
      const body = await response.json().catch(() => ({})) as {
        url?: unknown;
        error?: unknown;
      };
      if (!response.ok || typeof body.url !== "string") {
        throw new Error(
          `the daemon at ${daemon.url} gave no address (HTTP ${response.status}): ${
            typeof body.error === "string"
              ? body.error
              : "its answer has no url"
          }`,
        );
      }
      io.stdout(`web ui: ${body.url}\n`);
      return 0;
    },
  });
