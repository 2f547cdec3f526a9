// The timeouts of a host's running calls under one timer.

/** One call's timeout in a {@linkcode Deadlines} set. */
export interface Deadline {
  /** When it fires, in `performance.now()` time. */
  at: number;
  /** What firing does. */
  fire: () => void;
}

/**
 * The timeouts of a host's running calls under one timer, armed for the
 * earliest. Adding a call with the usual timeout touches no timer (a later
 * deadline than the armed one) and removing one never does: a call costs a
 * set insertion and deletion, not a timer start and stop. When the timer
 * fires it fires what is due and re-arms for the next, if any.
 */
export class Deadlines {
  #entries = new Set<Deadline>();
  #timer?: ReturnType<typeof setTimeout>;
  #armedAt = Infinity;

  /** Fires `fire` after `ms` unless removed first. */
  add(ms: number, fire: () => void): Deadline {
    const entry = { at: performance.now() + ms, fire };
    this.#entries.add(entry);
    if (entry.at < this.#armedAt) this.#arm(entry.at);
    return entry;
  }

  /** Forgets a deadline. */
  remove(entry: Deadline): void {
    this.#entries.delete(entry);
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#armedAt = at;
    this.#timer = setTimeout(
      () => this.#sweep(),
      Math.min(Math.max(at - performance.now(), 0), 2_147_483_647),
    );
  }

  #sweep(): void {
    this.#timer = undefined;
    this.#armedAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    const due: Deadline[] = [];
    for (const entry of this.#entries) {
      if (entry.at <= now + 1) due.push(entry);
      else if (entry.at < next) next = entry.at;
    }
    for (const entry of due) {
      this.#entries.delete(entry);
      entry.fire();
    }
    // Firing may have added deadlines and armed for them.
    if (next < this.#armedAt) this.#arm(next);
  }

  /** Drops every deadline and the timer. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#armedAt = Infinity;
    this.#entries.clear();
  }
}

/**
 * A usable timer length from `requested`: positive, finite and within what
 * timers accept; `fallback` otherwise.
 */
export function timeoutOf(
  requested: number | undefined,
  fallback: number,
): number {
  const value = requested ?? fallback;
  if (!Number.isFinite(value) || value <= 0) return fallback;
  return Math.min(value, 2_147_483_647);
}
