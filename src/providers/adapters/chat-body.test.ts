// The chat-completions body is written as text from per-message JSON: it must be exactly the
// JSON.stringify of the body object (prompt-cache prefixes are compared byte for byte).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AssistantMessage, LlmMessage, Model, ToolResultMessage } from "../../shared/types.js";
import type { LlmContext } from "../types.js";
import { chatBodyText, messageTexts, type ChatBodyFields } from "./chat-body.js";
import { INTERRUPTED_TOOL_RESULT } from "./convert-messages.js";

const model: Model = {
  id: "m",
  name: "m",
  api: "openai-completions",
  provider: "p",
  baseUrl: "http://127.0.0.1:1/v1",
  reasoning: true,
  input: ["text", "image"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
};
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const assistant = (content: AssistantMessage["content"], over: Partial<AssistantMessage> = {}): AssistantMessage => ({
  role: "assistant",
  content,
  api: model.api,
  provider: model.provider,
  model: model.id,
  usage,
  stopReason: "stop",
  timestamp: 1,
  ...over,
});
const result = (id: string, text: string, isError = false): ToolResultMessage => ({ role: "toolResult", toolCallId: id, toolName: "read", content: [{ type: "text", text }], isError, timestamp: 2 });
const fields: ChatBodyFields = { model: "m", max_tokens: 100 };

describe("chat-completions body", () => {
  it("is JSON.stringify of the body, with the conversation's pairing and shaping rules", () => {
    const messages: LlmMessage[] = [
      { role: "user", content: "hi \u2028 \"quoted\"", timestamp: 1 },
      assistant([{ type: "thinking", thinking: "plan" }, { type: "text", text: "ok" }, { type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } }, { type: "toolCall", id: "c2", name: "read", arguments: {} }]),
      result("c2", "B"),
      result("stray", "S"),
      result("c2", "again"),
      { role: "user", content: [{ type: "text", text: "see" }, { type: "image", data: "AAAA", mimeType: "image/png" }], timestamp: 3 },
      assistant([{ type: "text", text: "lost" }], { stopReason: "error" }),
      assistant([{ type: "thinking", thinking: "other model" }], { model: "other" }),
    ];
    const context: LlmContext = { systemPrompt: "sys", messages, tools: [{ name: "read", description: "d", parameters: { type: "object" } }] };
    const tools = [{ type: "function", function: { name: "read", description: "d", parameters: { type: "object" } } }];
    const text = chatBodyText(model, context, { ...fields, temperature: 0.5, reasoning_effort: "high", tools, tool_choice: "auto" });
    const expected = {
      model: "m",
      max_tokens: 100,
      temperature: 0.5,
      reasoning_effort: "high",
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: 'hi \u2028 "quoted"' },
        {
          role: "assistant",
          content: "ok",
          reasoning_content: "plan",
          tool_calls: [
            { id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
            { id: "c2", type: "function", function: { name: "read", arguments: "{}" } },
          ],
        },
        { role: "tool", tool_call_id: "c2", content: "B" },
        { role: "tool", tool_call_id: "c1", content: INTERRUPTED_TOOL_RESULT },
        { role: "user", content: [{ type: "text", text: "see" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] },
        { role: "assistant", content: "other model" },
      ],
      tools,
      tool_choice: "auto",
      stream: true,
      stream_options: { include_usage: true },
    };
    expect(text).toBe(JSON.stringify(expected));
    // a second request over the same messages (served from the per-message cache) is the same text
    expect(chatBodyText(model, context, { ...fields, temperature: 0.5, reasoning_effort: "high", tools, tool_choice: "auto" })).toBe(text);
  });

  it("re-shapes a cached message for another model (thinking, images)", () => {
    const msg = assistant([{ type: "thinking", thinking: "t" }]);
    const img: LlmMessage = { role: "user", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }], timestamp: 1 };
    const ctx: LlmContext = { systemPrompt: "", messages: [img, msg], tools: [] };
    expect(messageTexts(model, ctx).map((t) => JSON.parse(t))).toEqual([
      { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] },
      { role: "assistant", content: "", reasoning_content: "t" },
    ]);
    const other: Model = { ...model, id: "n", input: ["text"] };
    expect(messageTexts(other, ctx).map((t) => JSON.parse(t))).toEqual([
      { role: "user", content: "(image omitted: this model does not accept images)" },
      { role: "assistant", content: "t" },
    ]);
  });

  it("extraBody overrides fields in place, adds new ones at the end, and may replace the messages", () => {
    const ctx: LlmContext = { systemPrompt: "s", messages: [{ role: "user", content: "u", timestamp: 1 }], tools: [] };
    const text = chatBodyText(model, ctx, { ...fields, extra: { max_tokens: 7, top_k: 3 } });
    expect(text).toBe(JSON.stringify({ model: "m", max_tokens: 7, messages: [{ role: "system", content: "s" }, { role: "user", content: "u" }], stream: true, stream_options: { include_usage: true }, top_k: 3 }));
    expect(JSON.parse(chatBodyText(model, ctx, { ...fields, extra: { messages: [] } })).messages).toEqual([]);
  });

  it("matches JSON.stringify for any text, whatever its characters", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { minLength: 1, maxLength: 6 }), fc.string({ unit: "binary" }), (texts, system) => {
        const messages: LlmMessage[] = texts.map((t, i) => (i % 2 ? assistant([{ type: "text", text: t }]) : { role: "user", content: t, timestamp: i }));
        const body = JSON.parse(chatBodyText(model, { systemPrompt: system, messages, tools: [] }, fields));
        const wire = [...(system ? [{ role: "system", content: system }] : [])];
        for (const [i, t] of texts.entries()) if (t.length > 0) wire.push({ role: i % 2 ? "assistant" : "user", content: t });
        expect(body.messages).toEqual(wire);
      }),
    );
  });
});
