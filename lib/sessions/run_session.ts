/**
 * The experimental harness's agent loop, on the AI SDK: one model turn at
 * a time, with exactly the tools the agent sees in the host, each call run
 * by the host as on every other transport. Between turns, while no call
 * runs, a change to the files behind the tool list reloads the host in
 * place and the next turn gets the new list with the whole conversation.
 *
 * @module
 */

import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import { errorMessage, isPlainObject } from "../common/mod.ts";
import type { CallOutcome, Host, HostedTool } from "../host/mod.ts";
import { type Provider, toolSchemaFor } from "./model.ts";
import type { SessionRecord, SessionWriter, ToolCallStatus } from "./record.ts";
import { toolListFingerprint } from "./_sources.ts";
import { importSdk } from "./_sdk.ts";

/** The most model turns of a session by default. */
export const DEFAULT_MAX_STEPS = 20;

/** What a session runs with. */
export interface RunSessionOptions {
  /** The session's id (the tools' `context.sessionId`). */
  id: string;
  /** The host running the project's tools (experimental harness). */
  host: Host;
  /** The agent the session runs as. */
  agent: string;
  /** The model. */
  model: LanguageModel;
  /** The model's provider: decides the tool schemas it is sent. */
  provider: Provider;
  /** The user's prompt. */
  prompt: string;
  /** The most model turns; default {@linkcode DEFAULT_MAX_STEPS}. */
  maxSteps?: number;
  /** Where the records go. */
  writer: SessionWriter;
  /** Stops the session: the running turn and calls are aborted. */
  signal?: AbortSignal;
  /** Receives each record as it is written (to print it). */
  onRecord?(record: SessionRecord): void;
  /** Receives the model's text as it streams. */
  onText?(delta: string): void;
  /** Where the provider's warnings go (such as a setting the model ignores); default: nowhere. */
  log?(line: string): void;
}

/** How a session ended. */
export interface SessionResult {
  /** `done` when the model finished, `failed` otherwise. */
  status: "done" | "failed";
  /** Why it failed. */
  error?: string;
}

/** A tool result as the provider is sent it. */
type ToolOutput = { type: "text" | "error-text"; value: string };

/** What a tool's `execute` hands the loop: the host's outcome and how long it took. */
interface Answer {
  outcome: CallOutcome;
  durationMs: number;
}

/** The status a session records for a host outcome. */
function statusOf(outcome: CallOutcome): ToolCallStatus {
  if (outcome.ok) return "ok";
  // A hidden tool fails as an unknown one does.
  return outcome.status === "forbidden" ? "not_found" : outcome.status;
}

/**
 * What the model reads of an outcome, as on MCP: the host's output, its
 * error, and for a tool the agent cannot call (hidden or not loaded) the
 * same words as for a name that does not exist.
 */
function modelText(name: string, outcome: CallOutcome): string {
  if (outcome.ok) return outcome.output;
  return outcome.status === "not_found" || outcome.status === "forbidden"
    ? `Tool ${name} not found`
    : outcome.error;
}

/**
 * A tool result as sent to the provider: the host's text as it is. Only
 * Anthropic's format marks an error without changing its text; the OpenAI
 * formats would wrap it in JSON, so there it goes as plain text.
 */
function modelOutput(
  provider: Provider,
  name: string,
  outcome: CallOutcome,
): ToolOutput {
  const value = modelText(name, outcome);
  return {
    type: !outcome.ok && provider === "anthropic" ? "error-text" : "text",
    value,
  };
}

