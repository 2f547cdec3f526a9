// Which line of a badly indented manifest to blame, and where it belongs.
// The `yaml` library reports an indentation mistake where the structure
// stops making sense, which is often a line or more after the misplaced
// one: a line dedented out of its mapping leaves the next line at a
// column that fits nothing. This file models the block structure of the
// plain manifests people write (mappings and lists indented with spaces,
// one-line values) line by line, and finds the one line that, moved to
// another column, makes the lines around it fit. It declines anything
// else (block scalars, values over several lines, tabs, documents), and
// then the library's own place stands.

/** One line with text, as the block structure sees it. */
interface Entry {
  /** Offset of its text. */
  text: number;
  /** 0-based column of its text. */
  col: number;
  /** A list item (`- …`) rather than a mapping key. */
  item: boolean;
  /** It opens a block: `key:` or `-` with nothing after. */
  opens: boolean;
  /** The key of a mapping line, as written. */
  key?: string;
  /**
   * For `- key: …`, the mapping it starts: how far right of the dash the
   * key is, its key, and whether the key opens a block.
   */
  inner?: { shift: number; key: string; opens: boolean };
}

/** What a line says about the lines after it. */
interface Expect {
  /** The column of the key or dash that opened a block. */
  col: number;
  /** Whether a list may start at that same column (a list under a key). */
  sameColList: boolean;
}

/** An open block: a mapping or a list, and the column its entries start at. */
interface Level {
  /** The column of its keys or dashes. */
  col: number;
  /** A list rather than a mapping. */
  list: boolean;
  /** A list at the column of the key it is the value of. */
  compact?: boolean;
  /** A mapping's keys so far: a repeated one does not fit either. */
  keys?: Set<string>;
  /** Whether `keys` is this level's own; else it is shared with a copy and read only. */
  ownKeys?: boolean;
  /** Keys added since `keys` became shared. */
  added?: string[];
}

/** Thrown when a line is not one the model reads. */
class Decline {}

/** A plain or quoted key followed by `:` and a space or the end. */
const KEY =
  /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"?:,[\]{}&*!|>%@`-].*?)\s*:(?:\s|$)/;

/** Whether `value` (a line's value, its comment cut) fits on its line. */
function oneLineValue(value: string): boolean {
  if (value === "") return true;
  const first = value[0];
  if (first === "|" || first === ">") return false;
  if (first === "[" || first === "{") {
    let depth = 0;
    for (const char of value) {
      if (char === "[" || char === "{") depth++;
      if (char === "]" || char === "}") depth--;
    }
    return depth === 0;
  }
  if (first === '"') return /^"(?:[^"\\]|\\.)*"$/.test(value);
  if (first === "'") return /^'(?:[^']|'')*'$/.test(value);
  if (first === "&" || first === "!") return !/^\S+$/.test(value);
  return true;
}

