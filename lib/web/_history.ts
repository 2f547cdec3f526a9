// The calls the host ran lately, from every caller, kept for the page and
// sent to it live as server-sent events.

import { StreamPool } from "../common/mod.ts";
import type { CallOutcome, HostEvent } from "../host/mod.ts";

/** One call as the history keeps it: its start, and its end once it came. */
export type CallRecord =
  & Omit<Extract<HostEvent, { type: "call-start" }>, "type">
  & { durationMs?: number; outcome?: CallOutcome };

/** One event of the page's event stream (`GET /ui/api/events`). */
export type HistoryEvent = HostEvent;

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

/** What a stream's reader has yet to get of the calls kept when it opened. */
interface Replay {
  /** The kept records, oldest first, each with whether it had ended then. */
  records: { record: CallRecord; ended: boolean }[];
  /** How many have been sent. */
  next: number;
  /** Events that came since it opened, sent once the records have been. */
  held: Uint8Array[];
  /** Their size in bytes. */
  heldBytes: number;
}

/** One open stream. */
interface Feed {
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** Until every kept record has been sent. */
  replay?: Replay;
  /** Only these agents' calls reach it, when given. */
  agents?: readonly string[];
  /** Takes it out of the stream pool. */
  release: () => void;
}

/** The frames of a kept record: its start, and its end when it had ended. */
function recordFrames(record: CallRecord, ended: boolean): Uint8Array[] {
  const { durationMs, outcome, ...start } = record;
  const frames = [frame({ type: "call-start", ...start })];
  if (ended && outcome !== undefined) {
    frames.push(frame({
      type: "call-end",
      id: record.id,
      name: record.name,
      agent: record.agent,
      sessionId: record.sessionId,
      durationMs: durationMs ?? 0,
      outcome,
      transport: record.transport,
    }));
  }
  return frames;
}

/**
 * The last `limit` calls, and the event streams open on them. A new
 * stream gets the kept calls as fast as its reader takes them (a reader
 * that does not read holds no copy of the history), then every new event.
 */
export class History {
  #limit: number;
  #records = new Map<string, CallRecord>();
  #chars = new Map<string, number>();
  #kept = 0;
  #feeds = new Set<Feed>();
  #pool: StreamPool;
  #ping: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  /**
   * A history of the last `limit` calls, whose streams count against
   * `pool` (default: a pool of 32 of their own): when it is full, the
   * oldest stream is closed to make room.
   */
  constructor(limit = 200, pool: StreamPool = new StreamPool(32)) {
    this.#limit = limit;
    this.#pool = pool;
  }

  /** The record of call `id`, while it is kept. */
  get(id: string): CallRecord | undefined {
    return this.#records.get(id);
  }

  /** Every kept record (of `agents` when given), oldest first. */
  records(agents?: readonly string[]): CallRecord[] {
    const all = [...this.#records.values()];
    return agents === undefined
      ? all
      : all.filter((record) => agents.includes(record.agent));
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

  /**
   * A stream of every kept call (as its start and end events), then of
   * every new event; with `agents`, only their calls (and every reload).
   */
  stream(agents?: readonly string[]): ReadableStream<Uint8Array> {
    let feed: Feed | undefined;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        controller.enqueue(encoder.encode(": beeuni history\n\n"));
        if (this.#closed) {
          controller.close();
          return;
        }
        const since = performance.now();
        const opened: Feed = {
          controller,
          agents,
          replay: {
            records: this.records(agents).map((record) => ({
              record,
              ended: record.outcome !== undefined,
            })),
            next: 0,
            held: [],
            heldBytes: 0,
          },
          // The oldest stream makes room; it ends at once, whatever its
          // reader has yet to read.
          release: this.#pool.admit({
            lastUsed: () => since,
            evict: () => this.#end(opened, "closed to make room"),
          }),
        };
        feed = opened;
        this.#feeds.add(opened);
        this.#ping ??= setInterval(() => this.#send(": ping\n\n"), PING_MS);
      },
      pull: () => {
        if (feed) this.#pump(feed);
      },
      cancel: () => {
        if (feed) this.#drop(feed);
      },
    }, new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }));
  }

  /** Ends every open stream; no event is taken in afterwards. */
  close(): void {
    this.#closed = true;
    for (const feed of [...this.#feeds]) {
      this.#drop(feed);
      try {
        feed.controller.close();
      } catch {
        // Already closed by the peer.
      }
    }
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

  /** Sends a replaying stream kept records while its reader wants more, then what came meanwhile. */
  #pump(feed: Feed): void {
    const replay = feed.replay;
    if (!replay || !this.#feeds.has(feed)) return;
    const controller = feed.controller;
    while (replay.next < replay.records.length) {
      if ((controller.desiredSize ?? 0) <= 0) return;
      const { record, ended } = replay.records[replay.next++];
      for (const chunk of recordFrames(record, ended)) {
        controller.enqueue(chunk);
      }
    }
    for (const chunk of replay.held) controller.enqueue(chunk);
    feed.replay = undefined;
  }

  #drop(feed: Feed): void {
    if (!this.#feeds.delete(feed)) return;
    feed.release();
    if (this.#feeds.size === 0) {
      clearInterval(this.#ping);
      this.#ping = undefined;
    }
  }

  /** Drops `feed` and errors its stream: what it had queued is discarded and its connection ends. */
  #end(feed: Feed, why: string): void {
    this.#drop(feed);
    try {
      feed.controller.error(new Error(why));
    } catch {
      // Already closed.
    }
  }

  #broadcast(event: HostEvent): void {
    if (this.#feeds.size === 0) return;
    this.#send(frame(event), "agent" in event ? event.agent : undefined);
  }

  /** Sends `chunk` to every open stream; a call's (by `agent`) only to streams that take that agent's. */
  #send(chunk: Uint8Array | string, agent?: string): void {
    const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
    for (const feed of [...this.#feeds]) {
      if (
        agent !== undefined && feed.agents !== undefined &&
        !feed.agents.includes(agent)
      ) continue;
      const replay = feed.replay;
      if (replay) {
        replay.held.push(bytes);
        replay.heldBytes += bytes.byteLength;
        if (replay.heldBytes > MAX_QUEUED_BYTES) {
          this.#end(feed, "the reader fell too far behind");
        }
        continue;
      }
      if ((feed.controller.desiredSize ?? 0) < -MAX_QUEUED_BYTES) {
        this.#end(feed, "the reader fell too far behind");
        continue;
      }
      try {
        feed.controller.enqueue(bytes);
      } catch {
        this.#drop(feed);
      }
    }
  }
}
