// The servers the benchmarks measure run as subprocesses on 127.0.0.1: each
// prints "listening on http://127.0.0.1:<port>" once it serves.

/** A running server subprocess. */
export interface Server {
  /** The URL it printed, `http://127.0.0.1:<port>`. */
  url: string;
  pid: number;
  /** Stops it (SIGTERM) and waits until it and its output have ended. */
  stop(): Promise<void>;
}

/** How to spawn a server. */
export interface ServerOptions {
  /** The program to run; Deno by default. */
  program?: string;
  cwd?: string;
  /** Added to this process's environment; NO_COLOR is always set. */
  env?: Record<string, string>;
  /** "piped" keeps the server's stderr for the error when it exits early. */
  stderr?: "null" | "piped";
}

/**
 * Spawns `program args...` and waits for its "listening on" line. Its output
 * is read on until it stops, so it never blocks on a full pipe.
 */
export async function spawnServer(
  args: string[],
  options: ServerOptions = {},
): Promise<Server> {
  const child = new Deno.Command(options.program ?? Deno.execPath(), {
    args,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: options.stderr ?? "null",
    env: { ...options.env, NO_COLOR: "1" },
  }).spawn();
  let err = "";
  const errDrain = options.stderr === "piped"
    ? (async () => {
      for await (
        const chunk of child.stderr.pipeThrough(new TextDecoderStream())
      ) {
        err += chunk;
      }
    })()
    : Promise.resolve();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  let url: string | undefined;
  while (url === undefined) {
    const { done, value } = await reader.read();
    if (done) {
      await errDrain;
      throw new Error(`server exited before listening: ${text}\n${err}`);
    }
    text += value;
    url = /listening on (http:\/\/\S+)\n/.exec(text)?.[1];
  }
  const drain = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  return {
    url,
    pid: child.pid,
    async stop() {
      try {
        child.kill("SIGTERM");
      } catch { /* already gone */ }
      await child.status;
      await drain;
      await errDrain;
    },
  };
}

/** A port free now on 127.0.0.1. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
