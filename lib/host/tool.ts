/**
 * What a tool module is: the shape of its default export, and what its
 * `execute` receives. Types only, plus {@linkcode defineTool}, which
 * returns its argument and exists to give it these types.
 *
 * @example A project tool, typed
 * ```ts
 * import { defineTool } from "./tool.ts";
 *
 * export default defineTool({
 *   description: "Greets someone by name.",
 *   parameters: {
 *     type: "object",
 *     properties: { name: { type: "string" } },
 *     required: ["name"],
 *   },
 *   execute(args: { name: string }, context) {
 *     return `Hello, ${args.name} (from ${context.agent})`;
 *   },
 * });
 * ```
 *
 * @module
 */

/** What `execute` receives besides its arguments. */
export interface ToolContext {
  /** The session the call belongs to. */
  sessionId: string;
  /** The agent that called the tool. */
  agent: string;
  /** The project root; relative paths resolve from it. */
  directory: string;
  /** The box environment plus the secrets granted to this agent, at their current values. */
  env: Record<string, string>;
  /** Aborts when the user stops the turn, the caller goes away or the call times out. */
  signal: AbortSignal;
  /**
   * Reports how far the call is (`progress` of `total`, with a message);
   * sent to callers that asked for progress (MCP `progressToken`), a no-op
   * for the others.
   */
  progress(progress: number, total?: number, message?: string): void;
}

/**
 * A tool module's default export: a plain object with a description,
 * the JSON Schema of its arguments (handed to the model as is) and
 * `execute`, which returns a string or any JSON value and throws an
 * error that says what to change. `Args` is the module's own type of
 * its arguments (any, unless given).
 */
// deno-lint-ignore no-explicit-any -- any argument type of the module's own fits
export interface Tool<Args = any> {
  /** What the model reads about the tool: a non-empty string. */
  description: string;
  /** A JSON Schema with `type: "object"`. */
  parameters: Record<string, unknown>;
  /** Runs one call; may be async. */
  execute(args: Args, context: ToolContext): unknown;
}

/**
 * Returns `tool` as it is: a typed way to write a module's default export.
 *
 * @returns `tool`, unchanged.
 *
 * @example
 * ```ts
 * import { defineTool } from "./tool.ts";
 * export default defineTool({
 *   description: "Adds two numbers.",
 *   parameters: {
 *     type: "object",
 *     properties: { a: { type: "number" }, b: { type: "number" } },
 *   },
 *   execute: (args: { a: number; b: number }) => String(args.a + args.b),
 * });
 * ```
 */
// deno-lint-ignore no-explicit-any -- as in Tool
export function defineTool<Args = any>(
  tool: Tool<Args>,
): Tool<Args> {
  return tool;
}
