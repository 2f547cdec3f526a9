// What the manifest and each reload came to, in the log of the daemon and
// of `beeuni mcp`: the manifest's diagnostics are reported here, the same
// way at start and on reload, and once (the host's own report of them is
// dropped from the log).

import { errorMessage } from "../common/mod.ts";
import type { Host } from "../host/mod.ts";
import {
  type Diagnostic,
  type Manifest,
  summaryLine,
} from "../manifest/mod.ts";

function formatDiagnostic(d: Diagnostic): string {
  return `  ${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.message}`;
}

/** The tools a reload imported anew, as the end of its log line (at most ten named). */
function importedAnew(names: string[] | undefined): string {
  if (names === undefined || names.length === 0) return "";
  const shown = names.slice(0, 10).join(", ");
  const more = names.length > 10 ? ` and ${names.length - 10} more` : "";
  return `; imported anew: ${shown}${more}`;
}

/**
 * Logs the diagnostics of the manifest read at start, each line as a
 * reload logs it, under `[<tag>] <manifest> has 1 error, 2 warnings:`;
 * nothing when there are none.
 */
export function logManifestDiagnostics(
  tag: string,
  manifest: string,
  diagnostics: readonly Diagnostic[],
  log: (line: string) => void,
): void {
  if (diagnostics.length === 0) return;
  log(`[${tag}] ${manifest} has ${summaryLine(manifest, diagnostics)}:`);
  for (const d of diagnostics) log(formatDiagnostic(d));
}

/** How {@linkcode reloadLogger} names the server and its tools. */
export interface ReloadLogOptions {
  /** The log lines' tag: `daemon` gives `[daemon] reloaded …`. */
  tag: string;
  /** The names of the tools served, after a reload. */
  names: () => string[];
  /** Where the lines go. */
  log: (line: string) => void;
  /** Runs after each reload that was taken. */
  after?: () => void;
}

/**
 * The reloader's `reload`: reloads `host` for the files changed, logs what
 * came of it (the tools now served, or why the previous ones keep serving,
 * with the manifest's diagnostics) and returns the manifest to watch.
 */
export function reloadLogger(
  host: Pick<Host, "reload">,
  { tag, names, log, after }: ReloadLogOptions,
): (what: string, changed: string[]) => Promise<Manifest | undefined> {
  return async (what, changed) => {
    const notReloaded = `[${tag}] not reloaded after a change to ${what}`;
    try {
      const result = await host.reload({ changed });
      if (result.ok) {
        const served = names();
        log(
          (result.changed
            ? `[${tag}] reloaded after a change to ${what}: ${served.length} tools (${
              served.join(", ")
            })`
            : `[${tag}] reloaded after a change to ${what}: tool set unchanged`) +
            (result.scoped ? importedAnew(result.reloaded) : ""),
        );
        for (const d of result.diagnostics) log(formatDiagnostic(d));
        after?.();
      } else if (result.error !== undefined) {
        log(
          `${notReloaded}: ${result.error}; the previous tools keep serving`,
        );
      } else {
        log(
          `${notReloaded}: the previous tools keep serving; fix these and save again:`,
        );
        for (const d of result.diagnostics) log(formatDiagnostic(d));
      }
      return result.manifest;
    } catch (error) {
      log(
        `${notReloaded}: ${
          errorMessage(error)
        }; the previous tools keep serving`,
      );
      return undefined;
    }
  };
}
