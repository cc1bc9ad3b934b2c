// Did the request overflow the model's context window?. Providers word
// it differently; some accept the request and only the reported usage gives it away.
import type { AssistantMessage } from "../../shared/types.js";

/** Error texts of a context overflow, as the major providers and local servers word it. */
export const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /prompt is too long/i, // Anthropic
  /request_too_large/i, // Anthropic, request bytes (413)
  /input is too long for requested model/i, // Bedrock
  /exceeds the context window/i, // OpenAI
  /input token count.*exceeds the maximum/i, // Gemini
  /maximum prompt length is \d+/i, // xAI
  /reduce the length of the messages/i, // Groq
  /maximum context length is \d+ tokens/i, // OpenAI-compatible, OpenRouter
  /exceeds the limit of \d+/i, // GitHub Copilot
  /exceeds the available context size/i, // llama.cpp
  /requested tokens.*exceed.*context (window|length|size)/i,
  /requested tokens.*(exceed|greater than).*(n_ctx|context)/i,
  /context (window|length|size).*(exceeded|overflow|too small)/i,
  /(prompt|input).*(too long|too large).*(context|n_ctx)/i, // Mistral, Ollama
  /greater than the context length/i, // LM Studio
  /context window exceeds limit/i, // MiniMax
  /exceeded model token limit/i, // Kimi
  /context[_ ]length[_ ]exceeded/i, // OpenAI code, generic
  /model_context_window_exceeded/i,
  /too many tokens/i,
  /token limit exceeded/i,
  /request exceeds the maximum size/i,
  /payload too large/i,
  /entity too large/i,
  /\b413\b.*too large/i,
  /^4(00|13)\s*(status code)?\s*\(no body\)/i, // Cerebras
];

/** Errors that can look like an overflow but are throttling ("Too many tokens, please wait"). */
const NOT_OVERFLOW: readonly RegExp[] = [/rate.?limit/i, /too many requests/i, /throttl/i, /please wait/i, /per minute/i];

/** True when the error text says the context window was exceeded. */
export function isOverflowErrorText(text: string): boolean {
  if (NOT_OVERFLOW.some((p) => p.test(text))) return false;
  return OVERFLOW_PATTERNS.some((p) => p.test(text));
}

/**
 * An error whose text is an overflow, or a reply of any stop reason whose prompt
 * (input + cacheRead + cacheWrite) exceeded `contextWindow` (silent overflow).
 */
export function isContextOverflow(msg: AssistantMessage, contextWindow: number): boolean {
  if (msg.stopReason === "error" && msg.errorMessage && isOverflowErrorText(msg.errorMessage)) return true;
  if (contextWindow > 0 && msg.usage) {
    const prompt = msg.usage.input + msg.usage.cacheRead + msg.usage.cacheWrite;
    if (prompt > contextWindow) return true;
  }
  return false;
}
