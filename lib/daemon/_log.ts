// The daemon's log: lines are batched and written after the current turn,
// off the path of the answer; flush() writes what is left. Control
// characters are escaped, so no value in a line can forge another.

import { escapeControl } from "../common/mod.ts";

/** A batching log. */
export interface BatchedLog {
  /** Queues one line (a newline is added). */
  log(line: string): void;
  /** Writes every queued line now. */
  flush(): void;
}

/** A log that writes batches of lines through `write`. */
export function batchedLog(write: (text: string) => void): BatchedLog {
  let lines: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (lines.length === 0) return;
    const text = lines.join("");
    lines = [];
    write(text);
  };
  return {
    log(line: string): void {
      lines.push(escapeControl(line) + "\n");
      timer ??= setTimeout(flush, 0);
    },
    flush,
  };
}
