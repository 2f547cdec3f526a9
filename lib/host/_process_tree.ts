// The processes below a process, read from /proc (Linux): what a runner
// started, including children that left its process group (`setsid`, a
// `detached` spawn), so that they end with it. Elsewhere there is no
// /proc and the list is empty: killing the process group is all there is.

import { readdirSync, readFileSync } from "node:fs";

/** The most processes read from /proc for one walk. */
const MAX_PROCESSES = 65_536;

/** `pid`'s parent, read from `/proc/<pid>/stat`, or undefined when gone. */
function parentOf(pid: string): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name, in parentheses, may hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const parent = Number(fields[1]);
  return Number.isSafeInteger(parent) ? parent : undefined;
}

/** The ids of every process below `pid` (children, theirs, and so on). */
export function descendantsOf(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  let read = 0;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    if (++read > MAX_PROCESSES) break;
    const parent = parentOf(entry);
    if (parent === undefined) continue;
    const list = children.get(parent);
    if (list) list.push(Number(entry));
    else children.set(parent, [Number(entry)]);
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      if (found.includes(child)) continue;
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}
