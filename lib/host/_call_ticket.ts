// The host's handle on one call, to abort it wherever it is.

/**
 * The host's handle on one call: `abort()` stops it. The host may
 * abort before the call is sent; the runner wires `cancel` once it is.
 */
export class CallTicket {
  /** Whether the call was aborted. */
  aborted = false;
  /** Set by the runner while the call runs. */
  cancel?: () => void;
  /** When the call was sent to its runner, in `performance.now()` time. */
  sentAt?: number;
  /** When the runner the call waited for began to start, in `performance.now()` time; unset when it found one ready. */
  runnerStartAt?: number;
  /** The agent making the call. */
  readonly agent: string;

  /** The handle on a call `agent` makes. */
  constructor(agent: string) {
    this.agent = agent;
  }

  /** Aborts the call: its `context.signal` fires and it ends as aborted. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.cancel?.();
  }
}
