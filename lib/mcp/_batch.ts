/**
 * JSON-RPC batches (protocol 2025-03-26 only), bounded: at most
 * {@linkcode MAX_BATCH_MESSAGES} messages, {@linkcode BATCH_WIDTH} of them
 * running at once, and a reply of at most {@linkcode MAX_BATCH_REPLY_BYTES}:
 * an answer that would take the reply past it, and every later one, is an
 * error saying so. The same for HTTP and stdio.
 *
 * @module
 */

import { utf8Length } from "../common/mod.ts";
import {
  classify,
  errorResponse,
  INVALID_REQUEST,
  type RequestId,
  type RpcNotification,
  type RpcRequest,
  type RpcResponse,
  TRANSPORT_ERROR,
} from "./_jsonrpc.ts";

/** The most messages one batch may hold. */
export const MAX_BATCH_MESSAGES = 100;

/** The largest reply to one batch, in bytes of JSON. */
export const MAX_BATCH_REPLY_BYTES: number = 10 * 1024 * 1024;

/** How a transport answers the messages of a batch. */
export interface BatchHandlers {
  /** Handles a notification. */
  notification(message: RpcNotification): void;
  /** Answers a request (not `initialize`); `undefined` when it gets no answer (cancelled). */
  request(message: RpcRequest): Promise<RpcResponse | undefined>;
}

/** Why a batch is refused whole, before any of it runs, or `undefined` when it may run. */
export function batchProblem(items: readonly unknown[]): string | undefined {
  if (items.length === 0) return "Invalid Request: the batch is empty";
  if (items.length > MAX_BATCH_MESSAGES) {
    return `Invalid Request: the batch holds ${items.length} messages: the limit is ${MAX_BATCH_MESSAGES}; send at most ${MAX_BATCH_MESSAGES} messages per batch, or one message per request`;
  }
  return undefined;
}

/** How many requests of one batch run at once. */
export const BATCH_WIDTH = 16;

/** The error answering a request of a batch whose reply is full. */
function overBudget(id: RequestId | null, what: string): RpcResponse {
  return errorResponse(
    id,
    TRANSPORT_ERROR,
    `${what}: the batch's reply would pass ${MAX_BATCH_REPLY_BYTES} bytes, the limit for one batch; send this request on its own`,
  );
}

/**
 * Answers the messages of a batch (checked by {@linkcode batchProblem}),
 * {@linkcode BATCH_WIDTH} at a time, and gives the reply's JSON text, in
 * the batch's order, or `undefined` when no message gets an answer. Each
 * answer is turned into JSON as it comes. Once the reply would pass
 * {@linkcode MAX_BATCH_REPLY_BYTES}, that answer and every later one is an
 * error naming the limit, and the requests not yet started do not run.
 */
export async function answerBatch(
  items: readonly unknown[],
  handlers: BatchHandlers,
): Promise<string | undefined> {
  const texts: (string | undefined)[] = [];
  let bytes = 2;
  let full = false;
  /** The JSON of an answer, or of the error taking its place once the reply is full. */
  const reply = (response: RpcResponse): string => {
    const text = JSON.stringify(response);
    const size = utf8Length(text) + 1;
    if (!full && bytes + size <= MAX_BATCH_REPLY_BYTES) {
      bytes += size;
      return text;
    }
    full = true;
    return JSON.stringify(
      overBudget(response.id, "Result not sent (the request ran)"),
    );
  };
  const answerText = async (item: unknown): Promise<string | undefined> => {
    const incoming = classify(item);
    switch (incoming.kind) {
      case "invalid":
        return reply(incoming.response);
      case "notification":
        handlers.notification(incoming.message);
        return undefined;
      case "response":
        return undefined;
    }
    const { id, method } = incoming.message;
    if (method === "initialize") {
      return reply(errorResponse(
        id,
        INVALID_REQUEST,
        "Invalid Request: initialize may not be part of a batch",
      ));
    }
    if (full) return JSON.stringify(overBudget(id, "Not run"));
    const response = await handlers.request(incoming.message);
    return response === undefined ? undefined : reply(response);
  };
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      texts[index] = await answerText(items[index]);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(BATCH_WIDTH, items.length) }, worker),
  );
  const answered = texts.filter((text) => text !== undefined);
  return answered.length === 0 ? undefined : `[${answered.join(",")}]`;
}
