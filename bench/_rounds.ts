// Latency and throughput of several servers ("sides") measured in one run:
// rounds alternate the sides' order so drifts of a noisy machine hit all
// alike, and each side's figure is the median of its samples.

import { median } from "./_stats.ts";

/** Calls one side once with `text`; rejects unless the side answered it. */
export type CallOnce<T> = (side: T, text: string) => Promise<void>;

/**
 * The median time of one call per side (ms): `warmup` calls to each side,
 * then `calls` timed calls to each, sides alternating.
 */
export async function latency<T>(
  sides: Record<string, T>,
  callOnce: CallOnce<T>,
  counts: { warmup: number; calls: number },
): Promise<Record<string, number>> {
  const names = Object.keys(sides);
  const samples: Record<string, number[]> = Object.fromEntries(
    names.map((n) => [n, []]),
  );
  for (let i = 0; i < counts.warmup; i++) {
    for (const name of names) await callOnce(sides[name], `w${i}`);
  }
  for (let i = 0; i < counts.calls; i++) {
    const order = i % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const start = performance.now();
      await callOnce(sides[name], `c${i}`);
      samples[name].push(performance.now() - start);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n])]));
}

/**
 * The median calls per second per side: each round makes `calls` calls with
 * `concurrency` in flight, after one warm-up round per side.
 */
export async function throughput<T>(
  sides: Record<string, T>,
  callOnce: CallOnce<T>,
  counts: { concurrency: number; calls: number; rounds: number },
): Promise<Record<string, number>> {
  const round = async (side: T) => {
    let next = 0;
    const start = performance.now();
    await Promise.all(Array.from({ length: counts.concurrency }, async () => {
      while (next < counts.calls) {
        const i = next++;
        await callOnce(side, `t${i}`);
      }
    }));
    return counts.calls / ((performance.now() - start) / 1000);
  };
  const names = Object.keys(sides);
  const rates: Record<string, number[]> = Object.fromEntries(
    names.map((n) => [n, []]),
  );
  for (const name of names) await round(sides[name]); // warm-up
  for (let r = 0; r < counts.rounds; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    for (const name of order) rates[name].push(await round(sides[name]));
  }
  return Object.fromEntries(names.map((n) => [n, median(rates[n])]));
}
