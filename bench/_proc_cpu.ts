// CPU time of the processes a benchmark started, read from Linux's /proc.

/** Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ). */
const TICKS_PER_SECOND = 100;

/** The CPU seconds (user and system) that processes `pids` have used; 0 for one that is gone. */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch { /* gone */ }
  }
  return ticks / TICKS_PER_SECOND;
}
