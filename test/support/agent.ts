// Test-only helpers: a scripted StreamFn, fake tools, a config builder and an event recorder.
// Imported by tests only.
import type { LlmContext, StreamFn, StreamOptions } from "../../src/providers/types.js";
import { ABORT_MESSAGE } from "../../src/shared/abort.js";
import type {
  AgentEvent,
  AgentMessage,
  AgentToolResult,
  AssistantMessage,
  AssistantMessageEvent,
  LlmMessage,
  Model,
  UserMessage,
} from "../../src/shared/types.js";
import { emptyUsage } from "../../src/shared/types.js";
import type { Tool, ToolContext, ToolEffect } from "../../src/tools/types.js";
import type { AgentLoopConfig, AgentRunInput, InterruptMode } from "../../src/agent/types.js";

export type Step =
  | { text: string; chunks?: string[] }
  | { thinking: string }
  | { toolCall: { id: string; name: string; args?: Record<string, unknown> } }
  /** setImmediate ticks before the next step */
  | { wait: number }
  /** stays silent until the signal fires (then ends with an aborted error event) */
  | { hang: true }
  /** ends with a provider error event */
  | { fail: string }
  /** the iterator throws (a contract violation) */
  | { throws: string }
  /** iteration ends without a terminal event (a contract violation) */
  | { cut: true };

export interface Reply {
  steps: Step[];
  /** skip the `start` event */
  noStart?: boolean;
  /** ignore the abort signal (a misbehaving provider) */
  deaf?: boolean;
}

export interface StreamCall {
  model: Model;
  context: LlmContext;
  options: StreamOptions;
}

export const TEST_MODEL: Model = {
  id: "scripted-1",
  name: "Scripted",
  api: "scripted",
  provider: "scripted",
  baseUrl: "http://127.0.0.1:1",
  reasoning: true,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 100_000,
  maxTokens: 8_000,
};

/** Waits `n` hops of a few microtasks each: a deterministic, fast stand-in for time passing. */
export async function tick(n = 1): Promise<void> {
  for (let i = 0; i < n * 5; i++) await Promise.resolve();
}

function untilAborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal || signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

function terminal(partial: AssistantMessage, reason: "aborted" | "error", message: string): AssistantMessageEvent {
  const error: AssistantMessage = { ...structuredClone(partial), stopReason: reason, errorMessage: message };
  return { type: "error", reason, error };
}

async function* play(reply: Reply, model: Model, signal: AbortSignal | undefined): AsyncGenerator<AssistantMessageEvent> {
  const partial: AssistantMessage = {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: Date.now(),
  };
  if (!reply.noStart) yield { type: "start", partial };
  for (const step of reply.steps) {
    if (signal?.aborted && !reply.deaf) return yield terminal(partial, "aborted", ABORT_MESSAGE);
    yield* playStep(step, partial, signal, reply.deaf === true);
    if ("fail" in step || "cut" in step) return;
  }
  if (signal?.aborted && !reply.deaf) return yield terminal(partial, "aborted", ABORT_MESSAGE);
  const hasCalls = partial.content.some((c) => c.type === "toolCall");
  const message: AssistantMessage = { ...structuredClone(partial), stopReason: hasCalls ? "toolUse" : "stop" };
  message.usage = { ...emptyUsage(), input: 10, output: 5, totalTokens: 15 };
  yield { type: "done", reason: message.stopReason as "stop" | "toolUse", message };
}

async function* playStep(
  step: Step,
  partial: AssistantMessage,
  signal: AbortSignal | undefined,
  deaf: boolean,
): AsyncGenerator<AssistantMessageEvent> {
  const contentIndex = partial.content.length;
  if ("text" in step) {
    const block = { type: "text" as const, text: "" };
    partial.content.push(block);
    yield { type: "text_start", contentIndex, partial };
    for (const delta of step.chunks ?? [step.text]) {
      block.text += delta;
      yield { type: "text_delta", contentIndex, delta, partial };
    }
    yield { type: "text_end", contentIndex, content: block.text, partial };
  } else if ("thinking" in step) {
    const block = { type: "thinking" as const, thinking: "" };
    partial.content.push(block);
    yield { type: "thinking_start", contentIndex, partial };
    block.thinking = step.thinking;
    yield { type: "thinking_delta", contentIndex, delta: step.thinking, partial };
    yield { type: "thinking_end", contentIndex, content: step.thinking, partial };
  } else if ("toolCall" in step) {
    const { id, name, args = {} } = step.toolCall;
    const toolCall = { type: "toolCall" as const, id, name, arguments: {} as Record<string, unknown> };
    partial.content.push(toolCall);
    yield { type: "toolcall_start", contentIndex, partial };
    yield { type: "toolcall_delta", contentIndex, delta: JSON.stringify(args), partial };
    toolCall.arguments = args;
    yield { type: "toolcall_end", contentIndex, toolCall, partial };
  } else if ("wait" in step) {
    await tick(step.wait);
  } else if ("hang" in step) {
    if (deaf) await new Promise(() => undefined);
    await untilAborted(signal);
  } else if ("fail" in step) {
    yield terminal(partial, "error", step.fail);
  } else if ("throws" in step) {
    throw new Error(step.throws);
  }
}

