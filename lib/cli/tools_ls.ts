/**
 * `beeuni tools ls`: the tools a session gets, or those one agent
 * sees (section 5).
 *
 * @module
 */

import {
  agentTools,
  type AgentView,
  findAgent,
  formatText,
  formatToolsTable,
  type Harness,
  mayDelegate,
  type ToolSet,
  toolsJson,
  undefinedAgentNote,
} from "../manifest/mod.ts";
import { escapeControl } from "../common/mod.ts";
import {
  type Command,
  type CommandIo,
  parseOptions,
  UsageError,
} from "./command.ts";
import { loadProject } from "../project/mod.ts";

const HARNESSES: readonly Harness[] = ["standard", "experimental"];

/** `beeuni tools ls`: lists the session's tools, or what one agent sees. */
export const toolsLsCommand: Command = {
  name: "tools ls",
  summary: "List the tools a session gets, or those one agent sees",
  usage: `Usage: beeuni tools ls [--manifest PATH] [--json] [--agent NAME]
                      [--harness standard|experimental] [--parent AGENT]

Reads beeuni.yaml and its imports and prints each tool a session gets
(NAME, KIND, SOURCE), then the Beeuni tools the project removed. Kinds:
beeuni (listed as beeuni:<name>, or every one when no file has a tools:
key), beeuni (overridden) (a Beeuni name mapped to a module path), project.
A manifest with errors is reported as \`beeuni validate\` does (exit 1).

Options:
  --manifest PATH  the project's beeuni.yaml (default: found from the
                   current folder upwards)
  --json           print { manifest, tools_key, tools: [{ name, kind,
                   source }], removed }
  --agent NAME     list only the tools agent NAME sees (agents.NAME.tools);
                   the rest are named on a "Hidden from agent" line; an
                   agent the manifest does not define sees every tool
  --harness H      the harness whose rules apply to --agent: standard
                   (default; bash covers pty_*, write/edit/apply_patch share
                   one permission) or experimental (the daemon's
                   in-process harness); without --agent it changes
                   nothing: a session gets the same tools in both
  --parent AGENT   --agent is a subagent AGENT starts with task: in the
                   experimental harness it sees only what both lists allow;
                   in the standard harness its own list decides
`,
  async run(args: string[], io: CommandIo): Promise<number> {
    const { values, positionals } = parseOptions(args, {
      manifest: { type: "string" },
      json: { type: "boolean" },
      agent: { type: "string" },
      harness: { type: "string" },
      parent: { type: "string" },
    });
    if (positionals.length > 0) {
      throw new UsageError(`unexpected argument "${positionals[0]}"`);
    }
    const agentName = values.agent as string | undefined;
    const parentName = values.parent as string | undefined;
    const harnessValue = values.harness as string | undefined;
    if (
      harnessValue !== undefined &&
      !(HARNESSES as readonly string[]).includes(harnessValue)
    ) {
      throw new UsageError(
        `unknown harness "${harnessValue}": use "standard" or "experimental"`,
      );
    }
    if (agentName === "") throw new UsageError("--agent needs an agent name");
    if (parentName === "") throw new UsageError("--parent needs an agent name");
    if (parentName !== undefined && agentName === undefined) {
      throw new UsageError(
        "--parent needs --agent: name the subagent the parent starts",
      );
    }
    const harness = (harnessValue ?? "standard") as Harness;

    const project = await loadProject({
      cwd: io.cwd,
      manifest: values.manifest as string | undefined,
    });
    if (project.diagnostics.some((d) => d.severity === "error")) {
      io.stderr(
        formatText(
          project.manifest.manifestPath,
          project.diagnostics,
          io.color,
        ),
      );
      return 1;
    }

    let set: ToolSet = project.toolSet;
    let view: AgentView | undefined;
    if (agentName !== undefined) {
      const manifest = project.manifest;
      // An agent the manifest does not define sees every tool, as on
      // every other transport: a note says so, with a near name.
      for (const name of [agentName, parentName]) {
        const note = name === undefined
          ? undefined
          : undefinedAgentNote(manifest, name);
        if (note) io.stderr(`beeuni tools ls: ${escapeControl(note)}\n`);
      }
      const agent = findAgent(manifest, agentName);
      const parent = parentName === undefined
        ? undefined
        : findAgent(manifest, parentName);
      if (parent && !mayDelegate(parent, harness)) {
        throw new Error(
          `agent "${parent.name}" cannot start subagents: its tools do not include "task"; add \`task\` to them or name another --parent`,
        );
      }
      const names = agentTools({
        tools: set.tools.map((tool) => tool.name),
        agent,
        parent,
        harness,
      });
      view = {
        agent: agentName,
        defined: agent !== undefined,
        harness,
        parent: parentName,
        hidden: set.tools.map((tool) => tool.name).filter((name) =>
          !names.includes(name)
        ),
      };
      set = {
        ...set,
        tools: set.tools.filter((tool) => names.includes(tool.name)),
      };
    }

    io.stdout(
      values.json
        ? `${JSON.stringify(toolsJson(set, view), null, 2)}\n`
        : formatToolsTable(set, view),
    );
    return 0;
  },
};
