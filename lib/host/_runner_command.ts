// The command line that starts a tool runner under each runtime, with what
// that runtime can enforce: Deno's permissions, Node.js's permission
// model (which allows paths but cannot deny one inside them), nothing under
// Bun. Pure: the host decides the paths.

import type { RuntimeName } from "../runtime/mod.ts";

/** What a runner may touch, and how it starts. */
export interface RunnerSpec {
  /** The runtime the runner runs on (the daemon's own). */
  runtime: RuntimeName;
  /** The runtime's executable. */
  execPath: string;
  /** The runtime's version, e.g. `26.12.1`, where flags depend on it. */
  version?: string;
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
  /** Paths the tool may never write, even inside `write` (Deno only). */
  denyWrite: string[];
  /** Hosts the tool may neither connect to nor listen on (Deno only). */
  denyNet: string[];
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
    // tools: packages resolve from the project's node_modules.
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
  if (spec.denyWrite.length > 0) {
    args.push(`--deny-write=${pathList(spec.denyWrite)}`);
  }
  if (spec.denyNet.length > 0) {
    args.push(`--deny-net=${pathList(spec.denyNet)}`);
  }
  if (spec.allowRun) args.push("--allow-run");
  args.push(`--v8-flags=--max-old-space-size=${spec.heapMb}`);
  return args;
}

function nodeArgs(spec: RunnerSpec): string[] {
  const args = [
    // No --allow-worker (a worker thread runs without the runner's guards,
    // and Node.js warns that it can invalidate the permission model) and
    // no --allow-wasi (a WASI preopen reads any file).
    "--permission",
    // No other process can open this one's inspector with a signal.
    "--disable-sigusr1",
    "--disable-warning=ExperimentalWarning",
    `--max-old-space-size=${spec.heapMb}`,
  ];
  // From Node.js 25 the permission model also denies the network unless
  // allowed; tools may use it under every runtime.
  if (Number(spec.version?.split(".")[0]) >= 25) args.push("--allow-net");
  for (const path of spec.read) args.push(`--allow-fs-read=${path}`);
  for (const path of spec.write) args.push(`--allow-fs-write=${path}`);
  if (spec.allowRun) {
    // Node.js warns at every start of a process given this flag. The
    // warning's code silences it alone, where Node.js gives it one (26.12
    // does, 22.23 does not); without a code it stays: silencing its type
    // would also hide SecurityWarnings a tool's own code raises (a weak
    // TLS key exchange).
    args.push("--allow-child-process", "--disable-warning=PERM0002");
  }
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
