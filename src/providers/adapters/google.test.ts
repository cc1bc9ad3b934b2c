import { describe, expect, it } from "vitest";
import { fakeModel } from "../../../test/support/fake-llm-models.js";
import type { AssistantMessage, LlmMessage } from "../../shared/types.js";
import { emptyUsage } from "../../shared/types.js";
import { buildCallOptions } from "./ai-sdk-stream.js";
import { convertPrompt } from "./convert-messages.js";
import { googleAdapterSpec } from "./google.js";
import { googleCodec } from "./replay.js";

const model = fakeModel("google-generative-ai", "http://127.0.0.1:9/v1beta", { id: "gemini-2.5-pro", provider: "google" });
const prior: AssistantMessage = {
  role: "assistant",
  api: "google-generative-ai",
  provider: "google",
  model: "gemini-2.5-pro",
  usage: emptyUsage(),
  stopReason: "toolUse",
  timestamp: 1,
  content: [
    { type: "thinking", thinking: "plan", thinkingSignature: "TS1" },
    { type: "text", text: "Reading." },
    { type: "toolCall", id: "fc_1", name: "read", arguments: { path: "a" }, thoughtSignature: "TS2" },
  ],
};

describe("google message conversion", () => {
  it("replays thought signatures on reasoning and tool calls, and tool results as tool messages", () => {
    const messages: LlmMessage[] = [
      { role: "user", content: "go", timestamp: 0 },
      prior,
      { role: "toolResult", toolCallId: "fc_1", toolName: "read", content: [{ type: "text", text: "data" }], isError: false, timestamp: 2 },
      { role: "developer", content: "note", timestamp: 3 },
    ];
    const prompt = convertPrompt(model, { systemPrompt: "sys", messages, tools: [] }, { codec: googleCodec });
    expect(prompt).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: [{ type: "text", text: "go" }] },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "plan", providerOptions: { google: { thoughtSignature: "TS1" } } },
          { type: "text", text: "Reading." },
          { type: "tool-call", toolCallId: "fc_1", toolName: "read", input: { path: "a" }, providerOptions: { google: { thoughtSignature: "TS2" } } },
        ],
      },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "fc_1", toolName: "read", output: { type: "text", value: "data" } }] },
      { role: "user", content: [{ type: "text", text: "note" }] },
    ]);
  });

  it("names a tool result as the call it answers (a deferred tool's result answers the model's call_tool)", () => {
    const viaShelf: AssistantMessage = { ...prior, content: [{ type: "toolCall", id: "fc_9", name: "call_tool", arguments: { name: "calc", arguments: {} } }] };
    const messages: LlmMessage[] = [
      { role: "user", content: "go", timestamp: 0 },
      viaShelf,
      { role: "toolResult", toolCallId: "fc_9", toolName: "calc", content: [{ type: "text", text: "n = 1" }], isError: false, timestamp: 2 },
    ];
    const prompt = convertPrompt(model, { systemPrompt: "", messages, tools: [] }, { codec: googleCodec });
    expect(prompt.at(-1)).toEqual({ role: "tool", content: [{ type: "tool-result", toolCallId: "fc_9", toolName: "call_tool", output: { type: "text", value: "n = 1" } }] });
  });

  it("drops signatures for another model and skips errored assistant turns with their stray results", () => {
    const other = { ...prior, model: "gemini-2.0-flash" };
    const errored: AssistantMessage = { ...prior, stopReason: "error", content: [{ type: "toolCall", id: "x", name: "read", arguments: {} }] };
    const messages: LlmMessage[] = [
      other,
      { role: "toolResult", toolCallId: "fc_1", toolName: "read", content: [{ type: "image", data: "AA", mimeType: "image/png" }], isError: false, timestamp: 2 },
      errored,
      { role: "toolResult", toolCallId: "x", toolName: "read", content: [], isError: true, timestamp: 4 },
    ];
    const prompt = convertPrompt(model, { systemPrompt: "", messages, tools: [] }, { codec: googleCodec });
    expect(prompt[0]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "plan" },
        { type: "text", text: "Reading." },
        { type: "tool-call", toolCallId: "fc_1", toolName: "read", input: { path: "a" } },
      ],
    });
    expect(prompt[1]).toEqual({
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "fc_1", toolName: "read", output: { type: "content", value: [{ type: "image-data", data: "AA", mediaType: "image/png" }] } }],
    });
    expect(prompt).toHaveLength(2);
  });

  it("builds call options with thinkingConfig, tools and the default max tokens", () => {
    const call = buildCallOptions(googleAdapterSpec, model, { systemPrompt: "", messages: [{ role: "user", content: "hi", timestamp: 0 }], tools: [{ name: "t", description: "d", parameters: { type: "object" } }] }, { thinkingLevel: "low", toolChoice: { type: "tool", name: "t" } });
    expect(call.maxOutputTokens).toBe(32000);
    expect(call.providerOptions).toEqual({ google: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } } });
    expect(call.tools).toEqual([{ type: "function", name: "t", description: "d", inputSchema: { type: "object" } }]);
    expect(call.toolChoice).toEqual({ type: "tool", toolName: "t" });
  });
});
