// The options several commands share, declared once.

import type { OptionDef } from "../common/mod.ts";

export { DEFAULT_AGENT } from "../manifest/mod.ts";

/** `--manifest PATH`: the project's beeuni.yaml. */
export const MANIFEST_OPTION = {
  type: "string",
  value: "PATH",
  help: `the project's beeuni.yaml (default: found from the
current folder upwards)`,
} as const satisfies OptionDef;

/** `--runner RUNTIME`: the runtime tool runners run on. */
export const RUNNER_OPTION = {
  type: "string",
  value: "RUNTIME",
  help: `the runtime tools run on: deno, node or bun (found on the
PATH), or the path of one (default: this one); deno
confines tools, node and bun only contain them`,
} as const satisfies OptionDef;
