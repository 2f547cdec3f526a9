// The caller going away aborts its call. A request's signal is only
// looked at once its call has run for WATCH_DELAY_MS: a quick call never
// pays for it, and a signal first read after a disconnect still fires.
// Deno (legacy behaviour) also fires it after every completed response, so
// it only counts while the call is running. One ticker serves every running
// call, instead of a timer per call, and stops on a tick that finds none.

/** How long a call runs before the watch starts looking at its caller. */
const WATCH_DELAY_MS = 5;

interface Watch {
  request: Request;
  controller: AbortController;
  since: number;
  running: boolean;
  watched?: AbortSignal;
  onAbort?: () => void;
}

/** Watches the callers of running calls. */
export interface CallerWatch {
  /**
   * Runs `call` with a signal that aborts when `request`'s caller goes away
   * while the call runs.
   */
  run<T>(
    request: Request,
    call: (signal: AbortSignal) => Promise<T>,
  ): Promise<T>;
}

/** A watch over the callers of every call a handler runs. */
export function callerWatch(): CallerWatch {
  const watching = new Set<Watch>();
  let ticker: ReturnType<typeof setTimeout> | undefined;
  const look = (watch: Watch) => {
    const signal = watch.request.signal;
    watch.watched = signal;
    watch.onAbort = () => {
      if (watch.running) {
        watch.controller.abort(new Error("the caller went away"));
      }
    };
    signal.addEventListener("abort", watch.onAbort, { once: true });
    if (signal.aborted) watch.onAbort();
  };
  const tick = () => {
    if (watching.size === 0) {
      ticker = undefined;
      return;
    }
    ticker = setTimeout(tick, WATCH_DELAY_MS);
    const now = performance.now();
    for (const watch of watching) {
      if (!watch.watched && now - watch.since >= WATCH_DELAY_MS) look(watch);
    }
  };
  return {
    async run<T>(
      request: Request,
      call: (signal: AbortSignal) => Promise<T>,
    ): Promise<T> {
      const watch: Watch = {
        request,
        controller: new AbortController(),
        since: performance.now(),
        running: true,
      };
      watching.add(watch);
      ticker ??= setTimeout(tick, WATCH_DELAY_MS);
      try {
        return await call(watch.controller.signal);
      } finally {
        watch.running = false;
        watching.delete(watch);
        if (watch.onAbort) {
          watch.watched?.removeEventListener("abort", watch.onAbort);
        }
        // No timer outlives the last call (a server may be shut down now).
        if (watching.size === 0) {
          clearTimeout(ticker);
          ticker = undefined;
        }
      }
    },
  };
}
