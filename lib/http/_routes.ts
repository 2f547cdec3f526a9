// The daemon's own routes under /beeuni/, as a table.

import { callerTraceContext, readBodyText } from "../common/mod.ts";
import type { CallOutcome, CallRequest, HostedTool } from "../host/mod.ts";
import type { Manifest } from "../manifest/mod.ts";
import type { CallerWatch } from "./_caller_watch.ts";
import { checkCallerString, decodeSegment, json } from "./_respond.ts";
import { HttpError, parseCallBody } from "./call_body.ts";
import { actingAgent, type Principal } from "./principal.ts";
import {
  isTarget,
  type ShapedSchema,
  shapeSchema,
  type Target,
  TARGETS,
} from "../schema_targets/mod.ts";

/** One tool as the HTTP list returns it. */
export interface ListedTool {
  /** The tool's name. */
  name: string;
  /** What the model reads about it. */
  description: string;
  /** Its JSON Schema, as the module gives it. */
  parameters: Record<string, unknown>;
}

/** The `target` query parameter: a provider the schemas are shaped for. */
function targetOf(url: URL): Target | undefined {
  const value = url.searchParams.get("target");
  if (value === null || value === "") return undefined;
  if (!isTarget(value)) {
    throw new HttpError(
      400,
      `unknown target "${value}": use ${TARGETS.join(", ")}`,
    );
  }
  return value;
}

/** Shaped schemas by the tool's own (a loaded tool keeps its object). */
const shapedCache = new WeakMap<object, Map<Target, ShapedSchema>>();

function shaped(
  parameters: Record<string, unknown>,
  target: Target,
): ShapedSchema {
  let byTarget = shapedCache.get(parameters);
  if (!byTarget) shapedCache.set(parameters, byTarget = new Map());
  let result = byTarget.get(target);
  if (!result) byTarget.set(target, result = shapeSchema(parameters, target));
  return result;
}

/**
 * A call as the tool receives it: with `target`, the arguments the
 * provider's model sent are mapped back to the tool's schema, and checked
 * against it when the provider saw a rewritten schema.
 */
async function toolCall(
  host: DaemonHost,
  name: string,
  body: HostCall,
  target: Target | undefined,
): Promise<HostCall> {
  if (target === undefined) return body;
  await host.ready?.();
  const tool = host.list(body.agent, body.parentAgent).find((t) =>
    t.name === name
  );
  if (!tool) return body;
  const shape = shaped(tool.parameters, target);
  if (shape.parameters === tool.parameters) return body;
  return {
    ...body,
    args: shape.restore(body.args as Record<string, unknown>),
    validateArgs: true,
  };
}

/** One call handed to the host: the host's own call, less the per-call timeout. */
export type HostCall = Omit<CallRequest, "timeoutMs">;

/** What the host answers to a call. */
export type HostOutcome = CallOutcome;

/** The part of a tool host the HTTP layer uses (the host's `Host` fits it). */
export interface DaemonHost {
  /** The tools `agent` sees. */
  list(
    agent?: string,
    parentAgent?: string,
  ): (ListedTool | HostedTool)[];
  /** Runs one call. */
  call(request: HostCall): Promise<HostOutcome>;
  /** Aborts every running call of a session (only those of `agents` when given); returns how many. */
  stopSession(sessionId: string, agents?: readonly string[]): number;
  /** How many calls are running. */
  running(): number;
  /** Resolves once every tool has loaded; lists wait for it when given. */
  ready?(): Promise<void>;
  /** The manifest served; when given, an agent token for an agent it no longer defines is refused. */
  manifest?(): Manifest;
}

/** A route: a method, a path pattern, and what answers it. */
export interface Route {
  /** The HTTP method. */
  method: string;
  /** The path, whole; its groups are passed to `handle` percent-decoded. */
  pattern: RegExp;
  /** What each group of `pattern` is, as an error message names it (`the tool name in the path`). */
  params?: string[];
  /** Answers a request whose method and path match, made as `principal`. */
  handle(
    request: Request,
    params: string[],
    url: URL,
    principal: Principal,
  ): Promise<Response>;
}

/**
 * The status and JSON body answering a call: `{ output }` (with the cut's
 * `truncated`, `size`, `path`, and the tool's `content` blocks when it
 * returned some), or `{ error }`.
 */
function outcomeBody(
  name: string,
  outcome: HostOutcome,
): [number, Record<string, unknown>] {
  if (outcome.ok) {
    const result: Record<string, unknown> = { output: outcome.output };
    if (outcome.truncated) {
      result.truncated = true;
      result.size = outcome.size;
      if (outcome.path !== undefined) result.path = outcome.path;
    }
    if (outcome.content) result.content = outcome.content;
    return [200, result];
  }
  switch (outcome.status) {
    case "not_found":
      // `Tool <name> not found`, and why a declared tool did not load.
      return [
        404,
        outcome.loadError === undefined
          ? { error: `no tool named ${name} is loaded` }
          : {
            error: `no tool named ${name} is loaded`,
            loadError: outcome.loadError,
          },
      ];
    case "forbidden":
      return [403, { error: outcome.error }];
    default:
      // A tool's own failure, its timeout or its abort is what the model
      // reads: 200 with `error`.
      return [200, { error: outcome.error }];
  }
}

