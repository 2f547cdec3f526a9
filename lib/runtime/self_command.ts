/**
 * The command line that starts this program again, for a process that
 * goes on after the command that started it returns.
 *
 * @module
 */

import process from "node:process";
import { fileURLToPath } from "node:url";

/** A program and the arguments that come before a `beeuni` command's own. */
export interface SelfCommand {
  /** The runtime's executable. */
  program: string;
  /** Its options and the script it runs. */
  args: string[];
}

/**
 * How to run this program's entry script again on the same runtime:
 * `deno run -A <main>` under Deno, the same executable, options and
 * script under Node.js and Bun.
 */
export function selfCommand(): SelfCommand {
  const deno = (globalThis as {
    Deno?: { execPath(): string; mainModule: string };
  }).Deno;
  if (deno !== undefined && !("Bun" in globalThis)) {
    const main = deno.mainModule;
    return {
      program: deno.execPath(),
      args: [
        "run",
        "-A",
        "--quiet",
        main.startsWith("file:") ? fileURLToPath(main) : main,
      ],
    };
  }
  return {
    program: process.execPath,
    args: [...process.execArgv, process.argv[1]],
  };
}