/** A StreamFn that plays `replies` in order (the last one repeats) and records every call. */
export function scriptedStream(replies: Reply[] | ((index: number) => Reply)): { stream: StreamFn; calls: StreamCall[] } {
  const calls: StreamCall[] = [];
  const stream: StreamFn = (model, context, options) => {
    const index = calls.length;
    calls.push({ model, context: structuredClone(context), options });
    const reply = typeof replies === "function" ? replies(index) : replies[Math.min(index, replies.length - 1)];
    if (!reply) throw new Error("no scripted reply");
    return play(reply, model, options.signal);
  };
  return { stream, calls };
}

export function user(text: string): UserMessage {
  return { role: "user", content: [{ type: "text", text }], attribution: "user", timestamp: 1 };
}

export function textOf(result: AgentToolResult | { content: { type: string; text?: string }[] }): string {
  return result.content.map((c) => ("text" in c ? c.text : "")).join("");
}

export interface FakeToolOptions {
  concurrency?: "shared" | "exclusive";
  nonAbortable?: boolean;
  /** ticks the tool takes (honours the abort signal unless nonAbortable) */
  ticks?: number | ((args: Record<string, unknown>) => number);
  updates?: number;
  throws?: string;
  /** What the tool declares it does (default `unknown`: it may change anything). */
  effect?: ToolEffect;
  /** The places it declares a call reads or writes. */
  paths?: Tool["paths"];
}

/** Shared so that runTool's compiled-validator cache is hit across tests. */
const ANY_OBJECT = { type: "object" };

/** A tool that waits some ticks, streams `updates` partial results and answers `<name> ok`. */
export function fakeTool(name: string, opts: FakeToolOptions = {}): Tool & { log: string[] } {
  const log: string[] = [];
  return {
    name,
    label: name,
    description: `fake ${name}`,
    parameters: ANY_OBJECT,
    effect: opts.effect ?? "unknown",
    ...(opts.paths ? { paths: opts.paths } : {}),
    concurrency: opts.concurrency,
    nonAbortable: opts.nonAbortable,
    log,
    async execute(args: Record<string, unknown>, ctx: ToolContext): Promise<AgentToolResult> {
      log.push(`start ${ctx.toolCallId}`);
      for (let i = 0; i < (opts.updates ?? 0); i++) ctx.onUpdate({ content: [{ type: "text", text: `${name} ${i}` }] });
      const total = typeof opts.ticks === "function" ? opts.ticks(args) : (opts.ticks ?? 0);
      for (let i = 0; i < total; i++) {
        if (ctx.signal.aborted) {
          log.push(`aborted ${ctx.toolCallId}`);
          throw new Error(`${name} aborted`);
        }
        await tick();
      }
      if (opts.throws) throw new Error(opts.throws);
      log.push(`end ${ctx.toolCallId}`);
      return { content: [{ type: "text", text: `${name} ok` }], details: { id: ctx.toolCallId } };
    },
  };
}

export function convertToLlm(messages: AgentMessage[]): LlmMessage[] {
  return messages.filter(
    (m): m is LlmMessage => m.role === "user" || m.role === "assistant" || m.role === "toolResult" || m.role === "developer",
  );
}

export interface Harness {
  config: AgentLoopConfig;
  input: AgentRunInput;
  events: AgentEvent[];
  controller: AbortController;
  steering: AgentMessage[];
  followUps: AgentMessage[];
  polls: string[];
}

/** A config + input pair with FIFO queues (one message per poll) and a JSON-snapshotting recorder. */
export function harness(opts: {
  stream: StreamFn;
  tools?: Tool[];
  prompts?: AgentMessage[];
  messages?: AgentMessage[];
  interruptMode?: InterruptMode;
  config?: Partial<AgentLoopConfig>;
  onEvent?: (event: AgentEvent, h: Harness) => void;
}): Harness {
  const controller = new AbortController();
  const h = { events: [], controller, steering: [], followUps: [], polls: [] } as unknown as Harness;
  h.config = {
    stream: opts.stream,
    getCwd: () => "/test-cwd",
    getModel: () => TEST_MODEL,
    getSystemPrompt: () => "system",
    getTools: () => opts.tools ?? [],
    getStreamOptions: () => ({ maxTokens: 100 }),
    convertToLlm,
    pollSteering: () => {
      h.polls.push("steering");
      return h.steering.splice(0, 1);
    },
    pollFollowUps: () => {
      h.polls.push("followUp");
      return h.followUps.splice(0, 1);
    },
    getInterruptMode: () => opts.interruptMode ?? "wait",
    ...opts.config,
  };
  h.input = {
    messages: opts.messages ?? [],
    prompts: opts.prompts ?? [user("hi")],
    signal: controller.signal,
    emit: (event) => {
      // Serialise synchronously, as the RPC writer does (partials are live objects).
      h.events.push(JSON.parse(JSON.stringify(event)) as AgentEvent);
      opts.onEvent?.(event, h);
    },
  };
  return h;
}

/** A compact trace: event type plus role / tool call id / update subtype. */
export function trace(events: AgentEvent[]): string[] {
  return events.map((e) => {
    switch (e.type) {
      case "message_start":
      case "message_end":
        return `${e.type} ${e.message.role}${e.message.role === "toolResult" ? ` ${e.message.toolCallId}` : ""}`;
      case "message_update":
        return `update ${e.assistantMessageEvent.type}`;
      case "tool_execution_start":
      case "tool_execution_update":
      case "tool_execution_end":
        return `${e.type} ${e.toolCallId}`;
      default:
        return e.type;
    }
  });
}
