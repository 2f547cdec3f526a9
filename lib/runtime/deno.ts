/**
 * The Deno adapter: `Deno.watchFs`, `Deno.addSignalListener`, and Deno's
 * own HTTP server (the one behind `Deno.serve`) on connections the adapter
 * accepts itself, behind the connection guard.
 *
 * @module
 */

import type {
  Handler,
  Io,
  Runtime,
  ServeOptions,
  Server,
  Watcher,
} from "./types.ts";

const encoder = new TextEncoder();

function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string) {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(stream.writeSync(bytes));
}

function io(): Io {
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

function onTerminate(callback: (signal: string) => void): () => void {
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

function watchDirs(
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

/**
 * Serves like `serveDeno()`, importing it on the first call: the server
 * and the connection guard cost a command that serves nothing.
 */
async function serve(options: ServeOptions, handler: Handler): Promise<Server> {
  return (await import("./_deno_serve.ts")).serveDeno(options, handler);
}

/** The toolkit's view of Deno. */
export const denoRuntime: Runtime = {
  name: "deno",
  version: Deno.version.deno,
  args: () => [...Deno.args],
  io,
  exit: (code) => Deno.exit(code),
  serve,
  onTerminate,
  watchDirs,
  execPath: () => Deno.execPath(),
};
