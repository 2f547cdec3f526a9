/**
 * Whom a request acts as: the daemon's own token (every agent), or an agent
 * token (only its agents). Every transport asks the same questions of it:
 * which agent a request acts as when it names none, and whether it may act
 * as the one it names.
 *
 * @example Resolve the agent of a request made with an agent token
 * ```ts
 * import assert from "node:assert/strict";
 * import { actingAgent, type Principal } from "./principal.ts";
 *
 * const holder: Principal = {
 *   kind: "agent-token",
 *   label: "ci",
 *   agents: ["reviewer"],
 *   hash: "0".repeat(64),
 * };
 * assert.equal(actingAgent(holder, undefined), "reviewer");
 * assert.throws(() => actingAgent(holder, "writer"), /acts only as agent "reviewer"/);
 * assert.equal(actingAgent({ kind: "daemon" }, "writer"), "writer");
 * ```
 *
 * @module
 */

import { DEFAULT_AGENT } from "../manifest/mod.ts";
import { HttpError } from "./call_body.ts";

/** An agent token's holder, as a daemon's token check resolves it. */
export interface AgentTokenPrincipal {
  /** Always `"agent-token"`. */
  kind: "agent-token";
  /** The token's label. */
  label: string;
  /** The agents it acts as; the first when a request names none. */
  agents: string[];
  /** The token's SHA-256, hex: which token this is (never logged). */
  hash: string;
}

/** Whom a request acts as: the daemon's token opens every agent. */
export type Principal = { kind: "daemon" } | AgentTokenPrincipal;

/** The daemon's own token. */
export const DAEMON_PRINCIPAL: Principal = Object.freeze({ kind: "daemon" });

/** What checks agent tokens (the daemon's token file reader fits it). */
export interface AgentTokens {
  /** What every agent token starts with (a 401 for one says so). */
  readonly prefix: string;
  /** The holder of `token` when it is a live agent token, else `undefined`. */
  verify(
    token: string,
  ): Omit<AgentTokenPrincipal, "kind"> | undefined;
  /** Whether the token `holder` came from is still live (not removed, not expired). */
  holds(holder: Omit<AgentTokenPrincipal, "kind">): boolean;
  /**
   * Calls `gone` once the token `holder` came from is removed or expires;
   * when given, open streams end at once then, not only before their next
   * event.
   *
   * @returns What stops listening.
   */
  watch?(
    holder: Omit<AgentTokenPrincipal, "kind">,
    gone: () => void,
  ): () => void;
}

/** Whether `principal` may act as `agent`. */
export function mayActAs(principal: Principal, agent: string): boolean {
  return principal.kind === "daemon" || principal.agents.includes(agent);
}

/**
 * The refusal of an agent token asked to act as `asked`: it names the
 * token's agents.
 */
export function agentRefusal(agents: readonly string[], asked: string): string {
  const list = agents.map((name) => `"${name}"`).join(", ");
  return agents.length === 1
    ? `this token acts only as agent ${list}, not "${asked}": ask for it or use another token`
    : `this token acts only as agents ${list}, not "${asked}": ask for one of those or use another token`;
}

/**
 * Why an agent token may not be used any longer although it is live: one
 * of its agents is no longer defined in the manifest (`defined`), where it
 * would see every tool. The default agent needs no definition.
 *
 * @returns The refusal, saying what to change, or `undefined`.
 */
export function orphanedAgentProblem(
  principal: AgentTokenPrincipal,
  defined: readonly string[],
  manifestName: string,
): string | undefined {
  const gone = principal.agents.find((agent) =>
    agent !== DEFAULT_AGENT && !defined.includes(agent)
  );
  return gone === undefined
    ? undefined
    : `agent "${gone}" of token "${principal.label}" is no longer in ${manifestName}: add it back or make a new token`;
}

/**
 * The agent a request acts as: `asked` when the principal may act as it;
 * with an agent token and nothing asked, the token's first agent.
 *
 * @returns The agent, or `undefined` for the daemon's token when nothing
 * is asked (the caller's own default applies).
 * @throws {HttpError} A 403 naming the token's agents when it may not act
 * as `asked`.
 */
export function actingAgent(
  principal: Principal,
  asked: string | undefined,
): string | undefined {
  if (principal.kind === "daemon") return asked;
  if (asked === undefined) return principal.agents[0];
  if (!principal.agents.includes(asked)) {
    throw new HttpError(403, agentRefusal(principal.agents, asked));
  }
  return asked;
}
