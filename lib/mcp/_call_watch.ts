/**
 * Running HTTP calls answered as JSON so far, watched by one shared ticker
 * (no timer per call): after a few milliseconds a call's request signal is
 * wired to abort it when its client goes away, and after
 * {@linkcode STREAM_AFTER_MS} its answer may become an event stream.
 *
 * @module
 */

/** How long a call runs before its caller going away is watched (reading a request's signal has a cost a quick call should not pay). */
const WATCH_DELAY_MS = 5;

/**
 * How long a call runs before its answer becomes an event stream (when the
 * client takes one). A client leaving is then seen as the stream closing:
 * Deno does not always fire a request's signal when a client drops a
 * request that has no response yet.
 */
export const STREAM_AFTER_MS = 100;

/** One watched call. */
export interface Watch {
  /** The HTTP request carrying it. */
  request: Request;
  /** Aborts the call. */
  controller: AbortController;
  /** When it started (`performance.now()`). */
  since: number;
  /** Whether the request's signal is wired to the controller. */
  wired: boolean;
  /** Turns the answer into an event stream; cleared once done. */
  toStream?: () => void;
}

/** The calls still running, and the ticker that watches them. */
export class CallWatcher {
  #watched = new Set<Watch>();
  #ticker?: ReturnType<typeof setTimeout>;

  /** Starts watching the call `controller` aborts, carried by `request`. */
  add(request: Request, controller: AbortController): Watch {
    const watch: Watch = {
      request,
      controller,
      since: performance.now(),
      wired: false,
    };
    this.#watched.add(watch);
    this.#ticker ??= setTimeout(() => this.#tick(), WATCH_DELAY_MS);
    return watch;
  }

  /** Stops watching `watch` (its call answered). */
  delete(watch: Watch): void {
    this.#watched.delete(watch);
  }

  /** Stops the ticker. */
  close(): void {
    clearTimeout(this.#ticker);
    this.#ticker = undefined;
  }

  #tick(): void {
    this.#ticker = undefined;
    const now = performance.now();
    for (const entry of this.#watched) {
      const age = now - entry.since;
      if (!entry.wired && age >= WATCH_DELAY_MS) wire(entry);
      if (entry.toStream && age >= STREAM_AFTER_MS) {
        entry.toStream();
        entry.toStream = undefined;
      }
      if (entry.wired && !entry.toStream) this.#watched.delete(entry);
    }
    // The ticker stops itself once nothing is watched.
    if (this.#watched.size > 0) {
      this.#ticker = setTimeout(() => this.#tick(), WATCH_DELAY_MS);
    }
  }
}

/** Aborts a watched call when its request's signal fires (its client went away). */
function wire(entry: Watch): void {
  entry.wired = true;
  const signal = entry.request.signal;
  const abort = () => entry.controller.abort(new Error("the client went away"));
  if (signal.aborted) abort();
  else signal.addEventListener("abort", abort, { once: true });
}
