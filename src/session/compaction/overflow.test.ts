import { describe, expect, it } from "vitest";
import { isContextOverflow, isOverflowErrorText } from "./overflow.js";
import { assistant, failed, usage } from "../../../test/support/compaction.js";

describe("isContextOverflow", () => {
  const overflows = [
    "prompt is too long: 213462 tokens > 200000 maximum", // Anthropic
    '413 {"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}', // Anthropic bytes
    "Your input exceeds the context window of this model", // OpenAI
    "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens", // OpenAI-compatible
    "context_length_exceeded", // OpenAI code
    "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)", // Gemini
    "This model's maximum prompt length is 131072 but the request contains 537812 tokens", // xAI
    "Please reduce the length of the messages or completion", // Groq
    "Input is too long for requested model.", // Bedrock
    "the request exceeds the available context size, try increasing it", // llama.cpp
    "tokens to keep from the initial prompt is greater than the context length", // LM Studio
    "prompt token count of 140000 exceeds the limit of 128000", // Copilot
    "invalid params, context window exceeds limit", // MiniMax
    "Your request exceeded model token limit: 262144 (requested: 300000)", // Kimi
    "Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length", // Mistral
    "prompt too long; exceeded max context length by 1200 tokens", // Ollama
    "requested tokens (9000) exceed context window of 8192",
    "Too many tokens in the request",
    "413 Request Entity Too Large",
    "413 status code (no body)", // Cerebras
    "400 (no body)",
    "model_context_window_exceeded",
  ];
  for (const text of overflows) {
    it(`detects "${text.slice(0, 50)}"`, () => {
      expect(isContextOverflow(failed(text), 200_000)).toBe(true);
    });
  }

  it("is not fooled by throttling, auth or ordinary errors", () => {
    for (const text of [
      "ThrottlingException: Too many tokens, please wait before trying again.",
      "429 rate limit: too many tokens per minute",
      "401 invalid x-api-key",
      "503 overloaded_error",
      "400 messages.1: tool_use ids were found without tool_result blocks",
    ]) {
      expect(isOverflowErrorText(text), text).toBe(false);
      expect(isContextOverflow(failed(text), 200_000), text).toBe(false);
    }
  });

  it("only reads the error text of error replies", () => {
    expect(isContextOverflow(assistant("prompt is too long", { stopReason: "stop" }), 200_000)).toBe(false);
    expect(isContextOverflow(assistant([], { stopReason: "aborted", errorMessage: "prompt is too long" }), 200_000)).toBe(false);
  });

  it("detects a silent overflow from usage of any reply", () => {
    expect(isContextOverflow(assistant("ok", { usage: usage(150_000, 10, 60_000) }), 200_000)).toBe(true);
    expect(isContextOverflow(assistant("ok", { usage: usage(100_000, 90_000, 50_000) }), 200_000)).toBe(false);
    expect(isContextOverflow(assistant("ok", { usage: usage(150_000, 0, 0, 50_001) }), 200_000)).toBe(true);
    expect(isContextOverflow(assistant("ok", { usage: usage(250_000) }), 0)).toBe(false);
  });
});
