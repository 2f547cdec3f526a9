/**
 * Per-agent visibility in opencode: for each agent of `beeuni.yaml`
 * an opencode agent file whose `permission` ends with a `deny` for every
 * tool the agent may not see, so opencode leaves those tools out of that
 * agent's tool list (a tool is hidden from the model only when its final
 * rule is a `*` deny).
 *
 * The files go to `<configDir>/agents/<name>.md`, the folder opencode reads
 * markdown agents from. Each starts with a marker line and a line naming
 * the project whose daemon wrote it. A file without the marker is the
 * user's own and is never touched (it is reported instead); a file another
 * project's daemon wrote (or one without the project line) is never
 * overwritten or removed either. This project's files whose agent left
 * `beeuni.yaml` are removed.
 *
 * The agent's other keys (`description`, `mode`, `model`,
 * `permission`, …) pass through to opencode untouched, except the Beeuni
 * keys `tools`, `secrets` and `connectors`; `prompt` becomes the file's
 * body. Its own `permission` rules come first and the visibility denies
 * last, so they win.
 *
 * @module
 */

import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { stringify } from "yaml";
import {
  type AgentEntry,
  agentTools,
  EDIT_TOOLS,
  type Manifest,
} from "../manifest/mod.ts";
import {
  opencodeConfigDir,
  type OpencodePluginTool,
  placeOpencodePlugin,
  PROJECT_OPENCODE_DIR,
  writeIfChanged,
} from "./plugin.ts";
import { excludeFromGit, type GitExclude } from "./_git_exclude.ts";
import {
  canonicalRoot,
  errorMessage,
  removeStaleTemps,
} from "../common/mod.ts";

/** The first line of every agent file beeuni writes. */
export const OPENCODE_AGENT_MARKER =
  "# Written by the beeuni daemon from beeuni.yaml; rewritten on every start and reload. Do not edit.";

/** The start of the line after the marker, followed by the project's canonical root. */
export const OPENCODE_AGENT_PROJECT = "# beeuni project: ";

/**
 * The opencode 1.18.33 tools an agent's list decides about, besides the
 * hosted ones: every built-in but `invalid` (which opencode needs to answer
 * a malformed call), and `pty_*` for the terminal plugin's tools.
 */
export const OPENCODE_HARNESS_TOOLS: readonly string[] = [
  "question",
  "bash",
  "read",
  "glob",
  "grep",
  "edit",
  "write",
  "apply_patch",
  "task",
  "webfetch",
  "todowrite",
  "websearch",
  "skill",
  "lsp",
  "plan_exit",
  "pty_*",
];

/** Keys of `agents.<name>` that belong to beeuni and never reach opencode. */
const BEEUNI_AGENT_KEYS = new Set(["tools", "secrets", "connectors", "prompt"]);

/**
 * The opencode permission names to deny so `agent` does not see the tools it
 * may not see among `hostedTools` and opencode's own tools, with the
 * standard harness couplings: `write`, `edit` and `apply_patch` are the
 * one `edit` permission; `pty_*` follows `bash`.
 *
 * @returns The permission names to deny, each once, hosted tools first.
 */
export function opencodeDenies(
  agent: AgentEntry | undefined,
  hostedTools: readonly string[],
): string[] {
  const universe = [...hostedTools, ...OPENCODE_HARNESS_TOOLS];
  const visible = new Set(
    agentTools({ tools: universe, agent, harness: "standard" }),
  );
  const denies: string[] = [];
  for (const name of universe) {
    if (visible.has(name)) continue;
    const permission = EDIT_TOOLS.includes(name) ? "edit" : name;
    if (!denies.includes(permission)) denies.push(permission);
  }
  return denies;
}

/** One agent file: its name and its text. */
export interface OpencodeAgentFile {
  /** The agent's name (the file is `<name>.md`). */
  name: string;
  /** The file's text. */
  text: string;
}

/**
 * The agent file for `agent`: its pass-through keys and its permission
 * rules (its own first, then a `deny` per tool it may not see) as YAML
 * front matter, its `prompt` as the body; the line after the marker names
 * `projectDir` when given. Pure.
 *
 * @returns The agent's name and the file's text.
 */
export function renderOpencodeAgent(
  agent: AgentEntry,
  hostedTools: readonly string[],
  projectDir?: string,
): OpencodeAgentFile {
  const front: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(agent.raw ?? {})) {
    if (BEEUNI_AGENT_KEYS.has(key) || key === "permission") continue;
    front[key] = value;
  }
  const permission: Record<string, unknown> = {};
  const own = agent.raw?.permission;
  if (typeof own === "string") permission["*"] = own;
  else if (own && typeof own === "object" && !Array.isArray(own)) {
    Object.assign(permission, own);
  }
  for (const name of opencodeDenies(agent, hostedTools)) {
    // Deleting first moves the key last: the last matching rule wins.
    delete permission[name];
    permission[name] = "deny";
  }
  if (Object.keys(permission).length > 0) front.permission = permission;
  const prompt = typeof agent.raw?.prompt === "string" ? agent.raw.prompt : "";
  const yaml = Object.keys(front).length > 0 ? stringify(front) : "";
  const project = projectDir === undefined
    ? ""
    : `${OPENCODE_AGENT_PROJECT}${projectLine(projectDir)}\n`;
  return {
    name: agent.name,
    text: `---\n${OPENCODE_AGENT_MARKER}\n${project}${yaml}---\n${
      prompt === "" || prompt.endsWith("\n") ? prompt : `${prompt}\n`
    }`,
  };
}

