/**
 * `beeuni tokens new --agent NAME`: makes an agent token, a bearer token
 * a running daemon accepts beside its own that acts only as the agents
 * named. The token is printed once; only its hash is stored.
 *
 * @module
 */

import { type Command, defineCommand, UsageError } from "./command.ts";
import { DEFAULT_AGENT, MANIFEST_OPTION } from "./_options.ts";
import { loadProject } from "../project/mod.ts";
import { agentNames, formatText } from "../manifest/mod.ts";
import {
  agentTokenLabelProblem,
  createAgentToken,
  parseDuration,
} from "../secrets/mod.ts";

const OPTIONS = {
  agent: {
    type: "string",
    value: "NAME",
    multiple: true,
    help: `an agent the token acts as (repeatable; the first is the
one a request acts as when it names none)`,
  },
  label: {
    type: "string",
    value: "TEXT",
    help: `the token's name in \`tokens ls\` and \`tokens rm\`
(default token-<n>, the lowest free)`,
  },
  expires: {
    type: "string",
    value: "DURATION",
    help: `how long it works: a whole number and a unit, s, m,
h, d or w (30m, 12h, 7d, 1w); default: until removed`,
  },
  manifest: MANIFEST_OPTION,
} as const;

/** `beeuni tokens new`: makes an agent token and prints it once. */
export const tokensNewCommand: Command<typeof OPTIONS> = defineCommand({
  synopsis: `--agent NAME [--agent NAME...] [--label TEXT]
                      [--expires DURATION] [--manifest PATH]`,
  description:
    `Makes an agent token for this project: a bearer token the project's
daemon accepts beside its own, from its next request on, that acts only as
the agents named (REST, MCP and the web UI). The token alone is printed on
standard output, once; a note on standard error says so. Only its SHA-256
is stored (file mode 0600, in the state folder).

  TOKEN=$(beeuni tokens new --agent reviewer --expires 7d)`,
  options: OPTIONS,
  async run({ values }, io) {
    if (values.agent.length === 0) {
      throw new UsageError(
        "missing --agent NAME: name at least one agent the token acts as",
      );
    }
    if (values.agent.includes("")) {
      throw new UsageError("--agent needs an agent name");
    }
    const labelProblem = values.label === undefined
      ? undefined
      : agentTokenLabelProblem(values.label);
    if (labelProblem !== undefined) {
      throw new UsageError(
        `invalid --label "${values.label}": ${labelProblem}`,
      );
    }
    let expiresInMs: number | undefined;
    if (values.expires !== undefined) {
      expiresInMs = parseDuration(values.expires);
      if (expiresInMs === undefined) {
        throw new UsageError(
          `invalid --expires "${values.expires}": use a whole number and a unit, s, m, h, d or w (30m, 12h, 7d, 1w)`,
        );
      }
    }
    const project = await loadProject({
      cwd: io.cwd,
      manifest: values.manifest,
    });
    const manifest = project.manifest;
    if (project.diagnostics.some((d) => d.severity === "error")) {
      io.stderr(
        formatText(manifest.manifestPath, project.diagnostics, io.color),
      );
      return 1;
    }
    const known = [
      DEFAULT_AGENT,
      ...agentNames(manifest).filter((name) => name !== DEFAULT_AGENT),
    ];
    const unknown = values.agent.find((name) => !known.includes(name));
    if (unknown !== undefined) {
      throw new Error(
        `unknown agent "${unknown}": this project's agents are ${
          known.map((name) => `"${name}"`).join(", ")
        }; name one of those, or define it under agents: in ${manifest.manifestPath}`,
      );
    }
    const { token, record, path } = await createAgentToken(
      project.root,
      io.env,
      { agents: values.agent, label: values.label, expiresInMs },
    );
    io.stdout(`${token}\n`);
    const agents = record.agents.map((name) => `"${name}"`).join(", ");
    io.stderr(
      `Made agent token "${record.label}" for agent${
        record.agents.length === 1 ? "" : "s"
      } ${agents}${
        record.expires === null ? "" : `, expiring ${record.expires}`
      }. It is shown once, above: only its hash is kept, in ${path}. \`beeuni tokens rm ${record.label}\` revokes it.\n`,
    );
    return 0;
  },
});
