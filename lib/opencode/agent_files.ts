/**
 * Per-agent visibility in opencode (A2, A6): for each agent of `beeuni.yaml`
 * an opencode agent file whose `permission` ends with a `deny` for every
 * tool the agent may not see, so opencode leaves those tools out of that
 * agent's tool list (a tool is hidden from the model only when its final
 * rule is a `*` deny).
 *
 * The files go to `<configDir>/agents/<name>.md`, the folder opencode reads
 * markdown agents from. Each starts with a marker line; a file without it is
 * the user's own and is never touched (it is reported instead). Files with
 * the marker whose agent left `beeuni.yaml` are removed.
 *
 * The agent's other keys (M7: `description`, `mode`, `model`,
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
  writeOpencodePlugin,
} from "./plugin.ts";
import {
  errorMessage,
  removeStaleTemps,
  writeFileAtomic,
} from "../common/mod.ts";

/** The first line of every agent file beeuni writes. */
export const OPENCODE_AGENT_MARKER =
  "# Written by the beeuni daemon from beeuni.yaml; rewritten on every start and reload. Do not edit.";

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
 * standard harness couplings (A6): `write`, `edit` and `apply_patch` are the
 * one `edit` permission; `pty_*` follows `bash`.
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
 * front matter, its `prompt` as the body. Pure.
 */
export function renderOpencodeAgent(
  agent: AgentEntry,
  hostedTools: readonly string[],
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
  return {
    name: agent.name,
    text: `---\n${OPENCODE_AGENT_MARKER}\n${yaml}---\n${
      prompt === "" || prompt.endsWith("\n") ? prompt : `${prompt}\n`
    }`,
  };
}

/** Every agent of `manifest`, root file first; a name declared twice counts once. */
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
  /** Paths written. */
  written: string[];
  /** Paths of the user's own agent files left alone (no marker), so not written. */
  skipped: string[];
  /** Paths of earlier beeuni agent files removed (their agent left beeuni.yaml). */
  removed: string[];
}

function ours(path: string): boolean {
  try {
    return readFileSync(path, "utf8").split("\n", 2)[1] ===
      OPENCODE_AGENT_MARKER;
  } catch {
    return false;
  }
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * Writes one agent file per agent into `<configDir>/agents/`, atomically,
 * leaving the user's own files alone, and removes the beeuni files of agents
 * that are gone and the temporary files a killed write of an agent's file
 * left.
 */
export function writeOpencodeAgents(options: {
  configDir: string;
  agents: readonly AgentEntry[];
  hostedTools: readonly string[];
}): OpencodeAgentsResult {
  const result: OpencodeAgentsResult = {
    written: [],
    skipped: [],
    removed: [],
  };
  const dir = join(options.configDir, "agents");
  const names = new Set<string>();
  for (const agent of options.agents) {
    if (!SAFE_NAME.test(agent.name)) continue;
    names.add(agent.name);
    const path = join(dir, `${agent.name}.md`);
    const singular = join(options.configDir, "agent", `${agent.name}.md`);
    const userFile = [path, singular].find((file) =>
      existsSync(file) && !ours(file)
    );
    if (userFile !== undefined) {
      result.skipped.push(userFile);
      continue;
    }
    const { text } = renderOpencodeAgent(agent, options.hostedTools);
    let same = false;
    try {
      same = readFileSync(path, "utf8") === text;
    } catch {
      // Not written yet.
    }
    if (!same) writeFileAtomic(path, text);
    result.written.push(path);
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
    if (ours(path)) {
      rmSync(path, { force: true });
      result.removed.push(path);
    }
  }
  return result;
}

/** What {@linkcode writeOpencodeConfig} needs. */
export interface OpencodeConfigOptions {
  /** opencode's config folder; default {@linkcode opencodeConfigDir} of `env`. */
  configDir?: string;
  /** The environment to read `XDG_CONFIG_HOME` and `HOME` from. */
  env?: Record<string, string | undefined>;
  /** The daemon's base URL. */
  url: string;
  /** The daemon's token file; absent when the token is `BEEUNI_DAEMON_TOKEN`. */
  tokenFile?: string;
  /** The project root the daemon serves. */
  projectDir: string;
  /** Every tool the daemon serves (all agents). */
  tools: readonly OpencodePluginTool[];
  /** The manifest now served, for its agents; none: no agent files. */
  manifest?: Manifest;
}

/** What {@linkcode writeOpencodeConfig} wrote. */
export interface OpencodeConfigResult extends OpencodeAgentsResult {
  /** The plugin file's path. */
  plugin: string;
}

/**
 * Writes the standard harness's files into opencode's config folder: the
 * plugin (`plugins/beeuni.ts`) and one agent file per agent of the
 * manifest (`agents/<name>.md`). The daemon calls it on start and after
 * every successful reload.
 */
export function writeOpencodeConfig(
  options: OpencodeConfigOptions,
): OpencodeConfigResult {
  const manifest = options.manifest;
  const configDir = options.configDir === undefined
    ? opencodeConfigDir(options.env)
    : resolve(options.configDir);
  const plugin = writeOpencodePlugin({
    configDir,
    url: options.url,
    tokenFile: options.tokenFile,
    tools: options.tools,
    projectDir: options.projectDir,
  });
  const agents = writeOpencodeAgents({
    configDir,
    agents: manifest ? manifestAgents(manifest) : [],
    hostedTools: options.tools.map((tool) => tool.name),
  });
  return { plugin, ...agents };
}

/**
 * {@linkcode writeOpencodeConfig} for the daemon: never throws; logs where
 * the plugin went, each of the user's agent files left alone, and any
 * failure (the daemon keeps serving either way).
 */
export function syncOpencodeConfig(
  options: OpencodeConfigOptions & { log: (line: string) => void },
): OpencodeConfigResult | undefined {
  try {
    const result = writeOpencodeConfig(options);
    options.log(
      `[opencode] wrote ${result.plugin} (${options.tools.length} tools) and ${result.written.length} agent files`,
    );
    for (const path of result.skipped) {
      options.log(
        `[opencode] left "${path}" alone: it is not a file beeuni wrote, so opencode does not hide that agent's tools (the daemon still refuses the calls)`,
      );
    }
    return result;
  } catch (error) {
    const message = errorMessage(error);
    options.log(`[opencode] cannot write the opencode plugin: ${message}`);
    return undefined;
  }
}
