/**
 * "Did you mean" hints: the known name nearest to a mistyped one.
 *
 * @module
 */

/**
 * The edit distance between `a` and `b` counting a swap of two neighbouring
 * letters as one edit, for "did you mean" hints.
 */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from(
    { length: a.length + 1 },
    (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i === 0 ? j : i),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(
        d[i - 1][j] + 1,
        d[i][j - 1] + 1,
        d[i - 1][j - 1] + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/**
 * How many cells of edit-distance tables a {@linkcode HintBudget} holds by
 * default: hints cost names × known names, so a manifest with thousands of
 * unknown names must not make validation quadratic. Ordinary manifests use
 * a tiny fraction of it.
 */
export const HINT_BUDGET_CELLS = 4_000_000;

/** Longest name a hint is looked for (tool names are at most 64 characters, V1). */
const HINT_MAX_LENGTH = 64;

/** Work that several {@linkcode nearestName} calls share: once spent, they give no more hints. */
export interface HintBudget {
  /** Edit-distance table cells left. */
  cells: number;
}

/** Options of {@linkcode nearestName}. */
export interface NearestNameOptions {
  /** Work shared with other calls; once spent, no more hints. */
  budget?: HintBudget;
  /** The most edits a hint may be away, below the default of a third of the name's letters. */
  maxDistance?: number;
}

/**
 * The name among `known` nearest to `name`, when it is near enough to be a
 * typo of it (at most a third of its letters apart, or one, and at most
 * `maxDistance`), for "did you mean" hints; `undefined` otherwise. Of names
 * at the same distance, the first in `known` wins: list the ones to prefer
 * first. Names longer than 64 characters get no hint, candidates whose
 * length alone rules them out are skipped, and with a `budget` the search
 * gives up (no hint) once it is spent.
 *
 * @example
 * ```ts
 * import { nearestName } from "./nearest_name.ts";
 *
 * nearestName("gret", ["greet", "grep"]); // "greet"
 * ```
 */
export function nearestName(
  name: string,
  known: Iterable<string>,
  options: NearestNameOptions = {},
): string | undefined {
  const { budget, maxDistance = Infinity } = options;
  if (name.length > HINT_MAX_LENGTH) return undefined;
  const limit = Math.min(maxDistance, Math.max(1, name.length / 3));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    if (Math.abs(candidate.length - name.length) > limit) continue;
    if (budget) {
      const cost = (name.length + 1) * (candidate.length + 1);
      if (cost > budget.cells) return undefined;
      budget.cells -= cost;
    }
    const d = distance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= limit ? best : undefined;
}
