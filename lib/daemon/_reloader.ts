// Hot reload (D5): watch the project's folders, wait for the changes to
// settle, reload, then watch the folders the manifest the reload read
// names. One reload runs at a time; changes during a reload start another
// once it ends.

import { relative } from "node:path";
import type { Manifest } from "../manifest/mod.ts";
import type { Watcher } from "../runtime/mod.ts";
import { canonicalRoot, errorMessage } from "../common/mod.ts";
import { isReloadTrigger, watchTargets } from "./_watch.ts";

/** What a {@linkcode Reloader} needs. */
export interface ReloaderOptions {
  /** The project root. */
  root: string;
  /** The manifest read at start. */
  manifest: Manifest;
  /** Quiet time after the last change before reloading, in milliseconds. */
  debounceMs: number;
  /** The runtime's folder watcher. */
  watchDirs(dirs: string[], onChange: (paths: string[]) => void): Watcher;
  /**
   * Reloads; `what` names the changed files (or "the project"). Resolves to
   * the manifest the reload read, valid or not, or undefined when it read
   * none.
   */
  reload(what: string): Promise<Manifest | undefined>;
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
  const { root, debounceMs } = options;
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

  const rewatch = (manifest: Manifest) => {
    if (closed) return;
    const targets = watchTargets(root, manifest);
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
    let manifest: Manifest | undefined;
    try {
      manifest = await options.reload(
        files.length > 0 ? files.join(", ") : "the project",
      );
    } finally {
      reloading = false;
    }
    try {
      if (manifest) rewatch(manifest);
    } catch (error) {
      options.log(`[daemon] cannot watch the project: ${errorMessage(error)}`);
    }
    if (again && !closed) {
      again = false;
      schedule();
    }
  }

  try {
    rewatch(options.manifest);
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
