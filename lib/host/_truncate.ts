// T6's limits, and the head of a text over them with the notice naming
// the file that holds it all. Pure.

/** T6: outputs longer than this many bytes (UTF-8) are cut. */
export const MAX_OUTPUT_BYTES = 51_200;
/** T6: outputs with more lines than this are cut. */
export const MAX_OUTPUT_LINES = 2_000;

/** How many lines `text` has: a final line without `\n` counts. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let lines = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    lines++;
  }
  return text.endsWith("\n") ? lines : lines + 1;
}

/** Whether `text` is over either T6 limit. */
export function overLimits(
  text: string,
  bytes: number = new TextEncoder().encode(text).length,
): boolean {
  return bytes > MAX_OUTPUT_BYTES || countLines(text) > MAX_OUTPUT_LINES;
}

/**
 * The first part of `bytes` (UTF-8) that has at most `maxLines` lines and
 * `maxBytes` bytes, cut after a `\n` whenever at least one whole line fits,
 * otherwise inside the first line but never inside a UTF-8 character.
 */
export function headBytes(
  bytes: Uint8Array,
  maxBytes: number,
  maxLines: number,
): Uint8Array {
  let end = 0;
  let lines = 0;
  while (lines < maxLines && end < bytes.length) {
    const next = bytes.indexOf(0x0a, end);
    const lineEnd = next === -1 ? bytes.length : next + 1;
    if (lineEnd > maxBytes) break;
    end = lineEnd;
    lines++;
  }
  if (end === 0 && bytes.length > 0 && maxLines > 0) {
    let cut = Math.min(maxBytes, bytes.length);
    while (cut > 0 && cut < bytes.length && (bytes[cut] & 0xc0) === 0x80) {
      cut--;
    }
    end = cut;
  }
  return bytes.subarray(0, end);
}

/** Where the whole of a cut text is: a file, or nowhere when it was over the cap on saved texts. */
export type SavedAt = { path: string } | { notSaved: number };

/** The line a cut output ends with (T6), naming the file that holds it all. */
export function truncationNotice(
  shownLines: number,
  totalLines: number,
  shownBytes: number,
  totalBytes: number,
  saved: SavedAt,
): string {
  const where = "path" in saved
    ? `the full output is in ${saved.path}`
    : `the full output was not saved: it is over the ${saved.notSaved}-byte cap on saved outputs`;
  return `[output truncated: showing the first ${shownLines} of ${totalLines} lines (${shownBytes} of ${totalBytes} bytes); ${where}]`;
}

/**
 * What the model reads for an output over a T6 limit: the head, then (on a
 * line of its own) the {@linkcode truncationNotice}; the whole stays within
 * both limits.
 */
export function truncatedText(
  text: string,
  saved: SavedAt,
): { text: string; size: number } {
  const bytes = new TextEncoder().encode(text);
  const totalLines = countLines(text);
  // Room for the notice: its longest form with this path, plus its newline.
  const noticeBytes = new TextEncoder().encode(
    truncationNotice(
      totalLines,
      totalLines,
      bytes.length,
      bytes.length,
      saved,
    ),
  ).length + 2;
  const head = headBytes(
    bytes,
    Math.max(0, MAX_OUTPUT_BYTES - noticeBytes),
    MAX_OUTPUT_LINES - 1,
  );
  let headText = new TextDecoder().decode(head);
  const shownLines = countLines(headText);
  if (headText !== "" && !headText.endsWith("\n")) headText += "\n";
  const notice = truncationNotice(
    shownLines,
    totalLines,
    head.length,
    bytes.length,
    saved,
  );
  return { text: headText + notice, size: bytes.length };
}