/**
 * Every agent of `manifest`, root file first; a name declared twice counts once.
 *
 * @returns The agents, each once.
 */
export function manifestAgents(manifest: Manifest): AgentEntry[] {
  const agents: AgentEntry[] = [];
  for (const file of manifest.files) {
    for (const agent of file.agents) {
      if (!agents.some((seen) => seen.name === agent.name)) agents.push(agent);
    }
  }
  return agents;
}

/** What {@linkcode writeOpencodeAgents} did. */
export interface OpencodeAgentsResult {
  /** Paths written: new files, or files whose bytes changed. */
  written: string[];
  /** Paths of this project's agent files that already held those bytes, so not written. */
  unchanged: string[];
  /** Paths of the user's own agent files left alone (no marker), so not written. */
  skipped: string[];
  /** Paths of earlier beeuni agent files removed (their agent left beeuni.yaml). */
  removed: string[];
  /**
   * Paths of agent files another project's daemon wrote (or an older
   * beeuni without the project line), left alone, so not written.
   */
  foreign: string[];
}

/** A project root as the agent files name it: canonical, on one line. */
function projectLine(projectDir: string): string {
  return canonicalRoot(projectDir).replace(/[\r\n\u2028\u2029]/g, " ");
}

/**
 * Who wrote the agent file at `path`: `undefined` when beeuni did not (or
 * it cannot be read), otherwise the project its line names (`""` when it
 * names none).
 */
function writer(path: string): string | undefined {
  let lines: string[];
  try {
    lines = readFileSync(path, "utf8").split("\n", 3);
  } catch {
    return undefined;
  }
  if (lines[1] !== OPENCODE_AGENT_MARKER) return undefined;
  return lines[2]?.startsWith(OPENCODE_AGENT_PROJECT)
    ? lines[2].slice(OPENCODE_AGENT_PROJECT.length)
    : "";
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * Writes one agent file per agent into `<configDir>/agents/`, atomically,
 * leaving the user's own files and other projects' files alone, and
 * removes this project's files of agents that are gone and the temporary
 * files a killed write of an agent's file left.
 *
 * @returns The paths written, unchanged, left alone and removed.
 * @throws {Error} When the folder or a file cannot be written.
 */
export function writeOpencodeAgents(options: {
  /** The opencode config folder. */
  configDir: string;
  /** The agents to write files for. */
  agents: readonly AgentEntry[];
  /** Every tool the daemon serves. */
  hostedTools: readonly string[];
  /** The project root whose daemon writes them. */
  projectDir: string;
}): OpencodeAgentsResult {
  const result: OpencodeAgentsResult = {
    written: [],
    unchanged: [],
    skipped: [],
    removed: [],
    foreign: [],
  };
  const dir = join(options.configDir, "agents");
  const me = projectLine(options.projectDir);
  const names = new Set<string>();
  for (const agent of options.agents) {
    if (!SAFE_NAME.test(agent.name)) continue;
    names.add(agent.name);
    const path = join(dir, `${agent.name}.md`);
    const singular = join(options.configDir, "agent", `${agent.name}.md`);
    const userFile = [path, singular].find((file) =>
      existsSync(file) && writer(file) === undefined
    );
    if (userFile !== undefined) {
      result.skipped.push(userFile);
      continue;
    }
    const owner = writer(path);
    if (owner !== undefined && owner !== me) {
      result.foreign.push(path);
      continue;
    }
    const { text } = renderOpencodeAgent(
      agent,
      options.hostedTools,
      options.projectDir,
    );
    if (writeIfChanged(path, text)) result.written.push(path);
    else result.unchanged.push(path);
  }
  removeStaleTemps(dir, { names: [...names].map((name) => `${name}.md`) });
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    // No folder: nothing to remove.
  }
  for (const entry of entries) {
    if (!entry.endsWith(".md") || names.has(entry.slice(0, -3))) continue;
    const path = join(dir, entry);
    if (writer(path) === me) {
      rmSync(path, { force: true });
      result.removed.push(path);
    }
  }
  return result;
}

/** What {@linkcode writeOpencodeConfig} needs. */
export interface OpencodeConfigOptions {
  /**
   * The opencode config folder to write into. Default: the project's own,
   * `<projectDir>/.opencode`, kept out of git through the checkout's
   * `info/exclude`; with `global`, opencode's global folder.
   */
  configDir?: string;
  /** Write into opencode's global folder ({@linkcode opencodeConfigDir} of `env`). */
  global?: boolean;
  /** The environment to read `XDG_CONFIG_HOME` and `HOME` from. */
  env?: Record<string, string | undefined>;
  /** The project's daemon record, which the plugin reads at each call. */
  recordFile: string;
  /** The project root the daemon serves. */
  projectDir: string;
  /** Every tool the daemon serves (all agents). */
  tools: readonly OpencodePluginTool[];
  /** The manifest now served, for its agents; none: no agent files. */
  manifest?: Manifest;
}

