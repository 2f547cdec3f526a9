/**
 * One cap on the long-lived event streams a server holds open (MCP's GET
 * streams and subscriptions, the web UI's history), kept below the cap on
 * connections: a stream holds a connection busy for as long as it is open,
 * and a server whose connections are all busy can answer nobody. When the
 * cap is reached, the stream whose client has been quiet longest is closed
 * to make room, so a new stream is always admitted and ordinary requests
 * always find a connection.
 *
 * @module
 */

/** An open stream as the pool sees it. */
export interface PooledStream {
  /** When its client last used it or its session (`performance.now()`); the least recent is closed first. */
  lastUsed(): number;
  /** Ends the stream to make room (the pool has already let go of it). */
  evict(): void;
}

/** The open event streams of one server, at most {@linkcode StreamPool.max}. */
export class StreamPool {
  #max: number;
  #open = new Set<PooledStream>();

  /** A pool of at most `max` streams (at least 1). */
  constructor(max: number) {
    this.#max = Math.max(1, Math.floor(max));
  }

  /** The most streams open at once. */
  get max(): number {
    return this.#max;
  }

  /** Changes the cap (at least 1); streams over it are closed when the next one opens. */
  set max(value: number) {
    this.#max = Math.max(1, Math.floor(value));
  }

  /** How many streams are open. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Counts `stream` as open, first closing the least recently used streams
   * while the pool is full. Returns the function to call once it closes
   * (calling it more than once is harmless).
   */
  admit(stream: PooledStream): () => void {
    while (this.#open.size >= this.#max) {
      let oldest: PooledStream | undefined;
      let oldestUse = Infinity;
      for (const open of this.#open) {
        const used = open.lastUsed();
        if (used < oldestUse) {
          oldest = open;
          oldestUse = used;
        }
      }
      if (oldest === undefined) break;
      this.#open.delete(oldest);
      oldest.evict();
    }
    this.#open.add(stream);
    return () => void this.#open.delete(stream);
  }
}
