/**
 * The shapes every Beeuni tool shares: what `execute` receives and what a
 * tool module exports. Declared here rather than imported from the toolkit,
 * so the generated, self-contained tool files import nothing but `node:*`.
 *
 * @module
 */

/** The environment a tool reads its configuration from (`context.env`). */
export type Env = Readonly<Record<string, string | undefined>>;

/** What the host passes to `execute`; the tools read only these. */
export interface ToolContext {
  /** The session the call belongs to. */
  sessionId?: string;
  /** The agent that called the tool. */
  agent?: string;
  /** The checkout the tool works in. */
  directory?: string;
  /** The box environment plus the secrets granted to the agent. */
  env?: Env;
  /** Fires when the call is stopped. */
  signal?: AbortSignal;
}

/** A context whose `directory` is given: what the file tools need. */
export interface FileToolContext extends ToolContext {
  /** The checkout the tool works in. */
  directory: string;
}

/**
 * The shape of a tool module's default export:
 * `{ description, parameters, execute(args, context) }`.
 */
export interface ToolModule<Context extends ToolContext = ToolContext> {
  /** What the model reads about the tool. */
  description: string;
  /** The JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  /** Runs one call. */
  execute(args: never, context: Context): unknown;
}

/** The message of any thrown value. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Whether `value` is a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
