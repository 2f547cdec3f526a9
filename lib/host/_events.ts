// What a host tells its listeners: every call's start and end, and every
// reload. A listener's failure is its own.

import { errorMessage } from "../common/mod.ts";
import type { HostEvent } from "./types.ts";

/** The listeners of one host. */
export class HostEvents {
  readonly #listeners = new Set<(event: HostEvent) => void>();
  readonly #log: (line: string) => void;

  /** Listeners whose failures are logged with `log`. */
  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** Whether anyone listens (so that events need not be built). */
  get watched(): boolean {
    return this.#listeners.size > 0;
  }

  /** Adds `listener`; returns a function that removes it. */
  add(listener: (event: HostEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Tells every listener. */
  emit(event: HostEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch (error) {
        // A listener's failure is its own: logged, and the others still hear.
        this.#log(`[tools] an event listener failed: ${errorMessage(error)}`);
      }
    }
  }
}
