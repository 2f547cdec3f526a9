// Hot reload: watch the project's folders, wait for the changes to
// settle, reload, then watch the folders the manifest the reload read
// names. One reload runs at a time; changes during a reload start another
// once it ends. Changes to modules alone settle sooner than changes to a
// manifest file: the host then imports only the modules that need it.

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
  /** Quiet time after the last change to a manifest file before reloading, in milliseconds. */
  debounceMs: number;
  /**
   * Quiet time after the last change when only modules changed, in
   * milliseconds; default: 20.
   */
  moduleDebounceMs?: number;
  /**
   * Prepares for a reload (the host's `prepare()`): called as
   * the first change of a batch is seen, before the quiet time, and after
   * each reload, as more saves tend to follow.
   */
  prepare?(): void;
  /** The runtime's folder watcher. */
  watchDirs(dirs: string[], onChange: (paths: string[]) => void): Watcher;
  /**
   * Reloads; `what` names the changed files (or "the project"), `changed`
   * holds their absolute paths. Resolves to the manifest the reload read,
   * valid or not, or undefined when it read none.
   */
  reload(what: string, changed: string[]): Promise<Manifest | undefined>;
  /** Where problems with watching go. */
  log(line: string): void;
  /** The local files the served tools' modules import, whose folders are watched too. */
  sources?(): string[];
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
  const moduleDebounceMs = options.moduleDebounceMs ?? 20;
  /** The changed files since the last reload, by absolute path. */
  const changed = new Set<string>();
  let manifestChanged = false;
  let watcher: Watcher | undefined;
  let watchedKey = "";
  let manifests = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reloading = false;
  let again = false;
  let closed = false;

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(run, manifestChanged ? debounceMs : moduleDebounceMs);
  };

  const rewatch = (manifest: Manifest) => {
    if (closed) return;
    const targets = watchTargets(root, manifest, options.sources?.() ?? []);
    manifests = new Set(targets.manifests);
    const key = targets.dirs.join("\n");
    if (key === watchedKey) return;
    watcher?.close();
    watchedKey = key;
    watcher = options.watchDirs(targets.dirs, (paths) => {
      const relevant = paths.filter((path) => isReloadTrigger(path, manifests));
      if (relevant.length === 0 || closed) return;
      if (changed.size === 0) options.prepare?.();
      for (const path of relevant) {
        changed.add(path);
        if (manifests.has(path)) manifestChanged = true;
      }
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
    manifestChanged = false;
    const names = files.map((path) => relative(realRoot, path));
    let manifest: Manifest | undefined;
    try {
      manifest = await options.reload(
        names.length > 0 ? names.join(", ") : "the project",
        files,
      );
    } finally {
      reloading = false;
    }
    if (!closed) options.prepare?.();
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
