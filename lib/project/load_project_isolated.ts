/**
 * Loads projects in a `node:worker_threads` worker with its own heap limit
 * and a time limit, so a huge or hostile manifest cannot exhaust the
 * caller's memory or hold its event loop. The daemon reloads through it;
 * one-shot commands and the daemon's start read in process
 * (`loadProject()`), where the manifest limits bound the cost.
 *
 * @module
 */

import { Worker } from "node:worker_threads";
import type { LoadProjectOptions, Project } from "./load_project.ts";

/** The bounds of an isolated loader's worker. */
export interface IsolationOptions {
  /** The worker's heap limit in MB; default {@linkcode ISOLATED_LOAD_HEAP_MB}. */
  heapMb?: number;
  /** How long one load may take, in milliseconds; default {@linkcode ISOLATED_LOAD_TIMEOUT_MS}. */
  timeoutMs?: number;
}

/** Options of {@linkcode loadProjectIsolated}. */
export interface IsolatedLoadOptions
  extends LoadProjectOptions, IsolationOptions {}

/** The default heap limit of the loading worker: room for the largest manifest the limits allow. */
export const ISOLATED_LOAD_HEAP_MB = 512;

/** The default time limit of an isolated load. */
export const ISOLATED_LOAD_TIMEOUT_MS = 60_000;

/** Loads projects in one worker, started on the first load and kept for the next. */
export interface IsolatedLoader {
  /**
   * Does what `loadProject(options)` does, in the worker. Rejects with a
   * readable `Error` when there is no manifest, when the worker runs out of
   * memory or time (the worker is then dropped; the next load starts a new
   * one), or when it cannot start; every problem inside the manifest is a
   * diagnostic, as with `loadProject()`.
   */
  load(options: LoadProjectOptions): Promise<Project>;
  /** Stops the worker; loads still running reject. */
  close(): Promise<void>;
}

type Reply =
  | { id: number; ok: true; project: Project }
  | { id: number; ok: false; message: string };

interface Pending {
  resolve(project: Project): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * An {@linkcode IsolatedLoader}: its worker starts on the first load and
 * stays (without keeping the process alive) so later loads skip the start.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isolatedLoader } from "./load_project_isolated.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/beeuni.yaml`, "tools:\n  show: beeuni:show\n");
 * const loader = isolatedLoader({ heapMb: 256 });
 * const project = await loader.load({ cwd: dir, tracking: false });
 * assert.deepEqual(project.toolSet.tools.map((tool) => tool.name), ["show"]);
 * await loader.close();
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function isolatedLoader(
  options: IsolationOptions = {},
): IsolatedLoader {
  const heapMb = options.heapMb ?? ISOLATED_LOAD_HEAP_MB;
  const timeoutMs = options.timeoutMs ?? ISOLATED_LOAD_TIMEOUT_MS;
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  /** Drops the worker and rejects every load it was running with `error`. */
  const drop = (from: Worker, error: Error) => {
    if (worker !== from) return;
    worker = undefined;
    from.terminate().catch(() => {});
    for (const [id, entry] of pending) {
      clearTimeout(entry.timer);
      pending.delete(id);
      entry.reject(error);
    }
  };

  const start = (): Worker => {
    const started = new Worker(
      new URL("./_load_worker.ts", import.meta.url),
      {
        resourceLimits: {
          maxOldGenerationSizeMb: heapMb,
          maxYoungGenerationSizeMb: Math.min(64, Math.max(4, heapMb / 8)),
        },
      },
    );
    started.unref();
    started.on("message", (reply: Reply) => {
      const entry = pending.get(reply.id);
      if (!entry) return;
      pending.delete(reply.id);
      clearTimeout(entry.timer);
      if (pending.size === 0) started.unref();
      if (reply.ok) entry.resolve(reply.project);
      else entry.reject(new Error(reply.message));
    });
    started.on("error", (error: Error & { code?: string }) =>
      drop(
        started,
        new Error(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? `reading the manifest needs more than ${heapMb} MB of memory: make it smaller`
            : `cannot read the manifest: ${error.message}`,
        ),
      ));
    started.on("exit", (code) =>
      drop(
        started,
        new Error(
          `cannot read the manifest: its reader stopped (exit code ${code})`,
        ),
      ));
    return started;
  };

  return {
    load(load: LoadProjectOptions): Promise<Project> {
      const current = worker ??= start();
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            drop(
              current,
              new Error(
                `reading the manifest took longer than ${
                  timeoutMs / 1000
                } s: make it smaller`,
              ),
            ),
          timeoutMs,
        );
        pending.set(id, { resolve, reject, timer });
        // Referenced while a load runs, so a caller awaiting it stays alive.
        current.ref();
        current.postMessage({
          id,
          options: {
            cwd: load.cwd,
            manifest: load.manifest,
            tracking: load.tracking,
            limits: load.limits,
          },
        });
      });
    },
    async close(): Promise<void> {
      const current = worker;
      if (!current) return;
      drop(current, new Error("the manifest reader was closed"));
      await current.terminate().catch(() => {});
    },
  };
}

/**
 * Loads one project like `loadProject(options)` in a worker of its own with
 * a heap of `heapMb` and at most `timeoutMs` (see {@linkcode IsolatedLoader}),
 * then stops the worker.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadProjectIsolated } from "./load_project_isolated.ts";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/beeuni.yaml`, "tools: [oops\n");
 * const project = await loadProjectIsolated({ cwd: dir, tracking: false });
 * assert.equal(project.diagnostics[0].severity, "error");
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadProjectIsolated(
  options: IsolatedLoadOptions,
): Promise<Project> {
  const loader = isolatedLoader(options);
  try {
    return await loader.load(options);
  } finally {
    await loader.close();
  }
}
