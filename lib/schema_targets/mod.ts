/**
 * Schemas every model provider accepts: each provider's documented rules
 * for a function's parameters (OpenAI with and without strict mode,
 * Anthropic's `input_schema`, Gemini's `parameters`), the check of a
 * tool's schema against them, and the provider-shaped schema the daemon
 * serves with the arguments mapped back. Pure: no file system.
 *
 * @module
 */

export {
  isTarget,
  SCHEMA_RULES,
  type SchemaRule,
  type SchemaRuleId,
  type Target,
  TARGET_NAMES,
  TARGETS,
} from "./rules.ts";
export {
  type SchemaFinding,
  type ShapedSchema,
  shapeSchema,
} from "./shape_schema.ts";
