// The command line that starts a tool runner under each runtime, with what
// that runtime can enforce (H2): Deno's permissions, Node.js's permission
// model, nothing under Bun. Pure: the host decides the paths.

import type { RuntimeName } from "../runtime/mod.ts";

/** What a runner may touch, and how it starts. */
export interface RunnerSpec {
  /** The runtime the runner runs on (the daemon's own). */
  runtime: RuntimeName;
  /** The runtime's executable. */
  execPath: string;
  /** The file to run, and the arguments after it (e.g. a mode marker). */
  entry: { file: string; args: string[] };
  /** The heap limit of the runner's JavaScript, in MB (Deno, Node.js). */
  heapMb: number;
  /** Paths the tool may read. */
  read: string[];
  /** Paths the tool may write. */
  write: string[];
  /** Paths the tool may never read, even inside `read` (Deno only). */
  denyRead: string[];
  /** Whether the tool may start processes (and signal them). */
  allowRun: boolean;
}

/** Deno's flags for a list of paths (a comma in a path is written twice). */
function pathList(paths: string[]): string {
  return paths.map((path) => path.replaceAll(",", ",,")).join(",");
}

function denoArgs(spec: RunnerSpec): string[] {
  const args = [
    "run",
    // The toolkit's own deno.json, import map and lock file never apply to
    // tools: packages resolve from the project's node_modules (T7).
    "--no-config",
    "--no-lock",
    "--node-modules-dir=manual",
    "--unstable-detect-cjs",
    "--no-prompt",
    "--quiet",
    "--allow-net",
    "--allow-env",
    "--allow-sys",
  ];
  if (spec.read.length > 0) args.push(`--allow-read=${pathList(spec.read)}`);
  if (spec.write.length > 0) args.push(`--allow-write=${pathList(spec.write)}`);
  if (spec.denyRead.length > 0) {
    args.push(`--deny-read=${pathList(spec.denyRead)}`);
  }
  if (spec.allowRun) args.push("--allow-run");
  args.push(`--v8-flags=--max-old-space-size=${spec.heapMb}`);
  return args;
}

function nodeArgs(spec: RunnerSpec): string[] {
  const args = [
    "--permission",
    "--allow-worker",
    "--allow-wasi",
    "--disable-warning=ExperimentalWarning",
    `--max-old-space-size=${spec.heapMb}`,
  ];
  for (const path of spec.read) args.push(`--allow-fs-read=${path}`);
  for (const path of spec.write) args.push(`--allow-fs-write=${path}`);
  if (spec.allowRun) args.push("--allow-child-process");
  return args;
}

/**
 * The command and arguments that start a runner as `spec` says: the
 * runtime's flags, then the entry file and its arguments.
 */
export function runnerCommand(
  spec: RunnerSpec,
): { command: string; args: string[] } {
  const flags = spec.runtime === "deno"
    ? denoArgs(spec)
    : spec.runtime === "node"
    ? nodeArgs(spec)
    // Bun has no permissions; it must not install missing packages.
    : ["--no-install"];
  return {
    command: spec.execPath,
    args: [...flags, spec.entry.file, ...spec.entry.args],
  };
}
