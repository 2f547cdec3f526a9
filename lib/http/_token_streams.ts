// An event stream opened with an agent token ends once the token is removed
// or expires: at once when the token checker reports it, and in any case
// before the stream sends anything more (an event or a keep-alive).

import type { AgentTokenPrincipal, AgentTokens } from "./principal.ts";

/** Whether `response` is a stream of server-sent events. */
function isEventStream(response: Response): boolean {
  // The type first: reading `body` turns a fixed body into a stream, which
  // the server then sends chunked, more slowly.
  return (response.headers.get("content-type") ?? "").startsWith(
    "text/event-stream",
  ) && response.body !== null;
}

/**
 * `response`, whose event stream (if it is one) ends when the token of
 * `holder` goes; its source is cancelled then, as when the caller leaves.
 */
export function endWithToken(
  response: Response,
  holder: AgentTokenPrincipal,
  tokens: AgentTokens,
): Response {
  if (!isEventStream(response)) return response;
  const reader = response.body!.getReader();
  let ended = false;
  let unwatch = (): void => {};
  const end = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (ended) return;
    ended = true;
    unwatch();
    reader.cancel().catch(() => {});
    try {
      controller.close();
    } catch {
      // Closed already.
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      unwatch = tokens.watch?.(holder, () => end(controller)) ?? unwatch;
    },
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (!ended) {
          ended = true;
          unwatch();
          controller.error(error);
        }
        return;
      }
      if (ended) return;
      if (chunk.done) {
        ended = true;
        unwatch();
        controller.close();
      } else if (!tokens.holds(holder)) {
        end(controller);
      } else {
        controller.enqueue(chunk.value);
      }
    },
    cancel(reason) {
      ended = true;
      unwatch();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
