// A tool host over a real temporary project, for the host's and the
// runners' tests.

import { join } from "node:path";
import { createHost, type Host, type HostOptions } from "../mod.ts";
import { tempRepo } from "./_helpers.ts";

/** A tool module whose `execute` body is `body` (with `args` and `context` in scope). */
export function tool(body: string, description = "A test tool"): string {
  return `export default {
  description: ${JSON.stringify(description)},
  parameters: { type: "object", properties: { mode: { type: "string" } } },
  async execute(args, context) {
${body}
  },
};
`;
}

/** A manifest declaring each name as `tools/<name>.ts`, plus extra YAML. */
export function manifest(names: string[], extra = ""): string {
  return `tools:\n${
    names.map((n) => `  ${n}: tools/${n}.ts\n`).join("")
  }${extra}`;
}

/** A host over a temporary git repository, closed and removed at the end. */
export interface Fixture {
  dir: string;
  host: Host;
  logs: string[];
  [Symbol.asyncDispose](): Promise<void>;
}

/** Writes `files` into a temporary repository and starts a host over it. */
export async function project(
  files: Record<string, string>,
  options: Partial<HostOptions> = {},
): Promise<Fixture> {
  const repo = await tempRepo(files);
  const logs: string[] = [];
  let host: Host;
  try {
    host = await createHost({
      directory: repo.dir,
      tmpDir: join(repo.dir, ".tool-output"),
      log: (line) => logs.push(line),
      env: { BASE_VAR: "base" },
      ...options,
    });
  } catch (error) {
    await repo[Symbol.asyncDispose]();
    throw error;
  }
  return {
    dir: repo.dir,
    host,
    logs,
    async [Symbol.asyncDispose]() {
      await host.close();
      await repo[Symbol.asyncDispose]();
    },
  };
}

/** Calls `name` as agent "build" in session "s1". */
export const call = (
  host: Host,
  name: string,
  args: unknown = {},
  extra: Partial<Parameters<Host["call"]>[0]> = {},
) => host.call({ name, args, sessionId: "s1", agent: "build", ...extra });
