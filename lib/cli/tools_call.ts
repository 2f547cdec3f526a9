/**
 * `beeuni tools call <name>`: runs one tool call in-process, the way the
 * daemon would, and prints what the model would read. The way to try a
 * tool locally.
 *
 * @module
 */

import { randomBytes } from "node:crypto";
import { type Command, defineCommand, UsageError } from "./command.ts";
import { DEFAULT_AGENT, MANIFEST_OPTION, RUNNER_OPTION } from "./_options.ts";
import { projectHost } from "./_project_host.ts";
import {
  escapeControl,
  isPlainObject,
  jsonSyntaxError,
} from "../common/mod.ts";
import { locateManifest } from "../project/mod.ts";
import type { Host } from "../host/mod.ts";
import { nearestName, undefinedAgentNote } from "../manifest/mod.ts";

export { DEFAULT_AGENT };

const EXAMPLE = `'{"query": "deno"}'`;

function parseArgsJson(text: string, source: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const broken = jsonSyntaxError(text);
    const where = broken === undefined
      ? ""
      : ` at line ${broken.line}, column ${broken.col} (${
        broken.near === ""
          ? "the end of the text"
          : `\`${escapeControl(broken.near)}\``
      }): ${broken.problem};`;
    throw new UsageError(
      `${source} is not valid JSON${
        where || ":"
      } pass an object such as ${EXAMPLE}`,
    );
  }
  if (!isPlainObject(value)) {
    throw new UsageError(
      `${source} must be a JSON object such as ${EXAMPLE}`,
    );
  }
  return value;
}

/** The manifest's errors, one line each, as `validate` prints them. */
function manifestErrors(host: Host): string {
  const errors = host.diagnostics().filter((d) => d.severity === "error");
  if (errors.length === 0) return "";
  const lines = errors.map((d) =>
    `${escapeControl(d.file)}:${d.line}:${d.col}: error: ${
      escapeControl(d.message)
    }\n`
  );
  return `beeuni tools call: the manifest has errors:\n${lines.join("")}`;
}

/**
 * What stops the call before it is made, in words, or `undefined`: a name
 * the project does not declare (with the nearest one), a tool that did not
 * load (its reason first), and the manifest's errors that explain either.
 * Control characters in names and reasons are escaped, so none can drive
 * the terminal or start a line.
 */
function callProblem(host: Host, rawName: string): string | undefined {
  const name = escapeControl(rawName);
  const declared = host.toolSet().tools.map((tool) => tool.name);
  if (!declared.includes(rawName)) {
    const near = nearestName(rawName, declared);
    return `${
      manifestErrors(host)
    }Tool ${name} not found: the project declares no tool "${name}"${
      near === undefined ? "" : ` (did you mean "${escapeControl(near)}"?)`
    }\n`;
  }
  const failed = host.loadErrors().find((entry) => entry.name === rawName);
  if (failed) {
    return `tool "${name}" did not load: ${
      escapeControl(failed.reason)
    }\n(a session calling it gets "Tool ${name} not found" until this is fixed; \`beeuni validate --load\` checks every tool)\n`;
  }
  return undefined;
}

const OPTIONS = {
  args: {
    type: "string",
    value: "JSON",
    help: `the arguments, a JSON object (default {}); "-" reads
them from standard input`,
  },
  agent: {
    type: "string",
    value: "NAME",
    help: `the agent making the call (default "${DEFAULT_AGENT}"): decides
which tools it may call and which secrets it gets; an
agent the manifest does not define sees every tool and
gets no secret`,
  },
  parent: {
    type: "string",
    value: "NAME",
    help: "the session agent, when --agent is a subagent",
  },
  session: {
    type: "string",
    value: "ID",
    help: "the session id in context.sessionId (default: random)",
  },
  manifest: MANIFEST_OPTION,
  validate: {
    type: "boolean",
    help: "validate the arguments against the tool's schema",
  },
  "timeout-ms": {
    type: "integer",
    value: "N",
    help: "the call's timeout in milliseconds",
  },
  verbose: {
    type: "boolean",
    help: "also print the host's log lines on standard error",
  },
  runner: RUNNER_OPTION,
} as const;

/** `beeuni tools call <name> --args '<json>'`. */
export const toolsCallCommand: Command<typeof OPTIONS> = defineCommand({
  synopsis: "<name> [--args JSON] [options]",
  description:
    `Loads the project's tools like the daemon does, runs one call of <name>,
prints the output the model would read on standard output (exit 0), or the
tool's error on standard error (exit 1). An output over 50 KB or 2,000
lines is cut, with a note giving the full size and the file holding it.

  beeuni tools call lookup_order --args '{"id": "A-17"}'
  echo '{"id": "A-17"}' | beeuni tools call lookup_order --args -`,
  options: OPTIONS,
  positionals: 1,
  async run({ values, positionals }, io) {
    if (positionals.length === 0) {
      throw new UsageError("missing the tool's name");
    }
    const [name] = positionals;
    const callArgs = values.args === undefined
      ? {}
      : values.args === "-"
      ? parseArgsJson(await io.readStdin(), "standard input")
      : parseArgsJson(values.args, "--args");
    const agent = values.agent ?? DEFAULT_AGENT;
    if (agent === "") throw new UsageError("--agent must not be empty");
    const sessionId = values.session ?? `cli-${randomBytes(6).toString("hex")}`;
    if (sessionId === "") throw new UsageError("--session must not be empty");

    const manifestFile = locateManifest(io.cwd, values.manifest);
    const host = await projectHost(manifestFile, io, {
      validateArgs: values.validate,
      runner: values.runner,
      timeoutMs: values["timeout-ms"],
      log: (line) => {
        if (values.verbose) io.stderr(line + "\n");
      },
    });
    try {
      // An agent the manifest does not define sees every tool and gets no
      // secret, as on every other transport; named with --agent, a note
      // says so.
      for (const named of [values.agent, values.parent]) {
        const note = named === undefined
          ? undefined
          : undefinedAgentNote(host.manifest(), named);
        if (note) io.stderr(`beeuni tools call: ${escapeControl(note)}\n`);
      }
      const problem = callProblem(host, name);
      if (problem) {
        io.stderr(problem);
        return 1;
      }
      // The tool resolves; the manifest's errors still deserve a look.
      io.stderr(manifestErrors(host));
      const outcome = await host.call({
        name,
        args: callArgs,
        sessionId,
        agent,
        parentAgent: values.parent,
        transport: "cli",
      });
      if (outcome.ok) {
        // A cut output already ends with the host's notice naming the file.
        const text = outcome.output;
        io.stdout(text.endsWith("\n") ? text : text + "\n");
        return 0;
      }
      // The tool's own error may span lines; nothing in it may drive the
      // terminal.
      const message = escapeControl(outcome.error, {
        keepNewlines: outcome.status === "error",
      });
      io.stderr(message.endsWith("\n") ? message : message + "\n");
      return 1;
    } finally {
      await host.close();
    }
  },
});
