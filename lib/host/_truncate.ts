// The output limits, and the head of a text over them with the notice naming
// the file that holds it all. Pure. A text may be hundreds of megabytes:
// nothing here copies it whole; it is read in chunks, and only its start
// is encoded to find the head.

/** Outputs longer than this many bytes (UTF-8) are cut. */
export const MAX_OUTPUT_BYTES = 51_200;
/** Outputs with more lines than this are cut. */
export const MAX_OUTPUT_LINES = 2_000;

/** How many UTF-16 units of a text are encoded at a time. */
export const CHUNK_UNITS = 262_144;

/** How many lines `text` has: a final line without `\n` counts. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let lines = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    lines++;
  }
  return text.endsWith("\n") ? lines : lines + 1;
}

/**
 * Where a chunk of `text` that starts at `start` and holds at most `units`
 * UTF-16 units (at least 2) ends: never between the two halves of a
 * surrogate pair, so that the chunks encode to exactly the bytes of the
 * whole.
 */
export function chunkEnd(text: string, start: number, units: number): number {
  const end = Math.min(text.length, start + Math.max(2, units));
  if (end === text.length) return end;
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/**
 * The chunks of `text`, each encoded as UTF-8 into one reused buffer: the
 * bytes of one chunk are valid until the next is asked for. Lone
 * surrogates become U+FFFD, as `TextEncoder` writes them.
 */
export function* utf8Chunks(
  text: string,
  units: number = CHUNK_UNITS,
): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  const buffer = new Uint8Array(Math.min(text.length, Math.max(2, units)) * 3);
  for (let start = 0; start < text.length;) {
    const end = chunkEnd(text, start, units);
    const { written } = encoder.encodeInto(text.slice(start, end), buffer);
    yield buffer.subarray(0, written);
    start = end;
  }
}

/** The length of `text` in UTF-8 bytes, without encoding it whole. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const chunk of utf8Chunks(text)) bytes += chunk.length;
  return bytes;
}

/** A text's size, as the output limits count it. */
export interface TextSize {
  /** Its length in UTF-8 bytes. */
  bytes: number;
  /** Its number of lines ({@linkcode countLines}). */
  lines: number;
}

/** The size of `text` when it is over either output limit; `undefined` when it is within both. */
export function overLimits(text: string): TextSize | undefined {
  // UTF-8 takes at most 3 bytes per UTF-16 unit, and a text has at most
  // one line per unit: short texts skip the byte count.
  if (text.length <= MAX_OUTPUT_LINES) return undefined;
  const lines = countLines(text);
  if (text.length * 3 <= MAX_OUTPUT_BYTES && lines <= MAX_OUTPUT_LINES) {
    return undefined;
  }
  const bytes = utf8Length(text);
  return bytes > MAX_OUTPUT_BYTES || lines > MAX_OUTPUT_LINES
    ? { bytes, lines }
    : undefined;
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

/** The line a cut output ends with, naming the file that holds it all. */
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
 * What the model reads for an output over an output limit: the head, then (on a
 * line of its own) the {@linkcode truncationNotice}; the whole stays within
 * both limits. `size` is the text's size when already measured.
 */
export function truncatedText(
  text: string,
  saved: SavedAt,
  size: TextSize = { bytes: utf8Length(text), lines: countLines(text) },
): { text: string; size: number } {
  // Room for the notice: its longest form with this path, plus its newline.
  const noticeBytes = new TextEncoder().encode(
    truncationNotice(size.lines, size.lines, size.bytes, size.bytes, saved),
  ).length + 2;
  // The head is at most MAX_OUTPUT_BYTES bytes, so it lies within the
  // first MAX_OUTPUT_BYTES + 1 units (each at least one byte): only those
  // are encoded. Cut between whole characters, they encode to the start of
  // the whole text's bytes, and there is more of them than the head may
  // take, so the cut is the one the whole text would get.
  const start = text.slice(0, chunkEnd(text, 0, MAX_OUTPUT_BYTES + 1));
  const head = headBytes(
    new TextEncoder().encode(start),
    Math.max(0, MAX_OUTPUT_BYTES - noticeBytes),
    MAX_OUTPUT_LINES - 1,
  );
  let headText = new TextDecoder().decode(head);
  const shownLines = countLines(headText);
  if (headText !== "" && !headText.endsWith("\n")) headText += "\n";
  const notice = truncationNotice(
    shownLines,
    size.lines,
    head.length,
    size.bytes,
    saved,
  );
  return { text: headText + notice, size: size.bytes };
}
