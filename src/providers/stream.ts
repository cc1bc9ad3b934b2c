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
  // Replaced per stream function (see createStreamFn): the scripted player keeps state.
  scripted: async () => (await import("./scripted/index.js")).createScriptedStream(),
};

/** Wire apis `streamAssistant` can serve. */
export const SUPPORTED_APIS: readonly string[] = Object.keys(loaders);

/**
 * A stream function with state of its own — the scripted provider's script cursors — so that
 * each session of a process gets one and two sessions never advance each other's script.
 */
export function createStreamFn(): StreamFn {
  let scripted: Promise<StreamFn> | undefined;
  const own: Record<string, Loader> = { ...loaders, scripted: () => (scripted ??= loaders.scripted()) };
  return (model, context, options) => dispatch(own, model, context, options);
}

/** A shared stream function (tests, tools): one set of script cursors for the whole process. */
export const streamAssistant: StreamFn = createStreamFn();

async function* dispatch(table: Record<string, Loader>, model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const loader = Object.hasOwn(table, model.api) ? table[model.api] : undefined;
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
