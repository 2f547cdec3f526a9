/**
 * What a tool module is: the shape of its default export, and what its
 * `execute` receives; and {@linkcode defineTool}, which types `execute`'s
 * arguments from `parameters`, whether a JSON Schema literal or a Standard
 * Schema object (zod 4, valibot, arktype).
 *
 * @example A project tool, typed from its JSON Schema
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
 *   execute(args, context) {
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
 * A JSON Schema as a literal: what {@linkcode FromSchema} reads. Any other
 * keyword may be there too.
 */
export interface JsonSchema {
  /** The JSON type, or a list of them. */
  readonly type?: string | readonly string[];
  /** An object's properties. */
  readonly properties?: { readonly [name: string]: JsonSchema | boolean };
  /** The properties an object must have. */
  readonly required?: readonly string[];
  /** An array's items. */
  readonly items?: JsonSchema | boolean;
  /** The values allowed. */
  readonly enum?: readonly unknown[];
  /** The one value allowed. */
  readonly const?: unknown;
  /** Schemas of which a value matches at least one. */
  readonly anyOf?: readonly (JsonSchema | boolean)[];
  /** Schemas of which a value matches exactly one. */
  readonly oneOf?: readonly (JsonSchema | boolean)[];
  /** The value the host fills in when the argument is missing. */
  readonly default?: unknown;
  /** Any other keyword. */
  readonly [keyword: string]: unknown;
}

/** The JSON Schema of a tool's arguments: an object. */
export interface ObjectSchema extends JsonSchema {
  /** Arguments are always an object. */
  readonly type: "object";
}

/**
 * The names of the properties of object schema `S` that the arguments
 * always have: those in `required`, and those with a `default` the host
 * fills in.
 */
export type PresentProperties<S> =
  | (S extends { readonly required: readonly (infer R)[] } ? R : never)
  | (S extends { readonly properties: infer P } ? {
      [K in keyof P]: P[K] extends { readonly default: unknown } ? K : never;
    }[keyof P]
    : never);

/** The type of the values object schema `S` allows (see {@linkcode FromSchema}). */
export type FromObject<S> = S extends { readonly properties: infer P } ?
    & {
      -readonly [
        K in keyof P as K extends PresentProperties<S> ? K : never
      ]: FromSchema<P[K]>;
    }
    & {
      -readonly [
        K in keyof P as K extends PresentProperties<S> ? never : K
      ]?: FromSchema<P[K]>;
    }
  : S extends { readonly additionalProperties: infer A extends JsonSchema }
    ? { [key: string]: FromSchema<A> }
  : { [key: string]: unknown };

/** The type of the values of JSON type `T` in schema `S` (see {@linkcode FromSchema}). */
export type FromType<T, S> = T extends "string" ? string
  : T extends "number" | "integer" ? number
  : T extends "boolean" ? boolean
  : T extends "null" ? null
  : T extends "array" ? S extends { readonly items: infer I } ? FromSchema<I>[]
    : unknown[]
  : T extends "object" ? FromObject<S>
  : unknown;

/**
 * The type of the values a JSON Schema literal allows: `properties`,
 * `required` (a property with a `default` is always there too), `enum`,
 * `const`, `anyOf`/`oneOf`, arrays and nested objects. Give the schema
 * `as const` when it is not written inside `defineTool`.
 *
 * @example
 * ```ts
 * import type { FromSchema } from "./tool.ts";
 *
 * const schema = {
 *   type: "object",
 *   properties: { unit: { enum: ["km", "mi"] }, n: { type: "number" } },
 *   required: ["unit"],
 * } as const;
 * const args: FromSchema<typeof schema> = { unit: "km" }; // n?: number
 * ```
 */
export type FromSchema<S> = S extends true ? unknown
  : S extends false ? never
  : S extends { readonly const: infer C } ? C
  : S extends { readonly enum: readonly (infer E)[] } ? E
  : S extends { readonly anyOf: readonly (infer U)[] } ? FromSchema<U>
  : S extends { readonly oneOf: readonly (infer U)[] } ? FromSchema<U>
  : S extends { readonly type: readonly (infer T)[] } ? FromType<T, S>
  : S extends { readonly type: infer T } ? FromType<T, S>
  : S extends { readonly properties: unknown } ? FromObject<S>
  : unknown;

/** One problem a Standard Schema found in a value. */
export interface StandardIssue {
  /** What is wrong. */
  readonly message: string;
  /** Where: the keys from the arguments' root. */
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[];
}

/** What a Standard Schema's `validate` returns. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/**
 * A schema object of any library that implements Standard Schema and
 * Standard JSON Schema (`~standard.validate`, `~standard.jsonSchema`):
 * zod 4.2 and later, arktype, valibot through `toStandardJsonSchema`.
 */
