// The messages between the host and a tool runner process, one type per
// direction. They travel over the runner's IPC channel as JSON.

/** A module to import: the tool's name and its absolute `file:` URL. */
export interface ModuleRef {
  /** The tool's name. */
  name: string;
  /** Absolute `file:` URL of the module. */
  url: string;
}

import type { CallFailure, CallSuccess } from "./types.ts";

/** A call for the runner to run. */
export interface CallMessage {
  t: "call";
  /** The host's id of the call, unique per runner. */
  id: number;
  /** The arguments, as the caller gave them. */
  args: unknown;
  /** `context.sessionId`. */
  sessionId: string;
  /** `context.agent`. */
  agent: string;
  /** The secrets granted to the agent, read for this call; absent when none. */
  secrets?: Record<string, string>;
  /** Whether the caller wants `context.progress` reports. */
  progress: boolean;
}

/**
 * The host's folder for saved outputs, as a runner writes into it: a
 * runner cuts a text over the output limits itself and writes it whole to a
 * temporary file there, which the host moves into place.
 */
export interface OutputFolder {
  /** The folder, absolute: where the runner writes. */
  dir: string;
  /** The folder as the host names saved outputs in it (as it was given). */
  shown: string;
  /** The cap on saved outputs: a text larger than this is cut and not saved. */
  maxBytes: number;
}

/**
 * A text a runner cut itself: the whole text's size, and, unless it
 * was over the cap, the names (in the output folder) of the saved output
 * and of the temporary file that holds it until the host moves it there.
 */
export interface CutText {
  /** The whole text's size in UTF-8 bytes. */
  size: number;
  /** Where it is, when it was saved. */
  saved?: { name: string; temp: string };
}

/** What the host sends a runner. */
export type ToRunner =
  | {
    t: "init";
    module: ModuleRef;
    directory: string;
    /** Where the runner saves outputs over the output limits; without it the host does. */
    output?: OutputFolder;
  }
  | { t: "load"; modules: ModuleRef[] }
  | CallMessage
  | { t: "calls"; calls: CallMessage[] }
  | { t: "abort"; id: number }
  | { t: "ping"; id: number };

/** A module's metadata, or why it is not a tool. */
export type LoadReport =
  | {
    name: string;
    ok: true;
    description: string;
    parameters: Record<string, unknown>;
  }
  | { name: string; ok: false; reason: string; at?: SourceAt };

/** Where in a module's source a problem is: an absolute path, 1-based line and column. */
export interface SourceAt {
  file: string;
  line: number;
  col: number;
}

/**
 * How one call ended before the host shaped it for its caller (the cut of a
 * long output, the saved file): the fields of {@linkcode CallSuccess} and
 * {@linkcode CallFailure} as a runner or a tool runner gives them, and what
 * only the host reads. A runner only ever fails a call with `"error"`; the
 * host adds `"timeout"` and `"aborted"`.
 */
export type CallResult =
  | (Pick<CallSuccess, "ok" | "output" | "content" | "structured"> & {
    /** Whether the tool returned a plain JSON object (`output` is its JSON). */
    object?: true;
    /** Set when `output` is the runner's cut of a longer text. */
    cut?: CutText;
  })
  | (Pick<CallFailure, "ok" | "error"> & {
    status: "error" | "timeout" | "aborted";
    /** Set when the tool's module did not load, so `execute` never ran. */
    notRun?: true;
    /** Set when `error` is the runner's cut of a longer message. */
    cut?: CutText;
  });

/** What a runner sends the host. */
export type ToHost =
  | { t: "ready" }
  | { t: "loading"; name: string }
  | ({ t: "loaded" } & LoadReport)
  | { t: "load-done" }
  | ({ t: "result"; id: number } & CallResult)
  | { t: "results"; results: ({ id: number } & CallResult)[] }
  | {
    t: "progress";
    id: number;
    progress: number;
    total?: number;
    message?: string;
  }
  | { t: "log"; text: string }
  | { t: "pong"; id: number };
