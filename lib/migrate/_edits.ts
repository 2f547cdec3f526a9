/**
 * The text edits and notes `beeuni tools migrate` collects while it reads
 * one file: replacements by offset into the original text, applied at the
 * end, so every byte nobody edits stays as it was.
 *
 * @module
 */

import type { Node } from "../project/mod.ts";

/** One thing to look at by hand, with its line in the original file. */
export interface Note {
  /** 1-based line in the original file. */
  line: number;
  /** What to do. */
  message: string;
}

interface Edit {
  start: number;
  end: number;
  text: string;
  order: number;
}

/** Edits and notes for one source text. */
export class Rewrite {
  /** The original text. */
  readonly src: string;
  /** What needs a look by hand. */
  readonly notes: Note[] = [];
  #edits: Edit[] = [];
  #removed: [number, number][] = [];

  /** Starts an empty rewrite of `src`. */
  constructor(src: string) {
    this.src = src;
  }

  /** Replaces `src[start, end)` with `text`. */
  replace(start: number, end: number, text: string): void {
    this.#edits.push({ start, end, text, order: this.#edits.length });
  }

  /** Replaces the node's text with `text`. */
  replaceNode(node: Node, text: string): void {
    this.replace(node.start, node.end, text);
  }

  /** Inserts `text` at `at`. */
  insert(at: number, text: string): void {
    this.replace(at, at, text);
  }

  /** Removes `src[start, end)`; what lies there no longer counts as used. */
  remove(start: number, end: number): void {
    this.replace(start, end, "");
    this.#removed.push([start, end]);
  }

  /**
   * Removes the statement `node`, with its whole line when nothing else is
   * on it.
   */
  removeStatement(node: Node): void {
    const src = this.src;
    const lineStart = src.lastIndexOf("\n", node.start - 1) + 1;
    let lineEnd = src.indexOf("\n", node.end);
    if (lineEnd < 0) lineEnd = src.length;
    const before = src.slice(lineStart, node.start);
    const after = src.slice(node.end, lineEnd);
    if (/^\s*$/.test(before) && /^\s*;?\s*$/.test(after)) {
      let end = Math.min(lineEnd + 1, src.length);
      // Take a blank line after it too when one is before it (or it opens
      // the file), so no double gap is left.
      const previous = src.slice(
        src.lastIndexOf("\n", lineStart - 2) + 1,
        lineStart,
      );
      const next = /^[ \t]*\r?\n/.exec(src.slice(end));
      if (next && (lineStart === 0 || /^\s*$/.test(previous))) {
        end += next[0].length;
      }
      this.remove(lineStart, end);
    } else this.remove(node.start, node.end);
  }

  /** Marks `src[start, end)` as gone without editing it (an outer edit replaces it). */
  markRemoved(start: number, end: number): void {
    this.#removed.push([start, end]);
  }

  /** Whether the whole node lies in one removed range. */
  isRemovedNode(node: Node): boolean {
    return this.#removed.some(([start, end]) =>
      node.start >= start && node.end <= end
    );
  }

  /** Whether the offset lies in a removed range. */
  isRemoved(at: number): boolean {
    return this.#removed.some(([start, end]) => at >= start && at < end);
  }

  /** Adds a note at the node's line. */
  note(node: Node | number, message: string): void {
    const line = typeof node === "number" ? node : node.loc.start.line;
    if (
      !this.notes.some((note) => note.line === line && note.message === message)
    ) this.notes.push({ line, message });
  }

  /**
   * The edited text. An edit that lies inside an earlier-starting, longer
   * one is dropped (the outer one replaced its text).
   */
  apply(): string {
    const size = (edit: Edit) =>
      edit.end === edit.start ? -1 : edit.end - edit.start;
    // Insertions first at one offset, then the longest replacement.
    const edits = [...this.#edits].sort((a, b) =>
      a.start - b.start ||
      (size(a) < 0 || size(b) < 0 ? size(a) - size(b) : size(b) - size(a)) ||
      a.order - b.order
    );
    let out = "";
    let last = 0;
    for (const edit of edits) {
      if (edit.start < last || (edit.start === last && edit.end < last)) {
        continue;
      }
      out += this.src.slice(last, edit.start) + edit.text;
      last = edit.end;
    }
    return out + this.src.slice(last);
  }
}
