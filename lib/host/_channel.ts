// The channel between the host and a runner process: one JSON message per
// line over a pair of pipes the runner holds as file descriptors 3 (host to
// runner) and 4 (runner to host). Tool code gets no handle on them: there is
// no `process.send`, and nothing a library prints reaches them by accident
// (stdout and stderr stay the tool's own). A tool that writes to the
// descriptors on purpose meets the host's checks (see _check_message.ts).

/** The most characters one message from a runner may take (16 MiB). */
export const MAX_MESSAGE_CHARS = 16 * 1024 * 1024;

/**
 * The longest text of a tool's that reaches the log or a caller as one
 * line: a log message, a progress message, a line printed on stdout or
 * stderr. Longer ones are cut.
 */
export const MAX_LINE_CHARS = 1_000;

/** The file descriptor the runner reads the host's messages from. */
export const HOST_TO_RUNNER_FD = 3;
/** The file descriptor the runner writes its messages to. */
export const RUNNER_TO_HOST_FD = 4;

/** `text` cut to `max` characters, saying how long it was. */
export function cutLine(text: string, max: number = MAX_LINE_CHARS): string {
  return text.length > max
    ? `${text.slice(0, max)}… (${text.length} characters)`
    : text;
}

/** What a {@linkcode LineSplitter} reports. */
export interface LineEvents {
  /** A whole line, without its line feed. */
  line(text: string): void;
  /** The text since the last line feed grew past the limit. */
  overflow(chars: number): void;
}

/**
 * Splits text arriving in chunks into lines, holding at most `max`
 * characters of an unfinished line: past that it reports an overflow once
 * and drops everything after.
 */
export class LineSplitter {
  readonly #max: number;
  readonly #events: LineEvents;
  #parts: string[] = [];
  #held = 0;
  #broken = false;

  /** A splitter that holds at most `max` characters of a line. */
  constructor(max: number, events: LineEvents) {
    this.#max = max;
    this.#events = events;
  }

  /** Takes the next chunk. */
  push(chunk: string): void {
    if (this.#broken) return;
    let start = 0;
    let end: number;
    while ((end = chunk.indexOf("\n", start)) !== -1) {
      if (this.#held + end - start > this.#max) {
        this.#overflow(this.#held + end - start);
        return;
      }
      this.#parts.push(chunk.slice(start, end));
      const line = this.#parts.length === 1
        ? this.#parts[0]
        : this.#parts.join("");
      this.#parts = [];
      this.#held = 0;
      this.#events.line(line);
      if (this.#broken) return;
      start = end + 1;
    }
    if (start >= chunk.length) return;
    this.#held += chunk.length - start;
    if (this.#held > this.#max) {
      this.#overflow(this.#held);
      return;
    }
    this.#parts.push(start === 0 ? chunk : chunk.slice(start));
  }

  /** Stops taking chunks: what comes later is dropped. */
  stop(): void {
    this.#broken = true;
    this.#parts = [];
    this.#held = 0;
  }

  #overflow(chars: number): void {
    this.stop();
    this.#events.overflow(chars);
  }
}

/** One message as a line of the channel. */
export function frame(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
