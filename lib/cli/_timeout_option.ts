// `--timeout-ms`, read the same way by every command that runs tools.

import { UsageError } from "../common/mod.ts";

/** The value of `--timeout-ms` in milliseconds, or undefined when absent. */
export function timeoutOption(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(text)) {
    throw new UsageError(
      `--timeout-ms must be a whole number of milliseconds, got "${text}"`,
    );
  }
  return Number(text);
}