export interface StandardSchema<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": {
    /** The version of the standard. */
    readonly version: 1;
    /** The library. */
    readonly vendor: string;
    /** Checks a value, resolving to it as the schema gives it, or to issues. */
    readonly validate: (
      value: unknown,
    ) => StandardResult<Output> | Promise<StandardResult<Output>>;
    /** The schema's input and output types. */
    readonly types?: {
      readonly input: Input;
      readonly output: Output;
    } | undefined;
    /** The schema as JSON Schema (Standard JSON Schema). */
    readonly jsonSchema?: {
      readonly input: (
        options: { readonly target: string },
      ) => Record<string, unknown>;
    };
  };
}

/** The type a Standard Schema gives a value it accepts. */
export type StandardOutput<S> = S extends
  { readonly "~standard": { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly output: infer O } ? O : unknown
  : unknown;

/**
 * What `execute` may return: a string or a JSON value (a result with
 * `content` blocks is one). A function, `undefined`, a BigInt or a
 * forgotten `return` does not type-check.
 */
export type ToolResult =
  | string
  | number
  | boolean
  | null
  | readonly unknown[]
  | (object & {
    readonly call?: never;
    readonly apply?: never;
    readonly bind?: never;
    readonly then?: never;
  });

/**
 * Types a tool module's default export: `execute`'s `args` are inferred
 * from `parameters` and its return value must be a string or a JSON value.
 *
 * `parameters` is either a JSON Schema written in place (or declared
 * `as const`), or a Standard Schema object (zod 4, arktype, valibot):
 * then the tool's `parameters` are the schema's JSON Schema and the
 * schema's own validation runs before `execute`, which gets the value
 * the schema returns; arguments it refuses end the call with an error
 * naming each field.
 *
 * @returns the tool, as a plain object the host loads.
 *
 * @example
 * ```ts
 * import { defineTool } from "./tool.ts";
 * export default defineTool({
 *   description: "Adds two numbers.",
 *   parameters: {
 *     type: "object",
 *     properties: { a: { type: "number" }, b: { type: "number" } },
 *     required: ["a", "b"],
 *   },
 *   execute: (args) => String(args.a + args.b),
 * });
 * ```
 */
export function defineTool<S extends StandardSchema>(
  tool: {
    description: string;
    parameters: S;
    execute: (
      args: StandardOutput<S>,
      context: ToolContext,
    ) => ToolResult | Promise<ToolResult>;
  },
): Tool<StandardOutput<S>>;
/** A tool whose `parameters` are a JSON Schema literal. */
export function defineTool<const P extends ObjectSchema>(
  tool: {
    description: string;
    parameters: P;
    execute: (
      args: FromSchema<P>,
      context: ToolContext,
    ) => ToolResult | Promise<ToolResult>;
  },
): Tool<FromSchema<P>>;
export function defineTool(tool: {
  description: string;
  parameters: unknown;
  execute: (args: unknown, context: ToolContext) => unknown;
}): Tool {
  if (!isStandardSchema(tool.parameters)) return tool as Tool;
  const schema = tool.parameters["~standard"];
  const execute = tool.execute;
  return {
    ...tool,
    parameters: jsonSchemaOf(schema),
    async execute(args: unknown, context: ToolContext): Promise<unknown> {
      const result = await schema.validate(args);
      if (result.issues) {
        throw new Error(`invalid arguments: ${issuesText(result.issues)}`);
      }
      return await execute(result.value, context);
    },
  };
}

function isStandardSchema(value: unknown): value is StandardSchema {
  const props = (value as { "~standard"?: unknown } | null)?.["~standard"];
  return typeof props === "object" && props !== null &&
    typeof (props as { validate?: unknown }).validate === "function";
}

/** The JSON Schema of a Standard Schema's input, or an error that says how to get one. */
function jsonSchemaOf(
  schema: StandardSchema["~standard"],
): Record<string, unknown> {
  if (typeof schema.jsonSchema?.input !== "function") {
    throw new Error(
      `parameters is a "${schema.vendor}" schema that gives no JSON Schema (Standard JSON Schema): use zod 4.2 or later, arktype, or valibot's toStandardJsonSchema, or pass a JSON Schema`,
    );
  }
  return schema.jsonSchema.input({ target: "draft-2020-12" });
}

/** Standard Schema issues as one line, each naming its field. */
function issuesText(issues: readonly StandardIssue[]): string {
  return issues.map((issue) => {
    const path = (issue.path ?? []).map((part) =>
      String(typeof part === "object" ? part.key : part)
    ).join(".");
    return path ? `field "${path}": ${issue.message}` : issue.message;
  }).join("; ");
}
