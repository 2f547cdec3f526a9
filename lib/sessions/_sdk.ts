// The AI SDK's packages, loaded when a session starts and never before:
// their names are not literal, so a bundle of the toolkit leaves them out
// and every other command starts as fast as without them. They resolve
// from the project's or the package's node_modules (or the import map);
// under Deno, from npm when nothing else has them.

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
export async function importSdk<N extends keyof Modules>(
  name: N,
): Promise<Modules[N]> {
  // Held in a variable so that bundlers do not inline the package.
  const specifier: string = name;
  try {
    return await import(specifier);
  } catch (error) {
    if ("Deno" in globalThis && !("Bun" in globalThis)) {
      try {
        return await import(`npm:${name}@${SDK_VERSIONS[name]}`);
      } catch {
        // Say what to do about the first failure.
      }
    }
    throw new Error(
      `cannot load "${name}", which sessions need: install it beside the toolkit with \`npm install ${name}@"${
        SDK_VERSIONS[name]
      }"\` (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}
