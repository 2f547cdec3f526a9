/**
 * Loads a project in a `node:worker_threads` worker with its own heap limit
 * and a time limit, so a huge or hostile manifest cannot exhaust the
 * caller's memory or hold its event loop. The daemon reloads through it;
 * one-shot commands and the daemon's start read in process
 * (`loadProject()`), where the manifest limits bound the cost.
 *
 * @module
 */

import { Worker } from "node:worker_threads";
import type { LoadProjectOptions, Project } from "./load_project.ts";

/** Options of {@linkcode loadProjectIsolated}. */
export interface IsolatedLoadOptions extends LoadProjectOptions {
  /** The worker's heap limit in MB; default {@linkcode ISOLATED_LOAD_HEAP_MB}. */
  heapMb?: number;
  /** How long the load may take, in milliseconds; default {@linkcode ISOLATED_LOAD_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** The default heap limit of the loading worker: room for the largest manifest the limits allow. */
export const ISOLATED_LOAD_HEAP_MB = 512;

/** The default time limit of an isolated load. */
export const ISOLATED_LOAD_TIMEOUT_MS = 60_000;

type Reply = { ok: true; project: Project } | { ok: false; message: string };

/**
 * Does what `loadProject(options)` does in a worker thread with a heap of
 * `heapMb` and at most `timeoutMs`. Rejects with a readable `Error` when
 * there is no manifest, when the worker runs out of memory or time, or
 * when it cannot start; every problem inside the manifest is a diagnostic,
 * as with `loadProject()`.
 *
 * @example
 * ```ts ignore
 * const project = await loadProjectIsolated({ cwd: ".", tracking: false });
 * console.log(project.diagnostics.length);
 * ```
 */
export function loadProjectIsolated(
  options: IsolatedLoadOptions,
): Promise<Project> {
  const {
    heapMb = ISOLATED_LOAD_HEAP_MB,
    timeoutMs = ISOLATED_LOAD_TIMEOUT_MS,
  } = options;
  const data: LoadProjectOptions = {
    cwd: options.cwd,
    manifest: options.manifest,
    tracking: options.tracking,
    limits: options.limits,
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = new Worker(new URL("./_load_worker.ts", import.meta.url), {
      workerData: JSON.parse(JSON.stringify(data)),
      resourceLimits: {
        maxOldGenerationSizeMb: heapMb,
        maxYoungGenerationSizeMb: Math.min(64, Math.max(4, heapMb / 8)),
      },
      stdout: false,
      stderr: false,
    });
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done();
      worker.terminate().catch(() => {});
    };
    const timer = setTimeout(() =>
      settle(() =>
        reject(
          new Error(
            `reading the manifest took longer than ${
              timeoutMs / 1000
            } s: make it smaller`,
          ),
        )
      ), timeoutMs);
    worker.once(
      "message",
      (reply: Reply) =>
        settle(() =>
          reply.ok ? resolve(reply.project) : reject(new Error(reply.message))
        ),
    );
    worker.once(
      "error",
      (error: Error & { code?: string }) =>
        settle(() =>
          reject(
            new Error(
              error.code === "ERR_WORKER_OUT_OF_MEMORY"
                ? `reading the manifest needs more than ${heapMb} MB of memory: make it smaller`
                : `cannot read the manifest: ${error.message}`,
            ),
          )
        ),
    );
    worker.once("exit", (code) =>
      settle(() =>
        reject(
          new Error(
            `cannot read the manifest: its reader stopped (exit code ${code})`,
          ),
        )
      ));
  });
}
