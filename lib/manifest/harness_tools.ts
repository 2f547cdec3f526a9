/**
 * Names of the tools a harness implements itself (opencode's own). A project
 * may not declare a tool under any of these names (V2).
 *
 * @module
 */

/** Where a harness tool name comes from. */
export type HarnessToolOrigin =
  | "opencode 1.18.33"
  | "opencode 1.18.33 (experimental flag)"
  | "opencode 1.18.33 (plan mode)"
  | "opencode (older versions)";

/** Every harness tool name, with where it comes from. */
export const HARNESS_TOOLS: Readonly<Record<string, HarnessToolOrigin>> = {
  invalid: "opencode 1.18.33",
  question: "opencode 1.18.33",
  bash: "opencode 1.18.33",
  read: "opencode 1.18.33",
  glob: "opencode 1.18.33",
  grep: "opencode 1.18.33",
  edit: "opencode 1.18.33",
  write: "opencode 1.18.33",
  task: "opencode 1.18.33",
  webfetch: "opencode 1.18.33",
  todowrite: "opencode 1.18.33",
  websearch: "opencode 1.18.33",
  skill: "opencode 1.18.33",
  apply_patch: "opencode 1.18.33",
  lsp: "opencode 1.18.33 (experimental flag)",
  plan_exit: "opencode 1.18.33 (plan mode)",
  list: "opencode (older versions)",
  todoread: "opencode (older versions)",
  multiedit: "opencode (older versions)",
  patch: "opencode (older versions)",
  codesearch: "opencode (older versions)",
};

/**
 * Whether `name` is a harness tool name.
 *
 * @returns `true` for a tool the harness provides itself (`bash`, `read`, `task`, …).
 */
export function isHarnessTool(name: string): boolean {
  return Object.hasOwn(HARNESS_TOOLS, name);
}

/**
 * Whether `name` is a tool of the terminal plugin (`pty_*`), which the
 * standard harness couples to `bash`.
 *
 * @returns `true` for a `pty_*` name.
 */
export function isPtyTool(name: string): boolean {
  return name.startsWith("pty_");
}
