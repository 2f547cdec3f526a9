// The one module that touches `Deno.*`, used by `cli.ts` and `daemon.ts`.
// Everything in `lib/` and `mod.ts` stays runtime-neutral.

import type { CommandIo } from "../cli/command.ts";

const encoder = new TextEncoder();

/** The real standard streams, environment and directory of this process. */
export function denoIo(): CommandIo {
  const noColor = (Deno.env.get("NO_COLOR") ?? "") !== "";
  return {
    cwd: Deno.cwd(),
    env: Deno.env.toObject(),
    stdout: (text) => writeAll(Deno.stdout, text),
    stderr: (text) => writeAll(Deno.stderr, text),
    readStdin: () => new Response(Deno.stdin.readable).text(),
    color: !noColor && Deno.stdout.isTerminal(),
  };
}

function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string) {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(stream.writeSync(bytes));
}

/** Ends the process with `code`. */
export function exit(code: number): never {
  Deno.exit(code);
}

/** The command-line arguments. */
export function args(): string[] {
  return [...Deno.args];
}

/** A running HTTP server started by {@linkcode serve}. */
export interface Server {
  /** The address it listens on. */
  hostname: string;
  /** The port it listens on (the one picked when asked for port 0). */
  port: number;
  /** Stops accepting connections and resolves once open requests finish. */
  shutdown(): Promise<void>;
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
}

/** Serves `handler` with `Deno.serve` on `hostname:port`; resolves once listening. */
export function serve(
  options: { hostname: string; port: number },
  handler: (request: Request) => Promise<Response>,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    let listening = false;
    let server: Deno.HttpServer<Deno.NetAddr>;
    const ready = () => {
      const addr = server.addr;
      resolve({
        hostname: addr.hostname,
        port: addr.port,
        shutdown: () => server.shutdown(),
        finished: server.finished,
      });
    };
    try {
      server = Deno.serve({
        hostname: options.hostname,
        port: options.port,
        // Deno prints its own line unless onListen is given.
        onListen: () => {
          listening = true;
        },
      }, handler);
    } catch (error) {
      reject(error);
      return;
    }
    if (listening) ready();
    else queueMicrotask(ready);
  });
}

/**
 * Calls `callback` with the signal's name on SIGINT or SIGTERM. Returns a
 * function that removes the listeners.
 */
export function onTerminate(callback: (signal: string) => void): () => void {
  const signals = ["SIGINT", "SIGTERM"] as const;
  const listeners = signals.map((signal) => {
    const listener = () => callback(signal);
    Deno.addSignalListener(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) {
      Deno.removeSignalListener(signal, listener);
    }
  };
}

/** A file system watcher started by {@linkcode watchDirs}. */
export interface Watcher {
  /** Stops watching. */
  close(): void;
}

/**
 * Watches the folders `dirs` (not their subfolders) and calls `onChange`
 * with the absolute paths of every batch of changed entries. Folders that
 * do not exist are skipped.
 */
export function watchDirs(
  dirs: string[],
  onChange: (paths: string[]) => void,
): Watcher {
  const existing = dirs.filter((dir) => {
    try {
      return Deno.statSync(dir).isDirectory;
    } catch {
      return false;
    }
  });
  if (existing.length === 0) return { close: () => {} };
  const watcher = Deno.watchFs(existing, { recursive: false });
  let closed = false;
  (async () => {
    try {
      for await (const event of watcher) {
        if (event.kind !== "access") onChange(event.paths);
      }
    } catch (error) {
      if (!closed) throw error;
    }
  })();
  return {
    close: () => {
      if (closed) return;
      closed = true;
      watcher.close();
    },
  };
}
