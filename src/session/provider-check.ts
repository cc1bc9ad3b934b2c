// The model half of `get_integrations`: does the configured key work? The provider's list-models
// endpoint is asked once (bounded by a timeout): `connected` with the round trip, `auth_error`
// for 401/403, `unavailable` (with the reason) when it cannot be reached, `no_provider` without
// a model or credentials. Keys travel in headers only and never appear in the answer.
import { canDiscover, fetchModelList } from "../providers/models/discovery.js";
import type { ModelRegistry } from "../providers/models/registry.js";
import { SCRIPTED_PROVIDER } from "../providers/scripted/model.js";
import { anySignal } from "../shared/abort.js";
import { errorMessage } from "../shared/errors.js";
import type { Model } from "../shared/types.js";

export interface ProviderCheck {
  state: "no_provider" | "connected" | "auth_error" | "unavailable";
  provider?: string;
  latencyMs?: number;
  hint?: string;
}

export interface ProviderCheckOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
  now?: () => number;
}

export async function checkProvider(model: Model | undefined, registry: ModelRegistry, o: ProviderCheckOptions): Promise<ProviderCheck> {
  if (!model || !registry.hasCredentials(model.provider)) return { state: "no_provider", ...(model ? { provider: model.provider } : {}) };
  const provider = model.provider;
  if (provider === SCRIPTED_PROVIDER) return { state: "connected", provider, latencyMs: 0 };
  if (!canDiscover(model.api) || !model.baseUrl) {
    return { state: "unavailable", provider, hint: `cannot be checked: the ${model.api} API has no list-models endpoint` };
  }
  const now = o.now ?? Date.now;
  const started = now();
  try {
    const apiKey = await registry.getApiKey(provider);
    const target = { provider, api: model.api, baseUrl: model.baseUrl, apiKey, headers: model.headers };
    await fetchModelList(target, o.fetch ?? fetch, anySignal([o.signal, AbortSignal.timeout(o.timeoutMs)]));
    return { state: "connected", provider, latencyMs: Math.max(0, Math.round(now() - started)) };
  } catch (err) {
    const text = errorMessage(err);
    if (/\bHTTP (401|403)\b/.test(text)) return { state: "auth_error", provider, hint: text };
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    return { state: "unavailable", provider, hint: timedOut ? `no answer within ${o.timeoutMs} ms` : text };
  }
}
