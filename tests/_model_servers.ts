// Local model servers for session tests: each speaks one provider's wire
// format (OpenAI Responses, OpenAI Chat Completions, Anthropic Messages),
// streamed as server-sent events the way the real API streams them, and
// answers each request with the next scripted turn. Every request body is
// kept, so a test can see the tools offered and what the model read.

/** The wire formats served. */
export type WireFormat = "openai-responses" | "openai-chat" | "anthropic";

/** One model turn: some text, then tool calls (none ends the session). */
export interface Turn {
  /** Text the model streams first. */
  text?: string;
  /** Tool calls the model makes, in order. */
  calls?: { name: string; args: unknown }[];
  /** An HTTP error answer instead of a stream. */
  fail?: { status: number; message: string };
  /** Runs when the request arrives, before the answer streams. */
  before?: () => void | Promise<void>;
}

/** A tool result as the model read it in a later request. */
export interface ReadResult {
  /** The text the model read. */
  text: string;
  /** Whether it was sent as an error (when the format says so). */
  isError?: boolean;
}

/** A running model server. */
export interface ModelServer {
  /** The base URL to give the session (`…/v1` for OpenAI, the origin for Anthropic). */
  baseUrl: string;
  /** The JSON body of each request, in order. */
  requests: Record<string, unknown>[];
  /** The names of the tools offered in request `i`. */
  toolsOffered(i: number): string[];
  /** The tool results request `i` carried, by call id. */
  toolResults(i: number): Map<string, ReadResult>;
  /** How many messages (input items) request `i` carried. */
  messageCount(i: number): number;
  /** Stops the server. */
  close(): Promise<void>;
}

const encoder = new TextEncoder();

/** `text` in pieces of at most `size` characters, as deltas arrive. */
function pieces(text: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

type Event = { event?: string; data: unknown };

function responsesEvents(turn: Turn, n: number): Event[] {
  const events: Event[] = [];
  const ev = (type: string, body: Record<string, unknown>) =>
    events.push({ event: type, data: { type, ...body } });
  const response = {
    id: `resp_${n}`,
    object: "response",
    created_at: 1764633600,
    status: "in_progress",
    model: "gpt-test",
    output: [],
  };
  ev("response.created", { sequence_number: 0, response });
  ev("response.in_progress", { sequence_number: 1, response });
  const output: unknown[] = [];
  let index = 0;
  if (turn.text) {
    const id = `msg_${n}`;
    ev("response.output_item.added", {
      output_index: index,
      item: {
        id,
        type: "message",
        status: "in_progress",
        role: "assistant",
        content: [],
      },
    });
    ev("response.content_part.added", {
      item_id: id,
      output_index: index,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    });
    for (const delta of pieces(turn.text)) {
      ev("response.output_text.delta", {
        item_id: id,
        output_index: index,
        content_index: 0,
        delta,
        logprobs: [],
      });
    }
    ev("response.output_text.done", {
      item_id: id,
      output_index: index,
      content_index: 0,
      text: turn.text,
    });
    const item = {
      id,
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: turn.text, annotations: [] }],
    };
    ev("response.output_item.done", { output_index: index, item });
    output.push(item);
    index++;
  }
  for (const [k, call] of (turn.calls ?? []).entries()) {
    const id = `fc_${n}_${k}`;
    const callId = `call_${n}_${k}`;
    const args = JSON.stringify(call.args);
    ev("response.output_item.added", {
      output_index: index,
      item: {
        id,
        type: "function_call",
        status: "in_progress",
        arguments: "",
        call_id: callId,
        name: call.name,
      },
    });
    for (const delta of pieces(args)) {
      ev("response.function_call_arguments.delta", {
        item_id: id,
        output_index: index,
        delta,
      });
    }
    ev("response.function_call_arguments.done", {
      item_id: id,
      output_index: index,
      arguments: args,
    });
    const item = {
      id,
      type: "function_call",
      status: "completed",
      arguments: args,
      call_id: callId,
      name: call.name,
    };
    ev("response.output_item.done", { output_index: index, item });
    output.push(item);
    index++;
  }
  ev("response.completed", {
    response: {
      ...response,
      status: "completed",
      output,
      usage: {
        input_tokens: 20,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 30,
      },
    },
  });
  return events;
}

function chatEvents(turn: Turn, n: number): Event[] {
  const base = {
    id: `chatcmpl-${n}`,
    object: "chat.completion.chunk",
    created: 1764633600,
    model: "local-test",
  };
  const chunk = (delta: unknown, finish: string | null = null): Event => ({
    data: { ...base, choices: [{ index: 0, delta, finish_reason: finish }] },
  });
  const events: Event[] = [chunk({ role: "assistant", content: "" })];
  for (const delta of pieces(turn.text ?? "")) {
    events.push(chunk({ content: delta }));
  }
  for (const [k, call] of (turn.calls ?? []).entries()) {
    events.push(chunk({
      tool_calls: [{
        index: k,
        id: `call_${n}_${k}`,
        type: "function",
        function: { name: call.name, arguments: "" },
      }],
    }));
    for (const delta of pieces(JSON.stringify(call.args))) {
      events.push(
        chunk({ tool_calls: [{ index: k, function: { arguments: delta } }] }),
      );
    }
  }
  events.push(chunk({}, turn.calls?.length ? "tool_calls" : "stop"));
  events.push({
    data: {
      ...base,
      choices: [],
      usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
    },
  });
  events.push({ data: "[DONE]" });
  return events;
}

