/**
 * What differs between Deno, Node.js and Bun, as one interface: each
 * runtime's adapter implements it, and everything else in the toolkit
 * stays runtime-neutral.
 *
 * @module
 */

/** The runtimes the toolkit runs on. */
export type RuntimeName = "deno" | "node" | "bun";

/** The standard streams, environment and folder of a process. */
export interface Io {
  /** Absolute current directory. */
  cwd: string;
  /** The process environment. */
  env: Record<string, string | undefined>;
  /** Writes to standard output (no newline added). */
  stdout(text: string): void;
  /** Writes to standard error (no newline added). */
  stderr(text: string): void;
  /** Reads all of standard input. */
  readStdin(): Promise<string>;
  /** Whether to colour output: a terminal, and `NO_COLOR` unset. */
  color: boolean;
}

/** A function from a web `Request` to a `Response`, as every adapter serves it. */
export type Handler = (request: Request) => Response | Promise<Response>;

/**
 * What a server allows its connections. A connection is waiting while no
 * request is in progress on it (just opened, or between keep-alive
 * requests) and busy from a complete request header to the end of its
 * response; only waiting connections are ever closed by these limits.
 */
export interface ConnectionLimits {
  /**
   * Open connections at most (default 512, and never more than half the
   * process's open-file limit). A new connection over the cap closes the
   * connection that has waited longest; when every connection is busy, the
   * new one is closed at once.
   */
  maxConnections?: number;
  /** Milliseconds a new connection has to send a complete request header (default 10,000). */
  headerTimeoutMs?: number;
  /** Milliseconds a connection stays open after a response without a new complete request header (default 5,000). */
  idleTimeoutMs?: number;
}

/** Where and how to listen. */
export interface ServeOptions {
  /** The address to listen on. */
  hostname: string;
  /** The port; 0 picks a free one. */
  port: number;
  /** Limits on connections; each one left out takes its default. */
  limits?: ConnectionLimits;
}

/** A running HTTP server started by {@linkcode Runtime.serve}. */
export interface Server {
  /** The address it listens on. */
  hostname: string;
  /** The port it listens on (the one picked when asked for port 0). */
  port: number;
  /** The connection limits in force (the cap lowered to fit the open-file limit). */
  limits: Required<ConnectionLimits>;
  /** Stops accepting connections and resolves once open requests finish. */
  shutdown(): Promise<void>;
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
}

/** A file system watcher started by {@linkcode Runtime.watchDirs}. */
export interface Watcher {
  /** Stops watching. */
  close(): void;
}

/** One runtime's way of doing what the toolkit needs from it. */
export interface Runtime {
  /** Which runtime this is. */
  readonly name: RuntimeName;
  /** Its version, e.g. `2.9.6`. */
  readonly version: string;
  /** The command-line arguments after the script. */
  args(): string[];
  /** The real standard streams, environment and directory of this process. */
  io(): Io;
  /** Ends the process with `code`. */
  exit(code: number): never;
  /** Serves `handler` on `hostname:port`; resolves once listening. */
  serve(options: ServeOptions, handler: Handler): Promise<Server>;
  /**
   * Calls `callback` with the signal's name on SIGINT or SIGTERM. Returns a
   * function that removes the listeners.
   */
  onTerminate(callback: (signal: string) => void): () => void;
  /**
   * Watches the folders `dirs` (not their subfolders) and calls `onChange`
   * with the absolute paths of every batch of changed entries. Folders that
   * do not exist are skipped.
   */
  watchDirs(dirs: string[], onChange: (paths: string[]) => void): Watcher;
  /** The path of the runtime's executable. */
  execPath(): string;
  /**
   * Makes sure no other process can open this one's debugger with a
   * signal, before it holds anything worth taking: Node.js opens its
   * inspector on SIGUSR1 unless started with `--disable-sigusr1`, so this
   * starts the process again in place with it (same process id, same
   * arguments). Absent where no signal opens a debugger (Deno, Bun).
   */
  lockDebugger?(): void;
}