/** What {@linkcode writeOpencodeConfig} wrote. */
export interface OpencodeConfigResult extends OpencodeAgentsResult {
  /** The opencode config folder written into. */
  configDir: string;
  /** The plugin file's path. */
  plugin: string;
  /** Whether the plugin file was written (false: it held those bytes already). */
  pluginWritten: boolean;
  /** The exclude line keeping the project's folder out of git, when in a checkout. */
  excluded?: GitExclude;
  /** Why the project's folder could not be kept out of git, when it could not. */
  excludeError?: string;
}

/** The folder {@linkcode writeOpencodeConfig} writes into. */
export function opencodeTarget(
  options: Pick<
    OpencodeConfigOptions,
    "configDir" | "global" | "env" | "projectDir"
  >,
): string {
  if (options.configDir !== undefined) return resolve(options.configDir);
  if (options.global) return opencodeConfigDir(options.env);
  return join(resolve(options.projectDir), PROJECT_OPENCODE_DIR);
}

/**
 * Writes the standard harness's files into an opencode config folder (see
 * {@linkcode opencodeTarget}): the plugin (`plugins/beeuni.ts`) and one
 * agent file per agent of the manifest (`agents/<name>.md`). Into the
 * project's own folder, it first adds the folder to the checkout's
 * `info/exclude` (once). The daemon calls it on start and after every
 * successful reload.
 *
 * @returns What was written, and whether the project's folder is kept out of
 * git.
 * @throws {Error} When the folder or a file cannot be written.
 */
export function writeOpencodeConfig(
  options: OpencodeConfigOptions,
): OpencodeConfigResult {
  const manifest = options.manifest;
  const configDir = opencodeTarget(options);
  let excluded: GitExclude | undefined;
  let excludeError: string | undefined;
  if (options.configDir === undefined && !options.global) {
    try {
      excluded = excludeFromGit(configDir);
    } catch (error) {
      excludeError = errorMessage(error);
    }
  }
  const plugin = placeOpencodePlugin({
    configDir,
    recordFile: options.recordFile,
    tools: options.tools,
    projectDir: options.projectDir,
  });
  const agents = writeOpencodeAgents({
    configDir,
    agents: manifest ? manifestAgents(manifest) : [],
    hostedTools: options.tools.map((tool) => tool.name),
    projectDir: options.projectDir,
  });
  return {
    configDir,
    plugin: plugin.path,
    pluginWritten: plugin.changed,
    excluded,
    excludeError,
    ...agents,
  };
}

/** What {@linkcode syncOpencodeConfig} needs besides {@linkcode OpencodeConfigOptions}. */
export interface SyncOpencodeOptions extends OpencodeConfigOptions {
  /** Where the lines go. */
  log: (line: string) => void;
  /**
   * Say where the files are even when nothing changed (the daemon's
   * start); otherwise an unchanged set of files logs nothing.
   */
  announce?: boolean;
}

/**
 * {@linkcode writeOpencodeConfig} for the daemon: never throws; logs what
 * it wrote (`[opencode] wrote …`, only when a file changed or went; with
 * `announce`, `[opencode] … are up to date` otherwise), each of the user's
 * agent files left alone, and any failure (the daemon keeps serving
 * either way).
 *
 * @returns What was written, or `undefined` when writing failed (logged).
 */
export function syncOpencodeConfig(
  options: SyncOpencodeOptions,
): OpencodeConfigResult | undefined {
  try {
    const result = writeOpencodeConfig(options);
    const what = `${result.plugin} (${options.tools.length} tools) and ${
      result.written.length + result.unchanged.length
    } agent files`;
    const changed = result.pluginWritten || result.written.length > 0 ||
      result.removed.length > 0;
    if (changed) options.log(`[opencode] wrote ${what}`);
    else if (options.announce) options.log(`[opencode] ${what} are up to date`);
    if (result.excluded?.added) {
      options.log(
        `[opencode] added "${result.excluded.line}" to ${result.excluded.file}, so git leaves the project's opencode folder alone`,
      );
    }
    if (result.excludeError !== undefined) {
      options.log(
        `[opencode] cannot keep ${result.configDir} out of git: ${result.excludeError}`,
      );
    }
    for (const path of result.skipped) {
      options.log(
        `[opencode] left "${path}" alone: it is not a file beeuni wrote, so opencode does not hide that agent's tools (the daemon still refuses the calls)`,
      );
    }
    for (const path of result.foreign) {
      options.log(
        `[opencode] left "${path}" alone: another project's daemon wrote it, so opencode does not hide that agent's tools (the daemon still refuses the calls); delete it if that project no longer needs it`,
      );
    }
    return result;
  } catch (error) {
    const message = errorMessage(error);
    options.log(`[opencode] cannot write the opencode plugin: ${message}`);
    return undefined;
  }
}
