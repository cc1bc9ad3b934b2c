// inspect_image's model call: the current model when it takes images, else the setting
// images.visionModel ("provider/id" or an id); one streamed request, its text and usage.
import type { ModelRegistry } from "../providers/models/registry.js";
import type { StreamFn } from "../providers/types.js";
import type { AssistantMessage, Model } from "../shared/types.js";
import type { VisionPort } from "../tools/index.js";

export interface VisionOptions {
  registry: ModelRegistry;
  stream: StreamFn;
  current(): Model | undefined;
  /** Setting images.visionModel. */
  visionModel?: string;
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
    const messages = [{ role: "user" as const, content: [image, { type: "text" as const, text: question }], timestamp: Date.now() }];
    let final: AssistantMessage | undefined;
    for await (const e of o.stream(model, { systemPrompt, messages, tools: [] }, { apiKey, signal })) {
      if (e.type === "done") final = e.message;
      else if (e.type === "error") {
        if (e.reason === "aborted") throw new Error("inspect_image request aborted.");
        throw new Error(e.error.errorMessage ?? "inspect_image request failed.");
      }
    }
    if (!final) throw new Error("inspect_image request failed.");
    const text = final.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
    return { text, model: `${model.provider}/${model.id}`, usage: final.usage };
  };
}
