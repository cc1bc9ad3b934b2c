// The one entry point the agent loop calls: dispatches on `model.api` to an adapter loaded
// lazily with dynamic import(), so importing this file loads no AI SDK package.
import { emptyAssistantMessage, type AssistantMessageEvent, type Model } from "../shared/types.js";
import { errorMessage } from "../shared/errors.js";
import type { LlmContext, StreamFn, StreamOptions } from "./types.js";

type Loader = () => Promise<StreamFn>;

const loaders: Record<string, Loader> = {
  "anthropic-messages": async () => (await import("./adapters/anthropic.js")).streamAnthropic,
  "openai-completions": async () => (await import("./adapters/openai-completions.js")).streamOpenAICompletions,
  "openai-responses": async () => (await import("./adapters/openai-responses.js")).streamOpenAIResponses,
  "google-generative-ai": async () => (await import("./adapters/google.js")).streamGoogle,
  scripted: async () => (await import("./scripted/index.js")).streamScripted,
};

/** Wire apis `streamAssistant` can serve. */
export const SUPPORTED_APIS: readonly string[] = Object.keys(loaders);

export const streamAssistant: StreamFn = (model, context, options) => dispatch(model, context, options);

async function* dispatch(model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const loader = Object.hasOwn(loaders, model.api) ? loaders[model.api] : undefined;
  if (!loader) {
    yield failure(model, `Unsupported model api "${model.api}" for ${model.provider}/${model.id}`);
    return;
  }
  let fn: StreamFn;
  try {
    fn = await loader();
  } catch (err) {
    yield failure(model, `Could not load the ${model.api} adapter: ${errorMessage(err)}`);
    return;
  }
  yield* fn(model, context, options);
}

function failure(model: Model, message: string): AssistantMessageEvent {
  return {
    type: "error",
    reason: "error",
    error: { ...emptyAssistantMessage(model, Date.now(), "error"), errorMessage: message },
  };
}
