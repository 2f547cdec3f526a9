// Memory of the processes a benchmark started, read from Linux's /proc.

/** Memory of one process, in bytes: PSS, RSS and the peak RSS. */
export interface Memory {
  pss: number;
  rss: number;
  hwm: number;
}

/** The memory of process `pid`, or undefined once it is gone. */
export function memoryOf(pid: number): Memory | undefined {
  try {
    const rollup = Deno.readTextFileSync(`/proc/${pid}/smaps_rollup`);
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    const kb = (text: string, key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)![1]) * 1024;
    return {
      pss: kb(rollup, "Pss"),
      rss: kb(rollup, "Rss"),
      hwm: kb(status, "VmHWM"),
    };
  } catch {
    return undefined;
  }
}

/** The processes descended from `pid`. */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...children.get(ppid) ?? [], Number(entry.name)]);
    } catch { /* gone */ }
  }
  const out: number[] = [];
  const visit = (p: number) => {
    for (const child of children.get(p) ?? []) {
      out.push(child);
      visit(child);
    }
  };
  visit(pid);
  return out;
}
