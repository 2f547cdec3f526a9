// The calls the host ran lately, from every caller, kept for the page and
// sent to it live as server-sent events.

import type { CallOutcome, HostEvent } from "../host/mod.ts";

/** One call as the history keeps it: its start, and its end once it came. */
export type CallRecord =
  & Omit<Extract<HostEvent, { type: "call-start" }>, "type">
  & { durationMs?: number; outcome?: CallOutcome };

/** Arguments larger than this (as JSON) are replaced by a note. */
const MAX_ARGS_CHARS = 1024 * 1024;
/** The most argument, output and name text kept over all records; the oldest go first. */
const MAX_KEPT_CHARS = 32 * 1024 * 1024;
/** A stream whose reader lags this far behind is ended (bytes queued). */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;
/** Keep-alive comments while streams are open, so a dead peer is noticed. */
const PING_MS = 15_000;
const encoder = new TextEncoder();

/** The characters of a record's names (tool, agent, session), which count against the cap too. */
function namesChars(
  event: { name: string; agent: string; sessionId: string },
): number {
  return event.name.length + event.agent.length + event.sessionId.length;
}

/** The arguments as kept, and how many characters of JSON they take. */
function keptArgs(args: unknown): { args: unknown; chars: number } {
  let text: string | undefined;
  try {
    text = JSON.stringify(args);
  } catch {
    return { args: { "(not kept)": "the arguments are not JSON" }, chars: 0 };
  }
  if (text !== undefined && text.length > MAX_ARGS_CHARS) {
    return {
      args: {
        "(not kept)": `the arguments were ${text.length} characters of JSON`,
      },
      chars: 0,
    };
  }
  return { args, chars: text?.length ?? 0 };
}

/** The characters an outcome takes: its text, and its content blocks and structured content as JSON. */
function outcomeChars(outcome: CallOutcome): number {
  if (!outcome.ok) return outcome.error.length;
  let chars = outcome.output.length;
  if (outcome.content) chars += JSON.stringify(outcome.content).length;
  if (outcome.structured) chars += JSON.stringify(outcome.structured).length;
  return chars;
}

function frame(event: HostEvent): Uint8Array {
  return encoder.encode(`data: ${JSON.stringify(event)}\n\n`);
}

/** The last `limit` calls, and the event streams open on them. */
export class History {
  #limit: number;
  #maxStreams: number;
  #records = new Map<string, CallRecord>();
  #chars = new Map<string, number>();
  #kept = 0;
  #streams = new Set<ReadableStreamDefaultController<Uint8Array>>();
  #ping: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(limit = 200, maxStreams = 32) {
    this.#limit = limit;
    this.#maxStreams = maxStreams;
  }

  /** The record of call `id`, while it is kept. */
  get(id: string): CallRecord | undefined {
    return this.#records.get(id);
  }

  /** Every kept record, oldest first. */
  records(): CallRecord[] {
    return [...this.#records.values()];
  }

  /** Takes one host event in: keeps it and sends it to every open stream. */
  add(event: HostEvent): void {
    if (this.#closed) return;
    if (event.type === "call-start") {
      const { args, chars } = keptArgs(event.args);
      this.#records.set(event.id, { ...event, args });
      this.#count(event.id, chars + namesChars(event));
      this.#broadcast({ ...event, args });
      return;
    }
    if (event.type === "call-end") {
      const record = this.#records.get(event.id);
      if (record) {
        record.durationMs = event.durationMs;
        record.outcome = event.outcome;
        this.#count(event.id, outcomeChars(event.outcome));
      }
    }
    this.#broadcast(event);
  }

  /** Whether another stream may open. */
  full(): boolean {
    return this.#streams.size >= this.#maxStreams;
  }

  /** A stream of every kept call (as its start and end events), then of every new event. */
  stream(): ReadableStream<Uint8Array> {
    let self: ReadableStreamDefaultController<Uint8Array>;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        self = controller;
        controller.enqueue(encoder.encode(": beeuni history\n\n"));
        for (const record of this.#records.values()) {
          const { durationMs, outcome, ...start } = record;
          controller.enqueue(frame({ type: "call-start", ...start }));
          if (outcome !== undefined) {
            controller.enqueue(frame({
              type: "call-end",
              id: record.id,
              name: record.name,
              agent: record.agent,
              sessionId: record.sessionId,
              durationMs: durationMs ?? 0,
              outcome,
            }));
          }
        }
        if (this.#closed) {
          controller.close();
          return;
        }
        this.#streams.add(controller);
        this.#ping ??= setInterval(() => this.#send(": ping\n\n"), PING_MS);
      },
      cancel: () => this.#drop(self),
    }, new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }));
  }

  /** Ends every open stream; no event is taken in afterwards. */
  close(): void {
    this.#closed = true;
    for (const controller of this.#streams) {
      try {
        controller.close();
      } catch {
        // Already closed by the peer.
      }
    }
    this.#streams.clear();
    clearInterval(this.#ping);
    this.#ping = undefined;
  }

  /** Counts `chars` more for record `id`, then forgets the oldest records over the limits. */
  #count(id: string, chars: number): void {
    this.#chars.set(id, (this.#chars.get(id) ?? 0) + chars);
    this.#kept += chars;
    for (const old of this.#records.keys()) {
      if (
        this.#records.size <= this.#limit && this.#kept <= MAX_KEPT_CHARS
      ) break;
      if (old === id) break;
      this.#records.delete(old);
      this.#kept -= this.#chars.get(old) ?? 0;
      this.#chars.delete(old);
    }
  }

  #drop(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.#streams.delete(controller);
    if (this.#streams.size === 0) {
      clearInterval(this.#ping);
      this.#ping = undefined;
    }
  }

  #broadcast(event: HostEvent): void {
    if (this.#streams.size > 0) this.#send(frame(event));
  }

  #send(chunk: Uint8Array | string): void {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    for (const controller of [...this.#streams]) {
      try {
        if ((controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) {
          controller.error(new Error("the reader fell too far behind"));
          throw new Error("dropped");
        }
        controller.enqueue(bytes);
      } catch {
        this.#drop(controller);
      }
    }
  }
}
