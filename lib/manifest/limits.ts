/**
 * The bounds every manifest read stays within, so hostile or runaway YAML
 * costs time and memory in proportion to its size and always ends with a
 * positioned diagnostic. `beeuni validate`, the tool host and the daemon
 * use these same numbers; docs/manifest.md lists them.
 *
 * @module
 */

import type { Diagnostic } from "./types.ts";

/** The bounds of one manifest read (a root `beeuni.yaml` and its imports). */
export interface ManifestLimits {
  /** Largest manifest file, in bytes (UTF-8). */
  maxFileBytes: number;
  /** Largest sum of the sizes of every manifest file read, in bytes. */
  maxTotalBytes: number;
  /**
   * Most YAML nodes (scalars, aliases, lists and mappings) over every
   * manifest file read: what parsing costs in time and memory grows with it.
   */
  maxNodes: number;
  /** Most entries in one mapping or one list. */
  maxEntries: number;
  /** Deepest nesting of mappings and lists (the top level counts as 1). */
  maxDepth: number;
  /** Most files imported, over every import chain (the root not counted). */
  maxImports: number;
  /** Longest import chain: how many files deep an import may sit below the root. */
  maxImportDepth: number;
  /** Most diagnostics reported; the rest are counted in one closing line. */
  maxDiagnostics: number;
  /** Most alias expansions in one file before it counts as an alias bomb (V12). */
  maxAliasCount: number;
}

/**
 * The default bounds, far above what a hand-written manifest needs (a
 * project of 1,000 tools has about 2,500 nodes): 1 MiB per file, 4 MiB in
 * all, 100,000 nodes in all, 10,000 entries per mapping or list, nesting
 * 64 deep, 256 imported files, import chains 32 files deep, 1,000
 * diagnostics and 100 alias expansions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { MANIFEST_LIMITS } from "@beeuni/tools/manifest";
 *
 * assert.equal(MANIFEST_LIMITS.maxFileBytes, 1048576);
 * ```
 */
export const MANIFEST_LIMITS: Readonly<ManifestLimits> = Object.freeze({
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 4 * 1024 * 1024,
  maxNodes: 100_000,
  maxEntries: 10_000,
  maxDepth: 64,
  maxImports: 256,
  maxImportDepth: 32,
  maxDiagnostics: 1_000,
  maxAliasCount: 100,
});

/** `limits` over the defaults: every bound not given keeps its default. */
export function manifestLimits(
  limits: Partial<ManifestLimits> = {},
): ManifestLimits {
  const merged = { ...MANIFEST_LIMITS };
  for (const key of Object.keys(MANIFEST_LIMITS) as (keyof ManifestLimits)[]) {
    const value = limits[key];
    if (typeof value === "number" && Number.isFinite(value) && value >= 1) {
      merged[key] = Math.floor(value);
    }
  }
  return merged;
}

/** `bytes` as people read it: `1 MiB`, `512 KiB`, `300 bytes`. */
export function formatBytes(bytes: number): string {
  const unit = (size: number, name: string) =>
    `${(Math.round((bytes / size) * 10) / 10).toString()} ${name}`;
  if (bytes >= 1024 * 1024) return unit(1024 * 1024, "MiB");
  if (bytes >= 1024) return unit(1024, "KiB");
  return `${bytes} bytes`;
}

/**
 * The first `max` of `diagnostics` and, when there are more, one closing
 * diagnostic at the place of the first one left out that counts the rest
 * (an error when an error is among them, so the verdict never changes).
 */
export function limitDiagnostics(
  diagnostics: readonly Diagnostic[],
  max: number = MANIFEST_LIMITS.maxDiagnostics,
): Diagnostic[] {
  if (diagnostics.length <= max) return [...diagnostics];
  const kept = diagnostics.slice(0, max);
  const rest = diagnostics.slice(max);
  const errors = rest.filter((d) => d.severity === "error").length;
  const warnings = rest.length - errors;
  const first = rest[0];
  kept.push({
    file: first.file,
    line: first.line,
    col: first.col,
    severity: errors > 0 ? "error" : "warning",
    rule: first.rule,
    message: `${rest.length} more findings from here on are not shown (${
      count(errors, "error")
    }, ${
      count(warnings, "warning")
    }): at most ${max} are reported; fix the ones above and check again`,
  });
  return kept;
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
