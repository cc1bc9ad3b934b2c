// A Model for an id the catalogue does not know, on a provider it does know: default limits
// (or what discovery reported), zero cost (unless reported), wire settings from the provider. Capabilities
// (reasoning, input, thinking) are inherited from the nearest sibling id when one shares a
// family prefix (`claude-opus-4-8` ← `claude-opus-4-7`).
import type { Model } from "../../shared/types.js";
import type { DiscoveredModel } from "./discovery.js";
import { DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_TOKENS, ZERO_COST } from "./models-json-apply.js";
import { thinkingMode } from "./thinking.js";

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** The provider model whose id shares the longest family prefix (>= 5 chars, with a separator). */
export function nearestSibling(models: readonly Model[], id: string): Model | undefined {
  let best: Model | undefined;
  let bestLen = 0;
  for (const m of models) {
    const n = commonPrefix(m.id, id);
    const prefix = id.slice(0, n);
    if (n > bestLen && n >= 5 && /[-/.]/.test(prefix)) {
      best = m;
      bestLen = n;
    }
  }
  return best;
}

export function unknownModel(template: Model, siblings: readonly Model[], info: DiscoveredModel): Model {
  const sib = nearestSibling(siblings, info.id);
  // Wire settings from the sibling when there is one (providers such as opencode mix APIs).
  const wire = sib ?? template;
  const model: Model = {
    id: info.id,
    name: info.name ?? info.id,
    api: wire.api,
    provider: template.provider,
    baseUrl: wire.baseUrl,
    reasoning: sib?.reasoning ?? false,
    input: [...(info.input ?? sib?.input ?? ["text"])],
    cost: { ...(info.cost ?? ZERO_COST) },
    contextWindow: info.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
    maxTokens: info.maxTokens ?? DEFAULT_MAX_TOKENS,
  };
  if (wire.headers) model.headers = { ...wire.headers };
  if (wire.compat) model.compat = { ...wire.compat };
  if (sib?.thinking && model.reasoning) model.thinking = { ...sib.thinking, mode: thinkingMode(model) };
  return model;
}
