// The host a command runs a project's tools in: tools get the process's
// environment less the daemon's token, and the project's secrets read
// afresh at every call.

import { dirname } from "node:path";
import { toolEnv } from "../common/mod.ts";
import type { Host } from "../host/mod.ts";
import { privatePaths, readSecrets } from "../secrets/mod.ts";
import type { CommandIo } from "./command.ts";

/** What differs between the commands that host a project's tools. */
export interface ProjectHostOptions {
  validateArgs: boolean;
  timeoutMs: number | undefined;
  log: (line: string) => void;
  /** The runtime tool runners run on (`--runner`). */
  runner?: string;
  /** Whether the host logs the manifest's errors itself (the default). */
  logManifest?: boolean;
}

/** Starts a host for the project of `manifestFile`; the host stage loads on demand. */
export async function projectHost(
  manifestFile: string,
  io: CommandIo,
  options: ProjectHostOptions,
): Promise<Host> {
  const root = dirname(manifestFile);
  // Loaded on demand, so other `beeuni` commands stay quick.
  const { createHost } = await import("../host/mod.ts");
  return await createHost({
    directory: root,
    manifest: manifestFile,
    ...options,
    env: toolEnv(io.env),
    secrets: () => readSecrets(root, io.env),
    // Tools never read the toolkit's state or the secret store.
    denyRead: privatePaths(root, io.env),
  });
}
