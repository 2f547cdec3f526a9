// The process-level pieces Node.js and Bun share: streams, arguments,
// signals, file watching. Both run Node's `node:*` modules and `process`.

import { type FSWatcher, statSync, watch as fsWatch, writeSync } from "node:fs";
import { Buffer } from "node:buffer";
import { join } from "node:path";
import process from "node:process";
import type { Io, Watcher } from "./types.ts";

const encoder = new TextEncoder();

/** Writes all of `text` to file descriptor `fd`, waiting out a full pipe. */
function writeAll(fd: number, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      if ((error as { code?: string }).code !== "EAGAIN") throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(
      typeof chunk === "string" ? encoder.encode(chunk) : chunk as Uint8Array,
    );
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** The real standard streams, environment and directory of this process. */
export function processIo(): Io {
  const noColor = (process.env.NO_COLOR ?? "") !== "";
  let color: boolean | undefined;
  return {
    cwd: process.cwd(),
    env: { ...process.env },
    stdout: (text) => writeAll(1, text),
    stderr: (text) => writeAll(2, text),
    readStdin,
    // Asked only when something would be coloured: on Bun the first
    // `process.stdout` costs about Bun's whole start-up.
    get color(): boolean {
      return color ??= !noColor && process.stdout.isTTY === true;
    },
  };
}

/** Calls `callback` on SIGINT or SIGTERM; returns a function that removes the listeners. */
export function onTerminate(callback: (signal: string) => void): () => void {
  const signals = ["SIGINT", "SIGTERM"] as const;
  const listeners = signals.map((signal) => {
    const listener = () => callback(signal);
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
}

/** Watches folders (not their subfolders) with `node:fs` `watch`. */
export function watchDirs(
  dirs: string[],
  onChange: (paths: string[]) => void,
): Watcher {
  const watchers: FSWatcher[] = [];
  for (const dir of dirs) {
    try {
      if (!statSync(dir).isDirectory()) continue;
      const watcher = fsWatch(dir, { recursive: false }, (_event, name) => {
        onChange([name ? join(dir, String(name)) : dir]);
      });
      watcher.on("error", () => {});
      watchers.push(watcher);
    } catch {
      // A folder that vanished is skipped, as with Deno.watchFs.
    }
  }
  return {
    close: () => {
      for (const watcher of watchers.splice(0)) watcher.close();
    },
  };
}

/** The command-line arguments after the script. */
export function args(): string[] {
  return process.argv.slice(2);
}

/** Ends the process with `code`. */
export function exit(code: number): never {
  process.exit(code);
}
