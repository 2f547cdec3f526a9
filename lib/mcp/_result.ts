/**
 * What MCP clients read: the tool list entries and the result of a tool
 * call, built from the host's tools and outcomes. Pure functions.
 *
 * @module
 */

import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import type { CallOutcome, ContentBlock } from "../host/mod.ts";

/** A tool as the host lists it (what MCP needs of it). */
export interface ListedTool {
  /** The tool's name. */
  name: string;
  /** What the model reads about it. */
  description: string;
  /** Its parameters' JSON Schema, as the module gives it. */
  parameters: Record<string, unknown>;
}

/** One entry of a `tools/list` result. */
export interface McpTool {
  /** The tool's name. */
  name: string;
  /** Its description. */
  description: string;
  /** The module's `parameters`, as written. */
  inputSchema: Record<string, unknown>;
}

/**
 * The entries of a `tools/list` result, in the host's (manifest) order.
 *
 * @returns One entry per tool: its name, description and `inputSchema`.
 */
export function mcpTools(tools: readonly ListedTool[]): McpTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters,
  }));
}

/** A fingerprint of what an agent sees, to tell whether a reload changed it. */
export function toolsKey(tools: readonly ListedTool[]): string {
  return JSON.stringify(mcpTools(tools));
}

/** The message of the JSON-RPC error for a tool the agent cannot call: the same for a hidden tool as for a missing one. */
export function unknownToolMessage(name: string): string {
  return `Tool ${name} not found`;
}

/**
 * A `tools/call` result for an outcome of a tool that exists for the
 * agent: the text or the tool's blocks, `structuredContent` for a
 * returned object, a `resource_link` to the saved file after a cut,
 * and `isError` with the message the model should read for a thrown error,
 * a timeout or an abort. `undefined` for `not_found` and `forbidden`,
 * which are JSON-RPC errors ({@linkcode unknownToolMessage}).
 *
 * @returns The result, or `undefined` for `not_found` and `forbidden`.
 *
 * @example
 * ```ts
 * import { callResult } from "./_result.ts";
 * callResult({ ok: true, output: "42" });
 * // { content: [{ type: "text", text: "42" }] }
 * callResult({ ok: false, status: "error", error: "bad id" });
 * // { content: [{ type: "text", text: "bad id" }], isError: true }
 * ```
 */
export function callResult(
  outcome: CallOutcome,
): Record<string, unknown> | undefined {
  if (!outcome.ok) {
    if (outcome.status === "not_found" || outcome.status === "forbidden") {
      return undefined;
    }
    return { content: [{ type: "text", text: outcome.error }], isError: true };
  }
  const content: (ContentBlock | Record<string, unknown>)[] = outcome.content
    ? [...outcome.content]
    : [{ type: "text", text: outcome.output }];
  if (outcome.truncated && outcome.path !== undefined) {
    const link: Record<string, unknown> = {
      type: "resource_link",
      uri: pathToFileURL(outcome.path).href,
      name: basename(outcome.path),
      description: "The tool's whole output",
      mimeType: "text/plain",
    };
    if (outcome.size !== undefined) link.size = outcome.size;
    content.push(link);
  }
  const result: Record<string, unknown> = { content };
  const structured = outcome.structured;
  if (structured !== undefined) result.structuredContent = structured;
  return result;
}
