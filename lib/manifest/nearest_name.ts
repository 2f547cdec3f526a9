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
 * The name among `known` nearest to `name`, when it is near enough to be a
 * typo of it (at most a third of its letters apart, or one), for "did you
 * mean" hints; `undefined` otherwise.
 */
export function nearestName(
  name: string,
  known: Iterable<string>,
): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = distance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, name.length / 3)
    ? best
    : undefined;
}
