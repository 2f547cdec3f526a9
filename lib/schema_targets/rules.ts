/**
 * What each model provider documents about a function's parameters
 * schema, as data: one rule per thing a provider refuses, with the fix
 * a tool author makes and where the provider says so.
 *
 * @module
 */

/** A model provider's function-calling schema dialect. */
export type Target = "openai" | "openai-strict" | "anthropic" | "gemini";

/** Every target, in the order `beeuni validate --target all` checks them. */
export const TARGETS: readonly Target[] = [
  "openai",
  "openai-strict",
  "anthropic",
  "gemini",
];

/** How messages name each target. */
export const TARGET_NAMES: Readonly<Record<Target, string>> = {
  openai: "OpenAI",
  "openai-strict": "OpenAI strict mode",
  anthropic: "Anthropic",
  gemini: "Gemini",
};

/**
 * Whether `value` names a target.
 *
 * @returns `true` for `openai`, `openai-strict`, `anthropic` and `gemini`.
 */
export function isTarget(value: string): value is Target {
  return (TARGETS as readonly string[]).includes(value);
}

/** The name of one rule of {@linkcode SCHEMA_RULES}. */
export type SchemaRuleId =
  | "root_object"
  | "root_combinator"
  | "array_items"
  | "strict_required"
  | "strict_nullable_optional"
  | "strict_closed_object"
  | "strict_open_object"
  | "strict_keyword"
  | "strict_format"
  | "strict_depth"
  | "strict_enum_size"
  | "gemini_keyword"
  | "gemini_type_list"
  | "gemini_const"
  | "gemini_one_of"
  | "gemini_enum"
  | "gemini_object_keyword"
  | "gemini_empty_properties"
  | "gemini_type"
  | "gemini_property_name"
  | "gemini_format"
  | "gemini_ref";

/** One thing a provider refuses in a function's parameters. */
export interface SchemaRule {
  /** The targets that refuse it. */
  targets: readonly Target[];
  /** What is refused, as a message says it after the provider's name and "refuses". */
  refuses: string;
  /** What the tool's author changes, as a message ends. */
  fix: string;
  /** The provider's documentation (or its documented error) for the rule. */
  docs: readonly string[];
}

const OPENAI_FUNCTIONS =
  "https://platform.openai.com/docs/guides/function-calling";
const OPENAI_STRICT =
  "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas";
const ANTHROPIC =
  "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use";
const GEMINI_SCHEMA = "https://ai.google.dev/api/caching#Schema";
const GEMINI_FUNCTIONS =
  "https://ai.google.dev/gemini-api/docs/function-calling";

/**
 * The rules, by name. `{keyword}`, `{name}` and `{value}` in `refuses`
 * stand for what the finding is about.
 */
