// Standard API-key environment variables per provider (pi's names).

/** Provider → env vars, first set one wins. */
export const PROVIDER_ENV_VARS: Readonly<Record<string, readonly string[]>> = {
  anthropic: ["ANTHROPIC_API_KEY"],
  openai: ["OPENAI_API_KEY"],
  google: ["GEMINI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY"],
  openrouter: ["OPENROUTER_API_KEY"],
  groq: ["GROQ_API_KEY"],
  xai: ["XAI_API_KEY"],
  mistral: ["MISTRAL_API_KEY"],
  cerebras: ["CEREBRAS_API_KEY"],
  deepseek: ["DEEPSEEK_API_KEY"],
  "vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
  zai: ["ZAI_API_KEY"],
  minimax: ["MINIMAX_API_KEY"],
  "minimax-cn": ["MINIMAX_CN_API_KEY"],
  moonshotai: ["MOONSHOT_API_KEY"],
  "moonshotai-cn": ["MOONSHOT_API_KEY"],
  huggingface: ["HF_TOKEN", "HUGGINGFACE_HUB_TOKEN"],
  fireworks: ["FIREWORKS_API_KEY"],
  opencode: ["OPENCODE_API_KEY"],
  "opencode-go": ["OPENCODE_API_KEY"],
  "kimi-coding": ["KIMI_API_KEY"],
  xiaomi: ["XIAOMI_API_KEY"],
  "xiaomi-token-plan-cn": ["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
  "xiaomi-token-plan-ams": ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
  "xiaomi-token-plan-sgp": ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
  together: ["TOGETHER_API_KEY"],
  nvidia: ["NVIDIA_API_KEY"],
  litellm: ["LITELLM_API_KEY"],
  vllm: ["VLLM_API_KEY"],
  ollama: ["OLLAMA_API_KEY"],
  "lm-studio": ["LM_STUDIO_API_KEY"],
  "llama.cpp": ["LLAMA_CPP_API_KEY"],
};

/** The first non-empty standard env var for `provider`. */
export function envApiKey(provider: string, env: Record<string, string | undefined>): string | undefined {
  for (const name of PROVIDER_ENV_VARS[provider] ?? []) {
    const value = env[name];
    if (value) return value;
  }
  return undefined;
}

/** The env var names a user could set for `provider` (for error hints). */
export function envVarsFor(provider: string): readonly string[] {
  return PROVIDER_ENV_VARS[provider] ?? [];
}

/** What to do when no model is selected (the session's no_model error, ACP's auth method). */
export function noModelMessage(pithHome: string): string {
  return (
    "No model selected.\n\nSet an API key environment variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, ...), " +
    `or configure a provider in ${pithHome}/models.json, then select a model with set_model ` +
    "(or start pith with --provider/--model; --provider scripted runs offline)."
  );
}

/** What to do when `provider` has no key (the session's no_api_key error, ACP's auth method). */
export function noApiKeyMessage(provider: string, pithHome: string): string {
  const vars = envVarsFor(provider);
  const set = vars.length > 0 ? `Set ${vars.join(" or ")}` : `Set an "apiKey" for provider "${provider}"`;
  return `No API key found for ${provider}.\n\n${set} (or pass --api-key), or configure the provider in ${pithHome}/models.json`;
}
