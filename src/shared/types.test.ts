// The static types are derived from the schemas; these pin that the derivation keeps what the
// code relies on: tagged unions narrow, optional fields stay optional, literal sets stay closed.
import { Compile } from "typebox/compile";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  AgentSessionEventSchema,
  AssistantMessageSchema,
  EffortSchema,
  ModelSchema,
  UsageSchema,
} from "./schema/index.js";
import {
  EFFORTS,
  emptyAssistantMessage,
  emptyUsage,
  lastAssistant,
  type AgentMessage,
  type AgentSessionEvent,
  type AssistantMessageEvent,
  type AssistantUpdateEvent,
  type Effort,
  type Model,
  type ModelApi,
  type StopReason,
  type ThinkingLevelInput,
  type TodoItem,
  type ToolResultMessage,
  type UserContent,
} from "./types.js";

describe("static types derived from the schemas", () => {
  it("narrow AgentMessage by role and AgentSessionEvent by type", () => {
    expectTypeOf<Extract<AgentMessage, { role: "toolResult" }>>().toEqualTypeOf<ToolResultMessage>();
    expectTypeOf<Extract<AgentSessionEvent, { type: "tool_execution_start" }>>().toEqualTypeOf<{
      type: "tool_execution_start";
      toolCallId: string;
      toolName: string;
      args: { [x: string]: unknown };
      intent?: string;
    }>();
    expectTypeOf<Extract<AgentSessionEvent, { type: "auto_retry_end" }>["finalError"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Extract<UserContent, { type: "image" }>>().toEqualTypeOf<{ type: "image"; data: string; mimeType: string }>();
  });

  it("keep optional fields optional and literal sets closed", () => {
    expectTypeOf<TodoItem>().toEqualTypeOf<{
      id: string;
      content: string;
      status: "pending" | "in_progress" | "completed" | "abandoned";
      notes?: string;
      details?: string;
    }>();
    expectTypeOf<StopReason>().toEqualTypeOf<"stop" | "length" | "toolUse" | "error" | "aborted">();
    expectTypeOf<ThinkingLevelInput>().toEqualTypeOf<"inherit" | "off" | Effort>();
    expectTypeOf<Model["api"]>().toEqualTypeOf<ModelApi>();
    expectTypeOf<Model["thinking"]>().toEqualTypeOf<
      | { minLevel: Effort; maxLevel: Effort; mode: "effort" | "budget" | "google-level" | "anthropic-adaptive" | "anthropic-budget-effort" }
      | undefined
    >();
  });

  it("make a provider stream the update events plus start, done and error", () => {
    expectTypeOf<Exclude<AssistantMessageEvent, { type: "start" | "done" | "error" }>>().toEqualTypeOf<AssistantUpdateEvent>();
    expectTypeOf<AssistantUpdateEvent["type"]>().toEqualTypeOf<
      | "text_start"
      | "text_delta"
      | "text_end"
      | "thinking_start"
      | "thinking_delta"
      | "thinking_end"
      | "toolcall_start"
      | "toolcall_delta"
      | "toolcall_end"
    >();
  });
});

describe("shared helpers", () => {
  const model: Pick<Model, "api" | "provider" | "id"> = { api: "scripted", provider: "fake", id: "m" };

  it("build values their schemas accept", () => {
    expect(Compile(UsageSchema).Check(emptyUsage())).toBe(true);
    const message = emptyAssistantMessage(model, 5, "aborted");
    expect(Compile(AssistantMessageSchema).Check(message)).toBe(true);
    expect(Compile(AgentSessionEventSchema).Check({ type: "message_start", message })).toBe(true);
    expect(message).toMatchObject({ role: "assistant", content: [], stopReason: "aborted", timestamp: 5, model: "m" });
  });

  it("list the efforts the schema allows, weakest first", () => {
    expect(EFFORTS).toEqual(["minimal", "low", "medium", "high", "xhigh"]);
    expect(EFFORTS).toEqual(EffortSchema.enum);
    expect(Compile(ModelSchema).Check({ ...model, name: "M", baseUrl: "", reasoning: true, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1, maxTokens: 1, api: "my-own-api" })).toBe(true);
  });

  it("finds the last assistant message", () => {
    const first = emptyAssistantMessage(model, 1);
    const second = emptyAssistantMessage(model, 2);
    const user: AgentMessage = { role: "user", content: "hi", timestamp: 3 };
    expect(lastAssistant([first, second, user])).toBe(second);
    expect(lastAssistant([user])).toBeUndefined();
  });
});
