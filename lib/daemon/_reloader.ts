// Hot reload (D5): watch the project's folders, wait for the changes to
// settle, reload, then watch the new set of folders. One reload runs at a
// time; changes during a reload start another once it ends.

import { relative } from "node:path";
import type { Watcher } from "../runtime/mod.ts";
import { canonicalRoot, errorMessage } from "../common/mod.ts";
import { isReloadTrigger, watchTargets } from "./_watch.ts";

/** What a {@linkcode Reloader} needs. */
export interface ReloaderOptions {
  /** The project root. */
  root: string;
  /** The root manifest, repo-relative. */
  manifestPath: string;
  /** Quiet time after the last change before reloading, in milliseconds. */
  debounceMs: number;
  /** The runtime's folder watcher. */
  watchDirs(dirs: string[], onChange: (paths: string[]) => void): Watcher;
  /** Reloads; `what` names the changed files (or "the project"). */
  reload(what: string): Promise<void>;
  /** Where problems with watching go. */
  log(line: string): void;
}

/** A running reloader. */
export interface Reloader {
  /** Stops watching and drops a pending reload. */
  close(): void;
}

/** Starts watching the project and reloading on change. */
export function startReloader(options: ReloaderOptions): Reloader {
  const { root, manifestPath, debounceMs } = options;
  const realRoot = canonicalRoot(root);
  const changed = new Set<string>();
  let watcher: Watcher | undefined;
  let watchedKey = "";
  let manifests = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reloading = false;
  let again = false;
  let closed = false;

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(run, debounceMs);
  };

  const rewatch = () => {
    if (closed) return;
    const targets = watchTargets(root, manifestPath);
    manifests = new Set(targets.manifests);
    const key = targets.dirs.join("\n");
    if (key === watchedKey) return;
    watcher?.close();
    watchedKey = key;
    watcher = options.watchDirs(targets.dirs, (paths) => {
      const relevant = paths.filter((path) => isReloadTrigger(path, manifests));
      if (relevant.length === 0 || closed) return;
      for (const path of relevant) changed.add(relative(realRoot, path));
      schedule();
    });
  };

  async function run(): Promise<void> {
    timer = undefined;
    if (closed) return;
    if (reloading) {
      again = true;
      return;
    }
    reloading = true;
    const files = [...changed].sort();
    changed.clear();
    // Watch what the manifest on disk names before reloading, so an edit in
    // a newly imported file's folder during the reload is not missed.
    try {
      rewatch();
    } catch {
      // Reported by the rewatch after the reload.
    }
    try {
      await options.reload(files.length > 0 ? files.join(", ") : "the project");
    } finally {
      reloading = false;
    }
    try {
      rewatch();
    } catch (error) {
      options.log(`[daemon] cannot watch the project: ${errorMessage(error)}`);
    }
    if (again && !closed) {
      again = false;
      schedule();
    }
  }

  try {
    rewatch();
  } catch (error) {
    options.log(
      `[daemon] cannot watch the project, hot reload is off: ${
        errorMessage(error)
      }`,
    );
  }
  return {
    close(): void {
      closed = true;
      clearTimeout(timer);
      watcher?.close();
    },
  };
}
