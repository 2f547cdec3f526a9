// The AI SDK's packages, loaded when a session starts and never before:
// their names are not literal, so a bundle of the toolkit leaves them out
// and every other command starts as fast as without them. They resolve
// from the project's or the package's node_modules (or the import map);
// under Deno, from npm when nothing else has them.

import { importPackage } from "../common/mod.ts";
import type * as Ai from "ai";
import type * as OpenAi from "@ai-sdk/openai";
import type * as Anthropic from "@ai-sdk/anthropic";
import type * as OpenAiCompatible from "@ai-sdk/openai-compatible";

/** The packages and the versions the toolkit is built and tested with. */
export const SDK_VERSIONS = {
  "ai": "^7.0.173",
  "@ai-sdk/openai": "^4.0.118",
  "@ai-sdk/anthropic": "^4.0.105",
  "@ai-sdk/openai-compatible": "^3.0.92",
} as const;

type Modules = {
  "ai": typeof Ai;
  "@ai-sdk/openai": typeof OpenAi;
  "@ai-sdk/anthropic": typeof Anthropic;
  "@ai-sdk/openai-compatible": typeof OpenAiCompatible;
};

/** Imports one of the AI SDK's packages. */
export function importSdk<N extends keyof Modules>(
  name: N,
): Promise<Modules[N]> {
  return importPackage(name, SDK_VERSIONS[name], "sessions need");
}
