/**
 * The start of a folder's listing, without reading all of it: a folder
 * another process fills can hold millions of entries.
 *
 * @module
 */

/** What {@linkcode firstEntries} found. */
export interface FirstEntries {
  /** At most the number asked for, in the order the system lists them. */
  names: string[];
  /** Whether the folder holds more. */
  more: boolean;
}

/**
 * The names of at most `max` entries of `dir`, and whether it holds more.
 * Under Deno (`Deno.readDir`) and Node.js (`opendir`) only about that
 * many entries are read, however large the folder; Bun reads the whole
 * listing first (about a second per million entries). Rejects when `dir`
 * cannot be listed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { firstEntries } from "./first_entries.ts";
 *
 * const dir = await Deno.makeTempDir();
 * for (const name of ["a", "b", "c"]) await Deno.writeTextFile(`${dir}/${name}`, "");
 * const { names, more } = await firstEntries(dir, 2);
 * assert.equal(names.length, 2);
 * assert.equal(more, true);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function firstEntries(
  dir: string,
  max: number,
): Promise<FirstEntries> {
  // Under Deno, node:fs's opendir reads the whole folder before the first
  // entry; Deno.readDir does not.
  const listing: AsyncIterable<{ name: string }> =
    typeof globalThis.Deno === "object"
      ? Deno.readDir(dir)
      : await (await import("node:fs/promises")).opendir(dir, {
        bufferSize: 256,
      });
  const names: string[] = [];
  // Leaving the loop early closes the listing.
  for await (const entry of listing) {
    if (names.length === max) return { names, more: true };
    names.push(entry.name);
  }
  return { names, more: false };
}
