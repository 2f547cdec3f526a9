// Which runtime versions the toolkit supports.

/** The oldest Node.js the toolkit runs on: the first with type stripping on by default. */
export const MIN_NODE_VERSION = "22.18.0";

/** Whether Node.js `version` (e.g. `22.18.0` or `v24.1.0`) is at least {@linkcode MIN_NODE_VERSION}. */
export function nodeVersionSupported(version: string): boolean {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 18);
}

/**
 * Why Node.js `version` cannot run the toolkit, or `undefined` when it can:
 * the message the toolkit's entry points print before they exit with 1.
 */
export function nodeVersionProblem(version: string): string | undefined {
  if (nodeVersionSupported(version)) return undefined;
  return `beeuni needs Node.js ${MIN_NODE_VERSION} or later, and this is Node.js ${
    version.replace(/^v/, "")
  }: install a newer Node.js, or run beeuni with Deno or Bun`;
}