/** Cuts a trailing comment (` # …`) off a value. */
function uncomment(value: string): string {
  return value.replace(/(^|\s)#.*$/, "").trim();
}

/** Reads a `key: value` text: its key, and whether it opens a block. */
function keyLine(text: string): { key: string; opens: boolean } {
  const key = KEY.exec(text);
  if (!key) throw new Decline();
  const value = uncomment(text.slice(key[0].length));
  if (!oneLineValue(value)) throw new Decline();
  return { key: key[0].replace(/\s*:\s*$/, ""), opens: value === "" };
}

/** The lines of `source` with text, or `undefined` when one is beyond the model. */
function entries(source: string): Entry[] | undefined {
  const out: Entry[] = [];
  let start = 0;
  try {
    while (start < source.length) {
      let end = source.indexOf("\n", start);
      if (end < 0) end = source.length;
      const line = source.slice(start, end).replace(/\r$/, "");
      const text = line.trimStart();
      const col = line.length - text.length;
      if (/^ *\t/.test(line)) throw new Decline();
      if (text !== "" && text[0] !== "#") {
        if (col === 0 && /^(?:---|\.\.\.|%)/.test(text)) throw new Decline();
        const entry: Entry = {
          text: start + col,
          col,
          item: false,
          opens: false,
        };
        if (text === "-" || text.startsWith("- ")) {
          entry.item = true;
          const rest = text.slice(1).trimStart();
          const content = uncomment(rest);
          if (content === "") entry.opens = true;
          else if (content.startsWith("- ") || content === "-") {
            throw new Decline();
          } else if (KEY.test(content)) {
            entry.inner = {
              shift: text.length - rest.length,
              ...keyLine(rest),
            };
          } else if (!oneLineValue(content)) throw new Decline();
        } else if (text[0] === "?" || (text[0] === ":" && text[1] === " ")) {
          throw new Decline();
        } else {
          const { key, opens } = keyLine(text);
          entry.key = key;
          entry.opens = opens;
        }
        out.push(entry);
      }
      start = end + 1;
    }
  } catch (error) {
    if (error instanceof Decline) return undefined;
    throw error;
  }
  return out;
}

/** How a line placed in the structure. */
interface Placed {
  /** It opened a block under the line before, this far right of it. */
  child?: number;
  /** The line before opened a block, and this line is not in it. */
  orphan?: boolean;
}

/** The block a line at `col` starts. */
function level(line: Entry, col: number): Level {
  return line.item
    ? { col, list: true }
    : { col, list: false, keys: new Set([line.key ?? ""]), ownKeys: true };
}

/**
 * The block structure read so far: the open blocks, innermost last, and
 * the block the last line opened. A copy resumes from the same place.
 */
class Walk {
  levels: Level[] = [];
  expect: Expect | undefined;

  /** A copy to walk on from here without changing this one. */
  copy(): Walk {
    const walk = new Walk();
    // The key sets are shared and read only from now on: a copy costs the
    // depth, not the keys.
    for (const level of this.levels) level.ownKeys = false;
    walk.levels = this.levels.map((level) => ({
      ...level,
      ...(level.added ? { added: [...level.added] } : {}),
    }));
    walk.expect = this.expect;
    return walk;
  }

  /** Places `line` at column `col`: how it fits, or `undefined` when it fits no block. */
  place(line: Entry, col: number): Placed | undefined {
    const levels = this.levels;
    const expect = this.expect;
    let how: Placed = {};
    if (levels.length === 0) {
      levels.push(level(line, col));
    } else if (
      expect &&
      (col > expect.col ||
        (col === expect.col && line.item && expect.sameColList))
    ) {
      how = { child: col - expect.col };
      levels.push({ ...level(line, col), compact: col === expect.col });
    } else {
      if (expect) how = { orphan: true };
      while (levels.length > 0 && levels[levels.length - 1].col > col) {
        levels.pop();
      }
      let top = levels[levels.length - 1];
      if (top && top.col === col && top.compact && !line.item) {
        levels.pop();
        top = levels[levels.length - 1];
      }
      if (!top || top.col !== col || top.list !== line.item) return undefined;
      if (line.key !== undefined && top.keys) {
        const key = line.key;
        if (top.keys.has(key) || top.added?.includes(key)) return undefined;
        if (top.ownKeys) top.keys.add(key);
        else (top.added ??= []).push(key);
      }
    }
    this.expect = undefined;
    if (line.inner) {
      const keyCol = col + line.inner.shift;
      levels.push({
        col: keyCol,
        list: false,
        keys: new Set([line.inner.key]),
        ownKeys: true,
      });
      if (line.inner.opens) this.expect = { col: keyCol, sameColList: true };
    } else if (line.opens) {
      this.expect = { col, sameColList: !line.item };
    }
    return how;
  }
}

/**
 * Walks `lines[from]` to `lines[to - 1]` on `walk`, each at the column
 * `colOf` gives it: the index of the first line that fits no block, or
 * -1. `placed` hears how each line fits.
 */
function firstMisfit(
  walk: Walk,
  lines: readonly Entry[],
  range: { from: number; to: number },
  colOf: (line: Entry, index: number) => number = (line) => line.col,
  placed?: (index: number, how: Placed) => void,
): number {
  for (let i = range.from; i < range.to; i++) {
    const how = walk.place(lines[i], colOf(lines[i], i));
    if (how === undefined) return i;
    placed?.(i, how);
  }
  return -1;
}

/** How a manifest indents a block under its key, from every block it opens. */
interface Style {
  /** The usual distance of a block from its key. */
  step: number;
  /** Whether it writes lists at their key's column. */
  compactLists: boolean;
}

/** The indentation style of `lines`, misplaced ones and all. */
function styleOf(lines: readonly Entry[]): Style {
  const counts = new Map<number, number>();
  let compactLists = false;
  for (let i = 1; i < lines.length; i++) {
    const above = lines[i - 1];
    const keyCol = above.inner ? above.col + above.inner.shift : above.col;
    const opens = above.inner ? above.inner.opens : above.opens;
    if (!opens) continue;
    const offset = lines[i].col - keyCol;
    if (offset === 0 && lines[i].item && !above.item) compactLists = true;
    if (offset > 0) counts.set(offset, (counts.get(offset) ?? 0) + 1);
  }
  let step = 2;
  let most = 0;
  for (const [offset, count] of counts) {
    if (count > most || (count === most && offset === 2)) {
      step = offset;
      most = count;
    }
  }
  return { step, compactLists };
}

/** How many lines before and after the first misfit a fix may touch and must mend. */
const REACH = 30;

/** A badly indented line: where its text starts, its column, and the column it belongs at (columns 1-based). */
export interface Misplaced {
  /** Offset of the line's text. */
  offset: number;
  /** The column its text starts at. */
  col: number;
  /** The column of the entries it belongs with. */
  belongs: number;
  /** Whether it is the first line that fits nothing (else a line above that one). */
  first: boolean;
  /** Whether it sits right of a line with a value, so YAML reads it as part of that line. */
  joinsAbove: boolean;
}

/**
 * The line of `source` to blame for its indentation, and the column it
 * belongs at: of the lines up to the first that fits no block, the one
 * whose move to another column makes that line and the next ones fit, the
 * move keeping the file's usual indentation step when one can. Undefined
 * when the model cannot tell (a structure it does not read, or no single
 * line to move). Its cost grows with the file's lines: each move walks
 * only the lines near the misfit, from a copy of the structure before
 * them.
 */
export function misplacedLine(source: string): Misplaced | undefined {
  const lines = entries(source);
  if (!lines) return undefined;
  const misfit = firstMisfit(new Walk(), lines, { from: 0, to: lines.length });
  if (misfit < 0) return undefined;
  // The structure just before each line a move may touch: the moves walk
  // on from there, over the lines up to a few past the misfit.
  const first = Math.max(0, misfit - REACH);
  const before: Walk[] = [];
  const walk = new Walk();
  firstMisfit(walk, lines, { from: 0, to: first });
  for (let index = first; index <= misfit; index++) {
    before[index] = walk.copy();
    if (index < misfit) walk.place(lines[index], lines[index].col);
  }
  const end = Math.min(lines.length, misfit + REACH);
  const { step, compactLists } = styleOf(lines);
  const columns = [...new Set(lines.map((line) => line.col))];
  const targets = new Set([0, ...columns, ...columns.map((col) => col + step)]);
  let best: { index: number; to: number; rank: number[] } | undefined;
  for (let index = misfit; index >= first; index--) {
    const from = lines[index].col;
    // Whether the misfit line fits where this one starts, as if this line
    // and the ones under it were not there: this one broke a run.
    const broke = index < misfit &&
      before[index].copy().place(lines[misfit], lines[misfit].col) !==
        undefined;
    for (const to of targets) {
      if (to === from) continue;
      // Blocks that, after the move, sit off the file's usual step, and
      // keys that open a block and get nothing in it.
      let odd = 0;
      const misfits = firstMisfit(
        before[index].copy(),
        lines,
        { from: index, to: end },
        (line, at) => at === index ? to : line.col,
        (_at, how) => {
          if (how.orphan) odd++;
          if (how.child === undefined || how.child === step) return;
          if (how.child === 0 && compactLists) return;
          odd++;
        },
      );
      if (misfits >= 0) continue;
      // Prefer the move that leaves the fewest blocks off the usual step,
      // then a line that broke a run, then the misfit itself, then the
      // nearest line, then a move in line with the line above, then the
      // shortest move, then the move right (deeper into the block above).
      const rank = [
        odd,
        broke ? 0 : index === misfit ? 1 : 2,
        misfit - index,
        to === lines[index - 1]?.col ? 0 : 1,
        Math.abs(to - from),
        -to,
      ];
      if (!best || lessThan(rank, best.rank)) best = { index, to, rank };
    }
  }
  if (!best) return undefined;
  const line = lines[best.index];
  const above = lines[best.index - 1];
  return {
    offset: line.text,
    col: line.col + 1,
    belongs: best.to + 1,
    first: best.index === misfit,
    joinsAbove: above !== undefined && above.col < line.col && !above.opens &&
      !above.inner?.opens,
  };
}

/** Whether `a` sorts before `b`, element by element. */
function lessThan(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) return a[i] < b[i];
  }
  return false;
}
