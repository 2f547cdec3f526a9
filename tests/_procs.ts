// What processes run on this machine, read from /proc (Linux): to count the
// processes a test left behind and the CPU time they burn.

import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** One process. */
export interface Proc {
  pid: number;
  ppid: number;
  /** Its process group. */
  pgid: number;
  /** Its command line, arguments joined by spaces. */
  cmdline: string;
  /** CPU time used so far, in clock ticks (user + system). */
  cpuTicks: number;
}

function read(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8")
      .split("\0").join(" ").trim();
    return {
      pid,
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
      cmdline,
      cpuTicks: Number(fields[11]) + Number(fields[12]),
    };
  } catch {
    return undefined;
  }
}

/** Every process now running. */
export function processes(): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const proc = read(Number(name));
    if (proc) out.push(proc);
  }
  return out;
}

/** The processes descended from `pid` (children, their children, …). */
export function descendants(pid: number): Proc[] {
  const all = processes();
  const found: Proc[] = [];
  const parents = new Set([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const proc of all) {
      if (parents.has(proc.ppid) && !parents.has(proc.pid)) {
        parents.add(proc.pid);
        found.push(proc);
        grew = true;
      }
    }
  }
  return found;
}

/** Whether process `pid` still exists. */
export function alive(pid: number): boolean {
  return read(pid) !== undefined;
}

/** The tool runner processes among `procs`. */
export function runners(procs: Proc[]): Proc[] {
  return procs.filter((proc) => proc.cmdline.includes("_runner_main"));
}

/** The CPU ticks `procs` burn over `ms` milliseconds (processes that end in between count as 0). */
export async function cpuTicksOver(procs: Proc[], ms: number): Promise<number> {
  const before = new Map(procs.map((p) => [p.pid, p.cpuTicks]));
  await new Promise((resolve) => setTimeout(resolve, ms));
  let used = 0;
  for (const [pid, ticks] of before) {
    const now = read(pid);
    if (now) used += now.cpuTicks - ticks;
  }
  return used;
}

/**
 * Whether process `pid` holds the server side of the TCP connection from
 * loopback port `clientPort` to its port `serverPort`: the socket is in
 * /proc/net/tcp and among the process's open files (it accepted it).
 */
export function holdsConnection(
  pid: number,
  serverPort: number,
  clientPort: number,
): boolean {
  const hex = (port: number) =>
    port.toString(16).toUpperCase().padStart(4, "0");
  let inode: string | undefined;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let table: string;
    try {
      table = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of table.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      if (
        fields[1].endsWith(`:${hex(serverPort)}`) &&
        fields[2].endsWith(`:${hex(clientPort)}`)
      ) inode = fields[9];
    }
  }
  if (inode === undefined || inode === "0") return false;
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}
