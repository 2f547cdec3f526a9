// What a tool may read and write (H2, T5, T7): the project, the
// node_modules folders and package.json files above it (packages resolve
// the Node way from there), the Beeuni tools, and a temporary folder of its
// own; never the daemon's token or the secret store. The runner may also
// write, but not read or list, the host's folder of saved outputs, where it
// saves a long output for the host (T6): where the runtime enforces this
// (Deno, Node.js), a tool can create files there but cannot read the
// outputs of other calls, nor learn their names.

import { dirname, join, resolve } from "node:path";

/** The paths a runner is given. */
export interface Confinement {
  /** Readable paths. */
  read: string[];
  /** Writable paths. */
  write: string[];
  /** Paths never readable, even inside a readable one. */
  denyRead: string[];
}

/** What confinement starts from. */
export interface ConfinementInput {
  /** The project root. */
  directory: string;
  /** The folder of the Beeuni tools' modules. */
  builtinDir: string;
  /** The runner program's own folder or file, when the runtime must be allowed to read it. */
  runnerDir?: string;
  /** The runners' temporary folder. */
  tmpDir: string;
  /** The host's folder of saved outputs (T6): writable, not readable. */
  outputDir?: string;
  /** More readable paths. */
  allowRead?: string[];
  /** More writable paths. */
  allowWrite?: string[];
  /** Paths never readable. */
  denyRead?: string[];
}

/** Every folder from `start` up to the file system's root, `start` first. */
function ancestors(start: string): string[] {
  const out: string[] = [];
  let dir = resolve(start);
  while (true) {
    out.push(dir);
    const parent = dirname(dir);
    if (parent === dir) return out;
    dir = parent;
  }
}

/** The paths a tool of the project at `input.directory` may touch. */
export function confinement(input: ConfinementInput): Confinement {
  const above = ancestors(input.directory).slice(1);
  const read = [
    input.directory,
    input.builtinDir,
    input.tmpDir,
    ...above.flatMap((dir) => [
      join(dir, "node_modules"),
      join(dir, "package.json"),
    ]),
    ...(input.runnerDir ? [input.runnerDir] : []),
    ...(input.allowRead ?? []).map((path) => resolve(path)),
  ];
  const write = [
    input.directory,
    input.tmpDir,
    ...(input.outputDir ? [resolve(input.outputDir)] : []),
    ...(input.allowWrite ?? []).map((path) => resolve(path)),
  ];
  return {
    read: [...new Set(read)],
    write: [...new Set(write)],
    denyRead: [...new Set((input.denyRead ?? []).map((path) => resolve(path)))],
  };
}
