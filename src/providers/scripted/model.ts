// The scripted provider's model: any id names a JSON script file (relative to cwd or absolute).
import { basename, isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Model } from "../../shared/types.js";

export const SCRIPTED_PROVIDER = "scripted";
export const SCRIPTED_API = "scripted";

export function scriptedModel(id: string, cwd: string): Model {
  const path = isAbsolute(id) ? id : resolve(cwd, id);
  return {
    id,
    name: `Scripted: ${basename(id)}`,
    api: SCRIPTED_API,
    provider: SCRIPTED_PROVIDER,
    baseUrl: pathToFileURL(path).href,
    reasoning: true,
    input: ["text", "image"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 200_000,
    maxTokens: 32_000,
  };
}
