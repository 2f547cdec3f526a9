/**
 * Which model a session talks to, from `--model PROVIDER/MODEL` or
 * `BEEUNI_MODEL`, with each provider's key and address read the way the
 * provider's own tools read them: from the environment, else from the
 * project's secret store. The provider packages load only when a session
 * starts.
 *
 * @module
 */

import { type ShapedSchema, shapeSchema } from "../schema_targets/mod.ts";
import type { LanguageModel } from "ai";
import { importSdk } from "./_sdk.ts";

/** The providers a session can talk to. */
export type Provider = "openai" | "anthropic" | "openai-compatible";

/** A model and how to reach it. */
export interface ModelSettings {
  /** The provider. */
  provider: Provider;
  /** The model's id at the provider. */
  model: string;
  /** The API key, when the provider needs or was given one. */
  apiKey?: string;
  /** The API's base URL, when not the provider's own. */
  baseURL?: string;
}

/** The names of each provider's settings. */
const SETTINGS: Record<
  Provider,
  { key: string; keyRequired: boolean; baseUrl: string; example: string }
> = {
  openai: {
    key: "OPENAI_API_KEY",
    keyRequired: true,
    baseUrl: "OPENAI_BASE_URL",
    example: "openai/gpt-4.1",
  },
  anthropic: {
    key: "ANTHROPIC_API_KEY",
    keyRequired: true,
    baseUrl: "ANTHROPIC_BASE_URL",
    example: "anthropic/claude-sonnet-4-5",
  },
  "openai-compatible": {
    key: "OPENAI_COMPATIBLE_API_KEY",
    keyRequired: false,
    baseUrl: "OPENAI_COMPATIBLE_BASE_URL",
    example: "openai-compatible/qwen3",
  },
};

const PROVIDERS = Object.keys(SETTINGS) as Provider[];

/**
 * The model settings for `model` (`PROVIDER/MODEL`, else `BEEUNI_MODEL`),
 * reading each setting by name through `lookup` (the environment, then the
 * secret store). Throws a message saying what to set when one is missing.
 */
export function modelSettings(
  model: string | undefined,
  lookup: (name: string) => string | undefined,
): ModelSettings {
  const spec = model ?? lookup("BEEUNI_MODEL");
  const examples = PROVIDERS.map((p) => `"${SETTINGS[p].example}"`).join(", ");
  if (spec === undefined || spec === "") {
    throw new Error(
      `no model is set: pass --model PROVIDER/MODEL or set BEEUNI_MODEL, such as ${examples}`,
    );
  }
  const slash = spec.indexOf("/");
  const provider = spec.slice(0, slash) as Provider;
  const id = spec.slice(slash + 1);
  if (slash < 0 || !PROVIDERS.includes(provider) || id === "") {
    throw new Error(
      `unknown model "${spec}": name it PROVIDER/MODEL with a provider of ${
        PROVIDERS.map((p) => `"${p}"`).join(", ")
      }, such as ${examples}`,
    );
  }
  const names = SETTINGS[provider];
  const apiKey = lookup(names.key) || undefined;
  if (names.keyRequired && apiKey === undefined) {
    throw new Error(
      `no key for "${provider}": set ${names.key} in the environment, or store it with \`beeuni secrets set ${names.key}\``,
    );
  }
  let baseURL = lookup(names.baseUrl) || undefined;
  if (provider === "openai-compatible" && baseURL === undefined) {
    throw new Error(
      `no address for "openai-compatible": set ${names.baseUrl} to the server's API address, such as "http://127.0.0.1:8080/v1" (llama.cpp) or "http://127.0.0.1:11434/v1" (Ollama)`,
    );
  }
  // Anthropic's own tools give the address without the version.
  if (provider === "anthropic" && baseURL !== undefined) {
    baseURL = baseURL.replace(/\/+$/, "");
    if (!baseURL.endsWith("/v1")) baseURL += "/v1";
  }
  return { provider, model: id, apiKey, baseURL };
}

/** The AI SDK model for `settings`; the provider's package loads now. */
export async function languageModel(
  settings: ModelSettings,
): Promise<LanguageModel> {
  const { apiKey, baseURL, model } = settings;
  switch (settings.provider) {
    case "openai": {
      const { createOpenAI } = await importSdk("@ai-sdk/openai");
      // The default OpenAI model API is Responses.
      return createOpenAI({ apiKey, baseURL })(model);
    }
    case "anthropic": {
      const { createAnthropic } = await importSdk("@ai-sdk/anthropic");
      return createAnthropic({ apiKey, baseURL })(model);
    }
    case "openai-compatible": {
      const { createOpenAICompatible } = await importSdk(
        "@ai-sdk/openai-compatible",
      );
      return createOpenAICompatible({
        name: "openai-compatible",
        apiKey,
        baseURL: baseURL!,
      })(model);
    }
  }
}

/**
 * The schema `provider` is sent for a tool's `parameters`, shaped by the
 * function-calling rules it documents, with the way back from what its
 * model sends to the tool's own arguments; `undefined` for a provider
 * without documented rules (an OpenAI-compatible server gets the tool's
 * own schema).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolSchemaFor } from "./model.ts";
 *
 * const shaped = toolSchemaFor("anthropic", { type: "object", properties: {} });
 * assert.equal(shaped?.target, "anthropic");
 * assert.equal(toolSchemaFor("openai-compatible", { type: "object" }), undefined);
 * ```
 */
export function toolSchemaFor(
  provider: Provider,
  parameters: Record<string, unknown>,
): ShapedSchema | undefined {
  if (provider === "openai-compatible") return undefined;
  return shapeSchema(parameters, provider);
}