/** Runs one session to its end; never rejects. */
export async function runSession(
  options: RunSessionOptions,
): Promise<SessionResult> {
  const { host, agent, writer } = options;
  const maxSteps = options.maxSteps ?? 20;
  const write = async (record: SessionRecord) => {
    await writer.write(record);
    options.onRecord?.(record);
  };
  const end = async (result: SessionResult): Promise<SessionResult> => {
    await write({
      type: "end",
      status: result.status,
      ...(result.error === undefined ? {} : { error: result.error }),
      endedAt: new Date().toISOString(),
    });
    await writer.close();
    return result;
  };

  const call = async (
    name: string,
    args: unknown,
    signal: AbortSignal | undefined,
    validateArgs: boolean,
  ): Promise<Answer> => {
    const started = performance.now();
    const outcome = await host.call({
      name,
      args,
      sessionId: options.id,
      agent,
      transport: "session",
      signal,
      ...(validateArgs ? { validateArgs } : {}),
    });
    return { outcome, durationMs: Math.round(performance.now() - started) };
  };

  let ai: typeof import("ai");
  try {
    ai = await importSdk("ai");
  } catch (error) {
    return await end({ status: "failed", error: errorMessage(error) });
  }
  const { jsonSchema, stepCountIs, streamText, tool } = ai;
  // The SDK prints its warnings on the console unless told where they go.
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = (
    { warnings }: { warnings: unknown[] },
  ) => {
    for (const warning of warnings) {
      const { message, details, feature } = warning as Record<string, unknown>;
      options.log?.(
        `[model] warning: ${String(message ?? details ?? feature ?? "")}`,
      );
    }
  };
  const toolsFor = (listed: HostedTool[]): ToolSet => {
    const tools: ToolSet = {};
    for (const hosted of listed) {
      // The provider gets a schema it accepts; when that is a rewrite of
      // the tool's, the model's arguments are mapped back and checked
      // against the tool's own schema, as the daemon does for ?target=.
      const shaped = toolSchemaFor(options.provider, hosted.parameters);
      const rewritten = shaped !== undefined &&
        shaped.parameters !== hosted.parameters;
      tools[hosted.name] = tool<unknown, Answer, Record<string, never>>({
        description: hosted.description,
        inputSchema: jsonSchema(shaped?.parameters ?? hosted.parameters),
        execute: (input, { abortSignal, toolCallId }) => {
          const args = rewritten && isPlainObject(input)
            ? shaped.restore(input)
            : input;
          const answer = call(hosted.name, args, abortSignal, rewritten);
          running.set(toolCallId, { name: hosted.name, answer });
          return answer;
        },
        toModelOutput: ({ output }) =>
          modelOutput(options.provider, hosted.name, output.outcome),
      });
    }
    return tools;
  };

  /** The calls of the turn under way whose result the stream has not given yet. */
  const running = new Map<string, { name: string; answer: Promise<Answer> }>();
  const messages: ModelMessage[] = [{
    role: "user",
    content: options.prompt,
  }];
  let fingerprint = toolListFingerprint(host);
  for (let step = 0; step < maxSteps; step++) {
    if (options.signal?.aborted) {
      return await end({ status: "failed", error: "the session was stopped" });
    }
    // Between turns no call runs: a changed tool list restarts the tools
    // in place, and the conversation goes on with the new list.
    const now = toolListFingerprint(host);
    if (now !== fingerprint) {
      await host.reload();
      fingerprint = toolListFingerprint(host);
    }
    const result = streamText({
      model: options.model,
      messages,
      tools: toolsFor(host.list(agent)),
      stopWhen: stepCountIs(1),
      maxRetries: 0,
      abortSignal: options.signal,
    });
    let text = "";
    const flushText = async () => {
      if (text === "") return;
      const record: SessionRecord = { type: "text", text };
      text = "";
      await write(record);
    };
    /** Calls the SDK could not run (a tool the model does not have): the host's answer replaces the SDK's. */
    const refused = new Map<string, ToolOutput>();
    let calls = 0;
    let failure: string | undefined;
    try {
      for await (const part of result.fullStream) {
        if (part.type === "text-delta") {
          text += part.text;
          options.onText?.(part.text);
        } else if (part.type === "tool-call") {
          calls++;
          await flushText();
          await write({
            type: "tool-call",
            callId: part.toolCallId,
            name: part.toolName,
            args: part.input,
          });
        } else if (part.type === "tool-result") {
          running.delete(part.toolCallId);
          const answer = part.output as Answer;
          await write({
            type: "tool-result",
            callId: part.toolCallId,
            name: part.toolName,
            status: statusOf(answer.outcome),
            output: modelText(part.toolName, answer.outcome),
            durationMs: answer.durationMs,
          });
        } else if (part.type === "tool-error") {
          // A tool the model was not given: the host answers as it does
          // on every transport ("not found").
          const answer = await call(
            part.toolName,
            part.input,
            options.signal,
            false,
          );
          const output = modelOutput(
            options.provider,
            part.toolName,
            answer.outcome,
          );
          refused.set(part.toolCallId, output);
          await write({
            type: "tool-result",
            callId: part.toolCallId,
            name: part.toolName,
            status: statusOf(answer.outcome),
            output: output.value,
            durationMs: answer.durationMs,
          });
        } else if (part.type === "error") {
          failure = errorMessage(part.error);
        }
      }
      await flushText();
      if (options.signal?.aborted) failure ??= "stopped";
      if (failure === undefined) {
        const response = await result.response;
        messages.push(...withAnswers(response.messages, refused));
      }
    } catch (error) {
      failure ??= errorMessage(error);
    }
    if (failure !== undefined) {
      await flushText();
      // Calls cut off by the stop still end, aborted: their results too
      // belong in the log.
      for (const [callId, { name, answer }] of running) {
        const { outcome, durationMs } = await answer;
        await write({
          type: "tool-result",
          callId,
          name,
          status: statusOf(outcome),
          output: modelText(name, outcome),
          durationMs,
        });
      }
      return await end({
        status: "failed",
        error: options.signal?.aborted
          ? "the session was stopped"
          : `the model failed: ${failure}`,
      });
    }
    if (calls === 0) return await end({ status: "done" });
  }
  return await end({
    status: "failed",
    error:
      `the model was still calling tools after ${maxSteps} turns: raise --max-steps or ask for less`,
  });
}

/** `messages` with the output of each call in `answers` replaced by the host's text. */
function withAnswers(
  messages: ModelMessage[],
  answers: Map<string, ToolOutput>,
): ModelMessage[] {
  if (answers.size === 0) return messages;
  return messages.map((message) => {
    if (message.role !== "tool") return message;
    return {
      ...message,
      content: message.content.map((part) => {
        if (part.type !== "tool-result") return part;
        const answer = answers.get(part.toolCallId);
        return answer === undefined ? part : {
          ...part,
          output: answer,
        };
      }),
    };
  });
}
