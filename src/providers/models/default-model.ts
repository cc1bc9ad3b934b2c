// The default model when nothing is selected (pi rules): the settings default
// if its provider has credentials, else the provider default of the first provider with
// credentials in a fixed preference order, else the first available model.
import type { Model } from "../../shared/types.js";

/** Preference order and each provider's default model id. */
export const PROVIDER_DEFAULTS: ReadonlyArray<readonly [provider: string, modelId: string]> = [
  ["anthropic", "claude-opus-4-6"],
  ["openai", "gpt-5.4"],
  ["google", "gemini-2.5-pro"],
  ["openrouter", "moonshotai/kimi-k2.6"],
  ["vercel-ai-gateway", "anthropic/claude-opus-4.6"],
  ["xai", "grok-4.3"],
  ["groq", "openai/gpt-oss-120b"],
  ["cerebras", "zai-glm-4.7"],
  ["zai", "glm-5.1"],
  ["mistral", "devstral-medium-latest"],
  ["deepseek", "deepseek-v4-pro"],
  ["minimax", "MiniMax-M2.7"],
  ["minimax-cn", "MiniMax-M2.7"],
  ["moonshotai", "kimi-k2.6"],
  ["moonshotai-cn", "kimi-k2.6"],
  ["huggingface", "moonshotai/Kimi-K2.6"],
  ["fireworks", "accounts/fireworks/models/kimi-k2p6"],
  ["kimi-coding", "kimi-for-coding"],
  ["opencode", "claude-opus-4-6"],
  ["opencode-go", "kimi-k2.6"],
];

export interface DefaultModelSettings {
  defaultProvider?: string;
  defaultModel?: string;
}

/** The registry operations the choice needs. */
export interface DefaultModelSource {
  available(): Model[];
  hasCredentials(provider: string): boolean;
  find(provider: string, id: string): Model | undefined;
  resolve(provider: string, id: string): Model | undefined;
}

function providerDefault(src: DefaultModelSource, provider: string): Model | undefined {
  const id = PROVIDER_DEFAULTS.find(([p]) => p === provider)?.[1];
  const preferred = id ? src.find(provider, id) : undefined;
  return preferred ?? src.available().find((m) => m.provider === provider);
}

export function chooseDefaultModel(src: DefaultModelSource, settings: DefaultModelSettings = {}): Model | undefined {
  const { defaultProvider, defaultModel } = settings;
  if (defaultProvider && src.hasCredentials(defaultProvider)) {
    const chosen = defaultModel ? src.resolve(defaultProvider, defaultModel) : providerDefault(src, defaultProvider);
    if (chosen) return chosen;
  }
  if (!defaultProvider && defaultModel) {
    const byId = src.available().find((m) => m.id === defaultModel);
    if (byId) return byId;
  }
  for (const [provider] of PROVIDER_DEFAULTS) {
    if (!src.hasCredentials(provider)) continue;
    const m = providerDefault(src, provider);
    if (m) return m;
  }
  return src.available()[0];
}
