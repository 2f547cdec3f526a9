/**
 * Hot reload for a host served outside the daemon (`beeuni mcp`): watches
 * the folders of the manifest files and tool modules, as the daemon does
 * (D5), and reloads after a quiet moment. Uses `node:fs` `watch`, which
 * Deno, Node and Bun all provide.
 *
 * @module
 */

import { existsSync, type FSWatcher, watch } from "node:fs";
import { basename, join, relative } from "node:path";
import { isReloadTrigger, watchTargets } from "../daemon_watch.ts";

/** What {@linkcode watchAndReload} needs. */
export interface ReloadWatchOptions {
  /** The project root (the root manifest's folder). */
  root: string;
  /** The root manifest, relative to `root`. */
  manifestPath: string;
  /** Reloads the host; resolves to the line to log. */
  reload: (changed: string[]) => Promise<string>;
  /** Where log lines go. */
  log: (line: string) => void;
  /** Quiet time after the last change, in milliseconds; default 150. */
  debounceMs?: number;
}

/** A running watch. */
export interface ReloadWatch {
  /** Stops watching. */
  close(): void;
}

/**
 * The changed paths worth naming. Deno's `node:fs` watchers of a folder
 * also report changes in another watched folder under the bare file name:
 * a name that does not exist is dropped when an existing path has the same
 * file name (a deleted file keeps its name).
 */
function named(paths: string[], root: string): string[] {
  const existing = paths.filter((path) => existsSync(join(root, path)));
  const names = new Set(existing.map((path) => basename(path)));
  return paths.filter((path) =>
    existing.includes(path) || !names.has(basename(path))
  );
}

/** Watches the project and reloads on changes until closed. */
export function watchAndReload(options: ReloadWatchOptions): ReloadWatch {
  const watchers = new Map<string, FSWatcher>();
  const changed = new Set<string>();
  let manifests = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let reloading = false;
  let again = false;
  let closed = false;

  const onEvent = (dir: string, name: unknown) => {
    if (closed) return;
    const known = typeof name === "string" && name !== "";
    const path = known ? join(dir, name) : dir;
    if (known && !isReloadTrigger(path, manifests)) return;
    changed.add(relative(options.root, path) || ".");
    clearTimeout(timer);
    timer = setTimeout(run, options.debounceMs ?? 150);
  };

  const rewatch = () => {
    const targets = watchTargets(options.root, options.manifestPath);
    manifests = new Set(targets.manifests);
    const wanted = new Set(targets.dirs);
    for (const [dir, watcher] of watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (watchers.has(dir)) continue;
      try {
        const watcher = watch(
          dir,
          { recursive: false },
          (_event, name) => onEvent(dir, name),
        );
        watcher.on("error", () => {
          watcher.close();
          watchers.delete(dir);
        });
        watchers.set(dir, watcher);
      } catch {
        // A folder that does not exist (yet) is picked up after a reload.
      }
    }
  };

  const run = async () => {
    timer = undefined;
    if (closed) return;
    if (reloading) {
      again = true;
      return;
    }
    reloading = true;
    const files = named([...changed], options.root).sort();
    changed.clear();
    try {
      options.log(await options.reload(files));
    } catch (error) {
      options.log(
        `[mcp] not reloaded: ${
          error instanceof Error ? error.message : String(error)
        }; the previous tools keep serving`,
      );
    } finally {
      reloading = false;
    }
    if (closed) return;
    rewatch();
    if (again) {
      again = false;
      timer = setTimeout(run, options.debounceMs ?? 150);
    }
  };

  rewatch();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
