// openai-completions: OpenAI's own API through @ai-sdk/openai (openai-host.ts), every other
// `/chat/completions` server through the official `openai` client with pith's request body
// (chat-completions.ts). Each is loaded on first use, so a session pays only for the one it talks to.
import type { AssistantMessageEvent } from "../../shared/types.js";
import type { StreamFn } from "../types.js";
import { isOpenAiHost } from "./prompt-cache.js";

export { isOpenAiHost };

export const streamOpenAICompletions: StreamFn = (model, context, options) => dispatch(model, context, options);

async function* dispatch(...[model, context, options]: Parameters<StreamFn>): AsyncGenerator<AssistantMessageEvent> {
  const stream = isOpenAiHost(model.baseUrl) ? (await import("./openai-host.js")).streamOpenAIHost : (await import("./chat-completions.js")).streamChatCompletions;
  yield* stream(model, context, options);
}
