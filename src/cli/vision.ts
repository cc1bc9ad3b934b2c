// inspect_image's model call: the current model when it takes images, else the setting
// images.visionModel ("provider/id" or an id); one request with no tools (no retries), under the
// stream watchdog's first-byte and idle limits; its text and usage.
import type { ModelRegistry } from "../providers/models/registry.js";
import { complete } from "../providers/complete.js";
import type { StreamTimeouts } from "../providers/stream-watchdog.js";
import type { StreamFn } from "../providers/types.js";
import type { Model } from "../shared/types.js";
import type { VisionPort } from "../tools/index.js";

export interface VisionOptions {
  registry: ModelRegistry;
  stream: StreamFn;
  current(): Model | undefined;
  /** Setting images.visionModel. */
  visionModel?: string;
  /** The first-byte and idle limits of the retry settings. */
  timeouts?: StreamTimeouts;
}

function pick(o: VisionOptions): Model {
  const current = o.current();
  if (current?.input.includes("image")) return current;
  if (!o.visionModel) {
    throw new Error(
      `The current model ${current ? `${current.provider}/${current.id} ` : ""}does not take images and no vision model is configured: set images.visionModel (e.g. "anthropic/claude-sonnet-4-5").`,
    );
  }
  const model = o.registry.select(o.visionModel);
  if (!model) throw new Error(`images.visionModel ${o.visionModel} is not a known model.`);
  if (!model.input.includes("image")) throw new Error(`Resolved model ${model.provider}/${model.id} does not support image input. Configure a vision-capable model in images.visionModel.`);
  return model;
}

export function createVisionPort(o: VisionOptions): VisionPort {
  return async ({ image, question, systemPrompt, signal }) => {
    const model = pick(o);
    const apiKey = o.registry.hasCredentials(model.provider) ? await o.registry.getApiKey(model.provider) : undefined;
    const reply = await complete({
      stream: o.stream,
      model,
      context: { systemPrompt, messages: [{ role: "user", content: [image, { type: "text", text: question }], timestamp: Date.now() }] },
      signal,
      options: apiKey === undefined ? {} : { apiKey },
      timeouts: o.timeouts,
    });
    if (reply.status === "aborted") throw new Error("inspect_image request aborted.");
    if (reply.status === "error") throw new Error(reply.message ? reply.error : `inspect_image request failed: ${reply.error}`);
    return { text: reply.text, model: `${model.provider}/${model.id}`, usage: reply.usage };
  };
}
