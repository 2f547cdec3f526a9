/**
 * A server-sent events response: JSON-RPC messages as `message` events,
 * comments to keep an idle stream open, and a callback when the client
 * goes away.
 *
 * @module
 */

const encoder = new TextEncoder();

/** An open `text/event-stream` response. */
export class SseStream {
  /** The response to return; its body is the stream. */
  readonly response: Response;
  #controller?: ReadableStreamDefaultController<Uint8Array>;
  #closed = false;
  #keepAlive?: ReturnType<typeof setInterval>;
  #onClose?: () => void;

  /**
   * Opens a stream. `onClose` runs once, when the client goes away or
   * {@linkcode SseStream.close} is called. With `keepAliveMs`, a comment is
   * sent that often so that idle connections stay open.
   */
  constructor(
    options: {
      onClose?: () => void;
      keepAliveMs?: number;
      headers?: Record<string, string>;
    } = {},
  ) {
    this.#onClose = options.onClose;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.#finish(),
    });
    this.response = new Response(body, { status: 200 });
    const headers = this.response.headers;
    headers.set("content-type", "text/event-stream");
    headers.set("cache-control", "no-cache, no-transform");
    headers.set("x-accel-buffering", "no");
    for (const [key, value] of Object.entries(options.headers ?? {})) {
      headers.set(key, value);
    }
    if (options.keepAliveMs !== undefined) {
      this.#keepAlive = setInterval(
        () => this.#write(": keep-alive\n\n"),
        options.keepAliveMs,
      );
    }
  }

  /** Whether the stream has ended. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Sends one JSON-RPC message; false when the stream has ended. */
  send(message: unknown): boolean {
    return this.#write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  #write(text: string): boolean {
    if (this.#closed) return false;
    try {
      this.#controller!.enqueue(encoder.encode(text));
      return true;
    } catch {
      this.#finish();
      return false;
    }
  }

  /** Ends the stream (after what was sent). */
  close(): void {
    if (this.#closed) return;
    try {
      this.#controller?.close();
    } catch {
      // Already cancelled by the client.
    }
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    const onClose = this.#onClose;
    this.#onClose = undefined;
    onClose?.();
  }
}