/**
 * A call answered as server-sent events (the request accepts
 * `text/event-stream`): a `progress` event per progress report of the
 * tool, then one `result` event holding what the JSON answer would, plus
 * the `status` it would have had. The stream closing aborts the call.
 */
function streamCall(
  host: DaemonHost,
  name: string,
  body: HostCall,
): Response {
  const controller = new AbortController();
  const encoder = new TextEncoder();
  let sink: ReadableStreamDefaultController<Uint8Array> | undefined;
  let open = true;
  const send = (event: string, data: unknown) => {
    if (!open) return;
    try {
      sink!.enqueue(
        encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
      );
    } catch {
      open = false;
    }
  };
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      sink = c;
    },
    cancel: () => {
      open = false;
      controller.abort(new Error("the caller went away"));
    },
  });
  void host.call({
    ...body,
    transport: "http",
    signal: controller.signal,
    onProgress: (update) => send("progress", update),
  }).then((outcome) => {
    const [status, result] = outcomeBody(name, outcome);
    send("result", { status, ...result });
    if (open) sink!.close();
    open = false;
  });
  const response = new Response(stream, { status: 200 });
  response.headers.set("content-type", "text/event-stream");
  response.headers.set("cache-control", "no-store");
  return response;
}

/** The `/beeuni/...` routes over `host`. */
export function beeuniRoutes(
  host: DaemonHost,
  limit: number,
  watch: CallerWatch,
): Route[] {
  return [
    {
      method: "GET",
      pattern: /^\/beeuni\/health$/,
      // An agent token learns only how many tools its agents see.
      handle: (_request, _params, _url, principal) =>
        Promise.resolve(json(
          200,
          principal.kind === "daemon"
            ? { ok: true, tools: host.list().length, running: host.running() }
            : {
              ok: true,
              tools: new Set(
                principal.agents.flatMap((agent) =>
                  host.list(agent).map((tool) => tool.name)
                ),
              ).size,
            },
        )),
    },
    {
      method: "GET",
      pattern: /^\/beeuni\/tools\/?$/,
      async handle(_request, _params, url, principal) {
        await host.ready?.();
        const agent = actingAgent(
          principal,
          url.searchParams.get("agent") || undefined,
        );
        const asked = url.searchParams.get("parentAgent") || undefined;
        // A subagent's call: the token holds the agent that started it too.
        const parent = asked === undefined
          ? undefined
          : actingAgent(principal, asked);
        const target = targetOf(url);
        const tools = host.list(agent, parent).map((tool) => {
          const listed: Record<string, unknown> = {
            name: tool.name,
            description: tool.description,
            parameters: tool.parameters,
          };
          if (target === undefined) return listed;
          const shape = shaped(tool.parameters, target);
          listed.parameters = shape.parameters;
          const left = shape.findings.filter((finding) => !finding.rewritten);
          if (left.length > 0) {
            // What no safe rewrite removes: the provider may refuse it.
            listed.problems = left.map((finding) =>
              `#${finding.pointer}: ${finding.problem}: ${finding.fix}`
            );
          }
          return listed;
        });
        return json(200, { tools });
      },
    },
    {
      method: "POST",
      pattern: /^\/beeuni\/tools\/([^/]+)$/,
      params: ["the tool name in the path"],
      async handle(request, [name], url, principal) {
        const target = targetOf(url);
        const traceContext = callerTraceContext(
          request.headers.get("traceparent"),
          request.headers.get("tracestate"),
        );
        const call = parseCallBody(
          await readBodyText(request, limit),
          actingAgent(principal, undefined),
        );
        actingAgent(principal, call.agent);
        if (call.parentAgent !== undefined) {
          actingAgent(principal, call.parentAgent);
        }
        const body = await toolCall(
          host,
          name,
          { name, ...call, ...(traceContext ? { traceContext } : {}) },
          target,
        );
        if (request.headers.get("accept")?.includes("text/event-stream")) {
          return streamCall(host, name, body);
        }
        const outcome = await watch.run(
          request,
          (signal) => host.call({ ...body, transport: "http", signal }),
        );
        const [status, result] = outcomeBody(name, outcome);
        return json(status, result);
      },
    },
    {
      method: "POST",
      pattern: /^\/beeuni\/sessions\/([^/]+)\/stop$/,
      params: ["the session id in the path"],
      // An agent token stops only its agents' calls of the session.
      handle: (_request, [sessionId], _url, principal) =>
        Promise.resolve(json(200, {
          stopped: host.stopSession(
            sessionId,
            principal.kind === "daemon" ? undefined : principal.agents,
          ),
        })),
    },
  ];
}

/**
 * The response of the first route whose path and method match; a 405 naming
 * the allowed methods when only the path does; `undefined` when no path does.
 */
export async function dispatch(
  routes: readonly Route[],
  request: Request,
  url: URL,
  principal: Principal,
): Promise<Response | undefined> {
  const allowed: string[] = [];
  for (const route of routes) {
    const match = route.pattern.exec(url.pathname);
    if (!match) continue;
    if (route.method !== request.method) {
      allowed.push(route.method);
      continue;
    }
    const params = match.slice(1).map(decodeSegment);
    params.forEach((value, i) =>
      checkCallerString(route.params?.[i] ?? "a part of the path", value)
    );
    return await route.handle(request, params, url, principal);
  }
  if (allowed.length === 0) return undefined;
  const allow = allowed.join(", ");
  return json(405, { error: `method not allowed: use ${allow}` }, { allow });
}
