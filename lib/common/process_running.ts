/**
 * Whether a process id names a live process.
 *
 * @module
 */

import process from "node:process";

/**
 * Whether process `pid` is running. Only `ESRCH` says it is gone: `EPERM`
 * means it runs as another user, and an error without a code means this
 * process may not ask, so it is taken as running.
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code !== "ESRCH";
  }
}
