// Model fixtures and event helpers for tests that drive the real provider adapters against
// the fake LLM server.
import type { AssistantMessage, AssistantMessageEvent, Model } from "../../src/shared/types.js";

export function fakeModel(api: string, baseUrl: string, over: Partial<Model> = {}): Model {
  return {
    id: "fake-model",
    name: "Fake",
    api,
    provider: "fake",
    baseUrl,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    contextWindow: 200_000,
    maxTokens: 64_000,
    ...over,
  };
}

export async function collect(stream: AsyncIterable<AssistantMessageEvent>): Promise<{ events: AssistantMessageEvent[]; final: AssistantMessage }> {
  const events: AssistantMessageEvent[] = [];
  for await (const e of stream) events.push(e);
  const last = events[events.length - 1];
  if (!last || (last.type !== "done" && last.type !== "error")) throw new Error(`no terminal event (last: ${last?.type})`);
  return { events, final: last.type === "done" ? last.message : last.error };
}
