// Texts over T6's limits: the whole text saved to a private file, the model
// given the head, the size and the path. Applies to outputs and to error
// messages alike (H4).

import { mkdir, mkdtemp, rename, writeFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  countLines,
  MAX_OUTPUT_BYTES,
  MAX_OUTPUT_LINES,
  overLimits,
  truncatedText,
} from "./_truncate.ts";

/** A text as the model reads it. */
export interface Shaped {
  /** The text, or its head and a notice naming the file. */
  text: string;
  /** Set when the text was cut. */
  truncated?: true;
  /** The whole text's size in bytes, when cut. */
  size?: number;
  /** The file holding the whole text, when cut. */
  path?: string;
}

/** Where cut texts go: `dir`, or a private folder made on first use. */
export class Spill {
  #dir?: string;
  #made = false;

  /** Saves into `dir`, or into a new private folder under the system's temporary folder. */
  constructor(dir?: string) {
    this.#dir = dir;
  }

  async #folder(): Promise<string> {
    if (this.#dir === undefined) {
      this.#dir = await mkdtemp(join(tmpdir(), "beeuni-tools-"));
      this.#made = true;
    } else if (!this.#made) {
      await mkdir(this.#dir, { recursive: true, mode: 0o700 });
      this.#made = true;
    }
    return this.#dir;
  }

  /** `text` as the model reads it (T6): whole when within both limits, else cut and saved. */
  async shape(tool: string, text: string): Promise<Shaped> {
    // UTF-8 takes at most 3 bytes per UTF-16 unit, and a text has at most
    // one line per unit: short texts skip the byte count.
    if (
      text.length <= MAX_OUTPUT_LINES ||
      (text.length * 3 <= MAX_OUTPUT_BYTES &&
        countLines(text) <= MAX_OUTPUT_LINES)
    ) return { text };
    const bytes = new TextEncoder().encode(text).length;
    if (!overLimits(text, bytes)) return { text };
    const dir = await this.#folder();
    const base = `${tool}-${Date.now()}-${randomBytes(4).toString("hex")}.txt`;
    const path = join(dir, base);
    const temp = join(dir, `.${base}.tmp`);
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, path);
    const cut = truncatedText(text, path);
    return { text: cut.text, truncated: true, size: cut.size, path };
  }
}