export const SCHEMA_RULES: Readonly<Record<SchemaRuleId, SchemaRule>> = {
  root_object: {
    targets: ["openai", "openai-strict", "anthropic", "gemini"],
    refuses: 'parameters whose top-level "type" is not "object"',
    fix:
      'describe the arguments as { "type": "object", "properties": { ... } }',
    docs: [OPENAI_FUNCTIONS, ANTHROPIC, GEMINI_FUNCTIONS],
  },
  root_combinator: {
    targets: ["openai", "openai-strict", "anthropic"],
    refuses: '"{keyword}" at the top level of the parameters',
    fix:
      'list every argument under "properties" and check the combination in execute',
    docs: [OPENAI_FUNCTIONS, ANTHROPIC],
  },
  array_items: {
    targets: ["openai", "openai-strict", "gemini"],
    refuses: 'an array schema without "items"',
    fix: 'add "items" with the schema of the elements',
    docs: [OPENAI_FUNCTIONS, GEMINI_SCHEMA],
  },
  strict_required: {
    targets: ["openai-strict"],
    refuses: 'a property that is not listed in "required"',
    fix:
      'list it in "required" and let an optional one be null ("type": ["string", "null"])',
    docs: [OPENAI_STRICT],
  },
  strict_nullable_optional: {
    targets: ["openai-strict"],
    refuses: 'a property that is not listed in "required"',
    fix:
      'list it in "required": it already accepts null, so null cannot stand for "left out"',
    docs: [OPENAI_STRICT],
  },
  strict_closed_object: {
    targets: ["openai-strict"],
    refuses: 'an object without "additionalProperties": false',
    fix: 'add "additionalProperties": false',
    docs: [OPENAI_STRICT],
  },
  strict_open_object: {
    targets: ["openai-strict"],
    refuses:
      'an object whose keys are not listed in "properties" (a map or a free-form object)',
    fix:
      'list its keys under "properties", or take a list of { "key", "value" } objects instead',
    docs: [OPENAI_STRICT],
  },
  strict_keyword: {
    targets: ["openai-strict"],
    refuses: 'the keyword "{keyword}"',
    fix: "remove it and check what it says in execute",
    docs: [OPENAI_STRICT],
  },
  strict_format: {
    targets: ["openai-strict"],
    refuses: '"format": {value}',
    fix:
      'keep "format" to date-time, time, date, duration, email, hostname, ipv4, ipv6 or uuid, and check the rest in execute',
    docs: [OPENAI_STRICT],
  },
  strict_depth: {
    targets: ["openai-strict"],
    refuses: "objects nested more than 10 levels deep",
    fix: "flatten the arguments",
    docs: [OPENAI_STRICT],
  },
  strict_enum_size: {
    targets: ["openai-strict"],
    refuses: "more than 1000 enum values in one schema",
    fix: "take a free string and check it in execute",
    docs: [OPENAI_STRICT],
  },
  gemini_keyword: {
    targets: ["gemini"],
    refuses: 'the keyword "{keyword}", which its Schema subset lacks',
    fix: "remove it and check what it says in execute",
    docs: [GEMINI_SCHEMA],
  },
  gemini_type_list: {
    targets: ["gemini"],
    refuses: 'a list of types ("type": {value})',
    fix: 'use one type, with "nullable": true for null',
    docs: [GEMINI_SCHEMA],
  },
  gemini_const: {
    targets: ["gemini"],
    refuses: 'the keyword "const"',
    fix: 'use "enum" with the one value, as a string',
    docs: [GEMINI_SCHEMA],
  },
  gemini_one_of: {
    targets: ["gemini"],
    refuses: 'the keyword "oneOf"',
    fix: 'use "anyOf"',
    docs: [GEMINI_SCHEMA],
  },
  gemini_enum: {
    targets: ["gemini"],
    refuses: '"enum" values that are not strings, or "enum" on a non-string',
    fix:
      'take the values as strings ("type": "string"), or drop "enum" and check the value in execute',
    docs: [GEMINI_SCHEMA],
  },
  gemini_object_keyword: {
    targets: ["gemini"],
    refuses: '"{keyword}" on a schema whose type is not "object"',
    fix: 'remove it, or set "type": "object"',
    docs: [GEMINI_SCHEMA],
  },
  gemini_empty_properties: {
    targets: ["gemini"],
    refuses: 'an object whose "properties" is empty',
    fix: 'leave "properties" out when there is none',
    docs: [GEMINI_SCHEMA, GEMINI_FUNCTIONS],
  },
  gemini_type: {
    targets: ["gemini"],
    refuses: 'a schema without "type"',
    fix:
      'give it a "type" (string, number, integer, boolean, array or object) or "anyOf"',
    docs: [GEMINI_SCHEMA],
  },
  gemini_property_name: {
    targets: ["gemini"],
    refuses: "the property name {name}",
    fix:
      "start it with a letter or an underscore and use only letters, digits and underscores, at most 64",
    docs: [GEMINI_FUNCTIONS],
  },
  gemini_format: {
    targets: ["gemini"],
    refuses: '"format": {value}',
    fix:
      'keep "format" to "enum" or "date-time" on strings, "float" or "double" on numbers, "int32" or "int64" on integers, and check the rest in execute',
    docs: [GEMINI_SCHEMA],
  },
  gemini_ref: {
    targets: ["gemini"],
    refuses: 'the keyword "{keyword}"',
    fix: "write the definition out where it is used",
    docs: [GEMINI_SCHEMA],
  },
};
