// Merging models.json into the catalogue (pi's merge semantics):
// provider-level baseUrl/headers/compat apply to the provider's built-in models;
// `modelOverrides` patch built-in models by id (unknown ids ignored); `models` are upserted by
// id (same id replaces, new ids are appended).
import type { Model } from "../../shared/types.js";
import { isCommandValue, resolveStatic } from "./config-value.js";
import type { ModelConfig, ModelOverride, ModelsJson, ProviderConfig } from "./models-json.js";
import { deriveThinking } from "./thinking.js";

type Env = Record<string, string | undefined>;
type Warn = (msg: string) => void;

export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const DEFAULT_MAX_TOKENS = 16_384;
export const ZERO_COST: Model["cost"] = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/** Header values resolved from the environment now; `!command` header values are dropped. */
function resolveHeaders(headers: Record<string, string> | undefined, env: Env, warn: Warn, where: string): Record<string, string> | undefined {
  if (!headers) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (isCommandValue(v)) {
      warn(`models.json: ${where}.headers.${k}: "!command" header values are not supported; header dropped`);
      continue;
    }
    const r = resolveStatic(v, env);
    if (r && "value" in r) out[k] = r.value;
    else warn(`models.json: ${where}.headers.${k}: environment variable not set; header dropped`);
  }
  return out;
}

function merged<T extends object>(a: T | undefined, b: T | undefined): T | undefined {
  if (!a && !b) return undefined;
  return { ...(a ?? {}), ...(b ?? {}) } as T;
}

function withThinking(model: Model, levelMap: ModelOverride["thinkingLevelMap"], touched: boolean): Model {
  if (!touched) return model;
  const { thinking: _old, ...rest } = model;
  const thinking = deriveThinking(rest, levelMap);
  return thinking ? { ...rest, thinking } : rest;
}

/** Applies a partial override to a model (new object). */
export function applyOverride(model: Model, o: ModelOverride, headers: Record<string, string> | undefined): Model {
  const next: Model = {
    ...model,
    ...(o.name !== undefined && { name: o.name }),
    ...(o.reasoning !== undefined && { reasoning: o.reasoning }),
    ...(o.input !== undefined && { input: [...o.input] }),
    ...(o.contextWindow !== undefined && { contextWindow: o.contextWindow }),
    ...(o.maxTokens !== undefined && { maxTokens: o.maxTokens }),
    cost: { ...model.cost, ...(o.cost ?? {}) },
  };
  const h = merged(model.headers, headers);
  if (h) next.headers = h;
  const c = merged(model.compat, o.compat);
  if (c) next.compat = c;
  return withThinking(next, o.thinkingLevelMap, o.thinkingLevelMap !== undefined || o.reasoning !== undefined);
}

/** A models.json model as a full Model; missing fields get local-model defaults. */
function customModel(p: ProviderConfig, m: ModelConfig, template: Model | undefined, env: Env, warn: Warn): Model {
  const base: Model = {
    id: m.id,
    name: m.name ?? m.id,
    api: m.api ?? p.api ?? template?.api ?? "openai-completions",
    provider: p.name,
    baseUrl: m.baseUrl ?? p.baseUrl ?? template?.baseUrl ?? "",
    reasoning: false,
    input: ["text"],
    cost: { ...ZERO_COST },
    contextWindow: DEFAULT_CONTEXT_WINDOW,
    maxTokens: DEFAULT_MAX_TOKENS,
  };
  const providerHeaders = resolveHeaders(p.headers, env, warn, `providers.${p.name}`);
  const modelHeaders = resolveHeaders(m.headers, env, warn, `providers.${p.name}.models.${m.id}`);
  const withProvider = applyOverride(base, { compat: p.compat }, providerHeaders);
  return applyOverride(withProvider, m, modelHeaders);
}

function applyProvider(list: Model[], p: ProviderConfig, builtIn: boolean, env: Env, warn: Warn): Model[] {
  const headers = resolveHeaders(p.headers, env, warn, `providers.${p.name}`);
  let out = list;
  if (builtIn) {
    out = out.map((m) => {
      let next = applyOverride(m, { compat: p.compat }, headers);
      if (p.baseUrl) next = { ...next, baseUrl: p.baseUrl };
      const o = p.modelOverrides[m.id];
      return o ? applyOverride(next, o, resolveHeaders(o.headers, env, warn, `providers.${p.name}.modelOverrides.${m.id}`)) : next;
    });
  }
  const template = list[0];
  for (const mc of p.models) {
    const model = customModel(p, mc, template, env, warn);
    const idx = out.findIndex((m) => m.id === model.id);
    if (idx >= 0) out[idx] = model;
    else out.push(model);
  }
  return out;
}

/** Applies `config` to `byProvider` (provider → models, in registry order) in place. */
export function applyModelsJson(byProvider: Map<string, Model[]>, config: ModelsJson, env: Env, warn: Warn): void {
  for (const p of config.providers) {
    const existing = byProvider.get(p.name);
    byProvider.set(p.name, applyProvider(existing ? [...existing] : [], p, !!existing, env, warn));
  }
}
