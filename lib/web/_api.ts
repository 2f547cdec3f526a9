// The page's API under `/ui/api/`: the tools an agent gets, the history as
// server-sent events, and the files `show` calls named. The daemon checks
// the bearer token before any of these run.

import { open, realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { isPlainObject } from "../common/mod.ts";
import type { Host, HostedTool, LoadError } from "../host/mod.ts";
import { agentNames, DEFAULT_AGENT } from "../manifest/mod.ts";
import { actingAgent, type Principal } from "../http/mod.ts";
import type { History } from "./_history.ts";

/** The part of the host the page's API reads. */
export type WebHost = Pick<
  Host,
  "directory" | "list" | "loadErrors" | "manifest" | "diagnostics" | "subscribe"
>;

/** The largest file a `show` call may hand to the page: 25 MiB. */
const MAX_FILE_BYTES = 25 * 1024 * 1024;

/** A JSON answer (the daemon's own shape: one object and a newline). */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body) + "\n", {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
    },
  });
}

/** The body of `GET /ui/api/tools`, as the page reads it. */
export interface ToolsBody {
  /** The agents the manifest names (an agent token's agents only, with one). */
  agents: string[];
  /** The agent a session gets when its caller names none (an agent token's first). */
  defaultAgent: string;
  /** The agent asked for, if any. */
  agent: string | null;
  /** The tools it gets. */
  tools: HostedTool[];
  /** The names of the tools it does not get. */
  hidden: string[];
  /** The tools that did not load. */
  loadErrors: LoadError[];
  /** The manifest's diagnostics. */
  diagnostics: {
    file: string;
    line: number;
    col: number;
    severity: "error" | "warning";
    message: string;
  }[];
}

/**
 * `GET /ui/api/tools?agent=A`: what agent `A` gets, what it does not, and
 * what did not load; `defaultAgent` is the agent a session gets when its
 * caller names none. An agent token (`principal`) sees only its agents:
 * another `A` is refused (403).
 */
export function toolsAnswer(
  host: WebHost,
  url: URL,
  principal: Principal,
): Response {
  const agent = actingAgent(
    principal,
    url.searchParams.get("agent") || undefined,
  );
  const tools = host.list(agent);
  const seen = new Set(tools.map((tool) => tool.name));
  const body: ToolsBody = {
    agents: principal.kind === "daemon"
      ? agentNames(host.manifest())
      : principal.agents,
    defaultAgent: principal.kind === "daemon"
      ? DEFAULT_AGENT
      : principal.agents[0],
    agent: agent ?? null,
    tools,
    hidden: host.list().map((tool) => tool.name).filter((name) =>
      !seen.has(name)
    ),
    loadErrors: host.loadErrors(),
    diagnostics: host.diagnostics().map((d) => ({
      file: d.file,
      line: d.line,
      col: d.col,
      severity: d.severity,
      message: d.message,
    })),
  };
  return jsonResponse(200, body);
}

/**
 * `GET /ui/api/events`: the history, then every call and reload as it
 * happens (only the calls of `agents` when given). When the server's
 * event streams are at their cap, the oldest one is closed to make room.
 */
export function eventsAnswer(
  history: History,
  agents?: readonly string[],
): Response {
  return new Response(history.stream(agents), {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
    },
  });
}

/** The paths that kept `show` calls (of `agents` when given) of type `image` or `file` named and that succeeded. */
function shownPaths(
  history: History,
  agents: readonly string[] | undefined,
): Set<string> {
  const paths = new Set<string>();
  for (const record of history.records(agents)) {
    const args = record.args;
    if (
      record.name === "show" && record.outcome?.ok === true &&
      isPlainObject(args) &&
      (args.type === "image" || args.type === "file") &&
      typeof args.path === "string"
    ) paths.add(args.path);
  }
  return paths;
}

/**
 * `GET /ui/api/file?path=P`: the bytes of a file a `show` call in the
 * history named (a call of `agents` when given), if it is still a file
 * inside the project.
 */
export async function fileAnswer(
  host: WebHost,
  history: History,
  url: URL,
  agents?: readonly string[],
): Promise<Response> {
  const path = url.searchParams.get("path") ?? "";
  if (!shownPaths(history, agents).has(path)) {
    return jsonResponse(404, {
      error: `no show call in the history named file "${path}"`,
    });
  }
  const missing = jsonResponse(404, {
    error: `file "${path}" is not a file inside the project`,
  });
  let real: string;
  try {
    const root = await realpath(host.directory);
    real = await realpath(resolve(root, path));
    const inside = relative(root, real);
    if (inside === "" || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
      return missing;
    }
  } catch {
    return missing;
  }
  const handle = await open(real, "r").catch(() => undefined);
  if (handle === undefined) return missing;
  try {
    const info = await handle.stat();
    if (!info.isFile()) return missing;
    if (info.size > MAX_FILE_BYTES) {
      return jsonResponse(413, {
        error:
          `file "${path}" is ${info.size} bytes: the web UI shows files up to ${MAX_FILE_BYTES} bytes`,
      });
    }
    // Reads what the file held when it was looked at, however it grows.
    const body = new Uint8Array(info.size);
    let filled = 0;
    while (filled < body.length) {
      const { bytesRead } = await handle.read(
        body,
        filled,
        body.length - filled,
        filled,
      );
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return new Response(body.subarray(0, filled), {
      headers: {
        "content-type": "application/octet-stream",
        "content-disposition": "attachment",
        "cache-control": "no-store",
      },
    });
  } finally {
    await handle.close();
  }
}