function anthropicEvents(turn: Turn, n: number): Event[] {
  const events: Event[] = [];
  const ev = (type: string, body: Record<string, unknown>) =>
    events.push({ event: type, data: { type, ...body } });
  ev("message_start", {
    message: {
      id: `msg_${n}`,
      type: "message",
      role: "assistant",
      model: "claude-test",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 1 },
    },
  });
  let index = 0;
  if (turn.text) {
    ev("content_block_start", {
      index,
      content_block: { type: "text", text: "" },
    });
    ev("ping", {});
    for (const text of pieces(turn.text)) {
      ev("content_block_delta", {
        index,
        delta: { type: "text_delta", text },
      });
    }
    ev("content_block_stop", { index });
    index++;
  }
  for (const [k, call] of (turn.calls ?? []).entries()) {
    ev("content_block_start", {
      index,
      content_block: {
        type: "tool_use",
        id: `toolu_${n}_${k}`,
        name: call.name,
        input: {},
      },
    });
    for (const partial_json of pieces(JSON.stringify(call.args))) {
      ev("content_block_delta", {
        index,
        delta: { type: "input_json_delta", partial_json },
      });
    }
    ev("content_block_stop", { index });
    index++;
  }
  ev("message_delta", {
    delta: {
      stop_reason: turn.calls?.length ? "tool_use" : "end_turn",
      stop_sequence: null,
    },
    usage: { output_tokens: 10 },
  });
  ev("message_stop", {});
  return events;
}

function sse(events: Event[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const { event, data } of events) {
        const payload = typeof data === "string" ? data : JSON.stringify(data);
        controller.enqueue(
          encoder.encode(
            `${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`,
          ),
        );
      }
      controller.close();
    },
  });
}

const PATHS: Record<WireFormat, string> = {
  "openai-responses": "/v1/responses",
  "openai-chat": "/v1/chat/completions",
  anthropic: "/v1/messages",
};

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) =>
      typeof part?.text === "string" ? part.text : ""
    ).join("");
  }
  return JSON.stringify(content);
}

/** Starts a server of `format` answering requests with `turns` in order. */
export function startModelServer(
  format: WireFormat,
  turns: Turn[],
): ModelServer {
  const requests: Record<string, unknown>[] = [];
  let next = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      if (request.method !== "POST" || url.pathname !== PATHS[format]) {
        return new Response("not found", { status: 404 });
      }
      const body = await request.json();
      requests.push(body);
      const n = next++;
      const turn = turns[n] ?? { text: "(no more turns scripted)" };
      await turn.before?.();
      if (turn.fail) {
        return Response.json(
          format === "anthropic"
            ? {
              type: "error",
              error: { type: "api_error", message: turn.fail.message },
            }
            : {
              error: {
                message: turn.fail.message,
                type: "server_error",
                code: null,
              },
            },
          { status: turn.fail.status },
        );
      }
      const events = format === "openai-responses"
        ? responsesEvents(turn, n)
        : format === "openai-chat"
        ? chatEvents(turn, n)
        : anthropicEvents(turn, n);
      return new Response(sse(events), {
        headers: { "content-type": "text/event-stream" },
      });
    },
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const body = (i: number) => requests[i] as Record<string, unknown[]>;
  return {
    baseUrl: format === "anthropic" ? origin : `${origin}/v1`,
    requests,
    toolsOffered: (i) =>
      ((body(i).tools ?? []) as Record<string, unknown>[]).map((tool) =>
        String(
          (tool.function as { name?: string } | undefined)?.name ?? tool.name,
        )
      ).sort(),
    messageCount: (i) =>
      ((body(i).input ?? body(i).messages ?? []) as unknown[]).length,
    toolResults: (i) => {
      const results = new Map<string, ReadResult>();
      const items = (body(i).input ?? body(i).messages ?? []) as Record<
        string,
        unknown
      >[];
      for (const item of items) {
        if (item.type === "function_call_output") {
          results.set(String(item.call_id), { text: contentText(item.output) });
        } else if (item.role === "tool") {
          results.set(String(item.tool_call_id), {
            text: contentText(item.content),
          });
        } else if (item.role === "user" && Array.isArray(item.content)) {
          for (const part of item.content) {
            if (part?.type === "tool_result") {
              results.set(String(part.tool_use_id), {
                text: contentText(part.content),
                isError: part.is_error === true,
              });
            }
          }
        }
      }
      return results;
    },
    close: () => server.shutdown(),
  };
}
